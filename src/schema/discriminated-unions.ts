import { mapSubschemas } from "../core/subschemas";
import { isSchemaObject, type JSONSchemaObject } from "../core/types";

/** What may stand beside a discriminated `anyOf` and still mean the same once it is rewritten. */
const ANNOTATIONS = new Set(["anyOf", "description", "title", "default", "examples", "$comment"]);

/**
 * `schema` with every discriminated union (an `anyOf` of closed objects, each requiring one
 * property whose only value is a string of its own, as DTOs with a class-transformer
 * discriminator declare) written as: an object whose discriminator is one of the values, and
 * which, for the value it has, matches that value's branch. Both accept exactly the same
 * values; what differs is what the validator says: for `anyOf` every branch's complaints
 * ("kind must be square", "missing side", ...), here only those of the branch the value chose,
 * or that the discriminator is none of the values. The properties that all branches declaring
 * them declare alike are checked on the object instead (the branches are closed, so this
 * accepts nothing more or less), where the argument cleaner also sees them: "42" for a number
 * and null for an optional property are read inside a union as they are elsewhere. For
 * checking calls, never for declaring (providers take `anyOf`). Copy-on-write.
 */
export function discriminatedUnionsForValidation<T extends JSONSchemaObject>(schema: T): T {
  return mapSubschemas(schema, (node) => (isSchemaObject(node) ? conditionalUnion(node) : node)) as T;
}

/** `out` (its subschemas already rewritten) as a conditional union, when it is a discriminated one. */
function conditionalUnion(out: JSONSchemaObject): JSONSchemaObject {
  const union = discriminated(out);
  if (union === undefined) return out;
  const { anyOf: _anyOf, ...annotations } = out;
  const { property, values, branches } = union;
  // A shared property is checked once, on the object; the branches keep only its name (they
  // are closed), so a problem with it is said once and not again as the branch failing.
  const shared = sharedProperties(branches, property);
  const everywhere = new Set(
    Object.keys(shared).filter((name) => branches.every((branch) => (branch.required ?? []).includes(name))),
  );
  const slim = (branch: JSONSchemaObject): JSONSchemaObject => {
    const required = (branch.required ?? []).filter((name) => !everywhere.has(name));
    const properties = Object.fromEntries(
      Object.entries(branch.properties ?? {}).map(([name, schema]) => [
        name,
        Object.hasOwn(shared, name) ? {} : schema,
      ]),
    );
    const { required: _required, ...rest } = branch;
    return { ...rest, properties, ...(required.length > 0 ? { required } : {}) };
  };
  return {
    ...annotations,
    type: "object",
    properties: { [property]: { type: "string", enum: values }, ...shared },
    required: [property, ...everywhere],
    // `type` in the condition: a value that is no object must not reach a branch (it fails `type` above, once).
    allOf: branches.map((branch, i) => ({
      if: { type: "object", properties: { [property]: { const: values[i] } }, required: [property] },
      then: slim(branch),
    })),
  };
}

/** The discriminator of `node`'s `anyOf` and each branch's value, when it is a union this rewrite keeps equivalent. */
function discriminated(
  node: JSONSchemaObject,
): { property: string; values: string[]; branches: JSONSchemaObject[] } | undefined {
  const branches = node.anyOf as unknown[] | undefined;
  if (!Array.isArray(branches) || branches.length === 0 || !Object.keys(node).every((key) => ANNOTATIONS.has(key)))
    return undefined;
  const closed = (branch: unknown) =>
    typeof branch === "object" &&
    branch !== null &&
    (branch as JSONSchemaObject).type === "object" &&
    (branch as JSONSchemaObject).additionalProperties === false &&
    !("patternProperties" in branch);
  if (!branches.every(closed)) return undefined;
  const objects = branches as JSONSchemaObject[];
  for (const property of Object.keys(objects[0]!.properties ?? {})) {
    const values = objects.map((branch) => fixedString(branch, property));
    if (values.every((value): value is string => value !== undefined) && new Set(values).size === values.length)
      return { property, values, branches: objects };
  }
  return undefined;
}

/** Each property other than the discriminator that every branch declaring it declares with the same schema. */
function sharedProperties(branches: JSONSchemaObject[], discriminator: string): Record<string, JSONSchemaObject> {
  const seen = new Map<string, { schema: JSONSchemaObject; text: string } | null>();
  for (const branch of branches) {
    for (const [name, schema] of Object.entries(branch.properties ?? {})) {
      if (name === discriminator) continue;
      const known = seen.get(name);
      const text = JSON.stringify(schema);
      if (known === undefined) seen.set(name, { schema, text });
      else if (known !== null && known.text !== text) seen.set(name, null);
    }
  }
  // fromEntries: a property named "__proto__" stays a property.
  return Object.fromEntries([...seen].flatMap(([name, entry]) => (entry === null ? [] : [[name, entry.schema]])));
}

/** The one string `branch` requires `property` to be, if it requires it and allows exactly one string. */
function fixedString(branch: JSONSchemaObject, property: string): string | undefined {
  if (!Object.hasOwn(branch.properties ?? {}, property) || !(branch.required ?? []).includes(property))
    return undefined;
  const schema = branch.properties![property]!;
  const keys = Object.keys(schema);
  const only = Array.isArray(schema.enum) && schema.enum.length === 1 ? schema.enum[0] : undefined;
  return schema.type === "string" && keys.length === 2 && keys.includes("enum") && typeof only === "string"
    ? only
    : undefined;
}
