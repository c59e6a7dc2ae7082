import type { JSONSchemaObject } from "../types";
import { inlineRefs } from "./canonical";

/** One change a provider dialect made to a tool's schema. */
export interface SchemaChange {
  tool: string;
  /** JSON Pointer into the tool's `inputSchema` ("" is the root). */
  pointer: string;
  keyword: string;
  action: "dropped" | "rewritten" | "inlined" | "moved" | "cut" | "added" | "disabled";
  detail: string;
}

/** Collects the changes of one tool's lowering; pure helpers push into it. */
export class ChangeLog {
  readonly changes: SchemaChange[] = [];
  constructor(readonly tool: string) {}
  add(pointer: string, keyword: string, action: SchemaChange["action"], detail: string): void {
    this.changes.push({ tool: this.tool, pointer, keyword, action, detail });
  }
}

export function childPointer(pointer: string, ...segments: Array<string | number>): string {
  let path = pointer;
  for (const segment of segments) {
    const text = String(segment);
    path += `/${text.includes("~") || text.includes("/") ? text.replace(/~/g, "~0").replace(/\//g, "~1") : text}`;
  }
  return path;
}

function containsRef(node: unknown): boolean {
  if (typeof node !== "object" || node === null) return false;
  if (Array.isArray(node)) return node.some(containsRef);
  for (const key in node) {
    const value = (node as Record<string, unknown>)[key];
    if (key === "$ref" && typeof value === "string") return true;
    if (typeof value === "object" && containsRef(value)) return true;
  }
  return false;
}

/** How many times a recursive `$ref` is unfolded before it is cut (Gemini and friends cannot refer). */
export const RECURSION_DEPTH = 3;

/**
 * Inlines `$ref`s into a self-contained schema. Recursive references are unfolded
 * `RECURSION_DEPTH` times, then replaced by a plain object, and each cut is logged.
 */
export function inlineAllRefs(schema: JSONSchemaObject, log: ChangeLog): JSONSchemaObject {
  const definitions = { ...(schema.definitions as object | undefined), ...(schema.$defs as object | undefined) } as Record<string, unknown>;
  if (!containsRef(schema)) return schema;
  const inlined = inlineRefs(schema, definitions, (chain, pointer) => {
    const name = chain[chain.length - 1]!;
    if (chain.filter((n) => n === name).length <= RECURSION_DEPTH) return undefined;
    log.add(pointer, "$ref", "cut", `recursive reference ${chain.join(" → ")} cut after ${RECURSION_DEPTH} levels; deeper values are still validated when the call runs`);
    return { type: "object", description: `(${name}, nested deeper than ${RECURSION_DEPTH} levels)` };
  }) as JSONSchemaObject;
  log.add("", "$ref", "inlined", `references to ${Object.keys(definitions).join(", ")} inlined`);
  return inlined;
}

/**
 * For providers that want a plain object at the root (Anthropic, Bedrock): root combinators
 * are dropped (still enforced when the call runs). Returns the schema itself when it is fine.
 */
export function plainObjectRoot(schema: JSONSchemaObject, log: ChangeLog): JSONSchemaObject & { type: "object" } {
  const combinators = ["anyOf", "oneOf", "allOf", "not"].filter((key) => key in schema);
  if (schema.type === "object" && combinators.length === 0) return schema as JSONSchemaObject & { type: "object" };
  const out: JSONSchemaObject = { ...schema, type: "object" };
  if (schema.type !== "object") log.add("/type", "type", "rewritten", `root type ${JSON.stringify(schema.type)} → "object"`);
  for (const key of combinators) {
    log.add(`/${key}`, key, "dropped", `${key} is not allowed at the root (still enforced when the call runs)`);
    delete out[key];
  }
  return out as JSONSchemaObject & { type: "object" };
}

/** `allOf` branches merged into one schema (properties united in order, required united; earlier wins). */
export function mergeAllOf(node: JSONSchemaObject, branches: JSONSchemaObject[]): JSONSchemaObject {
  return branches.reduce(
    (into, next) => ({
      ...next,
      ...into,
      ...(into.properties || next.properties ? { properties: unitedProperties(into.properties, next.properties) } : {}),
      ...(into.required || next.required ? { required: [...new Set([...(into.required ?? []), ...(next.required ?? [])])] } : {}),
    }),
    node,
  );
}

function unitedProperties(first: JSONSchemaObject["properties"], second: JSONSchemaObject["properties"]): Record<string, JSONSchemaObject> {
  const out = { ...first };
  for (const [name, schema] of Object.entries(second ?? {})) if (!(name in out)) out[name] = schema;
  return out;
}

/** Tuple-style `items: [A, B]` (draft 7) as one item schema: the single branch, or anyOf of them. */
export function tupleItems(items: JSONSchemaObject[]): JSONSchemaObject {
  return items.length === 1 ? items[0]! : { anyOf: items };
}

export function appendSentence(text: unknown, sentence: string): string {
  return typeof text === "string" && text.length > 0 ? `${text} ${sentence}` : sentence;
}
