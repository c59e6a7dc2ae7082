import { mapSubschemas } from "../core/subschemas";
import type { JSONSchemaObject } from "../core/types";
import { isDocumentPointer, referenceShape } from "./references";

/** Keywords about the schema document, not the values: a model has no use for them. */
const DOCUMENT_KEYWORDS = ["$schema", "$id", "$comment"] as const;

/** What `withoutDocumentKeywords` took out: keyword → how many times. */
export type DroppedKeywords = ReadonlyMap<string, number>;

/**
 * `schema` without the bytes no model reads: `$schema`, `$id` and `$comment` anywhere, and
 * `required: []`. Every `$id` stays while some `$ref` is not a JSON pointer into the document
 * (`#/...`) or a subschema names a resource of its own (references may resolve by them). With
 * `keepRootDialect`, the root's `$schema` stays: for a format that reads the dialect from it. The
 * schema given is not changed (copy on write).
 */
export function withoutDocumentKeywords(
  schema: JSONSchemaObject,
  { keepRootDialect = false }: { keepRootDialect?: boolean } = {},
): {
  schema: JSONSchemaObject;
  dropped: DroppedKeywords;
} {
  const dropped = new Map<string, number>();
  const { refs, nestedIds } = referenceShape(schema);
  // An `$id` may be what a reference resolves by (an anchor, a relative URI, a nested resource's base).
  const keepIds = nestedIds || refs.some(({ ref }) => !isDocumentPointer(ref));
  const kept = (keyword: string, atRoot: boolean) =>
    (keyword === "$id" && keepIds) || (keyword === "$schema" && keepRootDialect && atRoot);
  const cleaned = mapSubschemas(schema, (node, pointer) => {
    if (typeof node !== "object" || node === null) return node;
    const record = node as Record<string, unknown>;
    const needless = DOCUMENT_KEYWORDS.filter((keyword) => keyword in record && !kept(keyword, pointer() === ""));
    const emptyRequired = Array.isArray(record.required) && record.required.length === 0;
    if (needless.length === 0 && !emptyRequired) return node;
    const copy = { ...record };
    for (const keyword of needless) delete copy[keyword];
    if (emptyRequired) delete copy.required;
    for (const keyword of emptyRequired ? [...needless, "required"] : needless)
      dropped.set(keyword, (dropped.get(keyword) ?? 0) + 1);
    return copy;
  }) as JSONSchemaObject;
  return { schema: cleaned, dropped };
}
