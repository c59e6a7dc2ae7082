import "reflect-metadata";
import { Type } from "class-transformer";
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsDateString,
  IsEmail,
  IsEnum,
  IsIn,
  IsInt,
  IsNumber,
  IsOptional,
  IsString,
  IsUrl,
  IsUUID,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  Validate,
  ValidateNested,
  ValidatorConstraint,
  registerDecorator,
  type ValidationArguments,
  type ValidationOptions,
  type ValidatorConstraintInterface,
} from "class-validator";
import {
  Args,
  Param,
  ScanError,
  Tool,
  Toolkit,
  scanTools,
  type Constructor,
  type JSONSchemaObject,
  type ToolResult,
} from "../../src";

/**
 * One tool `check(@Args(dto) input)` whose body is a jest.fn, so each test can show that a
 * violating call never reaches the method.
 */
function harness(dto: Constructor) {
  const body = jest.fn((_input: unknown) => "ok");
  class Checker {
    @Tool("Checks the input")
    check(@Args(dto) input: object) {
      return body(input);
    }
  }
  const kit = new Toolkit([new Checker()]);
  return {
    body,
    schema: kit.get("check")!.inputSchema,
    call: (args: unknown) => kit.execute("check", args),
  };
}

type Harness = ReturnType<typeof harness>;

function expectSchema(h: Harness, expected: JSONSchemaObject): void {
  expect(h.schema).toEqual(expected);
  expect(JSON.stringify(h.schema)).toBe(JSON.stringify(expected));
}

/** A single-property closed object schema. */
function single(key: string, property: JSONSchemaObject, required = true): JSONSchemaObject {
  return {
    type: "object",
    properties: { [key]: property },
    ...(required ? { required: [key] } : {}),
    additionalProperties: false,
  };
}

async function expectRejected(h: Harness, args: unknown, path: string): Promise<ToolResult> {
  const result = await h.call(args);
  expect(result.isError).toBe(true);
  expect(result.metadata?.error).toBe("invalid_arguments");
  expect(result.output).toContain('Invalid arguments for tool "check"');
  expect(result.output).toContain(`"${path}"`);
  expect(h.body).not.toHaveBeenCalled();
  return result;
}

async function expectAccepted(h: Harness, args: unknown): Promise<unknown> {
  const result = await h.call(args);
  expect(result).toEqual({ output: "ok", isError: false });
  expect(h.body).toHaveBeenCalledTimes(1);
  return h.body.mock.calls[0]![0];
}

enum Status {
  Open = "open",
  Closed = "closed",
}

enum Level {
  Low = 1,
  High = 2,
}

describe("class-validator decorators: schema and call-time enforcement", () => {
  it("@IsString", async () => {
    class Dto {
      @IsString() name!: string;
    }
    const h = harness(Dto);
    expectSchema(h, single("name", { type: "string" }));
    const rejected = await expectRejected(h, { name: 42 }, "name");
    expect(rejected.output).toBe('Invalid arguments for tool "check": "name" must be string, got number 42');
    await expectAccepted(h, { name: "Ada" });
  });

  it("@IsInt", async () => {
    class Dto {
      @IsInt() count!: number;
    }
    const h = harness(Dto);
    expectSchema(h, single("count", { type: "integer" }));
    const rejected = await expectRejected(h, { count: 1.5 }, "count");
    expect(rejected.output).toBe('Invalid arguments for tool "check": "count" must be integer, got number 1.5');
    await expectAccepted(h, { count: 2 });
  });

  it("@IsNumber", async () => {
    class Dto {
      @IsNumber() price!: number;
    }
    const h = harness(Dto);
    expectSchema(h, single("price", { type: "number" }));
    await expectRejected(h, { price: "cheap" }, "price");
    await expectAccepted(h, { price: 9.99 });
  });

  it("@IsBoolean", async () => {
    class Dto {
      @IsBoolean() active!: boolean;
    }
    const h = harness(Dto);
    expectSchema(h, single("active", { type: "boolean" }));
    await expectRejected(h, { active: "yes" }, "active");
    await expectAccepted(h, { active: false });
  });

  it("@IsEnum with a string enum", async () => {
    class Dto {
      @IsEnum(Status) status!: Status;
    }
    const h = harness(Dto);
    expectSchema(h, single("status", { type: "string", enum: ["open", "closed"] }));
    const rejected = await expectRejected(h, { status: "pending" }, "status");
    expect(rejected.output).toBe(
      'Invalid arguments for tool "check": "status" must be one of "open", "closed", got string "pending"',
    );
    await expectAccepted(h, { status: "closed" });
  });

  it("@IsEnum with a numeric enum (values only, type integer)", async () => {
    class Dto {
      @IsEnum(Level) level!: Level;
    }
    const h = harness(Dto);
    expectSchema(h, single("level", { type: "integer", enum: [1, 2] }));
    await expectRejected(h, { level: "Low" }, "level");
    await expectRejected(h, { level: 3 }, "level");
    await expectAccepted(h, { level: 2 });
  });

  it("@IsIn", async () => {
    class Dto {
      @IsIn(["s", "m", "l"]) size!: string;
    }
    const h = harness(Dto);
    expectSchema(h, single("size", { type: "string", enum: ["s", "m", "l"] }));
    await expectRejected(h, { size: "xl" }, "size");
    await expectAccepted(h, { size: "m" });
  });

  it("@Min", async () => {
    class Dto {
      @Min(1) quantity!: number;
    }
    const h = harness(Dto);
    expectSchema(h, single("quantity", { type: "number", minimum: 1 }));
    const rejected = await expectRejected(h, { quantity: 0 }, "quantity");
    expect(rejected.output).toBe('Invalid arguments for tool "check": "quantity" must be >= 1, got number 0');
    await expectAccepted(h, { quantity: 1 });
  });

  it("@Max", async () => {
    class Dto {
      @Max(10) quantity!: number;
    }
    const h = harness(Dto);
    expectSchema(h, single("quantity", { type: "number", maximum: 10 }));
    await expectRejected(h, { quantity: 11 }, "quantity");
    await expectAccepted(h, { quantity: 10 });
  });

  it("@IsInt() above @Min/@Max → integer with bounds", async () => {
    class Dto {
      @IsInt() @Min(1) @Max(5) stars!: number;
    }
    const h = harness(Dto);
    expectSchema(h, single("stars", { type: "integer", minimum: 1, maximum: 5 }));
    await expectRejected(h, { stars: 6 }, "stars");
    await expectRejected(h, { stars: 2.5 }, "stars");
    await expectAccepted(h, { stars: 5 });
  });

  it("@Length", async () => {
    class Dto {
      @Length(2, 4) code!: string;
    }
    const h = harness(Dto);
    expectSchema(h, single("code", { type: "string", minLength: 2, maxLength: 4 }));
    await expectRejected(h, { code: "a" }, "code");
    await expectRejected(h, { code: "abcde" }, "code");
    await expectAccepted(h, { code: "abc" });
  });

  it("@MinLength", async () => {
    class Dto {
      @MinLength(3) word!: string;
    }
    const h = harness(Dto);
    expectSchema(h, single("word", { type: "string", minLength: 3 }));
    await expectRejected(h, { word: "ab" }, "word");
    await expectAccepted(h, { word: "abc" });
  });

  it("@MaxLength", async () => {
    class Dto {
      @MaxLength(3) word!: string;
    }
    const h = harness(Dto);
    expectSchema(h, single("word", { type: "string", maxLength: 3 }));
    await expectRejected(h, { word: "abcd" }, "word");
    await expectAccepted(h, { word: "abc" });
  });

  it("@Matches", async () => {
    class Dto {
      @Matches(/^[A-Z]{2}\d{3}$/) ref!: string;
    }
    const h = harness(Dto);
    expectSchema(h, single("ref", { type: "string", pattern: "^[A-Z]{2}\\d{3}$" }));
    const rejected = await expectRejected(h, { ref: "ab123" }, "ref");
    expect(rejected.output).toBe(
      'Invalid arguments for tool "check": "ref" must match pattern "^[A-Z]{2}\\d{3}$", got string "ab123"',
    );
    await expectAccepted(h, { ref: "AB123" });
  });

  it("@IsEmail", async () => {
    class Dto {
      @IsEmail() email!: string;
    }
    const h = harness(Dto);
    expectSchema(h, single("email", { type: "string", format: "email" }));
    await expectRejected(h, { email: "not-an-email" }, "email");
    await expectAccepted(h, { email: "ada@example.com" });
  });

  it('@IsUrl → format "uri"', async () => {
    class Dto {
      @IsUrl() homepage!: string;
    }
    const h = harness(Dto);
    expectSchema(h, single("homepage", { type: "string", format: "uri" }));
    await expectRejected(h, { homepage: "not a url" }, "homepage");
    await expectAccepted(h, { homepage: "https://example.com/a" });
  });

  it("@IsUUID", async () => {
    class Dto {
      @IsUUID() id!: string;
    }
    const h = harness(Dto);
    expectSchema(h, single("id", { type: "string", format: "uuid" }));
    await expectRejected(h, { id: "1234" }, "id");
    await expectAccepted(h, { id: "123e4567-e89b-42d3-a456-426614174000" });
  });

  it('@IsDateString → format "date-time"', async () => {
    class Dto {
      @IsDateString() at!: string;
    }
    const h = harness(Dto);
    expectSchema(h, single("at", { type: "string", format: "date-time" }));
    await expectRejected(h, { at: "yesterday" }, "at");
    await expectAccepted(h, { at: "2024-05-06T07:08:09Z" });
  });

  it("@IsOptional: not required, absent and null both accepted as absent", async () => {
    class Dto {
      @IsString() name!: string;
      @IsOptional() @IsString() nickname?: string;
    }
    const h = harness(Dto);
    expectSchema(h, {
      type: "object",
      properties: { name: { type: "string" }, nickname: { type: "string" } },
      required: ["name"],
      additionalProperties: false,
    });
    await expectRejected(h, { name: "Ada", nickname: 7 }, "nickname");
    const received = (await expectAccepted(h, { name: "Ada", nickname: null })) as Dto;
    expect(received).toBeInstanceOf(Dto);
    expect(received.nickname).toBeUndefined();
    h.body.mockClear();
    await expectAccepted(h, { name: "Ada" });
  });

  it("@IsArray", async () => {
    class Dto {
      @IsArray() @IsString({ each: true }) tags!: string[];
    }
    const h = harness(Dto);
    expectSchema(h, single("tags", { type: "array", items: { type: "string" } }));
    await expectRejected(h, { tags: "a,b" }, "tags");
    await expectRejected(h, { tags: ["a", 2] }, "tags[1]");
    await expectAccepted(h, { tags: ["a", "b"] });
  });

  it("@ArrayMinSize", async () => {
    class Dto {
      @IsArray() @IsString({ each: true }) @ArrayMinSize(1) tags!: string[];
    }
    const h = harness(Dto);
    expectSchema(h, single("tags", { type: "array", items: { type: "string" }, minItems: 1 }));
    await expectRejected(h, { tags: [] }, "tags");
    await expectAccepted(h, { tags: ["a"] });
  });

  it("@ArrayMaxSize", async () => {
    class Dto {
      @IsArray() @IsString({ each: true }) @ArrayMaxSize(2) tags!: string[];
    }
    const h = harness(Dto);
    expectSchema(h, single("tags", { type: "array", items: { type: "string" }, maxItems: 2 }));
    await expectRejected(h, { tags: ["a", "b", "c"] }, "tags");
    await expectAccepted(h, { tags: ["a", "b"] });
  });
});

describe("nested DTOs (@ValidateNested + @Type)", () => {
  class Address {
    @IsString() street!: string;
    @IsString() @Length(5, 5) zip!: string;
  }
  class LineItem {
    @IsString() sku!: string;
    @IsInt() @Min(1) qty!: number;
  }
  class Order {
    @ValidateNested() @Type(() => Address) shipTo!: Address;
    @IsArray()
    @ValidateNested({ each: true })
    @Type(() => LineItem)
    @ArrayMinSize(1)
    @ArrayMaxSize(3)
    lines!: LineItem[];
  }

  const addressSchema: JSONSchemaObject = {
    type: "object",
    properties: { street: { type: "string" }, zip: { type: "string", minLength: 5, maxLength: 5 } },
    required: ["street", "zip"],
    additionalProperties: false,
  };
  const lineSchema: JSONSchemaObject = {
    type: "object",
    properties: { sku: { type: "string" }, qty: { type: "integer", minimum: 1 } },
    required: ["sku", "qty"],
    additionalProperties: false,
  };

  it("nested objects and arrays of them are fully inlined, without $ref", () => {
    const h = harness(Order);
    expectSchema(h, {
      type: "object",
      properties: {
        shipTo: addressSchema,
        lines: { type: "array", items: lineSchema, minItems: 1, maxItems: 3 },
      },
      required: ["shipTo", "lines"],
      additionalProperties: false,
    });
    expect(JSON.stringify(h.schema)).not.toContain("$ref");
    expect(JSON.stringify(h.schema)).not.toContain("definitions");
  });

  it("nested errors name the full path; the method is not called", async () => {
    const h = harness(Order);
    const result = await expectRejected(
      h,
      {
        shipTo: { street: "Main St", zip: "123" },
        lines: [
          { sku: "A", qty: 1 },
          { sku: "B", qty: 0, color: "red" },
        ],
      },
      "shipTo.zip",
    );
    expect(result.output).toContain('"lines[1].qty" must be >= 1, got number 0');
    expect(result.output).toContain('unknown argument "lines[1].color"; expected only: sku, qty');
  });

  it("array size limits are enforced", async () => {
    const h = harness(Order);
    await expectRejected(h, { shipTo: { street: "Main St", zip: "12345" }, lines: [] }, "lines");
  });

  it("a valid call receives real nested instances", async () => {
    const h = harness(Order);
    const order = (await expectAccepted(h, {
      shipTo: { street: "Main St", zip: "12345" },
      lines: [{ sku: "A", qty: 2 }],
    })) as Order;
    expect(order).toBeInstanceOf(Order);
    expect(order.shipTo).toBeInstanceOf(Address);
    expect(order.lines[0]).toBeInstanceOf(LineItem);
    expect(order.lines[0]!.qty).toBe(2);
  });

  it("a recursive DTO is a ScanError", () => {
    class TreeNode {
      @IsString() label!: string;
      @IsOptional() @ValidateNested({ each: true }) @Type(() => TreeNode) children?: TreeNode[];
    }
    class Trees {
      @Tool("Plants a tree")
      plant(@Args() tree: TreeNode) {
        return tree.label;
      }
    }
    expect(() => scanTools(new Trees())).toThrow(ScanError);
    expect(() => scanTools(new Trees())).toThrow(
      "Trees.plant, parameter 0: DTO TreeNode → TreeNode refers back to itself; recursive types cannot be inlined into a tool schema. Give the parameter an explicit schema with @Param({ schema }) instead.",
    );
  });

  it("a DTO without decorated properties is a ScanError", () => {
    class Plain {
      name = "";
    }
    class Service {
      @Tool("Does things")
      run(@Args() input: Plain) {
        return input.name;
      }
    }
    expect(() => scanTools(new Service())).toThrow(ScanError);
    expect(() => scanTools(new Service())).toThrow(
      "Service.run, parameter 0: DTO class Plain has no properties with class-validator decorators, so its schema would be empty. Decorate its properties (@IsString(), @IsInt(), ...) or give an explicit schema.",
    );
  });
});

describe("custom class-validator constraints are enforced at call time", () => {
  @ValidatorConstraint({ name: "isEven" })
  class IsEvenConstraint implements ValidatorConstraintInterface {
    validate(value: unknown) {
      return typeof value === "number" && value % 2 === 0;
    }
    defaultMessage(args: ValidationArguments) {
      return `${args.property} must be even`;
    }
  }

  function IsMultipleOfThree(options?: ValidationOptions) {
    return (object: object, propertyName: string) =>
      registerDecorator({
        name: "isMultipleOfThree",
        target: object.constructor,
        propertyName,
        ...(options ? { options } : {}),
        validator: {
          validate: (value: unknown) => typeof value === "number" && value % 3 === 0,
          defaultMessage: (args?: ValidationArguments) => `${args?.property} must be a multiple of three`,
        },
      });
  }

  it("@Validate(ConstraintClass)", async () => {
    class Dto {
      @IsInt() @Validate(IsEvenConstraint) pairs!: number;
    }
    const h = harness(Dto);
    expectSchema(h, single("pairs", { type: "integer" }));
    const result = await expectRejected(h, { pairs: 3 }, "pairs");
    expect(result.output).toBe('Invalid arguments for tool "check": "pairs": pairs must be even, got number 3');
    await expectAccepted(h, { pairs: 4 });
  });

  it("registerDecorator", async () => {
    class Dto {
      @IsInt() @IsMultipleOfThree() batch!: number;
    }
    const h = harness(Dto);
    expectSchema(h, single("batch", { type: "integer" }));
    const result = await expectRejected(h, { batch: 4 }, "batch");
    expect(result.output).toBe(
      'Invalid arguments for tool "check": "batch": batch must be a multiple of three, got number 4',
    );
    await expectAccepted(h, { batch: 9 });
  });

  it("a custom constraint on a nested DTO names the nested path", async () => {
    class Inner {
      @IsInt() @Validate(IsEvenConstraint) n!: number;
    }
    class Outer {
      @ValidateNested() @Type(() => Inner) inner!: Inner;
    }
    const h = harness(Outer);
    const result = await expectRejected(h, { inner: { n: 5 } }, "inner.n");
    expect(result.output).toBe('Invalid arguments for tool "check": "inner.n": n must be even, got number 5');
  });
});

describe("@IsInt with @Min/@Max in any order", () => {
  class Below {
    @Min(1) @Max(9) @IsInt() x!: number;
  }
  class Above {
    @IsInt() @Min(1) @Max(9) x!: number;
  }
  class Untyped {
    @Min(1) x!: number;
  }
  class Svc {
    @Tool("below") below(@Param() dto: Below) {
      return dto.x;
    }
    @Tool("above") above(@Param() dto: Above) {
      return dto.x;
    }
    @Tool("untyped") untyped(@Param() dto: Untyped) {
      return dto.x;
    }
  }

  it("is an integer with both bounds whichever decorator comes first", () => {
    const kit = new Toolkit([new Svc()]);
    const expected = { type: "integer", minimum: 1, maximum: 9 };
    expect(kit.get("below")!.inputSchema.properties!.dto!.properties!.x).toEqual(expected);
    expect(kit.get("above")!.inputSchema.properties!.dto!.properties!.x).toEqual(expected);
  });

  it("takes the type from the property's TypeScript type when only a bound is declared", () => {
    const kit = new Toolkit([new Svc()]);
    expect(kit.get("untyped")!.inputSchema.properties!.dto!.properties!.x).toEqual({ type: "number", minimum: 1 });
  });
});
