/**
 * Walking JSON Schemas by their subschemas: which keywords hold a schema, a list or a map of
 * them, and a copy-on-write map over every subschema. Shared by the build side (lowering for
 * providers) and the run side (validation), so it sits below both.
 */

export function childPointer(pointer: string, ...segments: Array<string | number>): string {
  let path = pointer;
  for (const segment of segments) {
    const text = String(segment);
    path += `/${text.includes("~") || text.includes("/") ? text.replace(/~/g, "~0").replace(/\//g, "~1") : text}`;
  }
  return path;
}

/** Keywords whose value is one subschema, a list of them, or a map of them. */
export const ONE_SCHEMA = new Set([
  "additionalProperties",
  "items",
  "additionalItems",
  "not",
  "if",
  "then",
  "else",
  "contains",
  "propertyNames",
  "unevaluatedItems",
  "unevaluatedProperties",
]);
export const SCHEMA_LIST = new Set(["allOf", "anyOf", "oneOf", "prefixItems", "items"]);
export const SCHEMA_MAP = new Set(["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"]);

/**
 * `schema` with `visit` applied to every subschema, children first, copy-on-write. `visit`
 * gets each subschema (an object or a boolean), a function giving its JSON pointer, and
 * whether it stands in a map or a list (where some clients want schema objects); it returns
 * the subschema, or its replacement.
 */
export function mapSubschemas(
  schema: unknown,
  visit: (schema: unknown, pointer: () => string, inCollection: boolean) => unknown,
): unknown {
  const path: Array<string | number> = [];
  const pointer = () => childPointer("", ...path);
  const at = (node: unknown, inCollection: boolean, key: string, member?: string | number): unknown => {
    const depth = path.length;
    path.push(key);
    if (member !== undefined) path.push(member);
    const mapped = walk(node, inCollection);
    path.length = depth;
    return mapped;
  };
  const walk = (node: unknown, inCollection: boolean): unknown => {
    if (typeof node === "object" && node !== null && !Array.isArray(node)) {
      let copy: Record<string, unknown> | undefined;
      for (const key in node) {
        const value: unknown = (node as Record<string, unknown>)[key];
        if (typeof value !== "object" && typeof value !== "boolean") continue;
        let next: unknown = value;
        if (SCHEMA_MAP.has(key) && typeof value === "object" && value !== null && !Array.isArray(value)) {
          let map: Record<string, unknown> | undefined;
          for (const name in value) {
            const child: unknown = (value as Record<string, unknown>)[name];
            const mapped = at(child, true, key, name);
            if (mapped !== child) (map ??= { ...(value as Record<string, unknown>) })[name] = mapped;
          }
          next = map ?? value;
        } else if (SCHEMA_LIST.has(key) && Array.isArray(value)) {
          let list: unknown[] | undefined;
          for (let i = 0; i < value.length; i++) {
            const mapped = at(value[i], true, key, i);
            if (mapped !== value[i]) (list ??= [...value])[i] = mapped;
          }
          next = list ?? value;
        } else if (ONE_SCHEMA.has(key)) next = at(value, false, key);
        if (next !== value) (copy ??= { ...(node as Record<string, unknown>) })[key] = next;
      }
      node = copy ?? node;
    }
    return visit(node, pointer, inCollection);
  };
  return walk(schema, false);
}
