import type { default as Ajv } from "ajv";

/*
 * The `format`s a schema may name, and what validation does with each:
 * - the formats ajv-formats defines are checked as it checks them: JSON Schema's (date-time,
 *   date, time, duration, email, hostname, ipv4, ipv6, uri, uri-reference, uri-template, url,
 *   uuid, regex, json-pointer, relative-json-pointer, ...) and OpenAPI's: int32 (an integer
 *   within 32 bits), int64 (an integer), byte (base64), and float, double, password and
 *   binary, which say nothing a type does not (any number, any string);
 * - "enum", Gemini's and OpenAPI's marker of a string enum: the `enum` says what is allowed;
 * - any other name is an annotation (as JSON Schema itself treats formats it does not know):
 *   accepted unchecked, and without Ajv's "unknown format" warning on the console.
 * ajv-formats is loaded with the first schema that names a format.
 */

/** The Ajv instances ajv-formats was added to. */
const withFormats = new WeakSet<Ajv>();

/** Readies `compiler` for every format `schema` names (see above), before it compiles `schema`. */
export function knowFormatsOf(compiler: Ajv, schema: unknown): void {
  const names = formatNames(schema);
  if (names.size === 0) return;
  if (!withFormats.has(compiler)) {
    (require("ajv-formats") as typeof import("ajv-formats")).default(compiler);
    compiler.addFormat("enum", true);
    withFormats.add(compiler);
  }
  for (const name of names) if (!Object.hasOwn(compiler.formats, name)) compiler.addFormat(name, true);
}

/**
 * Every string under a `format` key, at any depth. Wider than the keyword's places (it also
 * reads `const` and `enum` data) so that no place Ajv compiles is missed: naming an extra
 * annotation changes nothing.
 */
function formatNames(schema: unknown): Set<string> {
  const names = new Set<string>();
  const seen = new Set<object>();
  const stack: unknown[] = [schema];
  while (stack.length > 0) {
    const node = stack.pop();
    if (typeof node !== "object" || node === null || seen.has(node)) continue;
    seen.add(node);
    for (const [key, value] of Object.entries(node)) {
      if (key === "format" && typeof value === "string") names.add(value);
      else if (typeof value === "object" && value !== null) stack.push(value);
    }
  }
  return names;
}
