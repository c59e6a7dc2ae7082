import { mapSubschemas } from "../core/subschemas";
import type { JSONSchemaObject } from "../core/types";

/** The references of a schema and whether it names resources of its own: what resolving them depends on. */
export interface ReferenceShape {
  /** Every `$ref` of a subschema (values under `const`, `enum`, `default` are data, not references). */
  refs: Array<{ ref: string; pointer: string }>;
  /** Whether a subschema below the root has an `$id`: a `#/...` under it resolves against that resource, not the root. */
  nestedIds: boolean;
}

export function referenceShape(schema: JSONSchemaObject): ReferenceShape {
  const refs: ReferenceShape["refs"] = [];
  let nestedIds = false;
  mapSubschemas(schema, (node, pointer) => {
    if (typeof node !== "object" || node === null) return node;
    const { $ref, $id } = node as Record<string, unknown>;
    if (typeof $ref === "string") refs.push({ ref: $ref, pointer: `${pointer()}/$ref` });
    if ($id !== undefined && node !== schema) nestedIds = true;
    return node;
  });
  return { refs, nestedIds };
}

/** Whether `ref` is a JSON pointer into the document itself (`#` or `#/...`), which the root alone resolves. */
export function isDocumentPointer(ref: string): boolean {
  return ref === "#" || ref.startsWith("#/");
}

/**
 * The first `#/...` reference that points at nothing, with where it stands, or `undefined` when
 * each resolves, or when only a validator's compile can tell (a nested `$id` changes what they
 * resolve against). A cheap walk: what a compile would refuse about such references, found
 * without compiling.
 */
export function unresolvedReference(
  schema: JSONSchemaObject,
  { refs, nestedIds }: ReferenceShape = referenceShape(schema),
): { ref: string; pointer: string } | undefined {
  if (nestedIds) return undefined;
  return refs.find(({ ref }) => isDocumentPointer(ref) && !resolves(schema, ref));
}

/** Whether the JSON pointer of `ref` (`#`, `#/a/b`) names a value of `root`. */
function resolves(root: unknown, ref: string): boolean {
  const tokens = pointerTokens(ref);
  if (tokens === undefined) return false;
  let node: unknown = root;
  for (const token of tokens) {
    if (typeof node !== "object" || node === null || !Object.prototype.hasOwnProperty.call(node, token)) return false;
    node = (node as Record<string, unknown>)[token];
  }
  return true;
}

/**
 * The reference tokens of a `#` or `#/...` reference, read as validators read a URI fragment: split at "/", each
 * segment percent-decoded (`%3C` is "<", as typescript-json-schema writes the names of generic types), then `~1`
 * read as "/" and `~0` as "~". `undefined` for any other reference, or a segment that is not valid percent-encoding.
 */
export function pointerTokens(ref: string): string[] | undefined {
  if (!isDocumentPointer(ref)) return undefined;
  const tokens: string[] = [];
  for (const segment of ref === "#" ? [] : ref.slice(2).split("/")) {
    try {
      tokens.push(decodeURIComponent(segment).replace(/~1/g, "/").replace(/~0/g, "~"));
    } catch {
      return undefined;
    }
  }
  return tokens;
}

/** Where definitions are kept: 2019-09's `$defs`, and draft 7's `definitions`. */
export type DefinitionsKeyword = "$defs" | "definitions";

/** The definition a reference names (`#/$defs/Name`, `#/definitions/Name`), as a JSON Pointer reads: else `undefined`. */
export function definitionNamed(ref: unknown): { keyword: DefinitionsKeyword; name: string } | undefined {
  if (typeof ref !== "string") return undefined;
  const tokens = pointerTokens(ref);
  if (tokens?.length !== 2 || (tokens[0] !== "$defs" && tokens[0] !== "definitions")) return undefined;
  return { keyword: tokens[0], name: tokens[1]! };
}
