import fc from "fast-check";
import { canonicalSchema } from "../../src/schema/canonical";
import type { JSONSchemaObject } from "../../src";

/**
 * The canonical order, restated here from the specification (not imported): these keywords
 * first, in this order, then every other key alphabetically.
 */
const SPEC_ORDER = [
  "type",
  "title",
  "description",
  "format",
  "enum",
  "const",
  "default",
  "minimum",
  "exclusiveMinimum",
  "maximum",
  "exclusiveMaximum",
  "multipleOf",
  "minLength",
  "maxLength",
  "pattern",
  "items",
  "minItems",
  "maxItems",
  "uniqueItems",
  "properties",
  "required",
  "additionalProperties",
  "anyOf",
  "oneOf",
  "allOf",
];
/** Values that are a map of name → schema: the names keep their declared order. */
const MAPS = new Set(["properties", "patternProperties", "$defs", "definitions"]);
/** Values that are data, not schema: never touched. */
const DATA = new Set(["enum", "const", "default", "examples", "example", "required"]);

const RUNS = { seed: 20261202, numRuns: 400 } as const;

function specRank(key: string): number {
  const index = SPEC_ORDER.indexOf(key);
  return index < 0 ? SPEC_ORDER.length : index;
}

/** Whether `keys` are in canonical order (known keywords by rank, the rest by code unit). */
function inCanonicalOrder(keys: string[]): boolean {
  for (let i = 1; i < keys.length; i++) {
    const a = keys[i - 1]!;
    const b = keys[i]!;
    const ra = specRank(a);
    const rb = specRank(b);
    if (ra > rb) return false;
    if (ra === rb && ra === SPEC_ORDER.length && a > b) return false;
  }
  return true;
}

/** Whether a schema value (node, array of nodes or scalar) and everything below it is already canonical. */
function alreadyCanonical(value: unknown): boolean {
  if (Array.isArray(value)) return value.every(alreadyCanonical);
  if (typeof value !== "object" || value === null) return true;
  const record = value as Record<string, unknown>;
  if (!inCanonicalOrder(Object.keys(record))) return false;
  return Object.entries(record).every(([key, child]) => {
    if (DATA.has(key)) return true;
    if (MAPS.has(key) && typeof child === "object" && child !== null && !Array.isArray(child))
      return Object.values(child).every(alreadyCanonical);
    return alreadyCanonical(child);
  });
}

/**
 * Walks input and output together and checks copy-on-write at every level: a value whose
 * subtree is already canonical comes back as the very same object; any other comes back as
 * a new one, with its keys in canonical order; data keywords always come back as they are.
 */
function expectCopyOnWrite(input: unknown, output: unknown, path = "#"): void {
  if (typeof input !== "object" || input === null) {
    expect(output).toBe(input);
    return;
  }
  if (alreadyCanonical(input)) {
    if (output !== input) throw new Error(`${path}: an already canonical value was copied`);
    return;
  }
  if (output === input) throw new Error(`${path}: a value needing reordering was returned as it was`);
  if (Array.isArray(input)) {
    expect(Array.isArray(output)).toBe(true);
    input.forEach((item, i) => expectCopyOnWrite(item, (output as unknown[])[i], `${path}/${i}`));
    return;
  }
  const inRecord = input as Record<string, unknown>;
  const outRecord = output as Record<string, unknown>;
  expect(inCanonicalOrder(Object.keys(outRecord))).toBe(true);
  expect(Object.keys(outRecord).sort()).toEqual(Object.keys(inRecord).sort());
  for (const [key, child] of Object.entries(inRecord)) {
    const out = outRecord[key];
    if (DATA.has(key)) {
      if (out !== child) throw new Error(`${path}/${key}: a data keyword's value was replaced`);
    } else if (MAPS.has(key) && typeof child === "object" && child !== null && !Array.isArray(child)) {
      // The map itself: copied only when one of its schemas changed; names keep their order.
      const changed = !Object.values(child).every(alreadyCanonical);
      if (changed === (out === child)) throw new Error(`${path}/${key}: map identity does not follow its schemas`);
      expect(Object.keys(out as object)).toEqual(Object.keys(child));
      for (const [name, sub] of Object.entries(child))
        expectCopyOnWrite(sub, (out as Record<string, unknown>)[name], `${path}/${key}/${name}`);
    } else expectCopyOnWrite(child, out, `${path}/${key}`);
  }
}

// ---- Arbitrary: JSON-ish schemas with keys in any order -------------------------------------

const UNKNOWN_KEYS = ["$comment", "$id", "x-vendor", "deprecated", "readOnly", "zeta", "alpha", "not", "if", "then"];
const NAMES = fc.constantFrom("zebra", "apple", "mango", "enum", "default", "type", "b", "a");
const KEYS = [...SPEC_ORDER, ...MAPS, "examples", "example", ...UNKNOWN_KEYS];

/** A data value: JSON, objects included, whose own key order must survive untouched. */
const dataValue = fc.jsonValue({ maxDepth: 2 });

const { schema: schemaArb } = fc.letrec<{ schema: Record<string, unknown>; sub: Record<string, unknown> }>((tie) => {
  const sub = tie("sub");
  const valueFor = (key: string): fc.Arbitrary<unknown> => {
    switch (key) {
      case "type":
        return fc.oneof(
          fc.constantFrom("string", "number", "integer", "boolean", "object", "array", "null"),
          fc.uniqueArray(fc.constantFrom("string", "null", "integer"), { minLength: 1 }),
        );
      case "enum":
      case "examples":
        return fc.array(dataValue, { maxLength: 3 });
      case "const":
      case "default":
      case "example":
        return dataValue;
      case "required":
        return fc.uniqueArray(NAMES, { maxLength: 3 });
      case "properties":
      case "patternProperties":
      case "$defs":
      case "definitions":
        return fc.dictionary(NAMES, sub, { maxKeys: 3 });
      case "items":
        return fc.oneof(sub, fc.array(sub, { maxLength: 2 }));
      case "anyOf":
      case "oneOf":
      case "allOf":
        return fc.array(sub, { minLength: 1, maxLength: 3 });
      case "additionalProperties":
      case "not":
      case "if":
      case "then":
        return fc.oneof(fc.boolean(), sub);
      case "x-vendor":
        // An unknown keyword's object value is read as a schema. Its keys are names, never
        // integer-like: a JS object always lists "0", "1", ... first, whatever order is asked.
        return fc.oneof(fc.string({ maxLength: 4 }), sub);
      default:
        return fc.oneof(fc.integer({ min: -5, max: 50 }), fc.string({ maxLength: 6 }), fc.boolean());
    }
  };
  return {
    schema: fc
      .uniqueArray(
        fc.constantFrom(...KEYS).chain((key) => valueFor(key).map((value) => [key, value] as const)),
        { selector: ([key]) => key, maxLength: 7 },
      )
      .map((entries) => Object.fromEntries(entries)),
    sub: fc.oneof({ maxDepth: 3, depthIdentifier: "schema" }, fc.constant({}), tie("schema")),
  };
});

/** Half of the generated schemas are made canonical first, so the "already in order" path is well covered. */
const anySchema = fc
  .tuple(schemaArb, fc.boolean())
  .map(([schema, presort]) => (presort ? canonicalSchema(structuredClone(schema)) : schema));

// ---- Specification ---------------------------------------------------------------------------

describe("canonicalSchema (copy-on-write)", () => {
  describe("a schema already in canonical order", () => {
    it("is returned as the very same object, and so is every nested node", () => {
      const city: JSONSchemaObject = { type: "string", description: "City name", minLength: 1 };
      const days: JSONSchemaObject = { type: "integer", minimum: 1, maximum: 14 };
      const tag: JSONSchemaObject = { type: "string", enum: ["a", "b"] };
      const tags: JSONSchemaObject = { type: "array", items: tag, maxItems: 5 };
      const either: JSONSchemaObject[] = [{ type: "string" }, { type: "number", minimum: 0 }];
      const properties = { city, days, tags, either: { anyOf: either } };
      const schema: JSONSchemaObject = { type: "object", properties, required: ["city"], additionalProperties: false };

      const result = canonicalSchema(schema);

      expect(result).toBe(schema);
      expect(result.properties).toBe(properties);
      expect(result.properties!.city).toBe(city);
      expect(result.properties!.days).toBe(days);
      expect(result.properties!.tags).toBe(tags);
      expect(result.properties!.tags!.items).toBe(tag);
      expect(result.properties!.either!.anyOf).toBe(either);
    });

    it("is returned as it is when it holds unknown keywords in alphabetical order after the known ones", () => {
      const schema: JSONSchemaObject = {
        type: "string",
        pattern: "^a",
        $comment: "c",
        deprecated: true,
        "x-vendor": { type: "string" },
      };
      expect(canonicalSchema(schema)).toBe(schema);
    });

    it("is returned as it is whatever order its properties are declared in", () => {
      const schema: JSONSchemaObject = {
        type: "object",
        properties: { zebra: { type: "string" }, apple: { type: "number" } },
      };
      expect(canonicalSchema(schema)).toBe(schema);
    });
  });

  describe("an out-of-order node", () => {
    it("comes back as a new object whose keys follow type, title, description, format, enum, const, default, minimum, ... then unknown keys alphabetically", () => {
      const reversed: Record<string, unknown> = {};
      for (const key of ["zeta", "x-b", "alpha", "$comment", ...[...SPEC_ORDER].reverse()])
        reversed[key] = key === "type" ? "string" : 1;
      const result = canonicalSchema(reversed as JSONSchemaObject);

      expect(result).not.toBe(reversed);
      expect(Object.keys(result)).toEqual([...SPEC_ORDER, "$comment", "alpha", "x-b", "zeta"]);
      expect(result).toEqual(reversed);
    });

    it("puts the first keywords in their stated order", () => {
      const result = canonicalSchema({
        default: "x",
        const: "x",
        enum: ["x"],
        format: "email",
        description: "d",
        title: "t",
        type: "string",
      });
      expect(Object.keys(result)).toEqual(["type", "title", "description", "format", "enum", "const", "default"]);
    });

    it("is copied while its unchanged siblings and subtrees keep their identity", () => {
      const email = { type: "string", format: "email" };
      const count = { minimum: 1, type: "integer", description: "How many" };
      const itemSchema = { type: "string", maxLength: 3 };
      const list = { type: "array", items: itemSchema };
      const properties = { email, count, list };
      const schema = { type: "object", properties, required: ["email"] } as JSONSchemaObject;

      const result = canonicalSchema(schema);

      expect(result).not.toBe(schema);
      expect(result.properties).not.toBe(properties);
      expect(result.properties!.email).toBe(email);
      expect(result.properties!.list).toBe(list);
      expect(result.properties!.list!.items).toBe(itemSchema);
      expect(result.properties!.count).not.toBe(count);
      expect(Object.keys(result.properties!.count!)).toEqual(["type", "description", "minimum"]);
      expect(result.required).toBe(schema.required);
    });

    it("inside an anyOf gives a new array whose other branches are the same objects", () => {
      const first = { type: "string" };
      const second = { minimum: 0, type: "number" };
      const third = { type: "null" };
      const anyOf = [first, second, third];
      const result = canonicalSchema({ anyOf } as JSONSchemaObject);

      expect(result.anyOf).not.toBe(anyOf);
      const branches = result.anyOf as JSONSchemaObject[];
      expect(branches[0]).toBe(first);
      expect(branches[1]).not.toBe(second);
      expect(Object.keys(branches[1]!)).toEqual(["type", "minimum"]);
      expect(branches[2]).toBe(third);
    });

    it("deep in the tree copies exactly the path from the root down to it", () => {
      const deep: JSONSchemaObject = { maxLength: 2, type: "string" };
      const sibling: JSONSchemaObject = { type: "boolean" };
      const inner: JSONSchemaObject = { type: "object", properties: { deep, sibling } };
      const outerSibling: JSONSchemaObject = { type: "number" };
      const schema: JSONSchemaObject = { type: "object", properties: { inner, outerSibling } };

      const result = canonicalSchema(schema);
      const innerOut = result.properties!.inner!;

      expect(result).not.toBe(schema);
      expect(innerOut).not.toBe(inner);
      expect(innerOut.properties!.deep).not.toBe(deep);
      expect(innerOut.properties!.sibling).toBe(sibling);
      expect(result.properties!.outerSibling).toBe(outerSibling);
      expect(Object.keys(innerOut.properties!.deep!)).toEqual(["type", "maxLength"]);
    });
  });

  describe("maps and data", () => {
    it("keeps properties and $defs names in their declared order while reordering the schemas inside", () => {
      const schema = {
        $defs: { Zed: { minimum: 0, type: "number" }, Alpha: { type: "string" } },
        properties: {
          zebra: { format: "date", type: "string" },
          apple: { type: "number" },
          mango: { enum: ["m"], type: "string" },
        },
        type: "object",
      } as JSONSchemaObject;

      const result = canonicalSchema(schema);

      expect(Object.keys(result)).toEqual(["type", "properties", "$defs"]);
      expect(Object.keys(result.properties!)).toEqual(["zebra", "apple", "mango"]);
      expect(Object.keys(result.$defs as object)).toEqual(["Zed", "Alpha"]);
      expect(Object.keys(result.properties!.zebra!)).toEqual(["type", "format"]);
      expect(Object.keys((result.$defs as Record<string, object>).Zed!)).toEqual(["type", "minimum"]);
    });

    it("treats a property named like a data keyword (enum, default) as a schema", () => {
      const schema = {
        type: "object",
        properties: { enum: { minimum: 1, type: "integer" }, default: { type: "string" } },
      } as JSONSchemaObject;
      const result = canonicalSchema(schema);
      expect(Object.keys(result.properties!.enum!)).toEqual(["type", "minimum"]);
      expect(result.properties!.default).toBe(schema.properties!.default);
    });

    it("leaves enum, const, default, required and examples values exactly as they are, objects included", () => {
      const enumValues = [{ zeta: 1, alpha: 2 }, "b", "a"];
      const constValue = { type: "x", minimum: 3, a: 1 };
      const defaultValue = { minimum: 1, type: "object", z: [{ y: 1, b: 2 }] };
      const required = ["zebra", "apple"];
      const examples = [{ z: 1, a: 1 }, [3, 1, 2]];
      const schema = {
        examples,
        required,
        default: defaultValue,
        const: constValue,
        enum: enumValues,
        type: "object",
      } as JSONSchemaObject;
      const before = structuredClone(schema);

      const result = canonicalSchema(schema);

      expect(result).not.toBe(schema);
      expect(result.enum).toBe(enumValues);
      expect(result.const).toBe(constValue);
      expect(result.default).toBe(defaultValue);
      expect(result.required).toBe(required);
      expect(result.examples).toBe(examples);
      expect(Object.keys(constValue)).toEqual(["type", "minimum", "a"]);
      expect(Object.keys(defaultValue)).toEqual(["minimum", "type", "z"]);
      expect(Object.keys(defaultValue.z[0]!)).toEqual(["y", "b"]);
      expect(Object.keys(enumValues[0] as object)).toEqual(["zeta", "alpha"]);
      expect(required).toEqual(["zebra", "apple"]);
      expect(schema).toEqual(before);
    });

    it("returns a node whose only out-of-order keys are inside data values as it is", () => {
      const schema = { type: "string", enum: [{ b: 1, a: 2 }], default: { z: 1, a: 2 } } as JSONSchemaObject;
      expect(canonicalSchema(schema)).toBe(schema);
    });
  });

  describe("properties (fast-check, seeded)", () => {
    it("never mutates its input", () => {
      fc.assert(
        fc.property(anySchema, (schema) => {
          const before = structuredClone(schema);
          canonicalSchema(schema as JSONSchemaObject);
          expect(schema).toEqual(before);
          // Same key order too: the input's own objects are not reordered in place.
          expect(JSON.stringify(schema)).toBe(JSON.stringify(before));
        }),
        RUNS,
      );
    });

    it("returns a schema deep-equal to its input", () => {
      fc.assert(
        fc.property(anySchema, (schema) => {
          expect(canonicalSchema(schema as JSONSchemaObject)).toEqual(schema);
        }),
        RUNS,
      );
    });

    it("is idempotent: a second pass returns its input by identity", () => {
      fc.assert(
        fc.property(anySchema, (schema) => {
          const once = canonicalSchema(schema as JSONSchemaObject);
          const twice = canonicalSchema(once);
          expect(twice).toBe(once);
          expect(alreadyCanonical(once)).toBe(true);
        }),
        RUNS,
      );
    });

    it("copies exactly the nodes that need reordering, or hold one that does", () => {
      fc.assert(
        fc.property(anySchema, (schema) => {
          expectCopyOnWrite(schema, canonicalSchema(schema as JSONSchemaObject));
        }),
        RUNS,
      );
    });
  });
});

describe("canonical key order", () => {
  it("orders unknown keywords by code unit, whatever the locale", () => {
    expect(Object.keys(canonicalSchema({ type: "object", "x-b": 1, "x-B": 2, "x-a": 3 }))).toEqual([
      "type",
      "x-B",
      "x-a",
      "x-b",
    ]);
  });
});
