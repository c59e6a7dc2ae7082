/**
 * `maxLength` and `minLength` are judged as Ajv judges them (characters are code points: a
 * surrogate pair is one, a lone surrogate one too), while a string's length in UTF-16 units
 * decides at once every string shorter than the limit or longer than twice it.
 */
import Ajv from "ajv";
import ucs2length from "ajv/dist/runtime/ucs2length";
import fc from "fast-check";
import { longerThan, shorterThan } from "../../src/runtime/string-length";
import { compileValidator } from "../../src/runtime/validation";

const RUNS = { seed: 20261202, numRuns: 2_000 } as const;

/** Strings of letters, a two-unit letter, astral characters and lone surrogates of both halves (which pair up when adjacent in order). */
const text = fc
  .array(fc.constantFrom("a", "é", "字", "😀", "𝄞", "\ud83d", "\ude00", "\udbff", "\udc00"), { maxLength: 40 })
  .map((parts) => parts.join(""));
/** A limit anywhere around the string's size in units: below, between half and all of it, and beyond twice it. */
const limitFor = (value: string) => fc.integer({ min: -1, max: 2 * value.length + 2 });
const textAndLimit = text.chain((value) => fc.tuple(fc.constant(value), limitFor(value)));

describe("longerThan and shorterThan", () => {
  it("agree with Ajv's own count of characters for every string and limit", () => {
    fc.assert(
      fc.property(textAndLimit, ([value, limit]) => {
        expect(longerThan(value, limit)).toBe(ucs2length(value) > limit);
        expect(shorterThan(value, limit)).toBe(ucs2length(value) < limit);
      }),
      RUNS,
    );
  });

  it.each([
    ["", 0, false, false],
    ["a", 0, true, false],
    ["😀", 1, false, false],
    ["😀", 2, false, true],
    ["😀😀", 1, true, false],
    ["\ud83d", 1, false, false],
    ["\ude00\ud83d", 1, true, false],
    ["a\ud83d", 2, false, false],
    ["\ud83d\ude00\ude00", 2, false, false],
    ["😀".repeat(5), 5, false, false],
    ["😀".repeat(5), 4, true, false],
    ["😀".repeat(5), 6, false, true],
    ["a".repeat(11), 5, true, false],
    ["a".repeat(10), 5, true, false],
    ["a".repeat(9), 5, true, false],
  ])("%j against the limit %d: longer %s, shorter %s", (value, limit, longer, shorter) => {
    expect(ucs2length(value) > limit).toBe(longer);
    expect(longerThan(value, limit)).toBe(longer);
    expect(shorterThan(value, limit)).toBe(shorter);
  });
});

describe("maxLength and minLength in a validated schema", () => {
  const plainAjv = new Ajv({ allErrors: true });

  it("refuse exactly what Ajv's own keywords refuse, in the same words and order", () => {
    const bounds = fc.tuple(fc.integer({ min: 0, max: 20 }), fc.integer({ min: 0, max: 20 }));
    fc.assert(
      fc.property(text, bounds, (value, [minLength, maxLength]) => {
        const schema = { type: "string", minLength, maxLength } as const;
        const oracle = plainAjv.compile(schema);
        oracle(value);
        const expected = (oracle.errors ?? []).map((error) => `"text" ${error.message}, got string `);
        const problems = compileValidator({ type: "object", properties: { text: schema } })({ text: value });
        expect(problems).toHaveLength(expected.length);
        problems.forEach((problem, i) => expect(problem.startsWith(expected[i]!)).toBe(true));
      }),
      { seed: RUNS.seed, numRuns: 500 },
    );
  });
});
