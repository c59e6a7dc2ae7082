/**
 * Gemini's lowering of a tool's schema, seen from `describeExport("gemini", [tool])`: what is
 * already inside Gemini's OpenAPI subset is sent as it is (the very same object when nothing
 * changes) with nothing reported; what is not is rewritten, each change reported, and the
 * result passes Gemini's rules (test/support/dialect-rules.ts). The tool's schema is never
 * mutated.
 */
import Ajv from "ajv";
import fc from "fast-check";
import { Toolkit, type JSONSchemaObject, type SchemaChange, type Tool } from "../../src";
import type { GeminiTools } from "../../src/providers";
import { gemini } from "../../src/providers/gemini";
import { canonicalSchema } from "../../src/schema/canonical";
import { ChangeLog } from "../../src/schema/lowering";
import { checkGeminiTools, describeViolations } from "../support/dialect-rules";

const RUNS = { seed: 4242, numRuns: 600 } as const;
/**
 * For the whole-schema properties: a counterexample is reported as found, unshrunk (each run
 * exports a schema, so shrinking one of these trees can take many minutes).
 */
const TREE_RUNS = { ...RUNS, endOnFailure: true } as const;

/** A Tool written by hand, so any schema reaches the exporter as it is. */
function toolOf(inputSchema: JSONSchemaObject, name = "t", received: Array<Record<string, unknown>> = []): Tool {
  return {
    name,
    description: "Lowering probe.",
    inputSchema,
    source: "test",
    execute: (args) => {
      received.push(args);
      return Promise.resolve({ output: "ok", isError: false });
    },
  };
}

/** Gemini's own lowering of one tool (the export's shared steps, such as taking out document keywords, left out). */
function lower(
  schema: JSONSchemaObject,
  tool = "t",
): { result: JSONSchemaObject; changes: SchemaChange[]; declarations: GeminiTools } {
  const log = new ChangeLog(tool, undefined);
  const lowering = gemini.lower(schema, log, {});
  const tools = gemini.declare(
    [{ tool: toolOf(schema, tool), name: tool, description: "d", lowering }],
    {},
  ) as GeminiTools;
  const changes = log.changes;
  return { result: tools[0].functionDeclarations[0]!.parameters as JSONSchemaObject, changes, declarations: tools };
}

/** The changes at `pointer` or below it. */
function under(changes: readonly SchemaChange[], pointer: string): SchemaChange[] {
  return changes.filter((c) => c.pointer === pointer || c.pointer.startsWith(`${pointer}/`));
}

const ANY_JSON = "Any JSON value, written as JSON text.";
/** What a rewritten STRING enum keeps of its node: the rest is implied by the values. */
const ENUM_KEEPS = new Set(["type", "enum", "title", "description", "default", "example", "nullable"]);

// ---- Arbitraries -----------------------------------------------------------------------------

const TYPES = ["string", "number", "integer", "boolean", "null", "object", "array"] as const;
const FORMATS = ["date-time", "enum", "email", "float", "double", "int32", "int64", "uri", "date"];
const GEMINI_KNOWN = [
  "title",
  "description",
  "nullable",
  "default",
  "example",
  "minimum",
  "maximum",
  "minLength",
  "maxLength",
  "pattern",
];
const FOREIGN = [
  "const",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "x-extra",
  "$comment",
  "examples",
  "uniqueItems",
];

const metaSchema = new Ajv({ strict: false, logger: false });
/** A valid JSON Schema (the draft-07 meta-schema), whose `nullable`, if any, is a boolean as OpenAPI has it. */
const isValidSchema = (node: JSONSchemaObject) =>
  metaSchema.validateSchema(node) === true && (!("nullable" in node) || typeof node.nullable === "boolean");

/**
 * Nodes shaped like leaves: a type (one name or a list), and a random mix of format, enum
 * (string and non-string values), bounds, const, exclusive bounds and unknown keys. Many are
 * inside Gemini's subset, many are one keyword away from it. Only valid schemas: a known
 * keyword with a value of the wrong kind is not a schema to lower.
 */
const leafLike: fc.Arbitrary<JSONSchemaObject> = fc
  .tuple(
    fc.option(
      fc.oneof(fc.constantFrom(...TYPES), fc.uniqueArray(fc.constantFrom(...TYPES), { minLength: 1, maxLength: 3 })),
      { freq: 8, nil: undefined },
    ),
    fc.record({
      format: fc.constantFrom(...FORMATS),
      enum: fc.oneof(
        fc.array(fc.string({ maxLength: 4 }), { maxLength: 3 }),
        fc.array(
          fc.oneof(fc.string({ maxLength: 3 }), fc.integer({ min: -3, max: 3 }), fc.boolean(), fc.constant(null)),
          { minLength: 1, maxLength: 3 },
        ),
      ),
      minimum: fc.integer({ min: -10, max: 10 }),
      maximum: fc.integer({ min: 10, max: 20 }),
      const: fc.oneof(fc.string({ maxLength: 3 }), fc.integer()),
      exclusiveMinimum: fc.integer({ min: -10, max: 10 }),
      exclusiveMaximum: fc.integer({ min: 10, max: 20 }),
      description: fc.string({ maxLength: 8 }),
      nullable: fc.boolean(),
      default: fc.oneof(fc.string({ maxLength: 3 }), fc.integer()),
      unknown: fc.tuple(
        fc.constantFrom(...FOREIGN, ...GEMINI_KNOWN),
        fc.oneof(fc.integer(), fc.string({ maxLength: 3 })),
      ),
    }),
    // Which of the optional parts this node has: a few, so in-subset nodes and near misses both occur.
    fc.subarray(
      [
        "format",
        "enum",
        "minimum",
        "maximum",
        "const",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "description",
        "nullable",
        "default",
        "unknown",
      ],
      { maxLength: 4 },
    ),
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
  })
  .filter(isValidSchema);

/** Mostly nodes Gemini takes as they are. */
const likelyInSubset: fc.Arbitrary<JSONSchemaObject> = fc.oneof(
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
    likelyInSubset,
    tie("root"),
    tie("node").map((items) => ({ type: "array", items }) as JSONSchemaObject),
    fc.array(tie("node"), { minLength: 1, maxLength: 3 }).map((anyOf) => ({ anyOf }) as JSONSchemaObject),
  ),
}));

// ---- Specification ---------------------------------------------------------------------------

describe("a schema already inside Gemini's subset", () => {
  it("is sent as the very same object and logs nothing", () => {
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
        where: {
          type: "object",
          properties: { lat: { type: "number" }, lon: { type: "number" } },
          required: ["lat", "lon"],
        },
      },
      required: ["city"],
    };
    const before = structuredClone(schema);

    const { result, changes, declarations } = lower(schema);

    expect(result).toBe(schema);
    expect(changes).toEqual([]);
    expect(schema).toEqual(before);
    expect(describeViolations(checkGeminiTools(declarations))).toBe("");
  });

  it.each<[string, JSONSchemaObject]>([
    ["a plain string", { type: "string" }],
    [
      "a string with Gemini's date-time format and a description",
      { type: "string", format: "date-time", description: "When" },
    ],
    ["an integer with int64 and bounds", { type: "integer", format: "int64", minimum: 0, maximum: 9 }],
    ["a number with float, nullable", { type: "number", format: "float", nullable: true }],
    ["a boolean with a default", { type: "boolean", default: false }],
    ["a string enum", { type: "string", enum: ["a", "b"] }],
    ["an object without properties", { type: "object" }],
    ["an array of strings", { type: "array", items: { type: "string" } }],
  ])("a property that is %s is sent as it is, with nothing reported", (_label, node) => {
    const schema: JSONSchemaObject = { type: "object", properties: { x: node } };
    const { result, changes, declarations } = lower(schema);
    expect(changes).toEqual([]);
    expect(result).toBe(schema);
    expect(describeViolations(checkGeminiTools(declarations))).toBe("");
  });
});

describe("what is outside the subset is rewritten, each change reported, and then passes Gemini's rules", () => {
  it("drops only additionalProperties from a root that needs nothing else; the properties come out as they were", () => {
    const city: JSONSchemaObject = { type: "string", description: "City" };
    const days: JSONSchemaObject = { type: "integer", minimum: 1 };
    const nested: JSONSchemaObject = { type: "object", properties: { flag: { type: "boolean" } } };
    const properties = { city, days, nested };
    const required = ["city"];
    const schema: JSONSchemaObject = { type: "object", properties, required, additionalProperties: false };
    const before = structuredClone(schema);

    const { result, changes, declarations } = lower(schema, "weather");

    expect(result).not.toBe(schema);
    expect(result).not.toHaveProperty("additionalProperties");
    expect(result).toEqual({ type: "object", properties, required });
    expect(Object.keys(result)).toEqual(["type", "properties", "required"]);
    expect(Object.keys(result.properties!)).toEqual(["city", "days", "nested"]);
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({
      tool: "weather",
      pointer: "/additionalProperties",
      keyword: "additionalProperties",
      action: "dropped",
    });
    expect(schema).toEqual(before);
    expect(describeViolations(checkGeminiTools(declarations))).toBe("");
  });

  it("changes only the property that needs it; its siblings come out as they were", () => {
    const city: JSONSchemaObject = { type: "string" };
    const count: JSONSchemaObject = { type: "integer", exclusiveMinimum: 0 };
    const schema: JSONSchemaObject = { type: "object", properties: { city, count } };

    const { result, changes } = lower(schema);

    expect(result).not.toBe(schema);
    expect(result.properties!.city).toEqual({ type: "string" });
    expect(result.properties!.count).toEqual({ type: "integer", minimum: 0 });
    expect(changes.map((c) => [c.pointer, c.keyword, c.action])).toEqual([
      ["/properties/count", "exclusiveMinimum", "rewritten"],
    ]);
    expect(count).toEqual({ type: "integer", exclusiveMinimum: 0 });
  });

  it("reports a node's unknown keywords before its children's changes", () => {
    const schema: JSONSchemaObject = {
      type: "object",
      properties: { count: { type: "integer", exclusiveMinimum: 0 } },
      additionalProperties: false,
    };
    expect(lower(schema).changes.map((c) => [c.pointer, c.keyword, c.action])).toEqual([
      ["/additionalProperties", "additionalProperties", "dropped"],
      ["/properties/count", "exclusiveMinimum", "rewritten"],
    ]);
  });

  it.each<[string, JSONSchemaObject, JSONSchemaObject]>([
    ["the null type", { type: "null" }, { type: "string", nullable: true }],
    ["a type list", { type: ["string", "null"] }, { type: "string", nullable: true }],
    ["no type at all", { description: "anything" }, { type: "string", description: `anything ${ANY_JSON}` }],
    ["a const", { type: "string", const: "x" }, { type: "string", enum: ["x"] }],
    ["an exclusive bound", { type: "number", exclusiveMinimum: 0 }, { type: "number", minimum: 0 }],
    ["a number enum", { type: "integer", enum: [1, 2] }, { type: "string", format: "enum", enum: ["1", "2"] }],
    ["an enum holding null", { type: "string", enum: ["a", null] }, { type: "string", enum: ["a"], nullable: true }],
    [
      "a format Gemini does not know",
      { type: "string", format: "email" },
      { type: "string", description: "Format: email." },
    ],
    [
      "a format of another type",
      { type: "integer", format: "double" },
      { type: "integer", description: "Format: double." },
    ],
    ["a format on a boolean", { type: "boolean", format: "int32" }, { type: "boolean", description: "Format: int32." }],
    ["an unknown keyword", { type: "string", "x-extra": 1 }, { type: "string" }],
    ["an anyOf beside the type", { type: "string", anyOf: [{ type: "string" }] }, { type: "string" }],
    ["a required list on a string", { type: "string", required: ["a"] }, { type: "string" }],
  ])("a property that is %s is rewritten, reported under it, and passes Gemini's rules", (_label, node, expected) => {
    const before = structuredClone(node);
    const { result, changes, declarations } = lower({ type: "object", properties: { x: node } });
    expect(result.properties!.x).toEqual(expected);
    expect(under(changes, "/properties/x").length).toBeGreaterThan(0);
    expect(describeViolations(checkGeminiTools(declarations))).toBe("");
    expect(node).toEqual(before);
  });
});

describe("properties of the lowering (fast-check, seeded)", () => {
  it("a property the lowering reports nothing for is sent as it was; with one unknown key more, it changes by that key alone", () => {
    // Whatever shortcut the lowering takes for nodes it leaves alone, it must not skip a change
    // the full walk would make: the same node forced through the full walk (by one key Gemini
    // does not know) must come out as the node itself, with exactly that drop reported.
    let untouched = 0;
    fc.assert(
      fc.property(fc.oneof(leafLike, likelyInSubset), (node) => {
        const plain = lower({ type: "object", properties: { x: node } });
        fc.pre(under(plain.changes, "/properties/x").length === 0);
        untouched++;
        expect(plain.result.properties!.x).toEqual(node);
        const probed = lower({ type: "object", properties: { x: { ...node, "x-probe": true } as JSONSchemaObject } });
        // An enum node, once rewritten, is written as a STRING enum from its values: one note, and
        // only the keywords the values do not imply are kept.
        const isEnum = Array.isArray(node.enum);
        const expected = isEnum
          ? [["/properties/x", "enum", "rewritten"]]
          : [["/properties/x/x-probe", "x-probe", "dropped"]];
        // (`nullable: false` is what no `nullable` says.)
        const sent = isEnum
          ? (Object.fromEntries(
              Object.entries(node).filter(
                ([key, value]) => ENUM_KEEPS.has(key) && !(key === "nullable" && value === false),
              ),
            ) as JSONSchemaObject)
          : node;
        expect(under(probed.changes, "/properties/x").map((c) => [c.pointer, c.keyword, c.action])).toEqual(expected);
        expect(probed.result.properties!.x).toEqual(sent);
        // A declaration that changed is written with its keys in canonical order.
        expect(Object.keys(probed.result.properties!.x!)).toEqual(Object.keys(canonicalSchema(sent)));
      }),
      { ...RUNS, maxSkipsPerRun: 1_000 },
    );
    expect(untouched).toBeGreaterThan(100);
  });

  it("every leaf-like property comes out inside Gemini's rules", () => {
    fc.assert(
      fc.property(leafLike, (node) => {
        const { declarations } = lower({ type: "object", properties: { x: node } });
        expect(describeViolations(checkGeminiTools(declarations))).toBe("");
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
      TREE_RUNS,
    );
  });

  it("sends the very same object exactly when it reports no change", () => {
    fc.assert(
      fc.property(toolSchema, (schema) => {
        const { result, changes } = lower(schema);
        if (changes.length === 0) expect(result).toBe(schema);
        else expect(result).not.toBe(schema);
      }),
      TREE_RUNS,
    );
  });
});

describe("changes Gemini lowering makes without a keyword to drop are still reported", () => {
  it("reports an empty required list it removes", () => {
    const schema: JSONSchemaObject = { type: "object", properties: { q: { type: "string" } }, required: [] };
    const { result, changes } = lower(schema);
    expect(result).toEqual({ type: "object", properties: { q: { type: "string" } } });
    expect(changes).toEqual([
      expect.objectContaining({ pointer: "/required", keyword: "required", action: "dropped" }),
    ]);
  });

  it("reports an anyOf of one branch it replaces by that branch", () => {
    const schema: JSONSchemaObject = {
      type: "object",
      properties: { q: { description: "Query", anyOf: [{ type: "string" }] } },
    };
    const { result, changes } = lower(schema);
    expect(result).toEqual({ type: "object", properties: { q: { type: "string", description: "Query" } } });
    expect(changes).toEqual([
      expect.objectContaining({ pointer: "/properties/q/anyOf", keyword: "anyOf", action: "rewritten" }),
    ]);
  });

  it("a oneOf or nullable anyOf of one real branch is reported once, not twice", () => {
    const oneOf = lower({ type: "object", properties: { a: { oneOf: [{ type: "string" }] } } });
    expect(oneOf.changes.map((c) => c.keyword)).toEqual(["oneOf"]);
    expect(oneOf.result.properties!.a).toEqual({ type: "string" });
    const nullable = lower({ type: "object", properties: { a: { anyOf: [{ type: "string" }, { type: "null" }] } } });
    expect(nullable.changes.map((c) => c.keyword)).toEqual(["anyOf"]);
    expect(nullable.result.properties!.a).toEqual({ type: "string", nullable: true });
  });
});

describe("schemas that take any value, and boolean subschemas", () => {
  const anyValue = { type: "string", description: ANY_JSON };

  it("true, {} and an array's missing or true items become a string of JSON text, each reported", () => {
    const schema = {
      type: "object",
      properties: { a: true, b: {}, c: { type: "array", items: true }, d: { type: "array" } },
    } as unknown as JSONSchemaObject;
    const { result, changes, declarations } = lower(schema);
    expect(result).toEqual({
      type: "object",
      properties: {
        a: anyValue,
        b: anyValue,
        c: { type: "array", items: anyValue },
        d: { type: "array", items: anyValue },
      },
    });
    expect(changes.map((c) => [c.pointer, c.keyword, c.action])).toEqual([
      ["/properties/a", "type", "rewritten"],
      ["/properties/b", "type", "rewritten"],
      ["/properties/c/items", "type", "rewritten"],
      ["/properties/d/items", "type", "rewritten"],
    ]);
    expect(describeViolations(checkGeminiTools(declarations))).toBe("");
  });

  it("a property whose schema is false is not declared, and that is reported", () => {
    const schema = {
      type: "object",
      properties: { keep: { type: "string" }, never: false },
    } as unknown as JSONSchemaObject;
    const { result, changes, declarations } = lower(schema);
    expect(result).toEqual({ type: "object", properties: { keep: { type: "string" } } });
    expect(changes).toEqual([
      expect.objectContaining({ pointer: "/properties/never", keyword: "properties", action: "dropped" }),
    ]);
    expect(describeViolations(checkGeminiTools(declarations))).toBe("");
  });

  it("answers are read back before the call: JSON text parsed, enum strings decoded, each tuple position by its own schema", async () => {
    const received: Array<Record<string, unknown>> = [];
    const schema = {
      type: "object",
      properties: {
        anything: true,
        list: { type: "array" },
        level: { type: "integer", enum: [1, 2] },
        pair: {
          type: "array",
          items: [
            { type: "integer", enum: [1, 2] },
            { type: "boolean", enum: [true] },
          ],
          additionalItems: false,
        },
      },
    } as unknown as JSONSchemaObject;
    const toolkit = new Toolkit([toolOf(schema, "probe", received)]);
    toolkit.toGemini();
    const reply = await toolkit.runGemini([
      {
        functionCall: {
          id: "1",
          name: "probe",
          args: { anything: '{"k":[1,null]}', list: ["3", '"x"'], level: "2", pair: ["1", "true"] },
        },
      },
    ]);
    expect(reply!.parts[0]!.functionResponse.response).toEqual({ output: "ok" });
    expect(received).toEqual([{ anything: { k: [1, null] }, list: [3, "x"], level: 2, pair: [1, true] }]);
  });
});
