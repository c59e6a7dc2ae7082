import type { ErrorObject } from "ajv";

/*
 * When the schema refuses a call, the other checks (the pattern phase, class-validator) still
 * look at the arguments so that every problem is reported at once; but never at a value the
 * schema refused as unsafe to read further: one larger than its bounds (a string past its
 * `maxLength` or the pattern input limit, too many items or properties, a key too long), a
 * key the schema does not know, or an object or list where something else was expected (it
 * may be nested arbitrarily deep). Those values are taken out of a copy of the arguments.
 */

/** Size bounds: the value is too large to be read by anything else. */
const TOO_LARGE = new Set(["maxLength", "maxItems", "maxProperties", "additionalItems"]);
/** A container where these fail is unlike anything expected there. */
const WRONG_KIND = new Set(["type", "enum", "const", "not"]);

/** The JSON pointers (as segments) of the values `error` makes unsafe to read further. */
export function unsafeValues(error: ErrorObject): string[][] {
  const at = pointerSegments(error.instancePath);
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case "additionalProperties":
      return [[...at, String(params.additionalProperty)]];
    case "unevaluatedProperties":
      return [[...at, String(params.unevaluatedProperty)]];
    case "propertyNames":
      return [[...at, String(params.propertyName)]];
  }
  // The errors inside `propertyNames` are about a key: the value under it goes.
  if (typeof error.propertyName === "string") return [[...at, error.propertyName]];
  if (TOO_LARGE.has(error.keyword)) return [at];
  if (WRONG_KIND.has(error.keyword) && typeof error.data === "object" && error.data !== null) return [at];
  return [];
}

function pointerSegments(pointer: string): string[] {
  if (pointer === "") return [];
  return pointer
    .slice(1)
    .split("/")
    .map((segment) => segment.replace(/~1/g, "/").replace(/~0/g, "~"));
}

/**
 * A copy of `args` without the values at `pointers` (copied only along their paths; `args`
 * is not changed): an object's key is deleted, a list's element becomes null so that the
 * others keep their positions (and the paths problems are reported at).
 */
export function withoutValuesAt(args: Record<string, unknown>, pointers: readonly string[][]): Record<string, unknown> {
  const copies = new Set<object>();
  const writable = (node: object): Record<string, unknown> => {
    if (copies.has(node)) return node as Record<string, unknown>;
    const copy = Array.isArray(node) ? [...(node as unknown[])] : { ...node };
    copies.add(copy);
    return copy as Record<string, unknown>;
  };
  const root = writable(args);
  removing: for (const segments of pointers) {
    if (segments.length === 0) continue;
    let node = root;
    for (const segment of segments.slice(0, -1)) {
      const child: unknown = Object.hasOwn(node, segment) ? node[segment] : undefined;
      // Already taken out with a value above it.
      if (typeof child !== "object" || child === null) continue removing;
      node = node[segment] = writable(child);
    }
    const last = segments[segments.length - 1]!;
    if (!Object.hasOwn(node, last)) continue;
    if (Array.isArray(node)) node[last] = null;
    else delete node[last];
  }
  return root;
}
