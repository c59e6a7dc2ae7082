import { defineTool, type JSONSchemaObject } from "../../src";
import { coerceScalars, dropNullOptionals } from "../../src/runtime/coerce";

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

describe("coerceScalars: the numeric and boolean strings models send", () => {
  it('turns "42" into 42 where the schema says number or integer', () => {
    expect(coerceScalars({ type: "number" }, "42")).toBe(42);
    expect(coerceScalars({ type: "integer" }, "42")).toBe(42);
  });

  it("reads decimals, signs, exponents and surrounding spaces", () => {
    expect(coerceScalars({ type: "number" }, "3.5")).toBe(3.5);
    expect(coerceScalars({ type: "number" }, "-7")).toBe(-7);
    expect(coerceScalars({ type: "number" }, ".5")).toBe(0.5);
    expect(coerceScalars({ type: "number" }, "1e3")).toBe(1000);
    expect(coerceScalars({ type: "number" }, " 12 ")).toBe(12);
  });

  it("leaves non-numeric strings alone", () => {
    for (const text of ["abc", "", " ", "12abc", "0x10", "Infinity", "NaN", "1,000", "--1"]) {
      expect(coerceScalars({ type: "number" }, text)).toBe(text);
    }
  });

  it('turns "true" and "false" into booleans where the schema says boolean, and nothing else', () => {
    expect(coerceScalars({ type: "boolean" }, "true")).toBe(true);
    expect(coerceScalars({ type: "boolean" }, "false")).toBe(false);
    expect(coerceScalars({ type: "boolean" }, "TRUE")).toBe("TRUE");
    expect(coerceScalars({ type: "boolean" }, "1")).toBe("1");
    expect(coerceScalars({ type: "boolean" }, "yes")).toBe("yes");
  });

  it("leaves strings alone where the schema says string (or nothing)", () => {
    expect(coerceScalars({ type: "string" }, "42")).toBe("42");
    expect(coerceScalars({ type: "string" }, "true")).toBe("true");
    expect(coerceScalars({}, "42")).toBe("42");
    expect(coerceScalars(undefined, "42")).toBe("42");
  });

  it("leaves values that are already numbers or booleans alone", () => {
    expect(coerceScalars({ type: "number" }, 5)).toBe(5);
    expect(coerceScalars({ type: "boolean" }, true)).toBe(true);
  });

  const schema: JSONSchemaObject = {
    type: "object",
    properties: {
      name: { type: "string" },
      count: { type: "integer" },
      flags: { type: "object", properties: { dryRun: { type: "boolean" }, ratio: { type: "number" } } },
      ids: { type: "array", items: { type: "integer" } },
      points: {
        type: "array",
        items: { type: "object", properties: { x: { type: "number" }, label: { type: "string" } } },
      },
    },
  };

  it("coerces inside nested objects and arrays, following the schema", () => {
    const value = {
      name: "7",
      count: "3",
      flags: { dryRun: "false", ratio: "0.25" },
      ids: ["1", 2, "x"],
      points: [{ x: "1.5", label: "9" }, { x: 2 }],
      extra: "10",
    };
    expect(coerceScalars(schema, value)).toEqual({
      name: "7",
      count: 3,
      flags: { dryRun: false, ratio: 0.25 },
      ids: [1, 2, "x"],
      points: [{ x: 1.5, label: "9" }, { x: 2 }],
      extra: "10",
    });
  });

  it("does not mutate its input (works on a deeply frozen object)", () => {
    const value = deepFreeze({ count: "3", flags: { dryRun: "true" }, ids: ["1"], points: [{ x: "4" }] });
    const before = JSON.stringify(value);
    const result = coerceScalars(schema, value);
    expect(result).toEqual({ count: 3, flags: { dryRun: true }, ids: [1], points: [{ x: 4 }] });
    expect(JSON.stringify(value)).toBe(before);
  });

  it("returns the very same object when nothing needs coercing, and copies only what changed", () => {
    const untouched = { name: "a", count: 1, flags: { dryRun: true } };
    expect(coerceScalars(schema, untouched)).toBe(untouched);

    const partly = { count: "2", flags: { dryRun: true } };
    const result = coerceScalars(schema, partly) as typeof partly;
    expect(result).not.toBe(partly);
    expect(result.flags).toBe(partly.flags);
  });

  it("does not add keys that were absent", () => {
    expect(coerceScalars(schema, {})).toEqual({});
  });
});

describe("dropNullOptionals: null for an optional argument means absent", () => {
  const schema: JSONSchemaObject = {
    type: "object",
    properties: {
      city: { type: "string" },
      units: { type: "string" },
      note: { type: ["string", "null"] },
      legacy: { type: "string", nullable: true },
      choice: { enum: ["a", null] },
      either: { anyOf: [{ type: "string" }, { type: "null" }] },
    },
    required: ["city"],
  };

  it("removes an optional property sent as null", () => {
    expect(dropNullOptionals(schema, { city: "Chennai", units: null })).toEqual({ city: "Chennai" });
  });

  it("keeps a required property sent as null (validation will name it)", () => {
    expect(dropNullOptionals(schema, { city: null })).toEqual({ city: null });
  });

  it("keeps null where the schema accepts null (type list, nullable, enum, anyOf)", () => {
    const value = { city: "x", note: null, legacy: null, choice: null, either: null };
    expect(dropNullOptionals(schema, value)).toEqual(value);
  });

  it("keeps null for keys the schema does not describe", () => {
    expect(dropNullOptionals(schema, { city: "x", unknown: null })).toEqual({ city: "x", unknown: null });
  });

  it("works at every depth, arrays of objects included", () => {
    const nested: JSONSchemaObject = {
      type: "object",
      properties: {
        filter: {
          type: "object",
          properties: { from: { type: "string" }, to: { type: "string" } },
          required: ["from"],
        },
        rows: {
          type: "array",
          items: { type: "object", properties: { id: { type: "integer" }, tag: { type: "string" } }, required: ["id"] },
        },
      },
    };
    expect(
      dropNullOptionals(nested, {
        filter: { from: null, to: null },
        rows: [
          { id: 1, tag: null },
          { id: null, tag: "t" },
        ],
      }),
    ).toEqual({ filter: { from: null }, rows: [{ id: 1 }, { id: null, tag: "t" }] });
  });

  it("does not mutate its input and returns the same object when nothing changes", () => {
    const value = deepFreeze({ city: "x", units: null });
    expect(dropNullOptionals(schema, value)).toEqual({ city: "x" });
    expect(value).toEqual({ city: "x", units: null });

    const clean = { city: "x", units: "metric" };
    expect(dropNullOptionals(schema, clean)).toBe(clean);
  });

  it("leaves non-objects and schema-less values alone", () => {
    expect(dropNullOptionals(schema, null)).toBeNull();
    expect(dropNullOptionals(schema, "x")).toBe("x");
    const value = { units: null };
    expect(dropNullOptionals(undefined, value)).toBe(value);
  });
});

describe("numeric strings the model sends for number parameters", () => {
  // A long run of digits followed by a letter is refused at once like any other text: the
  // numeric pattern must not backtrack over it for seconds, blocking every other call.
  it("refuses a million digits followed by a letter as not a number", async () => {
    const tool = defineTool({
      name: "n",
      description: "d",
      inputSchema: { type: "object", properties: { n: { type: "number" } }, required: ["n"] },
      validate: true,
      execute: () => "ran",
    });
    const result = await tool.execute({ n: `${"9".repeat(1_000_000)}x` });
    expect(result.isError).toBe(true);
    expect(result.output).toMatch(/"n" must be number, got string "9{57}\.\.\."/);
  });

  it("still reads the usual numeric forms", async () => {
    const tool = defineTool({
      name: "n",
      description: "d",
      inputSchema: { type: "object", properties: { n: { type: "number" } }, required: ["n"] },
      validate: true,
      execute: ({ n }) => JSON.stringify(n),
    });
    for (const [text, value] of [
      ["42", 42],
      ["-1.5", -1.5],
      [".5", 0.5],
      ["3.", 3],
      ["1e3", 1000],
      [" 7 ", 7],
    ] as const) {
      expect((await tool.execute({ n: text })).output).toBe(JSON.stringify(value));
    }
  });
});

describe("numeric strings for nullable and union number types", () => {
  const tool = (property: JSONSchemaObject) =>
    defineTool({
      name: "t",
      description: "d",
      inputSchema: { type: "object", properties: { n: property }, required: ["n"] },
      validate: true,
      execute: ({ n }) => JSON.stringify(n),
    });

  it('reads "42" as 42 for type ["number", "null"] and for anyOf [integer, null]', async () => {
    expect((await tool({ type: ["number", "null"] }).execute({ n: "42" })).output).toBe("42");
    expect((await tool({ anyOf: [{ type: "integer" }, { type: "null" }] }).execute({ n: "7" })).output).toBe("7");
  });

  it("keeps the string when the schema also takes strings", async () => {
    expect((await tool({ type: ["string", "number"] }).execute({ n: "42" })).output).toBe('"42"');
  });
});
