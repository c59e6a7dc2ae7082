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
  let node: unknown = root;
  for (const raw of ref === "#" ? [] : ref.slice(2).split("/")) {
    let segment: string;
    try {
      segment = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    } catch {
      return false;
    }
    if (typeof node !== "object" || node === null || !Object.prototype.hasOwnProperty.call(node, segment)) return false;
    node = (node as Record<string, unknown>)[segment];
  }
  return true;
}
