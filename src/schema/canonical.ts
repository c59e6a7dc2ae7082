import type { JSONSchemaObject } from "../core/types";
import { childPointer } from "../core/subschemas";
import { definitionNamed } from "./references";
import { SchemaSizeCounter } from "./schema-size";

/** Keywords first in this order, then the rest alphabetically: exports are byte-stable and read naturally. */
const KEY_ORDER = [
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
const RANK = new Map(KEY_ORDER.map((key, index) => [key, index]));

/** Keywords whose value is a map of name → schema (keys kept in their declared order). */
const SCHEMA_MAPS = new Set(["properties", "patternProperties", "$defs", "definitions"]);
/** Keywords whose value is data, not schema: left exactly as they are. */
const DATA_KEYWORDS = new Set(["enum", "const", "default", "examples", "example", "required"]);

/**
 * `schema` with each node's keys in canonical order. Copy-on-write: a node already in order,
 * with every child in order, is returned as it is (schemas are never mutated once built).
 */
export function canonicalSchema<T extends JSONSchemaObject>(schema: T): T {
  return canonicalNode(schema) as T;
}

function rank(key: string): number {
  return RANK.get(key) ?? KEY_ORDER.length;
}

function compareKeys(a: string, b: string): number {
  return rank(a) - rank(b) || (RANK.has(a) ? 0 : a < b ? -1 : a > b ? 1 : 0);
}

function canonicalNode(node: unknown): unknown {
  if (Array.isArray(node)) return sameOrCopy(node, node.map(canonicalNode));
  if (typeof node !== "object" || node === null) return node;
  const keys = Object.keys(node);
  let ordered = true;
  let changed: Map<string, unknown> | undefined;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    if (ordered && i > 0 && compareKeys(keys[i - 1]!, key) > 0) ordered = false;
    const value = (node as Record<string, unknown>)[key];
    // Strings, numbers and data keywords are kept as they are: only schemas below are visited.
    if (typeof value !== "object" || value === null || DATA_KEYWORDS.has(key)) continue;
    const next = SCHEMA_MAPS.has(key) ? canonicalMap(value) : canonicalNode(value);
    if (next !== value) (changed ??= new Map()).set(key, next);
  }
  if (ordered && changed === undefined) return node;
  const out: Record<string, unknown> = {};
  for (const key of ordered ? keys : keys.sort(compareKeys))
    out[key] = changed?.has(key) ? changed.get(key) : (node as Record<string, unknown>)[key];
  return out;
}

/** A map of name → schema: names keep their declared order, each schema is made canonical. */
function canonicalMap(map: object): object {
  let copy: Record<string, unknown> | undefined;
  for (const name of Object.keys(map)) {
    const sub = (map as Record<string, unknown>)[name];
    const next = canonicalNode(sub);
    if (next !== sub) (copy ??= { ...map })[name] = next;
  }
  return copy ?? map;
}

function sameOrCopy(original: unknown[], mapped: unknown[]): unknown[] {
  return mapped.every((item, i) => item === original[i]) ? original : mapped;
}

/**
 * Replaces every local `$ref` (`#/definitions/X`, `#/$defs/X`, JSON Pointers) with a copy of its target,
 * using `definitions` for lookup. When a reference repeats inside itself, `onRepeat` gets the
 * chain of names and the JSON Pointer where it stands: it returns a stand-in schema to stop
 * there, or `undefined` to unfold once more. The copy is counted as it is made: one that
 * grows past `MAX_SCHEMA_SIZE` throws `SchemaSizeError` at once, naming where.
 */
export function inlineRefs(
  node: unknown,
  definitions: Record<string, unknown>,
  onRepeat: (chain: string[], pointer: string) => unknown,
): unknown {
  return inlined(node, { definitions, onRepeat, size: new SchemaSizeCounter() }, [], "");
}

/**
 * The key of `definitions` a reference names: read as a JSON Pointer (percent-encoded, `~1`, `~0`), as validators read
 * it; else as written, for maps keyed by the references' own spelling (the schema generator's).
 */
function definitionKey(ref: string, definitions: Record<string, unknown>): string | undefined {
  const has = (key: string) => Object.prototype.hasOwnProperty.call(definitions, key);
  const named = definitionNamed(ref)?.name;
  if (named !== undefined && has(named)) return named;
  const written = /^#\/(?:definitions|\$defs)\/([^/]+)$/.exec(ref)?.[1];
  return written !== undefined && has(written) ? written : undefined;
}

interface Inlining {
  definitions: Record<string, unknown>;
  onRepeat: (chain: string[], pointer: string) => unknown;
  size: SchemaSizeCounter;
}

function inlined(node: unknown, inlining: Inlining, chain: string[], pointer: string): unknown {
  const { definitions, size } = inlining;
  if (Array.isArray(node)) {
    size.array(node.length, pointer);
    return node.map((item, i) => inlined(item, inlining, chain, `${pointer}/${i}`));
  }
  if (typeof node !== "object" || node === null) {
    size.scalar(node, pointer);
    return node;
  }
  const ref = (node as { $ref?: unknown }).$ref;
  if (typeof ref === "string") {
    const name = definitionKey(ref, definitions);
    if (name === undefined) throw new Error(`unresolvable $ref "${ref}" at ${pointer || "/"}`);
    if (chain.includes(name)) {
      const standIn = inlining.onRepeat([...chain, name], pointer);
      if (standIn !== undefined) {
        size.value(standIn, pointer);
        return standIn;
      }
    }
    const { $ref: _ref, ...siblings } = node as Record<string, unknown>;
    const target = inlined(definitions[name], inlining, [...chain, name], pointer) as Record<string, unknown>;
    // The reference's own keywords are kept as they are, and counted as written beside the target's.
    const keys = Object.keys(siblings);
    size.members(keys, pointer);
    for (const key of keys) size.value(siblings[key], childPointer(pointer, key));
    return { ...target, ...siblings };
  }
  const keys = Object.keys(node).filter((key) => key !== "$defs" && key !== "definitions");
  size.object(keys, pointer);
  const out: Record<string, unknown> = {};
  for (const key of keys) {
    const value = (node as Record<string, unknown>)[key];
    const at = childPointer(pointer, key);
    if (DATA_KEYWORDS.has(key)) {
      size.value(value, at);
      out[key] = value;
    } else if (SCHEMA_MAPS.has(key) && typeof value === "object" && value !== null && !Array.isArray(value)) {
      // A map of name → schema: its names are not keywords (a property may be called "enum").
      const names = Object.keys(value);
      size.object(names, at);
      out[key] = Object.fromEntries(
        names.map((name) => [
          name,
          inlined((value as Record<string, unknown>)[name], inlining, chain, childPointer(at, name)),
        ]),
      );
    } else out[key] = inlined(value, inlining, chain, at);
  }
  return out;
}
