import type { JSONSchemaObject } from "../core/types";

/** The schema each runtime type that metadata reports maps to (a `Date` travels as a date-time string). */
export const SCALAR_SCHEMAS: ReadonlyMap<unknown, JSONSchemaObject> = new Map<unknown, JSONSchemaObject>([
  [String, { type: "string" }],
  [Number, { type: "number" }],
  [Boolean, { type: "boolean" }],
  [Date, { type: "string", format: "date-time" }],
]);

/** Built-in constructors metadata can report; any other function is a user's class (a DTO). */
const BUILTINS = new Set<unknown>([
  String,
  Number,
  Boolean,
  Date,
  Array,
  Object,
  Function,
  Promise,
  Symbol,
  BigInt,
  Map,
  Set,
  WeakMap,
  WeakSet,
]);

export function isUserClass(value: unknown): value is Function {
  return typeof value === "function" && !BUILTINS.has(value);
}

/**
 * A RegExp (or a pattern + modifiers, as `@Matches` takes them) as a JSON Schema pattern.
 * Flags other than `u`/`g` cannot be expressed: they come back instead, for the caller to refuse.
 */
export function patternSource(pattern: unknown, modifiers?: unknown): { source: string } | { flags: string } {
  const flags = (pattern instanceof RegExp ? pattern.flags : typeof modifiers === "string" ? modifiers : "").replace(
    /[gu]/g,
    "",
  );
  if (flags !== "") return { flags };
  return { source: pattern instanceof RegExp ? pattern.source : String(pattern) };
}

export function flagsProblem(flags: string): string {
  return (
    `the pattern's flags "${flags}" cannot be expressed in JSON Schema; write the pattern without them (e.g. ` +
    "[A-Za-z] instead of the i flag)"
  );
}
