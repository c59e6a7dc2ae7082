import { isObject, type JSONSchemaObject, type StandardSchemaV1 } from "../core/types";
import { canonicalSchema } from "./canonical";
import { FEWER_COPIES, SchemaSizeError } from "./schema-size";
import { selfContained } from "./self-contained";

/*
 * Standard Schema input: the JSON Schema a schema's library writes for it. Only the schema
 * object itself is used; a library's own JSON Schema converter is loaded (by `require`, from
 * the program's dependencies) only for a schema of that library without one of its own.
 */

/**
 * Whether `value` is a Standard Schema (v1): a `~standard` property with a `validate` function. arktype's types are
 * functions.
 */
export function isStandardSchema(value: unknown): value is StandardSchemaV1 {
  if ((typeof value !== "object" && typeof value !== "function") || value === null) return false;
  const props = (value as { "~standard"?: unknown })["~standard"];
  return isObject(props) && props.version === 1 && typeof props.validate === "function";
}

/** Whether `value` carries a `~standard` property at all: what it is meant to be, even when it is not a valid one. */
export function claimsStandardSchema(value: unknown): boolean {
  return ((typeof value === "object" && value !== null) || typeof value === "function") && "~standard" in value;
}

/** "a zod schema", "a Standard Schema from acme": what a message calls `schema`. */
export function describeStandardSchema(schema: StandardSchemaV1): string {
  const vendor = schema["~standard"].vendor;
  if (typeof vendor !== "string" || vendor === "") return "a Standard Schema";
  return `${/^[aeiou]/i.test(vendor) ? "an" : "a"} ${vendor} schema`;
}

/**
 * The JSON Schema of the values `schema` accepts, self-contained (no `$ref`, no `$schema`) and
 * in canonical key order: the schema's own (Standard JSON Schema, `~standard.jsonSchema`),
 * else its library's converter where toolnexus knows one (zod 4, valibot with
 * @valibot/to-json-schema). Throws an Error whose message says why there is none (or why it cannot
 * be used: too large once self-contained, see `MAX_SCHEMA_SIZE`) and what to do.
 */
export function jsonSchemaOfStandard(schema: StandardSchemaV1): JSONSchemaObject {
  const written = writtenJsonSchema(schema);
  let data: unknown;
  try {
    data = JSON.parse(JSON.stringify(written));
  } catch (error) {
    throw new Error(`the JSON Schema its library wrote is not JSON data (${(error as Error).message})`);
  }
  if (!isObject(data))
    throw new Error(`its library wrote ${data === null ? "null" : typeof data} for its JSON Schema, not an object`);
  try {
    return canonicalSchema(selfContained(data as JSONSchemaObject));
  } catch (error) {
    if (!(error instanceof SchemaSizeError)) throw error;
    throw new Error(
      `${describeStandardSchema(schema)} whose JSON Schema is too large: ${error.message}. ${FEWER_COPIES}`,
    );
  }
}

/** The JSON Schema (draft-07) the schema's library writes for it, as written. */
function writtenJsonSchema(schema: StandardSchemaV1): unknown {
  const props = schema["~standard"];
  const convert = (write: () => unknown) => {
    try {
      return write();
    } catch (error) {
      throw new Error(`${describeStandardSchema(schema)} that cannot be written as JSON Schema: ${errorText(error)}`);
    }
  };
  const own = props.jsonSchema;
  if (own !== undefined && own !== null && typeof own.input === "function")
    return convert(() => own.input({ target: "draft-07" }));
  if (props.vendor === "zod") {
    const toJSONSchema = zodConverter(schema);
    // "draft-7": how zod 4 releases before the Standard JSON Schema name the target.
    return convert(() => toJSONSchema(schema, { io: "input", target: "draft-7" }));
  }
  if (props.vendor === "valibot") {
    const toJsonSchema = valibotConverter();
    return convert(() => toJsonSchema(schema, { target: "draft-07" }));
  }
  throw new Error(
    `${describeStandardSchema(schema)} that writes no JSON Schema (it has no ~standard.jsonSchema, the Standard JSON ` +
      "Schema interface), so the model cannot be told the arguments. " +
      "Use a version of the library that implements Standard JSON Schema, or pass a JSON Schema as the schema",
  );
}

type Converter = (schema: unknown, options: Record<string, unknown>) => unknown;

/** zod 4's own converter, from the program's zod; zod 3 schemas (no `_zod`) have none. */
function zodConverter(schema: StandardSchemaV1): Converter {
  if (!isObject((schema as unknown as { _zod?: unknown })._zod)) {
    throw new Error(
      "a zod 3 schema, which writes no JSON Schema: use zod 4 (or `zod/v4` of zod 3.25), or pass a JSON Schema as " +
        "the schema",
    );
  }
  const found = optionalExport("zod/v4/core", "toJSONSchema") ?? optionalExport("zod", "toJSONSchema");
  if (found === undefined)
    throw new Error("a zod 4 schema, but zod's toJSONSchema could not be loaded from the program's dependencies");
  return found;
}

function valibotConverter(): Converter {
  const found = optionalExport("@valibot/to-json-schema", "toJsonSchema");
  if (found === undefined) {
    throw new Error(
      "a valibot schema: valibot writes JSON Schema only through @valibot/to-json-schema. " +
        "Install it (npm install @valibot/to-json-schema) and toolnexus uses it, or wrap the schema with its " +
        "toStandardJsonSchema(schema), or pass a JSON Schema as the schema",
    );
  }
  return found;
}

/** A function exported by an optional package of the program, or `undefined` when the package is not there. */
function optionalExport(specifier: string, name: string): Converter | undefined {
  try {
    const found = (require(specifier) as Record<string, unknown>)[name];
    return typeof found === "function" ? (found as Converter) : undefined;
  } catch {
    return undefined;
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
