import Ajv, { type ErrorObject, type ValidateFunction } from "ajv";
import addFormats from "ajv-formats";
import type { JSONSchemaObject } from "../types";
import { describeValue } from "./arguments";

/**
 * One Ajv instance for the process: it is a compiler and a cache of compiled validators,
 * holding no per-call state. `verbose` keeps the offending data and schema in each error so
 * messages can say what came and what was expected.
 */
let sharedAjv: Ajv | undefined;
function ajv(): Ajv {
  if (sharedAjv === undefined) {
    // unicodeRegExp off: `pattern`s mean what they mean to JavaScript and class-validator.
    // ownProperties: an argument named "toString" that was not sent is missing, not a function.
    sharedAjv = new Ajv({ allErrors: true, strict: false, verbose: true, validateFormats: true, strictNumbers: true, unicodeRegExp: false, ownProperties: true });
    addFormats(sharedAjv);
    // Gemini's and OpenAPI's marker for a string enum: the enum itself says what is allowed.
    sharedAjv.addFormat("enum", true);
  }
  return sharedAjv;
}

/** Returns the problems with `args` (empty when valid). */
export type ArgumentsValidator = (args: Record<string, unknown>) => string[];

/** `schema` compiled now (a schema Ajv cannot compile throws here); the validator returns each problem as a sentence. */
export function compileValidator(schema: JSONSchemaObject): ArgumentsValidator {
  const compiled = compileSchema(schema);
  return (args) => (compiled(args) ? [] : (compiled.errors ?? []).map(describeAjvError));
}

export function compileSchema(schema: JSONSchemaObject): ValidateFunction {
  // `$schema` would make Ajv look up a meta-schema by URI (the dialect is always the same
  // here), and an `$id` would be registered process-wide, clashing with the next tool that has it.
  // A copy: Ajv writes into some schemas it compiles (`nullable` beside a type list gains "null").
  const { $schema: _schema, $id: _id, ...rest } = JSON.parse(JSON.stringify(draft7Tuples(schema))) as JSONSchemaObject;
  const validate = ajv().compile(rest);
  // The compiled function is ours to keep; Ajv's own cache would only grow (never hit: each
  // tool compiles once).
  ajv().removeSchema(rest);
  return validate;
}

/** Keywords whose value is data, not schema: never rewritten. */
const DATA_KEYWORDS = new Set(["enum", "const", "default", "examples", "example", "required"]);
/** Keywords whose value is a map of name → schema. */
const SCHEMA_MAPS = new Set(["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"]);

/**
 * 2020-12 tuples (`prefixItems`, then `items` for the rest) written the draft-7 way
 * (`items: [...]`, then `additionalItems`), which is the dialect the validator speaks: a
 * tuple is enforced whichever way it was written. Copy-on-write.
 */
export function draft7Tuples(node: unknown, isMap = false): unknown {
  if (Array.isArray(node)) {
    const mapped = node.map((item) => draft7Tuples(item));
    return mapped.some((item, i) => item !== node[i]) ? mapped : node;
  }
  if (typeof node !== "object" || node === null) return node;
  let copy: Record<string, unknown> | undefined;
  for (const [key, value] of Object.entries(node)) {
    if ((!isMap && DATA_KEYWORDS.has(key)) || typeof value !== "object" || value === null) continue;
    const next = draft7Tuples(value, !isMap && SCHEMA_MAPS.has(key));
    if (next !== value) (copy ??= { ...node })[key] = next;
  }
  const source = (copy ?? node) as Record<string, unknown>;
  if (isMap || !Array.isArray(source.prefixItems)) return source;
  const { prefixItems, items, ...rest } = source;
  return { ...rest, items: prefixItems, ...(items !== undefined ? { additionalItems: items } : {}) };
}

/** Throws with Ajv's own words when `schema` is not a valid JSON Schema. */
export function assertValidSchema(schema: JSONSchemaObject): void {
  const { $schema: _schema, $id: _id, ...rest } = draft7Tuples(schema) as JSONSchemaObject;
  if (!ajv().validateSchema(rest)) throw new Error(ajv().errorsText(ajv().errors));
}

/** `/items/0/name` → `items[0].name`. */
export function argumentPath(instancePath: string): string {
  if (instancePath === "") return "";
  return instancePath
    .slice(1)
    .split("/")
    .map((segment) => segment.replace(/~1/g, "/").replace(/~0/g, "~"))
    .reduce((path, segment) => (/^\d+$/.test(segment) ? `${path}[${segment}]` : path ? `${path}.${segment}` : segment), "");
}

function join(parent: string, child: string): string {
  return parent ? `${parent}.${child}` : child;
}

function typeOfSchema(schema: unknown): string | undefined {
  if (typeof schema !== "object" || schema === null) return undefined;
  const { type, enum: values } = schema as JSONSchemaObject;
  if (Array.isArray(values)) return `one of ${values.map((v) => JSON.stringify(v)).join(", ")}`;
  if (typeof type === "string") return type;
  if (Array.isArray(type)) return type.join(" or ");
  return undefined;
}

/** One model-readable sentence per Ajv error: which argument, what was expected, what came. */
export function describeAjvError(error: ErrorObject): string {
  const path = argumentPath(error.instancePath);
  const where = path ? `"${path}"` : "arguments";
  const parentProperties = (error.parentSchema as JSONSchemaObject | undefined)?.properties;
  switch (error.keyword) {
    case "required": {
      const missing = (error.params as { missingProperty: string }).missingProperty;
      const expected = typeOfSchema(parentProperties?.[missing]);
      return `missing required argument "${join(path, missing)}"${expected ? ` (expected ${expected})` : ""}`;
    }
    case "additionalProperties": {
      const extra = (error.params as { additionalProperty: string }).additionalProperty;
      const allowed = Object.keys(parentProperties ?? {});
      return `unknown argument "${join(path, extra)}"; ${allowed.length ? `expected only: ${allowed.join(", ")}` : "this object takes no arguments"}`;
    }
    case "type":
      return `${where} must be ${(error.params as { type: string }).type}, got ${describeValue(error.data)}`;
    case "enum": {
      const allowed = (error.params as { allowedValues: unknown[] }).allowedValues;
      return `${where} must be one of ${allowed.map((v) => JSON.stringify(v)).join(", ")}, got ${describeValue(error.data)}`;
    }
    case "const":
      return `${where} must be ${JSON.stringify((error.params as { allowedValue: unknown }).allowedValue)}, got ${describeValue(error.data)}`;
    default:
      return `${where} ${error.message ?? "is invalid"}, got ${describeValue(error.data)}`;
  }
}
