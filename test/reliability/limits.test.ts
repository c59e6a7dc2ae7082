/**
 * Limits: huge strings, 10,000-element arrays, 1,000-deep nesting and non-JSON
 * numbers (NaN, Infinity, -0, 1e400). Each is handled with a clear error (an
 * `invalid_arguments` result naming the tool and the argument, short enough for a model to
 * read) or with the correct result, through `execute` and through a provider round trip.
 */
import { IsInt, IsString, Min } from "class-validator";
import { defineTool, Param, Tool, Toolkit } from "../../src";

const MB = 1024 * 1024;
/** "Short enough for a model to read": an error the size of a paragraph, not of the payload. */
const SHORT = 1_000;

class Item {
  @IsString() sku!: string;
  @IsInt() @Min(1) quantity!: number;
}

class LimitsService {
  @Tool("Length of a text")
  textLength(@Param("text") text: string) {
    return text.length;
  }

  @Tool("A short text")
  shortText(@Param("text", { maxLength: 100 }) text: string) {
    return text;
  }

  @Tool("A number, any")
  aNumber(@Param("x") x: number) {
    return { isNegativeZero: Object.is(x, -0), isFinite: Number.isFinite(x), value: String(x) };
  }

  @Tool("An integer")
  anInteger(@Param("x", { integer: true }) x: number) {
    return String(x);
  }

  @Tool("A number in a range")
  ranged(@Param("x", { minimum: -10, maximum: 10 }) x: number) {
    return String(x);
  }

  @Tool("Sum of numbers")
  sum(@Param("xs", { type: [Number] }) xs: number[]) {
    return xs.reduce((a, b) => a + b, 0);
  }

  @Tool("At most 50 tags")
  fewTags(@Param("tags", { type: [String], maxItems: 50 }) tags: string[]) {
    return tags.length;
  }

  @Tool("Items of an order")
  items(@Param("items", { type: [Item] }) items: Item[]) {
    return items.reduce((total, item) => total + item.quantity, 0);
  }

  @Tool("Any object, echoed")
  anyObject(@Param("value", { schema: { type: "object" } }) value: object) {
    return value;
  }

  @Tool("Any array, echoed")
  anyArray(@Param("value", { schema: { type: "array" } }) value: unknown[]) {
    return value;
  }

  @Tool("A big answer")
  bigAnswer(@Param("kind", { enum: ["string", "array"] }) kind: string) {
    return kind === "string" ? "y".repeat(10 * MB) : Array.from({ length: 10_000 }, (_, i) => i);
  }
}

/** Sees exactly what was sent (no validation), as defineTool promises. */
const raw = defineTool({ name: "raw", description: "Echoes what it was sent", execute: (args) => args });
const rawNumber = defineTool({
  name: "raw_number",
  description: "Describes the number it was sent, unvalidated",
  execute: ({ x }) => ({ type: typeof x, text: String(x), isNegativeZero: Object.is(x, -0) }),
});

const toolkit = new Toolkit([new LimitsService(), raw, rawNumber]);

async function viaOpenAI(name: string, argumentsText: string): Promise<string> {
  const [answer] = await toolkit.runOpenAI([
    { id: "call_1", type: "function", function: { name, arguments: argumentsText } },
  ]);
  if (answer?.role !== "tool") throw new Error("expected a tool message");
  return answer.content;
}

function expectClearError(
  result: { output: string; isError: boolean; metadata?: Record<string, unknown> },
  tool: string,
  argument: string,
  says: RegExp,
): void {
  expect(result.isError).toBe(true);
  expect(result.metadata?.error).toBe("invalid_arguments");
  expect(result.output).toContain(`Invalid arguments for tool "${tool}"`);
  expect(result.output).toContain(`"${argument}"`);
  expect(result.output).toMatch(says);
  expect(result.output.length).toBeLessThan(SHORT);
}

function nested(depth: number, leaf: unknown, wrap: (inner: unknown) => unknown): unknown {
  let value = leaf;
  for (let i = 0; i < depth; i++) value = wrap(value);
  return value;
}

describe("huge strings", () => {
  const huge = "x".repeat(10 * MB);

  it("a 10 MB string argument: the correct result, as an object and as OpenAI JSON text", async () => {
    expect(await toolkit.execute("textLength", { text: huge })).toEqual({ output: String(10 * MB), isError: false });
    expect(await viaOpenAI("textLength", JSON.stringify({ text: huge }))).toBe(String(10 * MB));
  });

  it("a 10 MB string where at most 100 characters are allowed: a clear, short error", async () => {
    expectClearError(
      await toolkit.execute("shortText", { text: huge }),
      "shortText",
      "text",
      /must NOT have more than 100 characters, got string "x{57}\.\.\."/,
    );
  });

  it("huge strings for a number: clear, short errors (letters, and digits beyond any double)", async () => {
    expectClearError(await toolkit.execute("aNumber", { x: huge }), "aNumber", "x", /must be number, got string/);
    expectClearError(
      await toolkit.execute("aNumber", { x: "9".repeat(MB) }),
      "aNumber",
      "x",
      /must be number, got string "9{57}\.\.\."/,
    );
  });

  it("a 10 MB answer passes through whole", async () => {
    const result = await toolkit.execute("bigAnswer", { kind: "string" });
    expect(result.isError).toBe(false);
    expect(result.output.length).toBe(10 * MB);
  });

  it("a 16 KB tool name: an unknown_tool result", async () => {
    const result = await toolkit.execute("t".repeat(16 * 1024), {});
    expect(result.isError).toBe(true);
    expect(result.metadata?.error).toBe("unknown_tool");
  });
});

describe("10,000-element arrays", () => {
  const numbers = Array.from({ length: 10_000 }, (_, i) => i);
  const total = (10_000 * 9_999) / 2;

  it("10,000 numbers: the correct result, as an object and as OpenAI JSON text", async () => {
    expect(await toolkit.execute("sum", { xs: numbers })).toEqual({ output: String(total), isError: false });
    expect(await viaOpenAI("sum", JSON.stringify({ xs: numbers }))).toBe(String(total));
  });

  it("10,000 numeric strings (as models send them) are read as numbers", async () => {
    expect(await toolkit.execute("sum", { xs: numbers.map(String) })).toEqual({
      output: String(total),
      isError: false,
    });
  });

  it("10,000 DTO elements: each made an instance and checked, the correct result", async () => {
    const items = numbers.map((i) => ({ sku: `sku-${i}`, quantity: 1 }));
    expect(await toolkit.execute("items", { items })).toEqual({ output: "10000", isError: false });
  });

  it("10,000 elements where at most 50 are allowed: a clear, short error", async () => {
    expectClearError(
      await toolkit.execute("fewTags", { tags: numbers.map(String) }),
      "fewTags",
      "tags",
      /must NOT have more than 50 items, got an array of 10000/,
    );
  });

  it("a 10,000-element answer is written as JSON", async () => {
    const result = await toolkit.execute("bigAnswer", { kind: "array" });
    expect(JSON.parse(result.output)).toEqual(numbers);
  });

  it("one bad element among 10,000: a clear error naming it", async () => {
    const xs: unknown[] = [...numbers];
    xs[7_777] = "seven";
    expectClearError(await toolkit.execute("sum", { xs }), "sum", "xs[7777]", /must be number, got string "seven"/);
  });

  // The first 20 problems are listed and the rest counted (invalidArguments, src/define/define-tool.ts).
  it("10,000 bad elements: a clear error that stays short", async () => {
    const result = await toolkit.execute("sum", { xs: numbers.map((i) => `v${i}`) });
    expect(result.output).toContain('"xs[0]" must be number');
    expect(result.output).toContain("... and 9980 more problems");
    expect(result.output.length).toBeLessThan(20 * SHORT);
  });

  it("10,000 bad elements: an invalid_arguments result that starts with the first offender", async () => {
    const result = await toolkit.execute("sum", { xs: numbers.map((i) => `v${i}`) });
    expect(result.metadata?.error).toBe("invalid_arguments");
    expect(result.output).toMatch(/^Invalid arguments for tool "sum":\n- "xs\[0\]" must be number, got string "v0"/);
  });
});

describe("1,000-deep nesting", () => {
  const deepObject = nested(1_000, { leaf: true }, (inner) => ({ next: inner }));
  const deepArray = nested(1_000, 1, (inner) => [inner]);

  it("a 1,000-deep object: the correct result, as an object and as OpenAI JSON text", async () => {
    const expected = JSON.stringify(deepObject);
    expect(await toolkit.execute("anyObject", { value: deepObject })).toEqual({ output: expected, isError: false });
    expect(await viaOpenAI("anyObject", JSON.stringify({ value: deepObject }))).toBe(expected);
  });

  it("a 1,000-deep array, and 1,000-deep input to a tool that does not validate", async () => {
    expect(await toolkit.execute("anyArray", { value: deepArray })).toEqual({
      output: JSON.stringify(deepArray),
      isError: false,
    });
    expect(await toolkit.execute("raw", { value: deepObject })).toEqual({
      output: JSON.stringify({ value: deepObject }),
      isError: false,
    });
  });

  it("a forbidden key 1,000 levels down is refused, naming where", async () => {
    const text = `{"value":${'{"next":'.repeat(1_000)}{"__proto__":{"polluted":true}}${"}".repeat(1_000)}}`;
    const result = await toolkit.execute("anyObject", text);
    expect(result.metadata?.error).toBe("invalid_arguments");
    expect(result.output).toContain('argument key "__proto__" at /value/next/next/');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("1,000-deep nesting where the schema expects a number: a clear, short error", async () => {
    expectClearError(
      await toolkit.execute("aNumber", { x: deepObject }),
      "aNumber",
      "x",
      /must be number, got an object/,
    );
  });

  it("far beyond the issue's 1,000 (100,000 deep): still a ToolResult, never a throw", async () => {
    const deeper = nested(100_000, 1, (inner) => ({ next: inner }));
    const direct = await toolkit.execute("raw", { value: deeper });
    expect(typeof direct.output).toBe("string");
    const text = `{"value":${'{"next":'.repeat(100_000)}1${"}".repeat(100_000)}}`;
    const viaText = await toolkit.execute("anyObject", text);
    expect(typeof viaText.output).toBe("string");
  });
});

describe("non-JSON numbers: NaN, Infinity, -0, 1e400", () => {
  it("-0 is a number: the tool gets -0", async () => {
    expect(JSON.parse((await toolkit.execute("aNumber", { x: -0 })).output)).toEqual({
      isNegativeZero: true,
      isFinite: true,
      value: "0",
    });
    expect(JSON.parse(await viaOpenAI("aNumber", '{"x":-0}'))).toEqual({
      isNegativeZero: true,
      isFinite: true,
      value: "0",
    });
    expect(await toolkit.execute("anInteger", { x: -0 })).toEqual({ output: "0", isError: false });
  });

  it("NaN and Infinity as JSON text are not JSON: a clear error", async () => {
    for (const text of ['{"x":NaN}', '{"x":Infinity}', '{"x":-Infinity}']) {
      const result = await toolkit.execute("aNumber", text);
      expect(result.metadata?.error).toBe("invalid_arguments");
      expect(result.output).toMatch(/^Invalid arguments for tool "aNumber": arguments are not valid JSON/);
    }
  });

  it('"NaN", "Infinity" and "1e400" as strings are not read as numbers: a clear error', async () => {
    for (const text of ["NaN", "Infinity", "-Infinity", "1e400"]) {
      expectClearError(
        await toolkit.execute("aNumber", { x: text }),
        "aNumber",
        "x",
        new RegExp(`must be number, got string "${text}"`),
      );
    }
  });

  it("a range rejects NaN and ±Infinity (and 1e400, which JSON.parse makes Infinity)", async () => {
    for (const x of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
      expectClearError(
        await toolkit.execute("ranged", { x }),
        "ranged",
        "x",
        /must be ([<>]= -?10|number), got number/,
      );
    }
    expect(await viaOpenAI("ranged", '{"x":1e400}')).toMatch(
      /^Error: Invalid arguments for tool "ranged": "x" must be (<= 10|number), got number Infinity$/,
    );
  });

  it("an integer rejects NaN", async () => {
    expectClearError(
      await toolkit.execute("anInteger", { x: Number.NaN }),
      "anInteger",
      "x",
      /must be integer, got number NaN/,
    );
  });

  it("a tool that does not validate sees exactly what was sent, NaN and Infinity included", async () => {
    for (const [x, text] of [
      [Number.NaN, "NaN"],
      [Number.POSITIVE_INFINITY, "Infinity"],
      [-0, "0"],
    ] as const) {
      expect(JSON.parse((await toolkit.execute("raw_number", { x })).output)).toEqual({
        type: "number",
        text,
        isNegativeZero: Object.is(x, -0),
      });
    }
    // 1e400 in JSON text is Infinity after JSON.parse: that is what the model's text means.
    expect(JSON.parse((await toolkit.execute("raw_number", '{"x":1e400}')).output)).toEqual({
      type: "number",
      text: "Infinity",
      isNegativeZero: false,
    });
  });

  // No JSON number is NaN or infinite: Ajv runs with strictNumbers (src/runtime/validation.ts).
  it("a number rejects NaN and ±Infinity sent as values", async () => {
    for (const x of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
      expectClearError(await toolkit.execute("aNumber", { x }), "aNumber", "x", /must be (a finite )?number/);
    }
  });

  it("an integer rejects ±Infinity", async () => {
    for (const x of [Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
      expectClearError(await toolkit.execute("anInteger", { x }), "anInteger", "x", /must be integer/);
    }
  });

  it("1e400 in JSON text (Infinity once parsed) is refused for a number", async () => {
    expect(await viaOpenAI("aNumber", '{"x":1e400}')).toMatch(
      /^Error: Invalid arguments for tool "aNumber": "x" must be/,
    );
  });

  it("a result holding NaN, Infinity or -0 is written as JSON writes them", async () => {
    const odd = defineTool({
      name: "odd_numbers",
      description: "Returns non-JSON numbers",
      execute: () => ({ nan: Number.NaN, inf: Number.POSITIVE_INFINITY, negZero: -0 }),
    });
    expect(await new Toolkit([odd]).execute("odd_numbers", {})).toEqual({
      output: '{"nan":null,"inf":null,"negZero":0}',
      isError: false,
    });
  });
});
