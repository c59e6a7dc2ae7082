/**
 * JSON Schema → what Ollama's server keeps of a function's `parameters`. The server parses them
 * into fixed Go structs (`api.ToolFunctionParameters` at the root, `api.ToolProperty` for every
 * property and `anyOf` branch) and drops every keyword those have no field for, without an
 * error. So the lowering drops or rewrites those keywords itself and logs each change.
 *
 * Every rewrite only widens what the schema accepts (a keyword dropped, a tuple made one item
 * schema, `oneOf` made `anyOf`) or keeps it (`allOf` merged, `const` made a one-value `enum`,
 * references inlined): every value valid for the tool stays valid as declared, and a model's
 * answer needs no way back. What the declaration no longer says is still checked when the call
 * runs, if the tool validates its arguments (the log says which).
 */
import { ExportError } from "../../core/errors";
import { childPointer } from "../../core/subschemas";
import { isSchemaObject, type JSONSchemaObject } from "../../core/types";
import {
  appendSentence,
  distinctSchemas,
  inlineAllRefs,
  mergeAllOf,
  plainObjectRoot,
  tupleOf,
  type ChangeLog,
} from "../../schema/lowering";
import { FEWER_COPIES, SchemaSizeError } from "../../schema/schema-size";
import { valueKey } from "../codec";

/** Constraints with no field in `ToolProperty`, stated in the description so that the model still reads them. */
const STATED: ReadonlySet<string> = new Set([
  "format",
  "pattern",
  "minLength",
  "maxLength",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "minItems",
  "maxItems",
  "uniqueItems",
  "minProperties",
  "maxProperties",
]);

/** Keywords that constrain values (as opposed to annotations): their drop says whether the call still checks them. */
const CONSTRAINTS: ReadonlySet<string> = new Set([
  "not",
  "additionalProperties",
  "patternProperties",
  "propertyNames",
  "unevaluatedProperties",
  "unevaluatedItems",
  "additionalItems",
  "contains",
  "minContains",
  "maxContains",
  "dependentRequired",
  "dependentSchemas",
  "dependencies",
  "if",
  "then",
  "else",
  "contentEncoding",
  "contentMediaType",
  "contentSchema",
  "$ref",
]);

/**
 * A tool's `inputSchema` as Ollama keeps it, every change logged. A schema already inside what
 * the server keeps is returned as it is.
 */
export function lowerOllamaParameters(schema: JSONSchemaObject, log: ChangeLog): JSONSchemaObject {
  const before = log.changes.length;
  const lowered = lowerRoot(inlined(plainObjectRoot(schema, log), log), log);
  return log.changes.length === before ? schema : lowered;
}

/**
 * References inlined: `ToolProperty` has no `$ref`. A schema that grows past `MAX_SCHEMA_SIZE` doing so fails the
 * export, naming the tool.
 */
function inlined(schema: JSONSchemaObject, log: ChangeLog): JSONSchemaObject {
  try {
    return inlineAllRefs(schema, log);
  } catch (error) {
    if (!(error instanceof SchemaSizeError)) throw error;
    throw new ExportError(
      `Tool "${log.tool}": its inputSchema cannot be declared for Ollama, whose parameters take no $refs: ` +
        `${error.message}. ${FEWER_COPIES}.`,
    );
  }
}

/**
 * The root as `api.ToolFunctionParameters` takes it: `type`, `properties` and `required`. The
 * struct also has `$defs` and `items`: references are inlined (a `ToolProperty` cannot hold a
 * `$ref`), so no definitions are needed, and `items` says nothing about an object.
 */
function lowerRoot(root: JSONSchemaObject, log: ChangeLog): JSONSchemaObject {
  const out: JSONSchemaObject = { type: "object" };
  let refused: ReadonlySet<string> = new Set();
  for (const key of Object.keys(root)) {
    if (key === "type") continue;
    if (key === "properties") {
      const lowered = lowerProperties(root.properties, "", log);
      if (lowered !== undefined) ({ properties: out.properties, refused } = lowered);
    } else if (key !== "required") {
      log.add(childPointer("", key), key, "dropped", rootDrop(key, log));
    }
  }
  const required = lowerRequired(root.required, "", refused, log);
  if (required !== undefined) out.required = required;
  return out;
}

function rootDrop(key: string, log: ChangeLog): string {
  if (key === "$defs" || key === "definitions")
    return `${key} dropped: references are inlined (Ollama's ToolProperty has no $ref), so no definition is needed`;
  return (
    `${key} dropped: Ollama's parameters have no such ` +
    `field${CONSTRAINTS.has(key) || STATED.has(key) ? log.whenRun : ""}`
  );
}

interface LoweredProperties {
  properties: Record<string, JSONSchemaObject>;
  /** Properties that take no value (`false`): not declared, and no longer required. */
  refused: ReadonlySet<string>;
}

/**
 * Each property's schema as a `ToolProperty`; `undefined` for a `properties` that is not a map of schemas (dropped,
 * logged).
 */
function lowerProperties(input: unknown, pointer: string, log: ChangeLog): LoweredProperties | undefined {
  const at = childPointer(pointer, "properties");
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    log.add(at, "properties", "dropped", "properties is not a map of schemas");
    return undefined;
  }
  const refused = new Set<string>();
  const entries: Array<[string, JSONSchemaObject]> = [];
  for (const [name, child] of Object.entries(input)) {
    const lowered = lowerNode(child, childPointer(at, name), log);
    if (lowered !== undefined) entries.push([name, lowered]);
    else {
      refused.add(name);
      log.add(
        childPointer(at, name),
        "properties",
        "dropped",
        `"${name}" accepts no value (false), so it is not declared${log.whenRun}`,
      );
    }
  }
  // fromEntries: a property named "__proto__" stays a property.
  return { properties: Object.fromEntries(entries), refused };
}

/** `required` as `ToolProperty` takes it: names (strings), none of a property that is no longer declared. */
function lowerRequired(
  input: unknown,
  pointer: string,
  refused: ReadonlySet<string>,
  log: ChangeLog,
): string[] | undefined {
  if (input === undefined) return undefined;
  const at = childPointer(pointer, "required");
  if (!Array.isArray(input)) {
    log.add(at, "required", "dropped", `required is not a list of names${log.whenRun}`);
    return undefined;
  }
  const names = input.filter((name): name is string => typeof name === "string");
  if (names.length < input.length)
    log.add(at, "required", "dropped", `entries that are not names removed${log.whenRun}`);
  const kept = names.filter((name) => !refused.has(name));
  if (kept.length < names.length) {
    const gone = names.filter((name) => refused.has(name)).map((name) => `"${name}"`);
    log.add(at, "required", "dropped", `${gone.join(", ")} no longer declared (it accepts no value)${log.whenRun}`);
  }
  return kept;
}

/**
 * One schema as an `api.ToolProperty`, whose fields are `type`, `description`, `enum`, `items`,
 * `anyOf`, `properties` and `required` (`items` is raw JSON there: the server keeps it as sent);
 * `undefined` for `false` (a schema no value passes), which a `ToolProperty` cannot say.
 */
function lowerNode(input: unknown, pointer: string, log: ChangeLog): JSONSchemaObject | undefined {
  if (input === false) return undefined;
  if (!isSchemaObject(input)) {
    log.add(
      pointer,
      "type",
      "rewritten",
      `${JSON.stringify(input) ?? typeof input} → {} (any value): Ollama's ToolProperty is an object`,
    );
    return {};
  }
  const node = combined(input, pointer, log);
  const out: JSONSchemaObject = {};
  const stated: string[] = [];
  let refused: ReadonlySet<string> = new Set();
  for (const key of Object.keys(node)) {
    const value = node[key];
    const at = childPointer(pointer, key);
    switch (key) {
      case "type":
        if (typeof value === "string" || (Array.isArray(value) && value.every((type) => typeof type === "string")))
          out.type = value as JSONSchemaObject["type"];
        else log.add(at, key, "dropped", `type ${JSON.stringify(value)} is not a type name or a list of them`);
        break;
      case "description":
        if (typeof value === "string") out.description = value;
        else log.add(at, key, "dropped", "description is not a string");
        break;
      case "enum":
        if (Array.isArray(value) && value.length > 0) out.enum = value;
        else
          log.add(
            at,
            key,
            "dropped",
            (Array.isArray(value) ? "an empty enum (no value passes it), which Ollama drops" : "enum is not a list") +
              log.whenRun,
          );
        break;
      case "items":
        // Raw JSON to the server: kept as the tool declared it, unless it is the rest of a 2020-12 tuple.
        if (!Array.isArray(node.prefixItems)) out.items = value as JSONSchemaObject["items"];
        break;
      case "prefixItems":
        if (Array.isArray(value)) lowerTuple(node, out, pointer, log);
        else log.add(at, key, "dropped", `prefixItems is not a list of schemas${log.whenRun}`);
        break;
      case "anyOf":
        lowerUnion(value, at, log, out);
        break;
      case "properties": {
        const lowered = lowerProperties(value, pointer, log);
        if (lowered !== undefined) ({ properties: out.properties, refused } = lowered);
        break;
      }
      case "required":
        break;
      case "default":
        stated.push(`Default: ${JSON.stringify(value)}.`);
        log.add(at, key, "moved", "default stated in the description: Ollama's ToolProperty has no such field");
        break;
      default:
        if (STATED.has(key)) {
          stated.push(key === "format" ? `Format: ${String(value)}.` : `${key}: ${JSON.stringify(value)}.`);
          log.add(
            at,
            key,
            "moved",
            `${key} stated in the description: Ollama's ToolProperty has no such field${log.whenRun}`,
          );
        } else
          log.add(
            at,
            key,
            "dropped",
            `${key} dropped: Ollama's ToolProperty has no such field${CONSTRAINTS.has(key) ? log.whenRun : ""}`,
          );
    }
  }
  const required = lowerRequired(node.required, pointer, refused, log);
  if (required !== undefined) out.required = required;
  if (stated.length > 0) out.description = appendSentence(out.description, stated.join(" "));
  return out;
}

/**
 * The combinators `ToolProperty` lacks, rewritten into the ones it has: `allOf` merged into the
 * node, `oneOf` joined to `anyOf`, `const` as a one-value `enum`. Their keys keep their place.
 */
function combined(input: JSONSchemaObject, pointer: string, log: ChangeLog): JSONSchemaObject {
  let node = input;
  if (Array.isArray(node.allOf)) {
    const { allOf, ...rest } = node;
    log.add(
      childPointer(pointer, "allOf"),
      "allOf",
      "rewritten",
      "allOf merged into one schema (Ollama's ToolProperty has no allOf)",
    );
    node = mergeAllOf(rest, (allOf as unknown[]).filter(isSchemaObject));
  }
  if (Array.isArray(node.oneOf)) {
    const { oneOf, ...rest } = node;
    const joined = rest.anyOf !== undefined;
    log.add(
      childPointer(pointer, "oneOf"),
      "oneOf",
      "rewritten",
      `oneOf → anyOf${joined ? " (joined to the node's anyOf: a value may now pass either list)" : ""} ` +
        `(${log.holds(joined ? "each list" : "exactly-one")})`,
    );
    node = {
      ...rest,
      anyOf: [...(Array.isArray(rest.anyOf) ? (rest.anyOf as unknown[]) : []), ...(oneOf as unknown[])],
    };
  }
  if ("const" in node) {
    const { const: value, ...rest } = node;
    const values = Array.isArray(rest.enum)
      ? rest.enum.filter((other) => valueKey(other) === valueKey(value))
      : [value];
    log.add(
      childPointer(pointer, "const"),
      "const",
      "rewritten",
      `const ${JSON.stringify(value)} → enum [${JSON.stringify(value)}]`,
    );
    node = { ...rest, enum: values };
  }
  return node;
}

/**
 * `anyOf` with every branch a `ToolProperty`: branches that accept nothing are left out, and a list left empty with
 * them.
 */
function lowerUnion(value: unknown, pointer: string, log: ChangeLog, out: JSONSchemaObject): void {
  if (!Array.isArray(value)) {
    log.add(pointer, "anyOf", "dropped", `anyOf is not a list of schemas${log.whenRun}`);
    return;
  }
  const branches = value
    .map((branch, i) => lowerNode(branch, childPointer(pointer, i), log))
    .filter((branch) => branch !== undefined);
  if (branches.length < value.length)
    log.add(pointer, "anyOf", "dropped", "branches that accept no value (false) removed");
  if (branches.length > 0) out.anyOf = branches;
  else
    log.add(
      pointer,
      "anyOf",
      "dropped",
      `an anyOf of no branch that accepts a value, which Ollama cannot say${log.whenRun}`,
    );
}

/**
 * A 2020-12 tuple (`prefixItems`, `ToolProperty` has no field for it) as one item schema, any
 * of the positions'. Its `items` (what follows the positions) is not kept apart: a tuple open to
 * any further value becomes an array of any values. Draft-7 tuples (`items: [..]`) are raw
 * `items`, kept as they are.
 */
function lowerTuple(node: JSONSchemaObject, out: JSONSchemaObject, pointer: string, log: ChangeLog): void {
  const tuple = tupleOf(node)!;
  const rest = tuple.rest === undefined ? true : tuple.rest;
  const schemas = [...tuple.positions, ...(rest === false ? [] : [rest])];
  const what =
    "prefixItems (a tuple) → " +
    `${schemas.some((schema) => schema === true) ? "an array of any values" : "items, one schema for every position"}` +
    `; ${log.holds("each position's schema")}`;
  log.add(childPointer(pointer, "prefixItems"), "prefixItems", "rewritten", what);
  if (schemas.some((schema) => schema === true)) return;
  const items = distinctSchemas(schemas.filter(isSchemaObject));
  // No position and nothing after them: an array that must be empty.
  out.items = (
    items.length === 0 ? false : items.length === 1 ? items[0] : { anyOf: items }
  ) as JSONSchemaObject["items"];
}
