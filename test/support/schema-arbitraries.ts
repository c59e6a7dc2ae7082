/**
 * Arbitrary tool input schemas, each with values that are valid under it by construction.
 *
 * Every generator yields a schema node together with an arbitrary of its valid values, so a
 * composite node's values are built from its children's. The mix is weighted toward what
 * dialect lowering tends to get wrong: literals of every JSON type, combinators, `$ref`s
 * (recursive ones too), type arrays with "null", both tuple spellings, boolean subschemas,
 * patternProperties, formats and deep nesting.
 */
import fc from "fast-check";
import Ajv from "ajv";
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import type { JSONSchemaObject } from "../../src/core/types";

export interface SchemaCase {
  /** A root schema for a tool's input: it accepts JSON objects only. */
  schema: JSONSchemaObject;
  /** 1..6 values, each valid under `schema`, each a JSON object. */
  values: unknown[];
}

// ---- Nodes -----------------------------------------------------------------------------------

// Built loosely (boolean subschemas, keywords JSONSchemaObject does not name); typed at the exit.
type SchemaObj = Record<string, unknown>;
type Schema = SchemaObj | boolean;
type Entries = [string, unknown][];

/** A schema and the values it accepts (some of them). */
interface Node {
  schema: Schema;
  value: fc.Arbitrary<unknown>;
}

function node(schema: Schema, value: fc.Arbitrary<unknown>): Node {
  return { schema, value };
}

function w<T>(weight: number, arbitrary: fc.Arbitrary<T>): fc.WeightedArbitrary<T> {
  return { weight, arbitrary };
}

/** fc.oneof over the entries whose weight is positive (depth scaling turns some off). */
function pick<T>(...entries: fc.WeightedArbitrary<T>[]): fc.Arbitrary<T> {
  return fc.oneof(...entries.filter((e) => e.weight > 0));
}

/** Deep copy through JSON text: values and schemas leave as plain JSON (no -0, no shared objects). */
function json<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

function asObject(entries: Entries): Record<string, unknown> {
  return Object.fromEntries(entries);
}

// ---- Names -----------------------------------------------------------------------------------

/** Names a property may not have: they reach the prototype or shadow what every object has. */
const FORBIDDEN_NAMES: ReadonlySet<string> = new Set([
  "__proto__",
  "constructor",
  "prototype",
  ...Object.getOwnPropertyNames(Object.prototype),
]);

/** Property names that are also schema keywords: code walking `properties` must not read them as keywords. */
const KEYWORD_NAMES = [
  "type",
  "properties",
  "items",
  "enum",
  "const",
  "required",
  "default",
  "description",
  "format",
  "nullable",
  "anyOf",
  "oneOf",
  "allOf",
  "pattern",
  "minimum",
  "title",
  "prefixItems",
  "definitions",
  "ref",
];
const COMMON_NAMES = [
  "id",
  "name",
  "count",
  "user_id",
  "isActive",
  "x",
  "value",
  "tags",
  "createdAt",
  "_private",
  "A1",
  "limit",
];

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]{0,15}$/;

const propName: fc.Arbitrary<string> = fc
  .oneof(
    w(5, fc.stringMatching(IDENTIFIER)),
    w(3, fc.constantFrom(...COMMON_NAMES)),
    w(2, fc.constantFrom(...KEYWORD_NAMES)),
  )
  // extra_* names are kept for undeclared keys in values.
  .filter((name) => !FORBIDDEN_NAMES.has(name) && !name.startsWith("extra_"));

const defName: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom("Node", "Address", "Item", "Status", "Tree", "Expr", "Money"),
  fc.stringMatching(/^[A-Z][A-Za-z0-9_]{0,11}$/),
);

/** Keys of undeclared properties in values; no pattern below matches them. */
const extraName = fc.stringMatching(/^extra_[a-z]{1,6}$/);

interface PatternProperty {
  pattern: string;
  regex: RegExp;
  /** Keys that match the pattern (and no other pattern in this list). */
  key: fc.Arbitrary<string>;
}

const PATTERNS: readonly PatternProperty[] = [
  { pattern: "^x_[a-z0-9]+$", regex: /^x_[a-z0-9]+$/, key: fc.stringMatching(/^x_[a-z0-9]{1,6}$/) },
  { pattern: "^[0-9]+$", regex: /^[0-9]+$/, key: fc.stringMatching(/^[0-9]{1,4}$/) },
  { pattern: "^meta\\.", regex: /^meta\./, key: fc.stringMatching(/^meta\.[a-z]{1,6}$/) },
  { pattern: "^S_", regex: /^S_/, key: fc.stringMatching(/^S_[A-Za-z0-9]{0,6}$/) },
];

// ---- Scalars and literals --------------------------------------------------------------------

/** Strings that a careless encoder might turn into another type, or that need escaping. */
const TRICKY_STRINGS = [
  "",
  " ",
  "1",
  "0",
  "-1.5",
  "true",
  "false",
  "null",
  "{}",
  "[]",
  'a"b',
  "line\nbreak",
  "tab\t",
  "back\\slash",
  "ünïcödé",
  "😀",
  "$ref",
  "#/$defs/X",
];

const anyString = fc.oneof(
  w(4, fc.string({ maxLength: 10 })),
  w(1, fc.string({ unit: "grapheme", maxLength: 4 })),
  w(2, fc.constantFrom(...TRICKY_STRINGS)),
);
const anyInteger = fc.oneof(
  w(5, fc.integer({ min: -1000, max: 1000 })),
  w(1, fc.constantFrom(0, -1, 1, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER)),
);
const anyNumber = fc.oneof(
  w(4, fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e9, max: 1e9 })),
  w(2, fc.constantFrom(0, 0.5, -2.75, 1e-7, 123456.789, 1e21)),
  // integers are numbers too, and serialize without a fraction
  w(1, fc.integer({ min: -100, max: 100 })),
);
const anyScalar = fc.oneof(anyString, anyInteger, anyNumber, fc.boolean(), fc.constant(null));

/** Any small JSON value with safe keys: what `true`, `{}` and untyped schemas accept. */
const anyJson: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", maxDepth: 2 },
    w(6, anyScalar),
    w(1, fc.array(tie("value"), { maxLength: 3 })),
    w(1, fc.uniqueArray(fc.tuple(propName, tie("value")), { maxLength: 3, selector: (e) => e[0] }).map(asObject)),
  ),
})).value;

/** Literals for const and enum, one group per JSON type (and per kind of string). */
const LITERALS = {
  emptyString: [""],
  strings: ["a", "hello world", "metric", "A_B", "ünï", "x-y"],
  scalarLookingStrings: ["1", "0", "-1", "1.5", "true", "false", "null"],
  integers: [1, 2, 7, 42, 1000],
  negatives: [-1, -3.5, -100],
  zero: [0],
  floats: [1.5, 0.25, 3.14, 2.5e-3],
  booleans: [true, false],
  nulls: [null],
  objects: [{ a: 1 }, {}, { k: "v", n: null }, { nested: { x: [1, 2] } }],
  arrays: [[], [1, "a"], [null], [[1]]],
} as const;

const literal: fc.Arbitrary<unknown> = fc.oneof(
  w(2, fc.constantFrom(...LITERALS.emptyString)),
  w(3, fc.constantFrom(...LITERALS.strings)),
  w(3, fc.constantFrom(...LITERALS.scalarLookingStrings)),
  w(3, fc.constantFrom(...LITERALS.integers)),
  w(2, fc.constantFrom(...LITERALS.negatives)),
  w(2, fc.constantFrom(...LITERALS.zero)),
  w(2, fc.constantFrom(...LITERALS.floats)),
  w(2, fc.constantFrom(...LITERALS.booleans)),
  w(2, fc.constantFrom(...LITERALS.nulls)),
  w(2, fc.constantFrom(...LITERALS.objects)),
  w(2, fc.constantFrom(...LITERALS.arrays)),
  w(1, anyString),
  w(1, anyInteger),
);
const stringLiteral = fc.oneof(
  fc.constantFrom(...LITERALS.emptyString, ...LITERALS.strings, ...LITERALS.scalarLookingStrings),
  anyString,
);
const numberLiteral = fc.oneof(
  fc.constantFrom(...LITERALS.integers, ...LITERALS.negatives, ...LITERALS.zero, ...LITERALS.floats),
  anyInteger,
);

/** The JSON type of a value; integers are "integer". */
function jsonType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

/** A `type` that every one of `values` satisfies (and nothing much wider). */
function typeOf(values: readonly unknown[], widenIntegers: boolean): string | string[] {
  const types = new Set(values.map(jsonType));
  if (types.has("number") || (widenIntegers && types.has("integer"))) {
    types.delete("integer");
    types.add("number");
  }
  const list = [...types];
  return list.length === 1 ? list[0]! : list;
}

const literalKey = (value: unknown) => JSON.stringify(value);

/** `enum` of 1..6 distinct literals, homogeneous or mixed, with or without `type`. */
const enumLeaf: fc.Arbitrary<Node> = fc
  .tuple(
    fc.oneof(
      w(4, fc.uniqueArray(literal, { minLength: 2, maxLength: 6, selector: literalKey })),
      w(3, fc.uniqueArray(stringLiteral, { minLength: 1, maxLength: 5, selector: literalKey })),
      w(2, fc.uniqueArray(numberLiteral, { minLength: 1, maxLength: 5, selector: literalKey })),
      w(
        1,
        literal.map((v) => [v]),
      ),
    ),
    fc.boolean(),
    fc.boolean(),
  )
  .map(([values, typed, widen]) =>
    node(typed ? { type: typeOf(values, widen), enum: values } : { enum: values }, fc.constantFrom(...values)),
  );

const constLeaf: fc.Arbitrary<Node> = fc
  .tuple(literal, fc.boolean(), fc.boolean())
  .map(([value, typed, widen]) =>
    node(typed ? { type: typeOf([value], widen), const: value } : { const: value }, fc.constant(value)),
  );

// ---- Strings ---------------------------------------------------------------------------------

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

const fullDate = fc
  .record({
    year: fc.integer({ min: 1900, max: 2099 }),
    month: fc.integer({ min: 1, max: 12 }),
    day: fc.integer({ min: 1, max: 31 }),
  })
  .map(({ year, month, day }) => {
    // Clamp to the month's length (leap years included) so the date is real.
    const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
    return `${pad(year, 4)}-${pad(month)}-${pad(Math.min(day, last))}`;
  });
const timeZone = fc.oneof(fc.constant("Z"), fc.constantFrom("+00:00", "+05:30", "-08:00", "+14:00", "-12:00"));
const fullTime = fc
  .record({
    h: fc.integer({ min: 0, max: 23 }),
    m: fc.integer({ min: 0, max: 59 }),
    s: fc.integer({ min: 0, max: 59 }),
    frac: fc.option(fc.stringMatching(/^[0-9]{1,6}$/), { nil: undefined }),
    tz: timeZone,
  })
  .map(({ h, m, s, frac, tz }) => `${pad(h)}:${pad(m)}:${pad(s)}${frac === undefined ? "" : `.${frac}`}${tz}`);

/** Values of each format, all accepted by ajv-formats' full checks. */
const FORMATS: Record<string, fc.Arbitrary<string>> = {
  "date-time": fc.tuple(fullDate, fullTime).map(([d, t]) => `${d}T${t}`),
  date: fullDate,
  time: fullTime,
  email: fc.oneof(
    fc.emailAddress(),
    fc
      .tuple(
        fc.stringMatching(/^[a-z][a-z0-9.]{0,8}[a-z0-9]$/),
        fc.constantFrom("example.com", "mail.example.org", "x.io"),
      )
      .map(([l, d]) => `${l.replace(/\.\.+/g, ".")}@${d}`),
  ),
  uri: fc.oneof(
    fc.webUrl({ withQueryParameters: true, withFragments: true }),
    fc.constantFrom(
      "https://example.com",
      "http://localhost:8080/a/b?c=d#e",
      "urn:isbn:0451450523",
      "mailto:someone@example.com",
      "ftp://ftp.example.org/file.txt",
    ),
  ),
  uuid: fc.uuid(),
  ipv4: fc.ipV4(),
  hostname: fc.oneof(
    fc.domain(),
    fc.constantFrom("localhost", "example.com", "a-b.example.co.uk", "xn--bcher-kva.example"),
  ),
};
export const FORMAT_NAMES: readonly string[] = Object.keys(FORMATS);

interface StringPattern {
  pattern: string;
  value: fc.Arbitrary<string>;
}
const STRING_PATTERNS: readonly StringPattern[] = [
  { pattern: "^[a-z]+$", value: fc.stringMatching(/^[a-z]{1,8}$/) },
  { pattern: "^[A-Z]{2,3}$", value: fc.stringMatching(/^[A-Z]{2,3}$/) },
  { pattern: "^\\d{3}-\\d{4}$", value: fc.stringMatching(/^\d{3}-\d{4}$/) },
  { pattern: "^[a-z0-9_-]{3,16}$", value: fc.stringMatching(/^[a-z0-9_-]{3,16}$/) },
  { pattern: "^(red|green|blue)$", value: fc.constantFrom("red", "green", "blue") },
  // Unanchored: a digit anywhere.
  {
    pattern: "[0-9]",
    value: fc
      .tuple(fc.stringMatching(/^[a-z ]{0,4}$/), fc.integer({ min: 0, max: 9 }), fc.stringMatching(/^[a-z ]{0,4}$/))
      .map(([a, d, b]) => `${a}${d}${b}`),
  },
];

const stringLeaf: fc.Arbitrary<Node> = fc.oneof(
  w(5, fc.constant(node({ type: "string" }, anyString))),
  w(
    2,
    fc
      .record({
        min: fc.integer({ min: 0, max: 3 }),
        span: fc.integer({ min: 0, max: 8 }),
        which: fc.constantFrom("both", "min", "max"),
      })
      .map(({ min, span, which }) => {
        const schema: SchemaObj = { type: "string" };
        if (which !== "max") schema.minLength = min;
        if (which !== "min") schema.maxLength = min + span;
        // Ascii units: ajv counts code points, and so does this.
        return node(
          schema,
          fc.string({ minLength: which === "max" ? 0 : min, maxLength: which === "min" ? min + 8 : min + span }),
        );
      }),
  ),
  w(
    2,
    fc.constantFrom(...STRING_PATTERNS).map(({ pattern, value }) => node({ type: "string", pattern }, value)),
  ),
  w(
    6,
    fc.constantFrom(...FORMAT_NAMES).map((format) => node({ type: "string", format }, FORMATS[format]!)),
  ),
);

// ---- Numbers ---------------------------------------------------------------------------------

const integerLeaf: fc.Arbitrary<Node> = fc.oneof(
  w(4, fc.constant(node({ type: "integer" }, anyInteger))),
  w(
    2,
    fc
      .record({
        min: fc.integer({ min: -50, max: 50 }),
        span: fc.integer({ min: 0, max: 100 }),
        which: fc.constantFrom("both", "min", "max"),
      })
      .map(({ min, span, which }) => {
        const max = min + span;
        const schema: SchemaObj = { type: "integer" };
        if (which !== "max") schema.minimum = min;
        if (which !== "min") schema.maximum = max;
        return node(
          schema,
          fc.integer({ min: which === "max" ? max - 1000 : min, max: which === "min" ? min + 1000 : max }),
        );
      }),
  ),
  w(
    1,
    fc.tuple(fc.integer({ min: -10, max: 10 }), fc.boolean()).map(([bound, capped]) => {
      const schema: SchemaObj = { type: "integer", exclusiveMinimum: bound };
      if (capped) schema.maximum = bound + 50;
      return node(schema, fc.integer({ min: bound + 1, max: bound + 50 }));
    }),
  ),
  w(
    1,
    fc.tuple(fc.constantFrom(2, 3, 5, 10), fc.boolean()).map(([step, nonNegative]) => {
      const schema: SchemaObj = { type: "integer", multipleOf: step };
      if (nonNegative) schema.minimum = 0;
      return node(
        schema,
        fc.integer({ min: nonNegative ? 0 : -20, max: 20 }).map((k) => k * step),
      );
    }),
  ),
);

const numberLeaf: fc.Arbitrary<Node> = fc.oneof(
  w(4, fc.constant(node({ type: "number" }, anyNumber))),
  w(
    2,
    fc
      .record({
        min: fc.integer({ min: -50, max: 50 }),
        span: fc.integer({ min: 0, max: 100 }),
        which: fc.constantFrom("both", "min", "max"),
      })
      .map(({ min, span, which }) => {
        const max = min + span;
        const schema: SchemaObj = { type: "number" };
        if (which !== "max") schema.minimum = min;
        if (which !== "min") schema.maximum = max;
        return node(
          schema,
          fc.double({ noNaN: true, min: which === "max" ? max - 1000 : min, max: which === "min" ? min + 1000 : max }),
        );
      }),
  ),
  w(
    1,
    fc
      .integer({ min: -10, max: 10 })
      .map((bound) =>
        node(
          { type: "number", exclusiveMinimum: bound },
          fc.double({ noNaN: true, min: bound, max: bound + 100, minExcluded: true }),
        ),
      ),
  ),
  w(
    1,
    // Steps whose multiples divide back exactly in binary floating point.
    fc.constantFrom(0.5, 0.25, 2.5).map((step) =>
      node(
        { type: "number", multipleOf: step },
        fc.integer({ min: -40, max: 40 }).map((k) => k * step),
      ),
    ),
  ),
);

const booleanLeaf: fc.Arbitrary<Node> = fc.oneof(
  w(4, fc.constant(node({ type: "boolean" }, fc.boolean()))),
  w(1, fc.constant(node({ type: "boolean", const: true }, fc.constant(true)))),
);
const nullLeaf: fc.Arbitrary<Node> = fc.constant(node({ type: "null" }, fc.constant(null)));

type Scalar = "string" | "integer" | "number" | "boolean";
const SCALAR_VALUES: Record<Scalar | "null", fc.Arbitrary<unknown>> = {
  string: anyString,
  integer: anyInteger,
  number: anyNumber,
  boolean: fc.boolean(),
  null: fc.constant(null),
};
const SCALAR_LEAVES: Record<Scalar, fc.Arbitrary<Node>> = {
  string: stringLeaf,
  integer: integerLeaf,
  number: numberLeaf,
  boolean: booleanLeaf,
};

/** `type: [T, "null"]` (either order), keeping T's constraints: they apply to non-null values only. */
const nullableScalar: fc.Arbitrary<Node> = fc
  .tuple(fc.constantFrom<Scalar>("string", "integer", "number", "boolean"), fc.boolean())
  .chain(([kind, nullFirst]) =>
    SCALAR_LEAVES[kind].map(({ schema, value }) => {
      const s = schema as SchemaObj;
      // A const does not allow null; keep that one plain.
      const base = "const" in s ? { type: kind } : s;
      const types = nullFirst ? ["null", kind] : [kind, "null"];
      return node({ ...base, type: types }, fc.oneof(base === s ? value : SCALAR_VALUES[kind], fc.constant(null)));
    }),
  );

/** Type arrays of several non-null types, e.g. ["string", "integer"]. */
const multiTypeScalar: fc.Arbitrary<Node> = fc
  .constantFrom<(Scalar | "null")[]>(
    ["string", "integer"],
    ["integer", "string"],
    ["string", "number", "boolean"],
    ["integer", "boolean"],
    ["boolean", "string", "null"],
  )
  .map((types) => node({ type: types }, fc.oneof(...types.map((t) => SCALAR_VALUES[t]))));

/** Schemas that accept anything: `true`, `{}`, a description alone. */
const anythingLeaf: fc.Arbitrary<Node> = fc
  .constantFrom<Schema>(true, {}, { description: "Any JSON value." })
  .map((schema) => node(schema, anyJson));

const DESCRIPTIONS = [
  "The value.",
  "Number of items (must be >= 0).",
  'A name with "quotes" and a\nnewline.',
  "Ünïcödé — with a dash.",
  "When set, overrides `limit`.",
  "Format: date-time.",
  "",
];

// ---- Composites ------------------------------------------------------------------------------

export type TupleStyle = "draft7" | "2020";

/** A `$defs`/`definitions` entry that `$ref` nodes may point to. */
interface Def {
  name: string;
  schema: Schema;
  value: fc.Arbitrary<unknown>;
  /** Property names, when the def is an object schema fit to be one part of an `allOf` (no extra keys in its values). */
  mergeableNames?: readonly string[];
}

interface Ctx {
  tuples: TupleStyle;
  keyword: "$defs" | "definitions";
  defs: readonly Def[];
}

/** Below this data depth only leaves are made; the root object is depth 1. */
const MAX_DEPTH = 6;
/**
 * Weight of each composite kind per depth, against 200 for leaves (about 1 in 3 nodes at depth 2,
 * 1 in 12 at depth 4): falling fast keeps a schema at a few dozen nodes. The root's properties are depth 2.
 */
const COMPOSITE_WEIGHT = [0, 0, 6, 3, 1, 1, 0];
const LEAF_WEIGHT = 200;

interface ObjectOptions {
  /** "object": `type: "object"`; "none": no type; "maybe": either. */
  typed: "object" | "none" | "maybe";
  minProps: number;
  maxProps: number;
  /** Names already taken (by sibling parts of a combinator): this object's names avoid them. */
  avoid?: readonly string[];
  /** May declare `additionalProperties`/`patternProperties` (not when a sibling part adds properties). */
  open: boolean;
  /** Values may carry undeclared keys where the schema allows them. */
  extras: boolean;
  /** Names every value must have (besides those drawn as required). */
  fixed?: readonly { name: string; node: Node }[];
  /** The first drawn property is required (and not `false`): branches told apart by what they require. */
  requireFirst?: boolean;
}

interface Built {
  schema: SchemaObj;
  value: fc.Arbitrary<Record<string, unknown>>;
  names: string[];
}

const withoutDefs = new Map<string, ReturnType<typeof makeGenerators>>();

/** The node generators of one case: they depend on its defs and tuple spelling (those without defs are shared). */
function generators(ctx: Ctx): ReturnType<typeof makeGenerators> {
  if (ctx.defs.length > 0) return makeGenerators(ctx);
  const key = `${ctx.tuples} ${ctx.keyword}`;
  let g = withoutDefs.get(key);
  if (!g) withoutDefs.set(key, (g = makeGenerators(ctx)));
  return g;
}

function makeGenerators(ctx: Ctx) {
  const memo = new Map<number, fc.Arbitrary<Node>>();

  function withDecorations(arb: fc.Arbitrary<Node>, canDefault: boolean): fc.Arbitrary<Node> {
    return fc.tuple(arb, fc.nat(19), fc.constantFrom(...DESCRIPTIONS)).chain(([n, roll, description]) => {
      if (typeof n.schema === "boolean" || roll > 5) return fc.constant(n);
      if (roll < 4) return fc.constant(node({ ...n.schema, description }, n.value));
      if (!canDefault || "$ref" in n.schema) return fc.constant(n);
      // A default is one of the node's own valid values.
      return n.value.map((d) => node({ ...(n.schema as SchemaObj), default: d }, n.value));
    });
  }

  const refLeaf: fc.Arbitrary<Node> | undefined =
    ctx.defs.length === 0
      ? undefined
      : fc.constantFrom(...ctx.defs).map((d) => node({ $ref: `#/${ctx.keyword}/${d.name}` }, d.value));

  const leaf: fc.Arbitrary<Node> = pick<Node>(
    w(6, stringLeaf),
    w(4, integerLeaf),
    w(3, numberLeaf),
    w(2, booleanLeaf),
    w(1, nullLeaf),
    w(4, constLeaf),
    w(5, enumLeaf),
    w(3, nullableScalar),
    w(1, multiTypeScalar),
    w(1, anythingLeaf),
    w(1, fc.constant(node({ type: "array" }, fc.array(anyJson, { maxLength: 3 })))),
    w(refLeaf ? 6 : 0, refLeaf ?? fc.constant(node(true, anyJson))),
  );
  const decoratedLeaf = withDecorations(leaf, true);

  /** A node at data depth `d` (the root object is 1). */
  function at(d: number): fc.Arbitrary<Node> {
    const cached = memo.get(d);
    if (cached) return cached;
    const c = COMPOSITE_WEIGHT[Math.min(d, MAX_DEPTH)]!;
    const composites = [
      w(
        4 * c,
        fc
          .constant(null)
          .chain(() => objectNode(d, { typed: "maybe", minProps: 1, maxProps: 4, open: true, extras: true })),
      ),
      w(
        3 * c,
        fc.constant(null).chain(() => arrayNode(d)),
      ),
      w(
        3 * c,
        fc.constant(null).chain(() => tupleNode(d)),
      ),
      w(
        2 * c,
        fc.constant(null).chain(() => anyOfNode(d)),
      ),
      w(
        2 * c,
        fc.constant(null).chain(() => oneOfNode(d)),
      ),
      w(
        2 * c,
        fc.constant(null).chain(() => allOfNode(d)),
      ),
      w(
        2 * c,
        fc.constant(null).chain(() => nullableComposite(d)),
      ),
      w(
        d === 2 ? 10 : 0,
        fc.integer({ min: 4, max: 5 }).chain((k) => spine(k)),
      ),
    ];
    const compositeWeight = composites.reduce((sum, e) => sum + e.weight, 0);
    const arb =
      compositeWeight === 0
        ? decoratedLeaf
        : fc.oneof(w(LEAF_WEIGHT, decoratedLeaf), w(compositeWeight, withDecorations(pick(...composites), false)));
    memo.set(d, arb);
    return arb;
  }

  /** A property's schema: usually a node one level down, sometimes `true` or `false`. */
  function propertyNode(d: number): fc.Arbitrary<Node> {
    return fc.oneof(
      w(16, at(d + 1)),
      w(1, fc.constant(node(true, anyJson))),
      w(1, fc.constant(node(false, fc.constant(undefined)))),
    );
  }

  function objectParts(d: number, o: ObjectOptions): fc.Arbitrary<Built> {
    const patterns = o.open
      ? fc.oneof(
          w(6, fc.constant([] as PatternProperty[])),
          w(1, fc.subarray([...PATTERNS], { minLength: 1, maxLength: 2 })),
        )
      : fc.constant([] as PatternProperty[]);
    return patterns.chain((pats) => {
      const taken = new Set([...(o.avoid ?? []), ...(o.fixed ?? []).map((f) => f.name)]);
      const name = propName.filter((n) => !taken.has(n) && !pats.some((p) => p.regex.test(n)));
      const drawn = fc.uniqueArray(fc.tuple(name, propertyNode(d), fc.boolean()), {
        minLength: o.minProps,
        maxLength: o.maxProps,
        selector: (p) => p[0],
      });
      const props = o.requireFirst
        ? fc
            .tuple(name, at(d + 1))
            .chain(([first, child]) =>
              drawn.map((rest) => [
                [first, child, true] as [string, Node, boolean],
                ...rest.filter((p) => p[0] !== first),
              ]),
            )
        : drawn;
      const additional: fc.Arbitrary<"absent" | "false" | "true" | Node> = o.open
        ? fc.oneof(
            w(10, fc.constant("absent" as const)),
            w(4, fc.constant("false" as const)),
            w(2, fc.constant("true" as const)),
            w(3, at(d + 1)),
          )
        : fc.constant("absent" as const);
      const patternNodes = fc.tuple(...pats.map(() => at(d + 1)));
      return fc
        .tuple(
          props,
          additional,
          patternNodes,
          fc.nat(19),
          fc.constantFrom(o.typed === "maybe" ? "object" : o.typed, o.typed === "maybe" ? "none" : o.typed),
        )
        .map(([declared, extra, patternSchemas, emptyRequiredRoll, typeChoice]): Built => {
          const fixed = (o.fixed ?? []).map((f) => ({ name: f.name, node: f.node, required: true }));
          const all = [
            ...fixed,
            ...declared.map(([n, child, req]) => ({ name: n, node: child, required: req && child.schema !== false })),
          ];
          const schema: SchemaObj = {};
          if (typeChoice === "object") schema.type = "object";
          schema.properties = Object.fromEntries(all.map((p) => [p.name, p.node.schema]));
          const required = all.filter((p) => p.required).map((p) => p.name);
          if (required.length > 0 || emptyRequiredRoll === 0) schema.required = required;
          if (pats.length > 0)
            schema.patternProperties = Object.fromEntries(pats.map((p, i) => [p.pattern, patternSchemas[i]!.schema]));
          if (extra === "false") schema.additionalProperties = false;
          else if (extra === "true") schema.additionalProperties = true;
          else if (extra !== "absent") schema.additionalProperties = extra.schema;

          const declaredNames = new Set(all.map((p) => p.name));
          const parts: fc.Arbitrary<Entries>[] = all
            .filter((p) => p.node.schema !== false)
            .map((p) => {
              const entry = p.node.value.map((v): Entries => [[p.name, v]]);
              return p.required ? entry : fc.option(entry, { nil: [] as Entries, freq: 3 });
            });
          pats.forEach((p, i) =>
            parts.push(
              fc.uniqueArray(fc.tuple(p.key, patternSchemas[i]!.value), { maxLength: 2, selector: (e) => e[0] }),
            ),
          );
          const extraKey = extraName.filter((n) => !declaredNames.has(n));
          if (typeof extra === "object")
            parts.push(fc.uniqueArray(fc.tuple(extraKey, extra.value), { maxLength: 2, selector: (e) => e[0] }));
          else if (extra !== "false" && o.extras)
            parts.push(
              fc.oneof(
                w(9, fc.constant([] as Entries)),
                w(
                  1,
                  fc.tuple(extraKey, anyScalar).map((e): Entries => [e]),
                ),
              ),
            );
          const value = fc.tuple(...parts).map((lists) => asObject(lists.flat()));
          return { schema, value, names: [...declaredNames] };
        });
    });
  }

  function objectNode(d: number, o: ObjectOptions): fc.Arbitrary<Node> {
    return objectParts(d, o).map((b) => node(b.schema, b.value));
  }

  function arrayNode(d: number): fc.Arbitrary<Node> {
    return fc
      .tuple(
        fc.oneof(w(4, at(d + 1)), w(1, fc.constant(node(true, anyJson)))),
        fc.nat(3),
        fc.nat(3),
        fc.constantFrom("none", "min", "max", "both"),
      )
      .map(([items, min, span, bounds]) => {
        const schema: SchemaObj = { type: "array", items: items.schema };
        if (bounds === "min" || bounds === "both") schema.minItems = min;
        if (bounds === "max" || bounds === "both") schema.maxItems = min + span;
        const minLength = schema.minItems === undefined ? 0 : min;
        const maxLength = schema.maxItems === undefined ? minLength + 2 : min + span;
        return node(schema, fc.array(items.value, { minLength, maxLength }));
      });
  }

  /** A tuple in the case's spelling: draft 7 `items: [..]` or 2020-12 `prefixItems`. */
  function tupleNode(d: number): fc.Arbitrary<Node> {
    return fc
      .tuple(fc.array(at(d + 1), { minLength: 1, maxLength: 3 }), fc.boolean(), fc.boolean())
      .chain(([positions, closed, withMinItems]) => {
        const schemas = positions.map((p) => p.schema);
        const schema: SchemaObj =
          ctx.tuples === "draft7"
            ? { type: "array", items: schemas, ...(closed ? { additionalItems: false } : {}) }
            : { type: "array", prefixItems: schemas, ...(closed ? { items: false } : {}) };
        if (withMinItems) schema.minItems = positions.length;
        const full = fc.tuple(...positions.map((p) => p.value));
        // Without minItems a prefix is valid too.
        const value = withMinItems
          ? full
          : fc.oneof(
              w(4, full),
              w(
                1,
                fc.tuple(full, fc.nat(positions.length)).map(([t, n]) => t.slice(0, n)),
              ),
            );
        return fc.constant(node(schema, value));
      });
  }

  function anyOfNode(d: number): fc.Arbitrary<Node> {
    return fc.oneof(
      fc
        .array(at(d + 1), { minLength: 2, maxLength: 3 })
        .map((branches) => node({ anyOf: branches.map((b) => b.schema) }, fc.oneof(...branches.map((b) => b.value)))),
      // The usual spelling of "optional" in generated schemas.
      fc.tuple(at(d + 1), fc.boolean()).map(([b, nullFirst]) => {
        const branches = nullFirst ? [{ type: "null" }, b.schema] : [b.schema, { type: "null" }];
        return node({ anyOf: branches }, fc.oneof(b.value, fc.constant(null)));
      }),
    );
  }

  /** Branches of distinct JSON types: exactly one branch accepts each value. */
  function typedBranch(kind: string, d: number): fc.Arbitrary<Node> {
    switch (kind) {
      case "string":
        return fc.oneof(
          stringLeaf,
          fc
            .uniqueArray(stringLiteral, { minLength: 1, maxLength: 4, selector: literalKey })
            .map((vs) => node({ type: "string", enum: vs }, fc.constantFrom(...vs))),
        );
      case "integer":
        return integerLeaf;
      case "number":
        return numberLeaf;
      case "boolean":
        return booleanLeaf;
      case "null":
        return nullLeaf;
      case "array":
        return fc.constant(null).chain(() => arrayNode(d));
      default:
        return fc
          .constant(null)
          .chain(() => objectNode(d, { typed: "object", minProps: 1, maxProps: 3, open: true, extras: true }));
    }
  }

  /** Discriminated object branches: a required const apiece, all different, so branches exclude each other. */
  function discriminated(
    d: number,
    o: { typed: "object" | "none" | "maybe"; avoid: readonly string[]; closed: boolean },
  ): fc.Arbitrary<Built[]> {
    return fc
      .tuple(
        propName.filter((n) => !o.avoid.includes(n)),
        fc.uniqueArray(fc.oneof(w(4, stringLiteral), w(1, literal)), {
          minLength: 2,
          maxLength: 3,
          selector: literalKey,
        }),
        fc.boolean(),
      )
      .chain(([tag, tags, asEnum]) =>
        fc.tuple(
          ...tags.map((t) => {
            const tagSchema = asEnum ? { type: typeOf([t], false), enum: [t] } : { const: t };
            return objectParts(d, {
              typed: o.typed,
              minProps: 0,
              maxProps: 3,
              avoid: [...o.avoid, tag],
              open: false,
              extras: !o.closed,
              fixed: [{ name: tag, node: node(tagSchema, fc.constant(t)) }],
            }).map((b) => (o.closed ? { ...b, schema: { ...b.schema, additionalProperties: false } } : b));
          }),
        ),
      );
  }

  function oneOfNode(d: number): fc.Arbitrary<Node> {
    const numeric = fc.constantFrom("integer", "number");
    return fc.oneof(
      numeric
        .chain((num) =>
          fc.shuffledSubarray(["string", num, "boolean", "null", "array", "object"], { minLength: 2, maxLength: 3 }),
        )
        .chain((kinds) => fc.tuple(...kinds.map((k) => typedBranch(k, d))))
        .map((branches) => node({ oneOf: branches.map((b) => b.schema) }, fc.oneof(...branches.map((b) => b.value)))),
      fc
        .boolean()
        .chain((closed) => discriminated(d, { typed: "maybe", avoid: [], closed }))
        .map((branches) => node({ oneOf: branches.map((b) => b.schema) }, fc.oneof(...branches.map((b) => b.value)))),
    );
  }

  function allOfNode(d: number): fc.Arbitrary<Node> {
    return fc.oneof(
      // Two object parts with disjoint properties: a value has both parts' properties.
      objectParts(d, { typed: "maybe", minProps: 1, maxProps: 3, open: false, extras: false }).chain((a) =>
        objectParts(d, { typed: "maybe", minProps: 1, maxProps: 3, avoid: a.names, open: false, extras: false }).map(
          (b) =>
            node(
              { allOf: [a.schema, b.schema] },
              fc.tuple(a.value, b.value).map(([x, y]) => ({ ...x, ...y })),
            ),
        ),
      ),
      // One wrapped schema, as generators write a $ref with a description.
      fc
        .tuple(refLeaf ? fc.oneof(refLeaf, at(d + 1)) : at(d + 1), fc.constantFrom(...DESCRIPTIONS))
        .map(([inner, description]) => node({ allOf: [inner.schema], description }, inner.value)),
      // A type in one part, its constraint in another.
      fc.constantFrom(
        node({ allOf: [{ type: "string" }, { maxLength: 5 }] }, fc.string({ maxLength: 5 })),
        node({ allOf: [{ type: "integer" }, { minimum: 0 }, { maximum: 9 }] }, fc.integer({ min: 0, max: 9 })),
      ),
    );
  }

  /** `type: ["object", "null"]` with properties, `["array", "null"]` with items. */
  function nullableComposite(d: number): fc.Arbitrary<Node> {
    return fc
      .oneof(objectNode(d, { typed: "object", minProps: 1, maxProps: 3, open: true, extras: true }), arrayNode(d))
      .chain((inner) =>
        fc.boolean().map((nullFirst) => {
          const s = inner.schema as SchemaObj;
          const type = nullFirst ? ["null", s.type] : [s.type, "null"];
          return node({ ...s, type }, fc.oneof(inner.value, fc.constant(null)));
        }),
      );
  }

  /** A narrow chain of objects and arrays, `k` levels below `d`: deep nesting without a wide schema. */
  function spine(k: number): fc.Arbitrary<Node> {
    if (k === 0) return decoratedLeaf;
    const inner = spine(k - 1);
    return fc.oneof(
      fc
        .tuple(inner, propName, fc.option(fc.tuple(propName, decoratedLeaf), { nil: undefined }))
        .map(([child, name, sibling]) => {
          const sib = sibling && sibling[0] !== name ? sibling : undefined;
          const properties: SchemaObj = { [name]: child.schema };
          if (sib) properties[sib[0]] = sib[1].schema;
          const value = fc
            .tuple(child.value, sib ? fc.option(sib[1].value, { nil: undefined }) : fc.constant(undefined))
            .map(([v, s]) => {
              const out: Record<string, unknown> = { [name]: v };
              if (s !== undefined && sib) out[sib[0]] = s;
              return out;
            });
          return node({ type: "object", properties, required: [name] }, value);
        }),
      inner.map((child) =>
        node(
          { type: "array", items: child.schema, minItems: 1 },
          fc.array(child.value, { minLength: 1, maxLength: 2 }),
        ),
      ),
    );
  }

  return { at, objectParts, objectNode, discriminated, refLeaf };
}

// ---- Definitions -----------------------------------------------------------------------------

/** Values of a recursive def, exactly `depth` levels deep along one path. */
type Levels = (depth: number) => fc.Arbitrary<unknown>;

function recursiveDef(name: string, keyword: string): fc.Arbitrary<Def> {
  const ref = { $ref: `#/${keyword}/${name}` };
  const depth = fc.integer({ min: 0, max: 5 });
  const label = fc.tuple(propName, propName).filter(([a, b]) => a !== b);
  return fc.oneof(
    // A tree: children is an array of the same node.
    label.map(([text, kids]): Def => {
      const levels: Levels = (k) =>
        k === 0
          ? fc.record({ [text]: anyString, [kids]: fc.constant([]) }, { requiredKeys: [text] })
          : fc
              .tuple(anyString, levels(k - 1), fc.array(levels(0), { maxLength: 1 }))
              .map(([t, child, rest]) => ({ [text]: t, [kids]: [child, ...rest] }));
      return {
        name,
        schema: {
          type: "object",
          properties: { [text]: { type: "string" }, [kids]: { type: "array", items: ref } },
          required: [text],
        },
        value: depth.chain(levels),
      };
    }),
    // A linked list: next is the same node or null.
    fc.tuple(label, fc.constantFrom("anyOf", "typeArray")).map(([[item, next], spelling]): Def => {
      const levels: Levels = (k) =>
        k === 0
          ? anyInteger.map((v) => ({ [item]: v, [next]: null }))
          : fc.tuple(anyInteger, levels(k - 1)).map(([v, rest]) => ({ [item]: v, [next]: rest }));
      const schema: SchemaObj =
        spelling === "anyOf"
          ? {
              type: "object",
              properties: { [item]: { type: "integer" }, [next]: { anyOf: [ref, { type: "null" }] } },
              required: [item, next],
            }
          : {
              type: ["object", "null"],
              properties: { [item]: { type: "integer" }, [next]: ref },
              required: [item, next],
            };
      return { name, schema, value: depth.chain(levels) };
    }),
    // An expression: a number, or an operator over expressions.
    fc.constantFrom("anyOf", "oneOf").map((combinator): Def => {
      const levels: Levels = (k) =>
        k === 0
          ? anyNumber
          : fc
              .tuple(fc.constantFrom("+", "-", "*"), levels(k - 1), levels(0))
              .map(([op, a, b]) => ({ op, args: [a, b] }));
      const schema: SchemaObj = {
        [combinator]: [
          { type: "number" },
          {
            type: "object",
            properties: {
              op: { type: "string", enum: ["+", "-", "*"] },
              args: { type: "array", items: ref, minItems: 1 },
            },
            required: ["op", "args"],
            additionalProperties: false,
          },
        ],
      };
      return { name, schema, value: depth.chain(levels) };
    }),
  );
}

function plainDef(name: string, tuples: TupleStyle, keyword: "$defs" | "definitions"): fc.Arbitrary<Def> {
  const g = generators({ tuples, keyword, defs: [] });
  return fc.oneof(
    w(
      3,
      g
        .objectParts(2, { typed: "object", minProps: 1, maxProps: 4, open: false, extras: false })
        .map((b): Def => ({ name, schema: b.schema, value: b.value, mergeableNames: b.names })),
    ),
    w(
      2,
      g.at(2).map((n): Def => ({ name, schema: n.schema, value: n.value })),
    ),
  );
}

const defsOf = (tuples: TupleStyle, keyword: "$defs" | "definitions"): fc.Arbitrary<Def[]> =>
  fc.oneof(
    w(5, fc.constant<Def[]>([])),
    w(
      5,
      fc
        .uniqueArray(defName, { minLength: 1, maxLength: 3 })
        .chain((names) =>
          fc.tuple(...names.map((n) => fc.oneof(w(4, recursiveDef(n, keyword)), w(5, plainDef(n, tuples, keyword))))),
        )
        .map((defs): Def[] => [...defs]),
    ),
  );

// ---- Roots -----------------------------------------------------------------------------------

interface RootCase {
  schema: SchemaObj;
  value: fc.Arbitrary<unknown>;
}

function merged(parts: fc.Arbitrary<Record<string, unknown>>[]): fc.Arbitrary<Record<string, unknown>> {
  return fc.tuple(...parts).map((objs) => Object.assign({}, ...objs) as Record<string, unknown>);
}

function rootOf(ctx: Ctx): fc.Arbitrary<RootCase> {
  const g = generators(ctx);
  const optionalType = fc.boolean().map((typed): SchemaObj => (typed ? { type: "object" } : {}));
  /** Properties declared beside a combinator, which every branch's values also carry. */
  const shared = fc.oneof(
    fc.constant<Built | undefined>(undefined),
    g.objectParts(1, { typed: "none", minProps: 1, maxProps: 2, open: false, extras: false }),
  );
  const sharedKeywords = (b: Built | undefined): SchemaObj =>
    b ? { properties: b.schema.properties, ...(b.schema.required ? { required: b.schema.required } : {}) } : {};
  const withShared = (b: Built | undefined, value: fc.Arbitrary<Record<string, unknown>>) =>
    b ? merged([b.value, value]) : value;

  const plain = fc
    .oneof(w(1, fc.constant(0)), w(12, fc.constant(1)))
    .chain((minProps) => g.objectParts(1, { typed: "object", minProps, maxProps: 4, open: true, extras: true }))
    .map((b): RootCase => ({ schema: b.schema, value: b.value }));
  const bare = g
    .objectParts(1, { typed: "none", minProps: 1, maxProps: 4, open: true, extras: true })
    .map((b): RootCase => ({ schema: b.schema, value: b.value }));

  // anyOf of object branches, each requiring a property of its own ("give a or b").
  const anyOfRoot = fc.tuple(optionalType, shared).chain(([head, common]) =>
    fc
      .array(
        g.objectParts(1, {
          typed: "maybe",
          minProps: 0,
          maxProps: 2,
          avoid: common?.names ?? [],
          open: false,
          extras: false,
          requireFirst: true,
        }),
        {
          minLength: 2,
          maxLength: 3,
        },
      )
      .map((branches): RootCase => ({
        schema: { ...head, ...sharedKeywords(common), anyOf: branches.map((b) => b.schema) },
        value: withShared(common, fc.oneof(...branches.map((b) => b.value))),
      })),
  );

  // oneOf: branches told apart by a required const, or by disjoint required properties and additionalProperties: false.
  const oneOfRoot = fc.tuple(optionalType, fc.boolean(), fc.boolean()).chain(([head, byTag, closed]) =>
    byTag
      ? (closed ? fc.constant<Built | undefined>(undefined) : shared).chain((common) =>
          g.discriminated(1, { typed: "maybe", avoid: common?.names ?? [], closed }).map((branches): RootCase => ({
            schema: { ...head, ...sharedKeywords(common), oneOf: branches.map((b) => b.schema) },
            value: withShared(common, fc.oneof(...branches.map((b) => b.value))),
          })),
        )
      : g
          .objectParts(1, { typed: "none", minProps: 0, maxProps: 1, open: false, extras: false, requireFirst: true })
          .chain((a) =>
            g
              .objectParts(1, {
                typed: "none",
                minProps: 0,
                maxProps: 1,
                avoid: a.names,
                open: false,
                extras: false,
                requireFirst: true,
              })
              .map((b): RootCase => ({
                schema: { ...head, oneOf: [a, b].map((p) => ({ ...p.schema, additionalProperties: false })) },
                value: fc.oneof(a.value, b.value),
              })),
          ),
  );

  // allOf of two object parts with disjoint properties; the first may be a $ref to an object def.
  const mergeable = ctx.defs.filter((d) => d.mergeableNames !== undefined);
  const firstPart = pick<{ schema: SchemaObj; value: fc.Arbitrary<Record<string, unknown>>; names: readonly string[] }>(
    w(3, g.objectParts(1, { typed: "maybe", minProps: 1, maxProps: 3, open: false, extras: false })),
    w(
      mergeable.length > 0 ? 2 : 0,
      fc
        .constantFrom(...mergeable, undefined)
        .map((d) => ({
          schema: { $ref: `#/${ctx.keyword}/${d?.name}` },
          value: d?.value as fc.Arbitrary<Record<string, unknown>>,
          names: d?.mergeableNames ?? [],
        }))
        .filter((p) => p.value !== undefined),
    ),
  );
  const allOfRoot = fc.tuple(optionalType, firstPart).chain(([head, a]) =>
    g
      .objectParts(1, { typed: "maybe", minProps: 1, maxProps: 3, avoid: a.names, open: false, extras: false })
      .map((b): RootCase => ({
        schema: { ...head, allOf: [a.schema, b.schema] },
        value: merged([a.value, b.value]),
      })),
  );

  return fc.oneof(w(40, plain), w(8, bare), w(8, anyOfRoot), w(8, oneOfRoot), w(6, allOfRoot));
}

/** Which root schema names the whole thing: a `$ref` into the defs, sometimes, as some generators write it. */
const ROOT_DEF_NAMES = ["Root", "Input", "Params"];

export const toolSchemaCase: fc.Arbitrary<SchemaCase> = fc
  .record({
    tuples: fc.constantFrom<TupleStyle>("draft7", "2020"),
    keyword: fc.constantFrom<"$defs" | "definitions">("$defs", "definitions"),
    declareDialect: fc.nat(9).map((n) => n === 0),
    refRoot: fc.nat(19).map((n) => n === 0),
  })
  .chain(({ tuples, keyword, declareDialect, refRoot }) =>
    defsOf(tuples, keyword).chain((defs) => {
      const ctx: Ctx = { tuples, keyword, defs };
      return rootOf(ctx).map(({ schema, value }): RootCase => {
        const defMap: SchemaObj = Object.fromEntries(defs.map((d) => [d.name, d.schema]));
        let root: SchemaObj = schema;
        if (refRoot) {
          const rootName = ROOT_DEF_NAMES.find((n) => !(n in defMap)) ?? "RootInput";
          defMap[rootName] = schema;
          root = { $ref: `#/${keyword}/${rootName}` };
        }
        if (Object.keys(defMap).length > 0) root = { ...root, [keyword]: defMap };
        if (declareDialect) {
          root = {
            $schema:
              tuples === "draft7"
                ? "http://json-schema.org/draft-07/schema#"
                : "https://json-schema.org/draft/2020-12/schema",
            ...root,
          };
        }
        return { schema: root, value };
      });
    }),
  )
  .chain(({ schema, value }) =>
    fc
      .array(value, { minLength: 1, maxLength: 6 })
      .map((values): SchemaCase => ({ schema: json(schema) as JSONSchemaObject, values: json(values) })),
  );

// ---- Validation ------------------------------------------------------------------------------

/** Where a subschema sits. */
export interface SchemaSite {
  path: readonly string[];
  /** The keyword that led here ("properties", "items", "anyOf", "$defs"…); undefined at the root. */
  keyword?: string;
  /** Nesting of the described value: the root is 1, each properties/items step adds one; a def body starts again at 1. */
  depth: number;
  /** Inside the root's `$defs`/`definitions`. */
  inDefs: boolean;
}

/** Keywords whose subschemas describe a value one level further in. */
const DATA_STEPS = new Set([
  "properties",
  "patternProperties",
  "additionalProperties",
  "items",
  "prefixItems",
  "additionalItems",
  "unevaluatedProperties",
  "unevaluatedItems",
  "contains",
]);
const SINGLE = [
  "additionalProperties",
  "additionalItems",
  "not",
  "if",
  "then",
  "else",
  "contains",
  "propertyNames",
  "unevaluatedProperties",
  "unevaluatedItems",
  "items",
];
const LISTS = ["prefixItems", "anyOf", "oneOf", "allOf", "items"];
const MAPS = ["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"];

/** Calls `visit` on every subschema of `schema` (itself included), by keyword: literals in const/enum/default are not entered. */
export function walkSchema(
  schema: unknown,
  visit: (s: unknown, site: SchemaSite) => void,
  site: SchemaSite = { path: [], depth: 1, inDefs: false },
): void {
  visit(schema, site);
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) return;
  const s = schema as SchemaObj;
  const child = (keyword: string, key: string[]): SchemaSite => {
    const defs = keyword === "$defs" || keyword === "definitions";
    return {
      path: [...site.path, ...key],
      keyword,
      depth: defs ? 1 : DATA_STEPS.has(keyword) ? site.depth + 1 : site.depth,
      inDefs: site.inDefs || defs,
    };
  };
  for (const k of SINGLE) {
    const sub = s[k];
    if ((typeof sub === "object" && sub !== null && !Array.isArray(sub)) || typeof sub === "boolean")
      walkSchema(sub, visit, child(k, [k]));
  }
  for (const k of LISTS) {
    const subs = s[k];
    if (Array.isArray(subs)) subs.forEach((sub, i) => walkSchema(sub, visit, child(k, [k, String(i)])));
  }
  for (const k of MAPS) {
    const m = s[k];
    if (typeof m === "object" && m !== null && !Array.isArray(m))
      for (const [name, sub] of Object.entries(m)) walkSchema(sub, visit, child(k, [k, name]));
  }
}

/** Whether the schema is written for JSON Schema 2020-12: it says so, or it spells tuples with `prefixItems`. */
export function is2020(schema: JSONSchemaObject): boolean {
  if (typeof schema.$schema === "string") return schema.$schema.includes("2020-12");
  let found = false;
  walkSchema(schema, (s) => {
    if (typeof s === "object" && s !== null && "prefixItems" in s) found = true;
  });
  return found;
}

let draft7Ajv: Ajv | undefined;
let draft2020Ajv: Ajv2020 | undefined;
/** Recent validators by dialect and schema text: a property test checks one schema against several providers. */
const compiled = new Map<string, (value: unknown) => boolean>();
const COMPILED_KEPT = 64;

/**
 * A validator under the dialect the schema is written in: 2020-12 when `is2020(schema)`, else
 * draft 7 (whose `items: [..]` tuples 2020-12 does not read). Formats are checked in full.
 * Throws when the schema does not compile.
 */
export function validatorFor(schema: JSONSchemaObject): (value: unknown) => boolean {
  const modern = is2020(schema);
  const key = `${modern ? "2020" : "7"} ${JSON.stringify(schema)}`;
  const hit = compiled.get(key);
  if (hit) {
    compiled.delete(key);
    compiled.set(key, hit);
    return hit;
  }
  const ajv = modern
    ? (draft2020Ajv ??= addFormats(new Ajv2020({ strict: false, allErrors: true })))
    : (draft7Ajv ??= addFormats(new Ajv({ strict: false, allErrors: true })));
  const validate = ajv.compile(schema);
  // The function keeps working; Ajv's own cache would otherwise hold every schema ever compiled.
  ajv.removeSchema(schema);
  const check = (value: unknown) => validate(value) as boolean;
  compiled.set(key, check);
  if (compiled.size > COMPILED_KEPT) compiled.delete(compiled.keys().next().value!);
  return check;
}

// ---- Features --------------------------------------------------------------------------------

/** Every name `features` can return. */
export const FEATURES: readonly string[] = [
  "const",
  "const:typed",
  "const:untyped",
  "enum",
  "enum:typed",
  "enum:untyped",
  "enum:mixed-types",
  "literal:empty-string",
  "literal:string",
  "literal:scalar-looking-string",
  "literal:integer",
  "literal:float",
  "literal:negative",
  "literal:zero",
  "literal:boolean",
  "literal:null",
  "literal:object",
  "literal:array",
  "anyOf",
  "oneOf",
  "allOf",
  "root:anyOf",
  "root:oneOf",
  "root:allOf",
  "nested:anyOf",
  "nested:oneOf",
  "nested:allOf",
  "$ref",
  "$defs",
  "definitions",
  "ref:recursive",
  "root:$ref",
  "$schema",
  "type-array:nullable",
  "type-array:multi",
  "type-array:nullable-object",
  "tuple:items-array",
  "tuple:additionalItems-false",
  "tuple:prefixItems",
  "tuple:items-false",
  "property:true",
  "property:false",
  "additionalProperties:false",
  "additionalProperties:true",
  "additionalProperties:schema",
  "items:true",
  "patternProperties",
  "empty-schema",
  ...FORMAT_NAMES.map((f) => `format:${f}`),
  "array-without-items",
  "object-without-type",
  "root:object-without-type",
  "optional-property",
  "required",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "multipleOf",
  "minLength",
  "maxLength",
  "pattern",
  "minItems",
  "maxItems",
  "description",
  "default",
  "deep-nesting",
];

/** Value depth (root object = 1) from which a schema counts as deeply nested. */
const DEEP = 6;

function literalFeatures(value: unknown, out: Set<string>): void {
  if (typeof value === "string") {
    if (value === "") out.add("literal:empty-string");
    else if (/^-?\d+(\.\d+)?$/.test(value) || ["true", "false", "null"].includes(value))
      out.add("literal:scalar-looking-string");
    else out.add("literal:string");
  } else if (typeof value === "number") {
    out.add(Number.isInteger(value) ? "literal:integer" : "literal:float");
    if (value < 0) out.add("literal:negative");
    if (value === 0) out.add("literal:zero");
  } else if (typeof value === "boolean") out.add("literal:boolean");
  else if (value === null) out.add("literal:null");
  else if (Array.isArray(value)) out.add("literal:array");
  else out.add("literal:object");
}

function refTarget(root: SchemaObj, ref: unknown): { key: string; schema: unknown } | undefined {
  if (typeof ref !== "string") return undefined;
  const m = /^#\/(\$defs|definitions)\/([^/]+)$/.exec(ref);
  if (!m) return undefined;
  const defs = root[m[1]!] as SchemaObj | undefined;
  return defs && m[2]! in defs ? { key: `${m[1]}/${m[2]}`, schema: defs[m[2]!] } : undefined;
}

/** The refs a schema makes, not looking into the root's defs. */
function refsIn(schema: unknown): string[] {
  const refs: string[] = [];
  walkSchema(schema, (s, site) => {
    if (!site.inDefs && typeof s === "object" && s !== null && typeof (s as SchemaObj).$ref === "string")
      refs.push((s as SchemaObj).$ref as string);
  });
  return refs;
}

/** Defs reachable from `start` by following refs; `start` itself is not counted unless a ref leads back to it. */
function reachable(root: SchemaObj, start: unknown): Map<string, unknown> {
  const found = new Map<string, unknown>();
  const pending = refsIn(start);
  while (pending.length > 0) {
    const target = refTarget(root, pending.pop());
    if (!target || found.has(target.key)) continue;
    found.set(target.key, target.schema);
    pending.push(...refsIn(target.schema));
  }
  return found;
}

/** What a schema exercises, by name (see FEATURES): for checking that generation covers them. */
export function features(schema: JSONSchemaObject): Set<string> {
  const root = schema as SchemaObj;
  const out = new Set<string>();
  let maxDepth = 0;
  if (typeof root.$schema === "string") out.add("$schema");
  if ("$ref" in root) out.add("root:$ref");
  if ("$defs" in root) out.add("$defs");
  if ("definitions" in root) out.add("definitions");

  // A def is recursive when its refs lead back to it; it counts when the root reaches it.
  for (const [key, body] of reachable(root, root)) {
    if (reachable(root, body).has(key)) out.add("ref:recursive");
  }
  // With a root $ref, the def it names is the object the root describes.
  const rootBody = root.$ref === undefined ? root : refTarget(root, root.$ref)?.schema;
  if (typeof rootBody === "object" && rootBody !== null && "properties" in rootBody && !("type" in rootBody))
    out.add("root:object-without-type");

  walkSchema(root, (s, site) => {
    const isRoot = s === rootBody;
    if (typeof s === "boolean") {
      if (site.keyword === "properties") out.add(s ? "property:true" : "property:false");
      if (site.keyword === "items" && s) out.add("items:true");
      if (s) out.add("empty-schema");
      return;
    }
    if (typeof s !== "object" || s === null) return;
    const n = s as SchemaObj;
    if (!site.inDefs) maxDepth = Math.max(maxDepth, site.depth);
    if (site.path.length > 0 && Object.keys(n).every((k) => k === "description")) out.add("empty-schema");
    if ("description" in n) out.add("description");
    if ("default" in n) out.add("default");
    if ("$ref" in n) out.add("$ref");
    if ("const" in n) {
      out.add("const");
      out.add("type" in n ? "const:typed" : "const:untyped");
      literalFeatures(n.const, out);
    }
    if (Array.isArray(n.enum)) {
      out.add("enum");
      out.add("type" in n ? "enum:typed" : "enum:untyped");
      n.enum.forEach((v) => literalFeatures(v, out));
      if (new Set(n.enum.map((v) => jsonType(v).replace("integer", "number"))).size > 1) out.add("enum:mixed-types");
    }
    const types = Array.isArray(n.type) ? (n.type as string[]) : [n.type];
    if (Array.isArray(n.type)) {
      if (types.includes("null")) out.add("type-array:nullable");
      if (types.filter((t) => t !== "null").length > 1) out.add("type-array:multi");
      if (types.includes("object") && types.includes("null") && "properties" in n)
        out.add("type-array:nullable-object");
    }
    if (typeof n.format === "string") out.add(`format:${n.format}`);
    for (const k of [
      "minimum",
      "maximum",
      "exclusiveMinimum",
      "multipleOf",
      "minLength",
      "maxLength",
      "pattern",
      "minItems",
      "maxItems",
      "patternProperties",
    ]) {
      if (k in n) out.add(k);
    }
    for (const k of ["anyOf", "oneOf", "allOf"]) {
      if (Array.isArray(n[k])) {
        out.add(k);
        out.add(isRoot ? `root:${k}` : `nested:${k}`);
      }
    }
    if (Array.isArray(n.items)) {
      out.add("tuple:items-array");
      if (n.additionalItems === false) out.add("tuple:additionalItems-false");
    }
    if (Array.isArray(n.prefixItems)) {
      out.add("tuple:prefixItems");
      if (n.items === false) out.add("tuple:items-false");
    }
    if (types.includes("array") && !("items" in n) && !("prefixItems" in n)) out.add("array-without-items");
    if (n.additionalProperties === false) out.add("additionalProperties:false");
    else if (n.additionalProperties === true) out.add("additionalProperties:true");
    else if (typeof n.additionalProperties === "object") out.add("additionalProperties:schema");
    if (typeof n.properties === "object" && n.properties !== null) {
      if (!("type" in n) && !isRoot) out.add("object-without-type");
      const required = Array.isArray(n.required) ? (n.required as string[]) : [];
      if (required.length > 0) out.add("required");
      if (Object.entries(n.properties).some(([name, sub]) => sub !== false && !required.includes(name)))
        out.add("optional-property");
    }
  });
  if (maxDepth >= DEEP) out.add("deep-nesting");
  return out;
}
