import "reflect-metadata";
import { Type } from "class-transformer";
import { IsInt, IsString, Min, ValidateNested } from "class-validator";
import { Param, Tool, Toolkit, type ToolResult } from "../../src";

class ItemDto {
  @IsString() sku!: string;
  @IsInt() @Min(1) qty!: number;
}

class CartDto {
  @IsString() owner!: string;
  @ValidateNested({ each: true }) @Type(() => ItemDto) items!: ItemDto[];
}

const calls: Array<{ tool: string; args: unknown[] }> = [];

class Shop {
  @Tool("Weather")
  weather(city: string, units: string = "metric") {
    calls.push({ tool: "weather", args: [city, units] });
    return `${city} in ${units}`;
  }

  @Tool("Rates")
  rate(@Param({ integer: true, minimum: 1, maximum: 5 }) stars: number, @Param({ optional: true }) comment?: string) {
    calls.push({ tool: "rate", args: [stars, comment] });
    return `${stars}:${comment === undefined ? "none" : comment}`;
  }

  @Tool("Settings")
  configure(enabled: boolean, @Param({ enum: ["c", "f"] }) units: string, level: number) {
    calls.push({ tool: "configure", args: [enabled, units, level] });
    return JSON.stringify({ enabled, units, level });
  }

  @Tool("Sums")
  sum(@Param({ type: [Number], maxItems: 3 }) values: number[]) {
    calls.push({ tool: "sum", args: [values] });
    return String(values.reduce((a, b) => a + b, 0));
  }

  @Tool("Checks out")
  checkout(cart: CartDto) {
    calls.push({ tool: "checkout", args: [cart] });
    return `${cart.owner}:${cart.items.length}`;
  }

  @Tool("Counts arguments")
  arity(@Param({ optional: true }) a?: string, @Param({ optional: true }) b?: number) {
    calls.push({ tool: "arity", args: [a, b] });
    return `${arguments.length}:${typeof a}:${typeof b}`;
  }
}

const kit = new Toolkit([new Shop()]);

beforeEach(() => {
  calls.length = 0;
});

/** An invalid_arguments result naming the tool; the method was not called. */
function expectInvalid(result: ToolResult, tool: string): void {
  expect(result.isError).toBe(true);
  expect(result.metadata).toEqual({ tool, error: "invalid_arguments" });
  expect(result.output.startsWith(`Invalid arguments for tool "${tool}":`)).toBe(true);
  expect(calls).toHaveLength(0);
}

describe("bad input never reaches the method", () => {
  it("missing required argument", async () => {
    const result = await kit.execute("weather", {});
    expectInvalid(result, "weather");
    expect(result.output).toBe(
      'Invalid arguments for tool "weather": missing required argument "city" (expected string)',
    );
  });

  it("wrong type (string parameter given a number)", async () => {
    const result = await kit.execute("weather", { city: 12 });
    expectInvalid(result, "weather");
    expect(result.output).toBe('Invalid arguments for tool "weather": "city" must be string, got number 12');
  });

  it("wrong type (number parameter given a non-numeric string)", async () => {
    const result = await kit.execute("configure", { enabled: true, units: "c", level: "high" });
    expectInvalid(result, "configure");
    expect(result.output).toBe('Invalid arguments for tool "configure": "level" must be number, got string "high"');
  });

  it("wrong type (boolean parameter given a string other than true/false)", async () => {
    const result = await kit.execute("configure", { enabled: "yes", units: "c", level: 1 });
    expectInvalid(result, "configure");
    expect(result.output).toBe('Invalid arguments for tool "configure": "enabled" must be boolean, got string "yes"');
  });

  it("integer parameter given a fraction", async () => {
    const result = await kit.execute("rate", { stars: 2.5 });
    expectInvalid(result, "rate");
    expect(result.output).toBe('Invalid arguments for tool "rate": "stars" must be integer, got number 2.5');
  });

  it("out of range (above maximum, below minimum)", async () => {
    const above = await kit.execute("rate", { stars: 6 });
    expectInvalid(above, "rate");
    expect(above.output).toBe('Invalid arguments for tool "rate": "stars" must be <= 5, got number 6');
    const below = await kit.execute("rate", { stars: 0 });
    expectInvalid(below, "rate");
    expect(below.output).toBe('Invalid arguments for tool "rate": "stars" must be >= 1, got number 0');
  });

  it("wrong enum value", async () => {
    const result = await kit.execute("configure", { enabled: true, units: "k", level: 1 });
    expectInvalid(result, "configure");
    expect(result.output).toBe(
      'Invalid arguments for tool "configure": "units" must be one of "c", "f", got string "k"',
    );
  });

  it("extra keys", async () => {
    const result = await kit.execute("weather", { city: "Oslo", country: "NO" });
    expectInvalid(result, "weather");
    expect(result.output).toBe(
      'Invalid arguments for tool "weather": unknown argument "country"; expected only: city, units',
    );
  });

  it("array too long and wrong element type", async () => {
    const tooLong = await kit.execute("sum", { values: [1, 2, 3, 4] });
    expectInvalid(tooLong, "sum");
    expect(tooLong.output).toBe(
      'Invalid arguments for tool "sum": "values" must NOT have more than 3 items, got an array of 4',
    );
    const wrongItem = await kit.execute("sum", { values: [1, "two"] });
    expectInvalid(wrongItem, "sum");
    expect(wrongItem.output).toBe('Invalid arguments for tool "sum": "values[1]" must be number, got string "two"');
  });

  it("nested DTO errors name the nested path", async () => {
    const result = await kit.execute("checkout", {
      cart: {
        owner: "ada",
        items: [
          { sku: "A", qty: 1 },
          { sku: 7, qty: 0, gift: true },
        ],
      },
    });
    expectInvalid(result, "checkout");
    expect(result.output).toBe(
      'Invalid arguments for tool "checkout":\n' +
        '- unknown argument "cart.items[1].gift"; expected only: sku, qty\n' +
        '- "cart.items[1].sku" must be string, got number 7\n' +
        '- "cart.items[1].qty" must be >= 1, got number 0',
    );
  });

  it("several problems are listed one per line", async () => {
    const result = await kit.execute("configure", { units: "x", level: "?" });
    expectInvalid(result, "configure");
    expect(result.output.split("\n")).toEqual([
      'Invalid arguments for tool "configure":',
      '- missing required argument "enabled" (expected boolean)',
      '- "units" must be one of "c", "f", got string "x"',
      '- "level" must be number, got string "?"',
    ]);
  });

  it('a "__proto__" key in a JSON string is refused (top level)', async () => {
    const result = await kit.execute("weather", '{"city": "Oslo", "__proto__": {"polluted": true}}');
    expectInvalid(result, "weather");
    expect(result.output).toMatch(
      /^Invalid arguments for tool "weather": argument key "__proto__" at .+ is not allowed$/,
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('a "__proto__" key nested in a JSON string is refused with its path', async () => {
    const result = await kit.execute(
      "checkout",
      '{"cart": {"owner": "a", "items": [{"sku": "A", "qty": 1, "__proto__": {"x": 1}}]}}',
    );
    expectInvalid(result, "checkout");
    expect(result.output).toBe(
      'Invalid arguments for tool "checkout": argument key "__proto__" at /cart/items/0 is not allowed',
    );
  });

  it('"constructor" and "prototype" keys are refused too', async () => {
    const ctor = await kit.execute("weather", { city: "Oslo", constructor: {} });
    expectInvalid(ctor, "weather");
    expect(ctor.output).toContain('argument key "constructor"');
    const proto = await kit.execute("weather", '{"city": "Oslo", "prototype": 1}');
    expectInvalid(proto, "weather");
    expect(proto.output).toContain('argument key "prototype"');
  });

  it("invalid JSON and non-object arguments", async () => {
    const broken = await kit.execute("weather", '{"city": ');
    expectInvalid(broken, "weather");
    expect(broken.output).toContain("arguments are not valid JSON");
    const array = await kit.execute("weather", "[1, 2]");
    expectInvalid(array, "weather");
    expect(array.output).toBe(
      'Invalid arguments for tool "weather": arguments must be a JSON object, got an array of 2',
    );
    const number = await kit.execute("weather", 5);
    expectInvalid(number, "weather");
    expect(number.output).toBe('Invalid arguments for tool "weather": arguments must be a JSON object, got number 5');
  });

  it("the caller's object is not mutated by coercion or null removal", async () => {
    const args = { stars: "3", comment: null };
    await kit.execute("rate", args);
    expect(args).toEqual({ stars: "3", comment: null });
  });
});

describe("coercion and defaults", () => {
  it('"3" for a number and "true"/"false" for booleans are converted', async () => {
    expect(await kit.execute("configure", { enabled: "true", units: "f", level: "3" })).toEqual({
      output: '{"enabled":true,"units":"f","level":3}',
      isError: false,
    });
    expect(calls[0]!.args).toEqual([true, "f", 3]);
    calls.length = 0;
    await kit.execute("configure", { enabled: "false", units: "c", level: "-1.5" });
    expect(calls[0]!.args).toEqual([false, "c", -1.5]);
  });

  it('"4" for an integer with bounds is converted and checked', async () => {
    expect(await kit.execute("rate", { stars: "4" })).toEqual({ output: "4:none", isError: false });
    const outOfRange = await kit.execute("rate", { stars: "9" });
    expect(outOfRange.isError).toBe(true);
    expect(outOfRange.output).toBe('Invalid arguments for tool "rate": "stars" must be <= 5, got number 9');
  });

  it("numeric strings inside arrays and nested DTOs are converted", async () => {
    expect(await kit.execute("sum", { values: ["1", "2.5", 3] })).toEqual({ output: "6.5", isError: false });
    expect(await kit.execute("checkout", { cart: { owner: "bo", items: [{ sku: "A", qty: "2" }] } })).toEqual({
      output: "bo:1",
      isError: false,
    });
    expect((calls[1]!.args[0] as CartDto).items[0]!.qty).toBe(2);
  });

  it("a boolean is not coerced into a string", async () => {
    const result = await kit.execute("weather", { city: true });
    expect(result.isError).toBe(true);
    expect(result.output).toBe('Invalid arguments for tool "weather": "city" must be string, got boolean true');
  });

  it("an absent optional argument arrives as undefined, so the TypeScript default applies", async () => {
    expect(await kit.execute("weather", { city: "Oslo" })).toEqual({ output: "Oslo in metric", isError: false });
    expect(calls[0]!.args).toEqual(["Oslo", "metric"]);
  });

  it("null for an optional argument means absent (OpenAI strict mode), so the default applies", async () => {
    expect(await kit.execute("weather", { city: "Oslo", units: null })).toEqual({
      output: "Oslo in metric",
      isError: false,
    });
    expect(await kit.execute("rate", '{"stars": 2, "comment": null}')).toEqual({ output: "2:none", isError: false });
  });

  it("null for a required argument is still an error", async () => {
    const result = await kit.execute("weather", { city: null });
    expectInvalid(result, "weather");
    expect(result.output).toBe('Invalid arguments for tool "weather": "city" must be string, got null');
  });

  it("a given value overrides the TypeScript default", async () => {
    expect(await kit.execute("weather", { city: "Oslo", units: "imperial" })).toEqual({
      output: "Oslo in imperial",
      isError: false,
    });
  });

  it("absent optionals are passed as undefined positions", async () => {
    expect(await kit.execute("arity", {})).toEqual({ output: "2:undefined:undefined", isError: false });
    expect(await kit.execute("arity", { b: "7" })).toEqual({ output: "2:undefined:number", isError: false });
  });

  it("no arguments at all: undefined, null and an empty string mean {}", async () => {
    for (const none of [undefined, null, "", "   "]) {
      expect(await kit.execute("arity", none)).toEqual({ output: "2:undefined:undefined", isError: false });
    }
    const missing = await kit.execute("weather", undefined);
    expect(missing.output).toBe(
      'Invalid arguments for tool "weather": missing required argument "city" (expected string)',
    );
  });
});
