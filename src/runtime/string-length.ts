import type { CodeKeywordDefinition } from "ajv";

/*
 * `maxLength` and `minLength` count characters as JSON Schema does (code points: a surrogate
 * pair is one character, a lone surrogate one too), which Ajv does by walking the whole
 * string: a 50 MB string sent for a `maxLength: 10` was walked to its end before it was
 * refused. A string of n UTF-16 units holds between n/2 and n code points, so its `.length`
 * alone decides every string shorter than the limit or longer than twice it; only a string in
 * between is counted, and that count is bounded by the limit, not by what was sent.
 */

let codePoints: ((text: string) => number) | undefined;

/**
 * The number of characters in `text` as Ajv counts them (its own counter, loaded with the first string that needs it).
 */
function codePointLength(text: string): number {
  codePoints ??= (require("ajv/dist/runtime/ucs2length") as typeof import("ajv/dist/runtime/ucs2length")).default;
  return codePoints(text);
}

/** Whether `text` has more than `limit` characters (what `maxLength: limit` refuses). */
export function longerThan(text: string, limit: number): boolean {
  const units = text.length;
  if (units <= limit) return false;
  if (units > 2 * limit) return true;
  return codePointLength(text) > limit;
}

/** Whether `text` has fewer than `limit` characters (what `minLength: limit` refuses). */
export function shorterThan(text: string, limit: number): boolean {
  const units = text.length;
  if (units < limit) return true;
  if (units >= 2 * limit) return false;
  return codePointLength(text) < limit;
}

/**
 * Ajv's own `maxLength` and `minLength` keywords (the same errors, in the same place among a
 * string's checks) judged by `longerThan` and `shorterThan`. For an Ajv instance already made:
 * replace its keywords of those names with these.
 */
export function lengthKeywords(): CodeKeywordDefinition[] {
  const { _, str } = require("ajv") as typeof import("ajv");
  const keyword = (
    name: "maxLength" | "minLength",
    refuses: (text: string, limit: number) => boolean,
  ): CodeKeywordDefinition => ({
    keyword: name,
    type: "string",
    schemaType: "number",
    $data: true,
    before: "pattern",
    error: {
      message: ({ schemaCode }) =>
        str`must NOT have ${name === "maxLength" ? "more" : "fewer"} than ${schemaCode} characters`,
      params: ({ schemaCode }) => _`{limit: ${schemaCode}}`,
    },
    code(cxt) {
      const check = cxt.gen.scopeValue("func", { ref: refuses });
      cxt.fail$data(_`${check}(${cxt.data}, ${cxt.schemaCode})`);
    },
  });
  return [keyword("maxLength", longerThan), keyword("minLength", shorterThan)];
}
