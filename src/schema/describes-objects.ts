import type { JSONSchemaObject } from "../core/types";
import { definitionAt } from "./lowering";

/**
 * Whether a root schema describes objects: `type: "object"`, a root `$ref` to such a schema
 * (as typescript-json-schema writes it), or root combinators whose branches all do.
 */
export function describesObjects(schema: JSONSchemaObject, root: JSONSchemaObject = schema): boolean {
  if (schema.type !== undefined) return schema.type === "object";
  const target = definitionAt(root, schema.$ref);
  if (target !== undefined) return describesObjects(target, root);
  const branches = [
    ...((schema.anyOf as unknown[]) ?? []),
    ...((schema.oneOf as unknown[]) ?? []),
    ...((schema.allOf as unknown[]) ?? []),
  ];
  return (
    branches.length > 0 &&
    branches.every(
      (branch) => typeof branch === "object" && branch !== null && describesObjects(branch as JSONSchemaObject, root),
    )
  );
}
