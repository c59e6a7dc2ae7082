import "reflect-metadata";
import { Type } from "class-transformer";
import { IsInt, IsOptional, IsString, Min, ValidateNested } from "class-validator";
import { Args, Param, ScanError, Tool, Toolkit, scanTools, type JSONSchemaObject } from "../../src";

class LineDto {
  @IsString() sku!: string;
  @IsInt() @Min(1) qty!: number;

  total(price: number): number {
    return price * this.qty;
  }
}

class CustomerDto {
  @IsString() name!: string;
  @IsOptional() @IsString() email?: string;
}

class OrderDto {
  @ValidateNested() @Type(() => CustomerDto) customer!: CustomerDto;
  @ValidateNested({ each: true }) @Type(() => LineDto) lines!: LineDto[];
}

const lineSchema: JSONSchemaObject = {
  type: "object",
  properties: { sku: { type: "string" }, qty: { type: "integer", minimum: 1 } },
  required: ["sku", "qty"],
  additionalProperties: false,
};
const customerSchema: JSONSchemaObject = {
  type: "object",
  properties: { name: { type: "string" }, email: { type: "string" } },
  required: ["name"],
  additionalProperties: false,
};

describe("@Args(): the whole argument object as one DTO", () => {
  const received: unknown[] = [];
  class Orders {
    @Tool("Places an order")
    place(@Args() order: OrderDto) {
      received.push(order);
      return `${order.customer.name}: ${order.lines.map((line) => line.total(2)).join("+")}`;
    }
  }
  const kit = new Toolkit([new Orders()]);

  beforeEach(() => {
    received.length = 0;
  });

  it("the DTO schema is the tool's inputSchema (class read from the parameter type)", () => {
    const expected: JSONSchemaObject = {
      type: "object",
      properties: { customer: customerSchema, lines: { type: "array", items: lineSchema } },
      required: ["customer", "lines"],
      additionalProperties: false,
    };
    const schema = kit.get("place")!.inputSchema;
    expect(schema).toEqual(expected);
    expect(JSON.stringify(schema)).toBe(JSON.stringify(expected));
    expect(JSON.stringify(schema)).not.toContain("$ref");
  });

  it("the method receives real class instances, methods included", async () => {
    const result = await kit.execute("place", {
      customer: { name: "Ada" },
      lines: [
        { sku: "A", qty: 3 },
        { sku: "B", qty: 1 },
      ],
    });
    expect(result).toEqual({ output: "Ada: 6+2", isError: false });
    const order = received[0] as OrderDto;
    expect(order).toBeInstanceOf(OrderDto);
    expect(order.customer).toBeInstanceOf(CustomerDto);
    expect(order.lines.every((line) => line instanceof LineDto)).toBe(true);
  });

  it("works from a JSON string too (OpenAI)", async () => {
    const result = await kit.execute(
      "place",
      JSON.stringify({ customer: { name: "Bo" }, lines: [{ sku: "A", qty: 1 }] }),
    );
    expect(result).toEqual({ output: "Bo: 2", isError: false });
  });

  it("invalid nested input: not called, path named", async () => {
    const result = await kit.execute("place", { customer: {}, lines: [{ sku: "A", qty: "many" }] });
    expect(result.isError).toBe(true);
    expect(result.metadata).toEqual({ tool: "place", error: "invalid_arguments" });
    expect(result.output).toBe(
      'Invalid arguments for tool "place":\n' +
        '- missing required argument "customer.name" (expected string)\n' +
        '- "lines[0].qty" must be integer, got string "many"',
    );
    expect(received).toHaveLength(0);
  });

  it("@Args(Dto) names the class explicitly", async () => {
    class Explicit {
      @Tool("Adds a line")
      add(@Args(LineDto) line: object) {
        return String(line instanceof LineDto);
      }
    }
    const explicitKit = new Toolkit([new Explicit()]);
    expect(explicitKit.get("add")!.inputSchema).toEqual(lineSchema);
    expect(await explicitKit.execute("add", { sku: "X", qty: 1 })).toEqual({ output: "true", isError: false });
  });

  it("@Args() on a parameter that is not a class is a ScanError", () => {
    class NotAClass {
      @Tool("Bad")
      run(@Args() input: string) {
        return input;
      }
    }
    expect(() => scanTools(new NotAClass())).toThrow(ScanError);
    expect(() => scanTools(new NotAClass())).toThrow(
      "NotAClass.run, parameter 0: @Args needs a DTO class, but the type is String. Write @Args(TheDto) or type the parameter with a class.",
    );
  });
});

describe("a DTO as a @Param type, and arrays of DTOs", () => {
  const seen: unknown[][] = [];
  class Shop {
    @Tool("Quotes a line")
    quote(line: LineDto, @Param({ description: "Unit price" }) price: number) {
      seen.push([line, price]);
      return String(line.total(price));
    }

    @Tool("Quotes several lines")
    quoteAll(@Param({ type: [LineDto], minItems: 1 }) lines: LineDto[], when: Date) {
      seen.push([lines, when]);
      return `${lines.length} at ${when.toISOString()}`;
    }
  }
  const kit = new Toolkit([new Shop()]);

  beforeEach(() => {
    seen.length = 0;
  });

  it("schema of a DTO parameter", () => {
    const expected: JSONSchemaObject = {
      type: "object",
      properties: { line: lineSchema, price: { type: "number", description: "Unit price" } },
      required: ["line", "price"],
      additionalProperties: false,
    };
    expect(kit.get("quote")!.inputSchema).toEqual(expected);
    expect(JSON.stringify(kit.get("quote")!.inputSchema)).toBe(JSON.stringify(expected));
  });

  it("schema of an array-of-DTO parameter", () => {
    const expected: JSONSchemaObject = {
      type: "object",
      properties: {
        lines: { type: "array", items: lineSchema, minItems: 1 },
        when: { type: "string", format: "date-time" },
      },
      required: ["lines", "when"],
      additionalProperties: false,
    };
    expect(kit.get("quoteAll")!.inputSchema).toEqual(expected);
    expect(JSON.stringify(kit.get("quoteAll")!.inputSchema)).toBe(JSON.stringify(expected));
    expect(JSON.stringify(kit.get("quoteAll")!.inputSchema)).not.toContain("$ref");
  });

  it("a DTO parameter arrives as an instance", async () => {
    expect(await kit.execute("quote", { line: { sku: "A", qty: 4 }, price: 2.5 })).toEqual({
      output: "10",
      isError: false,
    });
    const [line, price] = seen[0]!;
    expect(line).toBeInstanceOf(LineDto);
    expect(price).toBe(2.5);
  });

  it("an array of DTOs arrives as an array of instances, and a Date parameter as a Date", async () => {
    const result = await kit.execute("quoteAll", {
      lines: [
        { sku: "A", qty: 1 },
        { sku: "B", qty: 2 },
      ],
      when: "2024-03-04T05:06:07.000Z",
    });
    expect(result).toEqual({ output: "2 at 2024-03-04T05:06:07.000Z", isError: false });
    const [lines, when] = seen[0]!;
    expect(Array.isArray(lines)).toBe(true);
    expect((lines as unknown[]).every((line) => line instanceof LineDto)).toBe(true);
    expect(when).toBeInstanceOf(Date);
    expect((when as Date).getTime()).toBe(Date.UTC(2024, 2, 4, 5, 6, 7));
  });

  it("errors inside a DTO parameter are prefixed with the parameter name", async () => {
    const result = await kit.execute("quote", { line: { sku: "A", qty: 0 }, price: 1 });
    expect(result).toEqual({
      output: 'Invalid arguments for tool "quote": "line.qty" must be >= 1, got number 0',
      isError: true,
      metadata: { tool: "quote", error: "invalid_arguments" },
    });
    expect(seen).toHaveLength(0);
  });

  it("errors inside an array of DTOs name the index", async () => {
    const result = await kit.execute("quoteAll", {
      lines: [{ sku: "A", qty: 1 }, { qty: 1 }],
      when: "2024-03-04T05:06:07Z",
    });
    expect(result).toEqual({
      output: 'Invalid arguments for tool "quoteAll": missing required argument "lines[1].sku" (expected string)',
      isError: true,
      metadata: { tool: "quoteAll", error: "invalid_arguments" },
    });
    expect(seen).toHaveLength(0);
  });

  it("a Date that is not a date-time string is refused", async () => {
    const result = await kit.execute("quoteAll", { lines: [{ sku: "A", qty: 1 }], when: "tomorrow" });
    expect(result.isError).toBe(true);
    expect(result.metadata?.error).toBe("invalid_arguments");
    expect(result.output).toBe(
      'Invalid arguments for tool "quoteAll": "when" must match format "date-time", got string "tomorrow"',
    );
    expect(seen).toHaveLength(0);
  });
});
