import fc from "fast-check";
import type { JSONSchemaObject } from "../../src/core/types";
import {
  FEATURES,
  features,
  toolSchemaCase,
  validatorFor,
  walkSchema,
  type SchemaCase,
} from "../support/schema-arbitraries";

const RUNS = { numRuns: 1000, seed: 7 } as const;
/** Each feature must show up in at least this share of sampled cases. */
const MIN_SHARE = 0.02;
const FORBIDDEN = new Set(["__proto__", "constructor", "prototype", ...Object.getOwnPropertyNames(Object.prototype)]);

type Obj = Record<string, unknown>;
/** JSONSchemaObject has no boolean subschemas (`items: false`); these literals need them. */
const schemaOf = (s: Obj) => s as JSONSchemaObject;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/** Every key of every object inside `value`. */
function keysIn(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((v) => keysIn(v, out));
  else if (isObj(value)) {
    for (const [k, v] of Object.entries(value)) {
      out.push(k);
      keysIn(v, out);
    }
  }
  return out;
}

function resolve(root: Obj, ref: unknown): unknown {
  const m = typeof ref === "string" ? /^#\/(\$defs|definitions)\/([^/]+)$/.exec(ref) : null;
  return m ? (root[m[1]!] as Obj | undefined)?.[m[2]!] : undefined;
}

function typeFits(schema: Obj, value: unknown): boolean {
  if (schema.type === undefined) return true;
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  const actual =
    value === null
      ? "null"
      : Array.isArray(value)
        ? "array"
        : typeof value === "number"
          ? Number.isInteger(value)
            ? "integer"
            : "number"
          : typeof value;
  return types.includes(actual) || (actual === "integer" && types.includes("number"));
}

/**
 * How many times one def is re-entered along some path through `value` (0: entered once, not
 * nested in itself; -1: never entered). Follows properties, items and combinator branches whose
 * type fits: enough for the generated recursive defs. A null ends a chain rather than nesting in it,
 * even where the def itself allows null.
 */
function recursionLevel(root: Obj, schema: unknown, value: unknown, stack: readonly string[] = []): number {
  if (!isObj(schema) || value === null) return -1;
  let best = -1;
  if (typeof schema.$ref === "string") {
    const count = stack.filter((r) => r === schema.$ref).length;
    best = Math.max(best, count, recursionLevel(root, resolve(root, schema.$ref), value, [...stack, schema.$ref]));
  }
  for (const k of ["anyOf", "oneOf", "allOf"]) {
    for (const branch of (schema[k] as unknown[] | undefined) ?? []) {
      if (isObj(branch) && typeFits(branch, value)) best = Math.max(best, recursionLevel(root, branch, value, stack));
    }
  }
  if (isObj(value) && isObj(schema.properties)) {
    for (const [name, sub] of Object.entries(schema.properties))
      if (name in value) best = Math.max(best, recursionLevel(root, sub, value[name], stack));
  }
  if (Array.isArray(value) && isObj(schema.items))
    for (const v of value) best = Math.max(best, recursionLevel(root, schema.items, v, stack));
  return best;
}

describe("generated tool schemas and their values", () => {
  // Made once for every test below (the seed gives fast-check's same values as a property run).
  let sampled: SchemaCase[];
  beforeAll(() => {
    sampled = fc.sample(toolSchemaCase, RUNS);
  });

  it("every schema compiles and every value is valid under it", () => {
    sampled.forEach(({ schema, values }, index) => {
      const valid = validatorFor(schema);
      expect(values.length).toBeGreaterThanOrEqual(1);
      expect(values.length).toBeLessThanOrEqual(6);
      for (const value of values) {
        expect(isObj(value)).toBe(true);
        if (!valid(value))
          throw new Error(
            `case ${index} of seed ${RUNS.seed}: invalid value ${JSON.stringify(value)}\nunder ${JSON.stringify(schema)}`,
          );
      }
    });
  });

  it("schemas and values are plain JSON, without prototype-reaching names", () => {
    for (const { schema, values } of sampled) {
      expect(JSON.parse(JSON.stringify(schema))).toEqual(schema);
      expect(JSON.parse(JSON.stringify(values))).toEqual(values);
      const declared: string[] = [];
      walkSchema(schema, (s) => {
        if (isObj(s) && isObj(s.properties)) declared.push(...Object.keys(s.properties));
      });
      expect(declared.filter((n) => FORBIDDEN.has(n))).toEqual([]);
      expect(declared.filter((n) => !/^[A-Za-z_][A-Za-z0-9_]{0,15}$/.test(n))).toEqual([]);
      expect(keysIn(values).filter((k) => FORBIDDEN.has(k))).toEqual([]);
    }
  });

  it("covers every feature in at least 2% of cases", () => {
    const counts = new Map<string, number>(FEATURES.map((f) => [f, 0]));
    for (const { schema } of sampled) {
      for (const f of features(schema)) {
        expect(FEATURES).toContain(f);
        counts.set(f, counts.get(f)! + 1);
      }
    }
    const rare = [...counts].filter(([, n]) => n < MIN_SHARE * sampled.length).map(([f, n]) => `${f}: ${n}`);
    expect(rare).toEqual([]);
  });

  it("values omit optional properties sometimes, and nest recursive defs 0 to 5 levels deep", () => {
    let omitted = 0;
    const levels = new Map<number, number>();
    for (const { schema, values } of sampled) {
      const root = schema as Obj;
      const required = new Set((schema.required as string[] | undefined) ?? []);
      const optional = Object.entries(schema.properties ?? {}).filter(
        ([name, sub]) => (sub as unknown) !== false && !required.has(name),
      );
      if (optional.some(([name]) => values.some((v) => !(name in (v as Obj))))) omitted++;
      if (features(schema).has("ref:recursive")) {
        for (const v of values) {
          const level = recursionLevel(root, root, v);
          levels.set(level, (levels.get(level) ?? 0) + 1);
        }
      }
    }
    expect(omitted).toBeGreaterThanOrEqual(MIN_SHARE * sampled.length);
    expect([...levels.keys()].filter((l) => l >= 0).sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5]);
  });

  describe("validatorFor", () => {
    const draft7Tuple: JSONSchemaObject = {
      type: "array",
      items: [{ type: "string" }, { type: "integer" }],
      additionalItems: false,
    };
    const tuple2020 = schemaOf({ type: "array", prefixItems: [{ type: "string" }, { type: "integer" }], items: false });

    it("reads `items: [..]` as a draft 7 tuple", () => {
      const valid = validatorFor(draft7Tuple);
      expect([valid(["a", 1]), valid(["a"]), valid(["a", "b"]), valid(["a", 1, 2])]).toEqual([
        true,
        true,
        false,
        false,
      ]);
    });

    it("reads `prefixItems` as a 2020-12 tuple", () => {
      const valid = validatorFor(tuple2020);
      expect([valid(["a", 1]), valid(["a"]), valid(["a", "b"]), valid(["a", 1, 2])]).toEqual([
        true,
        true,
        false,
        false,
      ]);
    });

    it("goes by keywords, not by a property that happens to be named prefixItems", () => {
      const valid = validatorFor({ type: "object", properties: { prefixItems: draft7Tuple } });
      expect([valid({ prefixItems: ["a", 1] }), valid({ prefixItems: ["a", 1, 2] })]).toEqual([true, false]);
    });

    it("follows a declared $schema", () => {
      const valid = validatorFor(
        schemaOf({
          $schema: "https://json-schema.org/draft/2020-12/schema",
          type: "object",
          properties: { t: { type: "array", prefixItems: [{ type: "integer" }], items: false } },
        }),
      );
      expect([valid({ t: [1] }), valid({ t: [1, 2] })]).toEqual([true, false]);
    });

    it("checks formats", () => {
      const valid = validatorFor({
        type: "object",
        properties: { at: { type: "string", format: "date-time" }, ip: { type: "string", format: "ipv4" } },
      });
      expect([
        valid({ at: "2024-02-29T12:00:00Z", ip: "10.0.0.1" }),
        valid({ at: "2023-02-29T12:00:00Z" }),
        valid({ ip: "256.0.0.1" }),
      ]).toEqual([true, false, false]);
    });
  });
});
