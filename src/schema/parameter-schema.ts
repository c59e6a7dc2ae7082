import type { Constructor, ParamOptions } from "../decorators/metadata";
import type { JSONSchemaObject, StandardSchemaV1 } from "../core/types";
import { schemaForClass } from "./dto-schema";
import { enumSchema, enumValues } from "./enum-values";
import { flagsProblem, patternSource, SCALAR_SCHEMAS } from "./scalars";
import { isStandardSchema, jsonSchemaOfStandard } from "./standard-schema";

/** Thrown with the fix; the scanner prefixes class, method and parameter. */
export class ParameterSchemaError extends Error {}

/** Types that metadata reports but that say nothing usable about the value. */
const OPAQUE = new Set<unknown>([undefined, Object, Function, Promise, Symbol, BigInt, Map, Set, WeakMap, WeakSet]);

const UNKNOWN_TYPE_FIX =
  "Say what it is with @Param({ type: TheClass }) / @Param({ type: [String] }) / @Param({ enum: [...] }) / " +
  "@Param({ schema: {...} }), or run `toolnexus generate` so the manifest supplies it";

/**
 * The JSON Schema of one `@Param`, from the emitted design type and the options
 * (explicit options win). Pure; throws `ParameterSchemaError` with the fix.
 */
export function schemaForParameter(designType: unknown, options: ParamOptions): JSONSchemaObject {
  if (options.schema !== undefined) {
    // The schema given wins; `description` and `default` fill in what it leaves out. A copy:
    // the tool's schema must not change when the caller's object does.
    const given = isStandardSchema(options.schema)
      ? standardSchema(options.schema)
      : plainCopy(options.schema, "schema");
    return {
      ...given,
      ...(options.description !== undefined && given.description === undefined
        ? { description: options.description }
        : {}),
      ...(options.default !== undefined && given.default === undefined ? { default: options.default } : {}),
    };
  }
  let schema = baseSchema(options.type ?? designType, options);
  if (options.integer) {
    if (schema.type !== "number" && schema.type !== "integer")
      throw new ParameterSchemaError(`integer: true applies to numbers, but this parameter is ${describeType(schema)}`);
    schema = { ...schema, type: "integer" };
  }
  schema = withConstraints(schema, options);
  if (options.description !== undefined) {
    // Right after `type`, where the canonical order puts it: the scanner need not re-sort.
    const { type, ...rest } = schema;
    schema =
      type === undefined
        ? { description: options.description, ...rest }
        : { type, description: options.description, ...rest };
  }
  return options.default === undefined ? schema : { ...schema, default: options.default };
}

function baseSchema(type: unknown, options: ParamOptions): JSONSchemaObject {
  if (options.enum !== undefined) {
    const values = enumValues(options.enum);
    if (values.length === 0) throw new ParameterSchemaError("enum is empty; list at least one allowed value");
    return enumSchema(values);
  }
  if (Array.isArray(type)) {
    if (type.length !== 1)
      throw new ParameterSchemaError("type: [Ctor] takes exactly one element type, e.g. type: [String]");
    return { type: "array", items: itemSchema(type[0]) };
  }
  if (type === Array) {
    if (options.items !== undefined) return { type: "array", items: plainCopy(options.items, "items") };
    throw new ParameterSchemaError(
      "it is an array whose element type metadata cannot see. Say it with @Param({ type: [String] }) (or items: {...})",
    );
  }
  return itemSchema(type);
}

function itemSchema(type: unknown): JSONSchemaObject {
  const scalar = SCALAR_SCHEMAS.get(type);
  if (scalar !== undefined) return { ...scalar };
  if (OPAQUE.has(type) || typeof type !== "function") {
    const seen = typeof type === "function" ? type.name : String(type);
    throw new ParameterSchemaError(
      `its type cannot be known (metadata says ${seen}: a parameter without a type annotation, an interface, a type ` +
        `alias, a union, any or unknown look like this). ${UNKNOWN_TYPE_FIX}`,
    );
  }
  if (type === Array)
    throw new ParameterSchemaError("nested arrays need an explicit schema: @Param({ schema: {...} })");
  return schemaForClass(type as Constructor);
}

const CONSTRAINTS: Array<{ key: keyof ParamOptions; applies: Array<JSONSchemaObject["type"]> }> = [
  { key: "minimum", applies: ["number", "integer"] },
  { key: "maximum", applies: ["number", "integer"] },
  { key: "minLength", applies: ["string"] },
  { key: "maxLength", applies: ["string"] },
  { key: "pattern", applies: ["string"] },
  { key: "format", applies: ["string"] },
  { key: "minItems", applies: ["array"] },
  { key: "maxItems", applies: ["array"] },
];

function withConstraints(schema: JSONSchemaObject, options: ParamOptions): JSONSchemaObject {
  let out: JSONSchemaObject | undefined;
  for (let i = 0; i < CONSTRAINTS.length; i++) {
    const { key, applies } = CONSTRAINTS[i]!;
    const value = options[key];
    if (value === undefined) continue;
    out ??= { ...schema };
    if (!applies.includes(schema.type as JSONSchemaObject["type"])) {
      throw new ParameterSchemaError(
        `${key} applies to ${applies.join("/")} parameters, but this parameter is ${describeType(schema)}`,
      );
    }
    (out as Record<string, unknown>)[key] = value instanceof RegExp ? regexSource(value) : value;
  }
  return out ?? schema;
}

/** The JSON Schema a Standard Schema writes for the parameter (any type: it is one argument, not all of them). */
function standardSchema(schema: StandardSchemaV1): JSONSchemaObject {
  try {
    return jsonSchemaOfStandard(schema);
  } catch (error) {
    throw new ParameterSchemaError(`schema is ${(error as Error).message}`);
  }
}

function plainCopy(schema: JSONSchemaObject, option: string): JSONSchemaObject {
  try {
    return structuredClone(schema);
  } catch (error) {
    throw new ParameterSchemaError(`${option} must be plain JSON Schema data (${(error as Error).message})`);
  }
}

function describeType(schema: JSONSchemaObject): string {
  return typeof schema.type === "string" ? schema.type : "of no single type";
}

function regexSource(pattern: RegExp): string {
  const result = patternSource(pattern);
  if ("flags" in result) throw new ParameterSchemaError(flagsProblem(result.flags));
  return result.source;
}
