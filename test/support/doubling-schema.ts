import type { JSONSchemaObject } from "../../src";

/** Enough doubling levels that inlining them all would take gigabytes (2^30 copies of the last definition). */
export const DOUBLING_LEVELS = 30;

/**
 * An object schema of a `tree` whose `$defs` each refer to the next one twice (`left` and
 * `right`): a few hundred bytes as written, twice as large at each level once inlined.
 */
export function doublingSchema(levels = DOUBLING_LEVELS): JSONSchemaObject {
  const $defs: Record<string, unknown> = {};
  for (let level = 0; level < levels; level++) {
    const next = { $ref: `#/$defs/level${level + 1}` };
    $defs[`level${level}`] = { type: "object", properties: { left: next, right: next } };
  }
  $defs[`level${levels}`] = { type: "string" };
  return { type: "object", properties: { tree: { $ref: "#/$defs/level0" } }, required: ["tree"], $defs };
}

/**
 * A message that says `before`, then that the doubling schema passed the bound somewhere down
 * its tree (a JSON pointer through left and right) and the limit, then `after`.
 */
export function refusalOfTheTree(before: string, after: string): RegExp {
  const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(
    `^${literal(`${before}with its $refs inlined it grows past 1,000,000 characters of JSON (toolnexus's limit, MAX_SCHEMA_SIZE) at `)}` +
      "/properties/tree(?:/properties(?:/(?:left|right))?)+" +
      `${literal(": each $ref becomes a copy of its definition, so definitions referenced from many places multiply")}${literal(after)}$`,
  );
}
