import { mapSubschemas } from "../core/subschemas";
import { isSchemaObject, type JSONSchemaObject } from "../core/types";
import { inlineRefs } from "./canonical";
import { RECURSION_DEPTH } from "./lowering";
import { SchemaSizeError } from "./schema-size";

/**
 * `schema` without `$schema`, `$id` and definitions, every reference replaced by a copy of its
 * target. A recursive schema (zod's `$ref: "#"`, arktype's definitions) is unfolded
 * `RECURSION_DEPTH` times, then cut to "any value", as the provider exports do (what checks the
 * calls still sees every level). A reference that cannot be followed throws, and so does a schema
 * that grows past `MAX_SCHEMA_SIZE` as it is inlined (`SchemaSizeError`, before the work grows with it).
 */
export function selfContained(schema: JSONSchemaObject): JSONSchemaObject {
  const { $schema: _schema, $id: _id, definitions, $defs, ...root } = schema;
  const named = { ...(definitions as object | undefined), ...($defs as object | undefined) } as Record<string, unknown>;
  // Definitions only the root can reach matter: without a reference in it, they are unused.
  if (!containsRef(root)) return root;
  let rootName = "root";
  while (rootName in named) rootName += "_";
  const rootRef = `#/definitions/${rootName.replace(/~/g, "~0").replace(/\//g, "~1")}`;
  const definitionsWithRoot = { ...named, [rootName]: renameRootRefs(root, rootRef) };
  try {
    return inlineRefs({ $ref: rootRef }, definitionsWithRoot, (chain) => {
      const name = chain[chain.length - 1]!;
      if (chain.filter((n) => n === name).length <= RECURSION_DEPTH) return undefined;
      return { description: `(${name}, nested deeper than ${RECURSION_DEPTH} levels)` };
    }) as JSONSchemaObject;
  } catch (error) {
    if (error instanceof SchemaSizeError) throw error;
    throw new Error(`its JSON Schema has a reference toolnexus cannot follow: ${(error as Error).message}`);
  }
}

function containsRef(schema: unknown): boolean {
  let found = false;
  mapSubschemas(schema, (node) => {
    if (isSchemaObject(node) && typeof node.$ref === "string") found = true;
    return node;
  });
  return found;
}

/** `$ref: "#"` (the whole schema, as zod writes recursion) made a reference to the root's definition. */
function renameRootRefs(schema: JSONSchemaObject, rootRef: string): unknown {
  return mapSubschemas(schema, (node) =>
    isSchemaObject(node) && node.$ref === "#" ? { ...node, $ref: rootRef } : node,
  );
}

/**
 * The `SchemaSizeError` making `schema` self-contained would throw, or `undefined`: for a schema
 * kept with its references (`defineTool`'s), which an exporter without them (Gemini) inlines. A
 * reference that cannot be followed is not this check's to report.
 */
export function selfContainedSizeError(schema: JSONSchemaObject): SchemaSizeError | undefined {
  try {
    selfContained(schema);
    return undefined;
  } catch (error) {
    return error instanceof SchemaSizeError ? error : undefined;
  }
}
