import fc from "fast-check";
import { isGeminiLeaf, toGeminiSchema } from "../../src/providers/gemini";
import { ChangeLog } from "../../src/schema/lowering";
import type { JSONSchemaObject } from "../../src";

const RUNS = { seed: 4242, numRuns: 600 } as const;

function lower(schema: JSONSchemaObject, tool = "t"): { result: JSONSchemaObject; log: ChangeLog } {
  const log = new ChangeLog(tool);
  return { result: toGeminiSchema(schema, log), log };
}

// ---- Arbitraries -----------------------------------------------------------------------------

const TYPES = ["string", "number", "integer", "boolean", "null", "object", "array"] as const;
const FORMATS = ["date-time", "enum", "email", "float", "double", "int32", "int64", "uri", "date"];
const GEMINI_KNOWN = ["title", "description", "nullable", "default", "example", "minimum", "maximum", "minLength", "maxLength", "pattern"];
const FOREIGN = ["const", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "x-extra", "$comment", "examples", "uniqueItems"];

/**
 * Nodes shaped like leaves: a type (one name or a list), and a random mix of format, enum
 * (string and non-string values), bounds, const, exclusive bounds and unknown keys. Many are
 * Gemini leaves, many are one keyword away from being one.
 */
const leafLike: fc.Arbitrary<JSONSchemaObject> = fc
  .tuple(
    fc.option(fc.oneof(fc.constantFrom(...TYPES), fc.uniqueArray(fc.constantFrom(...TYPES), { minLength: 1, maxLength: 3 })), { freq: 8, nil: undefined }),
    fc.record({
      format: fc.constantFrom(...FORMATS),
      enum: fc.oneof(
        fc.array(fc.string({ maxLength: 4 }), { maxLength: 3 }),
        fc.array(fc.oneof(fc.string({ maxLength: 3 }), fc.integer({ min: -3, max: 3 }), fc.boolean(), fc.constant(null)), { minLength: 1, maxLength: 3 }),
      ),
      minimum: fc.integer({ min: -10, max: 10 }),
      maximum: fc.integer({ min: 10, max: 20 }),
      const: fc.oneof(fc.string({ maxLength: 3 }), fc.integer()),
      exclusiveMinimum: fc.integer({ min: -10, max: 10 }),
      exclusiveMaximum: fc.integer({ min: 10, max: 20 }),
      description: fc.string({ maxLength: 8 }),
      nullable: fc.boolean(),
      default: fc.oneof(fc.string({ maxLength: 3 }), fc.integer()),
      unknown: fc.tuple(fc.constantFrom(...FOREIGN, ...GEMINI_KNOWN), fc.oneof(fc.integer(), fc.string({ maxLength: 3 }))),
    }),
    // Which of the optional parts this node has: a few, so leaves and near-leaves both occur.
    fc.subarray(["format", "enum", "minimum", "maximum", "const", "exclusiveMinimum", "exclusiveMaximum", "description", "nullable", "default", "unknown"], { maxLength: 4 }),
  )
  .map(([type, parts, chosen]) => {
    const node: Record<string, unknown> = type === undefined ? {} : { type };
    for (const key of chosen) {
      const value = parts[key as keyof typeof parts];
      if (key === "unknown") {
        const [name, v] = value as [string, unknown];
        if (!(name in node)) node[name] = v;
      } else node[key] = value;
    }
    return node as JSONSchemaObject;
  });

/** Mostly leaves: the fast path is what this file is about. */
const likelyLeaf: fc.Arbitrary<JSONSchemaObject> = fc.oneof(
  { arbitrary: leafLike, weight: 1 },
  {
    arbitrary: fc.record(
      {
        type: fc.constantFrom("string", "number", "integer", "boolean"),
        format: fc.constantFrom(...FORMATS),
        enum: fc.array(fc.string({ maxLength: 4 }), { minLength: 1, maxLength: 3 }),
        description: fc.string({ maxLength: 8 }),
        minimum: fc.integer(),
        nullable: fc.boolean(),
        example: fc.string({ maxLength: 3 }),
      },
      { requiredKeys: ["type"] },
    ) as fc.Arbitrary<JSONSchemaObject>,
    weight: 2,
  },
);

/** Whole tool schemas: objects of leaf-like properties, nested objects, arrays and anyOf. */
const { root: toolSchema } = fc.letrec<{ root: JSONSchemaObject; node: JSONSchemaObject }>((tie) => ({
  root: fc
    .record(
      {
        properties: fc.dictionary(fc.constantFrom("a", "b", "city", "days", "_x", "Z9"), tie("node"), { maxKeys: 4 }),
        required: fc.uniqueArray(fc.constantFrom("a", "b", "city", "missing"), { maxLength: 3 }),
        additionalProperties: fc.boolean(),
        description: fc.string({ maxLength: 6 }),
      },
      { requiredKeys: ["properties"] },
    )
    .map((parts) => ({ type: "object", ...parts }) as JSONSchemaObject),
  node: fc.oneof(
    { maxDepth: 3, depthIdentifier: "gemini" },
    likelyLeaf,
    tie("root"),
    tie("node").map((items) => ({ type: "array", items }) as JSONSchemaObject),
    fc.array(tie("node"), { minLength: 1, maxLength: 3 }).map((anyOf) => ({ anyOf }) as JSONSchemaObject),
  ),
}));

// ---- Specification ---------------------------------------------------------------------------

describe("toGeminiSchema (copy-on-write lowering)", () => {
  it("returns a schema already inside Gemini's subset by identity and logs nothing", () => {
    const schema: JSONSchemaObject = {
      type: "object",
      description: "Weather query",
      properties: {
        city: { type: "string", description: "City", minLength: 1 },
        when: { type: "string", format: "date-time" },
        units: { type: "string", format: "enum", enum: ["c", "f"] },
        days: { type: "integer", format: "int32", minimum: 1, maximum: 14 },
        ratio: { type: "number", format: "double", nullable: true },
        tags: { type: "array", items: { type: "string" }, maxItems: 3 },
        where: { type: "object", properties: { lat: { type: "number" }, lon: { type: "number" } }, required: ["lat", "lon"] },
      },
      required: ["city"],
    };
    const before = structuredClone(schema);

    const { result, log } = lower(schema);

    expect(result).toBe(schema);
    expect(log.changes).toEqual([]);
    expect(schema).toEqual(before);
  });

  it("drops only additionalProperties from a root that needs nothing else, keeping properties and every property schema by identity", () => {
    const city: JSONSchemaObject = { type: "string", description: "City" };
    const days: JSONSchemaObject = { type: "integer", minimum: 1 };
    const nested: JSONSchemaObject = { type: "object", properties: { flag: { type: "boolean" } } };
    const properties = { city, days, nested };
    const required = ["city"];
    const schema: JSONSchemaObject = { type: "object", properties, required, additionalProperties: false };
    const before = structuredClone(schema);

    const { result, log } = lower(schema, "weather");

    expect(result).not.toBe(schema);
    expect(result).not.toHaveProperty("additionalProperties");
    expect(result).toEqual({ type: "object", properties, required });
    expect(Object.keys(result)).toEqual(["type", "properties", "required"]);
    expect(result.properties).toBe(properties);
    expect(result.properties!.city).toBe(city);
    expect(result.properties!.days).toBe(days);
    expect(result.properties!.nested).toBe(nested);
    expect(result.required).toBe(required);
    expect(log.changes).toHaveLength(1);
    expect(log.changes[0]).toMatchObject({ tool: "weather", pointer: "/additionalProperties", keyword: "additionalProperties", action: "dropped" });
    expect(schema).toEqual(before);
  });

  it("copies only the path to a property that changes; its siblings keep their identity", () => {
    const city: JSONSchemaObject = { type: "string" };
    const count: JSONSchemaObject = { type: "integer", exclusiveMinimum: 0 };
    const schema: JSONSchemaObject = { type: "object", properties: { city, count } };

    const { result, log } = lower(schema);

    expect(result).not.toBe(schema);
    expect(result.properties).not.toBe(schema.properties);
    expect(result.properties!.city).toBe(city);
    expect(result.properties!.count).toEqual({ type: "integer", minimum: 0 });
    expect(log.changes.map((c) => [c.pointer, c.keyword, c.action])).toEqual([["/properties/count", "exclusiveMinimum", "rewritten"]]);
    expect(count).toEqual({ type: "integer", exclusiveMinimum: 0 });
  });

  describe("isGeminiLeaf", () => {
    it.each<[string, JSONSchemaObject]>([
      ["a plain string", { type: "string" }],
      ["a string with Gemini's date-time format and a description", { type: "string", format: "date-time", description: "When" }],
      ["an integer with int64 and bounds", { type: "integer", format: "int64", minimum: 0, maximum: 9 }],
      ["a number with float, nullable", { type: "number", format: "float", nullable: true }],
      ["a boolean with a default", { type: "boolean", default: false }],
      ["a string enum", { type: "string", enum: ["a", "b"] }],
    ])("is true for %s", (_label, node) => {
      expect(isGeminiLeaf(node)).toBe(true);
    });

    it.each<[string, JSONSchemaObject]>([
      ["an object", { type: "object" }],
      ["an array", { type: "array", items: { type: "string" } }],
      ["the null type", { type: "null" }],
      ["a type list", { type: ["string", "null"] }],
      ["no type at all", { description: "anything" }],
      ["a const", { type: "string", const: "x" }],
      ["an exclusive bound", { type: "number", exclusiveMinimum: 0 }],
      ["a number enum", { type: "integer", enum: [1, 2] }],
      ["an enum holding null", { type: "string", enum: ["a", null] }],
      ["a format Gemini does not know", { type: "string", format: "email" }],
      ["a format of another type", { type: "integer", format: "double" }],
      ["a format on a boolean", { type: "boolean", format: "int32" }],
      ["an unknown keyword", { type: "string", "x-extra": 1 }],
      ["an anyOf beside the type", { type: "string", anyOf: [{ type: "string" }] }],
      ["a required list", { type: "string", required: ["a"] }],
    ])("is false for %s", (_label, node) => {
      expect(isGeminiLeaf(node)).toBe(false);
    });
  });

  describe("the leaf fast path (fast-check, seeded)", () => {
    it("whenever a node is a leaf, lowering a root holding it logs nothing under /properties/x and keeps it by identity", () => {
      let leaves = 0;
      fc.assert(
        fc.property(likelyLeaf, (node) => {
          fc.pre(isGeminiLeaf(node));
          leaves++;
          const properties = { x: node };
          const { result, log } = lower({ type: "object", properties });
          expect(log.changes.filter((c) => c.pointer === "/properties/x" || c.pointer.startsWith("/properties/x/"))).toEqual([]);
          expect(result.properties!.x).toBe(node);
        }),
        { ...RUNS, maxSkipsPerRun: 1_000 },
      );
      expect(leaves).toBeGreaterThan(100);
    });

    it("never skips a change the full lowering would make: forced through the full lowering (by one extra unknown key), a leaf changes by that key alone", () => {
      // The full lowering drops an unknown key without touching the rest of the node, so a
      // leaf plus "x-probe" must come out as the leaf itself, with exactly one change logged.
      let leaves = 0;
      fc.assert(
        fc.property(fc.oneof(leafLike, likelyLeaf), (node) => {
          fc.pre(isGeminiLeaf(node));
          leaves++;
          const probed = { ...node, "x-probe": true } as JSONSchemaObject;
          expect(isGeminiLeaf(probed)).toBe(false);
          const { result, log } = lower({ type: "object", properties: { x: probed } });
          const underX = log.changes.filter((c) => c.pointer.startsWith("/properties/x"));
          expect(underX.map((c) => [c.pointer, c.action])).toEqual([["/properties/x/x-probe", "dropped"]]);
          expect(result.properties!.x).toEqual(node);
          expect(Object.keys(result.properties!.x!)).toEqual(Object.keys(node));
        }),
        { ...RUNS, maxSkipsPerRun: 1_000 },
      );
      expect(leaves).toBeGreaterThan(100);
    });

    it("on leaf-like nodes of every kind: a leaf is never changed, and a node whose lowering logs nothing comes back as it was", () => {
      fc.assert(
        fc.property(leafLike, (node) => {
          const { result, log } = lower({ type: "object", properties: { x: node } });
          const changed = log.changes.some((c) => c.pointer.startsWith("/properties/x"));
          if (isGeminiLeaf(node)) {
            expect(changed).toBe(false);
            expect(result.properties!.x).toBe(node);
          }
          if (!changed) expect(result.properties?.x ?? node).toEqual(node);
        }),
        RUNS,
      );
    });

    it("never mutates the schemas it is given", () => {
      fc.assert(
        fc.property(toolSchema, (schema) => {
          const before = structuredClone(schema);
          try {
            lower(schema);
          } catch {
            // A refusal (ExportError) is fine here: only mutation is checked.
          }
          expect(schema).toEqual(before);
          expect(JSON.stringify(schema)).toBe(JSON.stringify(before));
        }),
        RUNS,
      );
    });

    it("returns a schema by identity exactly when it logs no change", () => {
      fc.assert(
        fc.property(toolSchema, (schema) => {
          const { result, log } = lower(schema);
          if (log.changes.length === 0) expect(result).toBe(schema);
          else expect(result).not.toBe(schema);
        }),
        RUNS,
      );
    });
  });
});

describe("changes Gemini lowering makes without a keyword to drop are still reported", () => {
  it("logs an empty required list it removes", () => {
    const log = new ChangeLog("t");
    const schema: JSONSchemaObject = { type: "object", properties: { q: { type: "string" } }, required: [] };
    expect(toGeminiSchema(schema, log)).toEqual({ type: "object", properties: { q: { type: "string" } } });
    expect(log.changes).toEqual([expect.objectContaining({ pointer: "/required", keyword: "required", action: "dropped" })]);
  });

  it("logs an anyOf of one branch it replaces by that branch", () => {
    const log = new ChangeLog("t");
    const schema: JSONSchemaObject = {
      type: "object",
      properties: { q: { description: "Query", anyOf: [{ type: "string" }] } },
    };
    expect(toGeminiSchema(schema, log)).toEqual({ type: "object", properties: { q: { type: "string", description: "Query" } } });
    expect(log.changes).toEqual([expect.objectContaining({ pointer: "/properties/q/anyOf", keyword: "anyOf", action: "rewritten" })]);
  });
});

describe("boolean subschemas", () => {
  it("become {} with the change reported (Gemini takes object schemas only), wherever they stand", () => {
    const log = new ChangeLog("t");
    const schema = { type: "object", properties: { a: true, b: { type: "array", items: true } } } as unknown as JSONSchemaObject;
    expect(toGeminiSchema(schema, log)).toEqual({ type: "object", properties: { a: {}, b: { type: "array", items: {} } } });
    expect(log.changes.map((c) => [c.pointer, c.action])).toEqual([
      ["/properties/a", "rewritten"],
      ["/properties/b/items", "rewritten"],
    ]);
  });

  it("do not crash the leaf check", () => {
    expect(isGeminiLeaf(true as unknown as JSONSchemaObject)).toBe(false);
    expect(isGeminiLeaf(null as unknown as JSONSchemaObject)).toBe(false);
  });

  it("a oneOf or nullable anyOf of one real branch is reported once, not twice", () => {
    const oneOf = new ChangeLog("t");
    toGeminiSchema({ type: "object", properties: { a: { oneOf: [{ type: "string" }] } } }, oneOf);
    expect(oneOf.changes.map((c) => c.keyword)).toEqual(["oneOf"]);
    const nullable = new ChangeLog("t");
    toGeminiSchema({ type: "object", properties: { a: { anyOf: [{ type: "string" }, { type: "null" }] } } }, nullable);
    expect(nullable.changes.map((c) => c.keyword)).toEqual(["anyOf"]);
  });
});
