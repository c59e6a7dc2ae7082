/**
 * Arbitrary tool-call argument payloads for the reliability suite: anything at all, objects
 * shaped like a form's arguments with wrong and right values, JSON text (valid or not), and
 * payloads carrying prototype-reaching keys at some depth.
 */
import fc from "fast-check";
import { KNOWN_KEYS, ODD_RESULTS } from "./forms";

export const FORBIDDEN_KEYS = ["__proto__", "constructor", "prototype"] as const;

/** Values of every JavaScript kind, odd ones included (Maps, boxed values, null prototypes ...). */
export const anyValue = fc.anything({
  maxDepth: 3,
  maxKeys: 6,
  withBigInt: true,
  withBoxedValues: true,
  withDate: true,
  withMap: true,
  withSet: true,
  withNullPrototype: true,
  withObjectString: true,
  withSparseArray: true,
  withTypedArray: true,
});

/** Values a model plausibly sends for one argument: right types, near misses, wrong types. */
const plausibleValue: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", maxDepth: 3 },
    fc.string({ maxLength: 12 }),
    fc.integer({ min: -5, max: 1200 }),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.integer({ min: -5, max: 1200 }).map(String),
    fc.constantFrom(
      "true",
      "false",
      "celsius",
      "fahrenheit",
      "kelvin",
      "1",
      "2",
      "3",
      "metric",
      "imperial",
      "2024-05-01T10:00:00Z",
      "2024-13-45",
      "not a date",
      "a@b.co",
      "not-an-email",
      "",
      " 42 ",
      "1e400",
      "NaN",
      "Infinity",
      "-0",
      "throw",
      "reject-string",
      "bigint",
      "cycle",
    ),
    fc.constantFrom(
      Number.NaN,
      Number.POSITIVE_INFINITY,
      Number.NEGATIVE_INFINITY,
      -0,
      Number.MAX_VALUE,
      Number.MIN_VALUE,
    ),
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(fc.constantFrom(...KNOWN_KEYS), tie("value"), { maxKeys: 4 }),
  ),
})).value;

/** An object with some of the known argument keys (and sometimes a stranger one). */
export const shapedObject = fc
  .tuple(
    fc.dictionary(fc.constantFrom(...KNOWN_KEYS), plausibleValue, { maxKeys: 6 }),
    fc.option(fc.tuple(fc.string({ maxLength: 8 }), plausibleValue), { freq: 4 }),
  )
  .map(([known, extra]) => (extra === null ? known : { ...known, [extra[0]]: extra[1] }));

/** JSON text that carries a prototype-reaching key somewhere, parsed or not. */
const pollutingText = fc
  .tuple(fc.constantFrom(...FORBIDDEN_KEYS), fc.array(fc.constantFrom(...KNOWN_KEYS), { maxLength: 3 }), fc.boolean())
  .map(([forbidden, path, inArray]) => {
    let text = `{${JSON.stringify(forbidden)}:{"polluted":true,"prototype":{"polluted":true}}}`;
    for (const key of [...path].reverse()) text = `{${JSON.stringify(key)}:${inArray ? `[${text}]` : text}}`;
    return text;
  });

/** Every payload kind, as a call's arguments. */
export const anyPayload: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: shapedObject },
  { weight: 2, arbitrary: anyValue },
  { weight: 1, arbitrary: shapedObject.map((value) => safeJson(value) ?? "{") },
  { weight: 1, arbitrary: fc.oneof(fc.json({ maxDepth: 3 }), fc.string(), fc.string({ unit: "binary" })) },
  { weight: 1, arbitrary: pollutingText },
  { weight: 1, arbitrary: pollutingText.map((text) => JSON.parse(text) as unknown) },
);

/** JSON.stringify that gives `undefined` instead of throwing (BigInt, cycles). */
export function safeJson(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}

/** What an OpenAI-style provider sends as `arguments`: text; a non-text payload as its JSON when it has one. */
export function asArgumentText(payload: unknown): unknown {
  if (typeof payload === "string") return payload;
  return safeJson(payload) ?? payload;
}

// ---- Valid arguments per form, and near misses -------------------------------------------

const finite = fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e9, max: 1e9 });
const line = fc.record({ sku: fc.string({ maxLength: 10 }), quantity: fc.integer({ min: 1, max: 100 }) });
const units = fc.constantFrom("celsius", "fahrenheit");
const modelNumber = (n: fc.Arbitrary<number>) => fc.oneof(n, n.map(String)); // models send "42" too

/** Arguments each form accepts (as a model would send them), so fuzzing reaches the tool bodies. */
export const VALID_ARGS: Record<string, fc.Arbitrary<Record<string, unknown>>> = {
  scalars: fc.record({
    text: fc.string(),
    count: modelNumber(fc.integer({ min: 0, max: 1000 })),
    flag: fc.oneof(fc.boolean(), fc.constantFrom("true", "false")),
  }),
  enums: fc.record({ units, level: fc.constantFrom(1, 2, 3) }),
  date: fc.record({
    when: fc
      .date({ min: new Date(0), max: new Date("2100-01-01T00:00:00Z"), noInvalidDate: true })
      .map((d) => d.toISOString()),
  }),
  arrays: fc.record({
    tags: fc.array(fc.string({ maxLength: 8 }), { maxLength: 50 }),
    scores: fc.array(finite, { maxLength: 20 }),
  }),
  optionals: fc.record(
    { city: fc.string(), units: fc.option(units), days: fc.option(modelNumber(fc.integer({ min: 1, max: 30 }))) },
    { requiredKeys: ["city"] },
  ),
  dto: fc.record({
    address: fc.record({ street: fc.string({ maxLength: 20 }), number: fc.integer({ min: 1, max: 9999 }) }),
  }),
  dtoArray: fc.record({ lines: fc.array(line, { maxLength: 5 }) }),
  order: fc.record(
    {
      email: fc.constantFrom("ana@example.com", "bo.li@shop.co.uk", "x+y@z.io"),
      lines: fc.array(line, { minLength: 1, maxLength: 4 }),
      note: fc.option(fc.string()),
    },
    { requiredKeys: ["email", "lines"] },
  ),
  context: fc.constant({}),
  union: fc.record({ value: fc.oneof(fc.string({ maxLength: 100 }), finite) }),
  freeForm: fc.record({
    payload: fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }),
  }),
  echo: fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }),
  weather: fc.record(
    {
      city: fc.string({ minLength: 1 }),
      days: fc.integer({ min: 1, max: 14 }),
      units: fc.constantFrom("metric", "imperial"),
    },
    { requiredKeys: ["city"] },
  ),
  oddResult: fc.record({ mode: fc.constantFrom(...ODD_RESULTS) }),
  hand_written: fc.record(
    { mode: fc.constantFrom("throw", "reject-string", "bigint", "cycle", "plain") },
    { requiredKeys: [] },
  ),
};

/** A valid payload with one thing wrong: a key dropped, a value replaced, a stranger or a forbidden key added. */
function nearMiss(valid: fc.Arbitrary<Record<string, unknown>>): fc.Arbitrary<unknown> {
  return fc
    .tuple(valid, fc.nat(), fc.constantFrom("drop", "replace", "extra", "forbidden"), plausibleValue)
    .map(([args, pick, how, value]) => {
      const keys = Object.keys(args);
      const key = keys.length > 0 ? keys[pick % keys.length]! : "text";
      const copy: Record<string, unknown> = { ...args };
      if (how === "drop") delete copy[key];
      else if (how === "replace") copy[key] = value;
      else if (how === "extra") copy[`extra_${pick % 7}`] = value;
      else {
        // As a provider SDK hands it over: JSON.parse makes `__proto__` an own key.
        const text = safeJson(copy) ?? "{}";
        const forbidden = `${JSON.stringify(FORBIDDEN_KEYS[pick % FORBIDDEN_KEYS.length])}:{"polluted":true}`;
        return JSON.parse(text === "{}" ? `{${forbidden}}` : `{${forbidden},${text.slice(1)}`) as unknown;
      }
      return copy;
    });
}

/** The payload mix for one form: valid, valid as JSON text, near misses, and anything at all. */
export function payloadsFor(form: string): fc.Arbitrary<unknown> {
  const valid = VALID_ARGS[form];
  if (valid === undefined) throw new Error(`no valid-argument generator for form ${form}`);
  return fc.oneof(
    { weight: 3, arbitrary: valid },
    { weight: 1, arbitrary: valid.map((args) => safeJson(args) ?? "{}") },
    { weight: 3, arbitrary: nearMiss(valid) },
    { weight: 3, arbitrary: anyPayload },
  );
}
