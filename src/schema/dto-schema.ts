import { IS_DATE_STRING, IS_ENUM, IS_URL, MATCHES, MAX, MIN } from "class-validator";
import type { ValidationMetadata } from "class-validator/types/metadata/ValidationMetadata";
import { targetConstructorToSchema } from "class-validator-jsonschema";
import type { ISchemaConverters } from "class-validator-jsonschema/build/defaultConverters";
import type { JSONSchemaObject } from "../types";
import { enumSchema, enumValues } from "./enum-values";
import { flagsProblem, patternSource, SCALAR_SCHEMAS } from "./scalars";

type ConvertedSchema = Exclude<ISchemaConverters[string], Function>;

/**
 * class-validator-jsonschema does most mappings right; these it gets wrong for tools:
 * numeric enums (it mixes keys and values), `@IsUrl` (`url` is no JSON Schema format),
 * `@IsDateString` (a loose pattern instead of the standard format), `@Min`/`@Max` (they set
 * `type: "number"` and so undo `@IsInt` written above them; the type comes from the type
 * decorators or the property's TypeScript type instead), and `@Matches` with flags (JSON
 * Schema patterns have none: refused rather than silently changed).
 */
const CONVERTERS: ISchemaConverters = {
  [IS_ENUM]: (meta: ValidationMetadata) => enumSchema(enumValues(meta.constraints[0])) as ConvertedSchema,
  [IS_URL]: { type: "string", format: "uri" },
  [IS_DATE_STRING]: { type: "string", format: "date-time" },
  [MIN]: (meta: ValidationMetadata) => ({ minimum: meta.constraints[0] }),
  [MAX]: (meta: ValidationMetadata) => ({ maximum: meta.constraints[0] }),
  [MATCHES]: (meta: ValidationMetadata) => ({ type: "string", pattern: matchesPattern(meta) }),
};

function matchesPattern(meta: ValidationMetadata): string {
  const result = patternSource(meta.constraints[0], meta.constraints[1]);
  if ("flags" in result) {
    throw new DtoSchemaError(`${meta.target instanceof Function ? meta.target.name : "DTO"}.${meta.propertyName}: ${flagsProblem(result.flags)}.`);
  }
  return result.source;
}

// class-transformer keeps `@Type` metadata in a storage its typings only declare under types/.
const { defaultMetadataStorage } = require("class-transformer/cjs/storage") as typeof import("class-transformer/types/storage");

const OPTIONS = { additionalConverters: CONVERTERS, classTransformerMetadataStorage: defaultMetadataStorage };

/** Thrown with a sentence a developer can act on; the scanner adds where it happened. */
export class DtoSchemaError extends Error {}

/**
 * The JSON Schema of a DTO class from its class-validator metadata: nested classes
 * (`@ValidateNested` + `@Type`) and arrays of them inlined, every object closed
 * (`additionalProperties: false`) so unknown keys are refused. Recursive DTOs cannot be
 * inlined and are refused.
 */
export function schemaForClass(ctor: Function, chain: readonly Function[] = []): JSONSchemaObject {
  if (chain.includes(ctor)) {
    throw new DtoSchemaError(
      `DTO ${[...chain, ctor].map((c) => c.name).join(" → ")} refers back to itself; recursive types cannot be inlined into a tool schema. Give the parameter an explicit schema with @Param({ schema }) instead.`,
    );
  }
  const raw = targetConstructorToSchema(ctor, OPTIONS) as JSONSchemaObject;
  const entries = Object.entries(raw.properties ?? {});
  if (entries.length === 0) {
    throw new DtoSchemaError(
      `DTO class ${ctor.name} has no properties with class-validator decorators, so its schema would be empty. Decorate its properties (@IsString(), @IsInt(), ...) or give an explicit schema.`,
    );
  }
  const properties: Record<string, JSONSchemaObject> = {};
  for (const [key, property] of entries) {
    const resolved = resolveNested(ctor, key, property as JSONSchemaObject, [...chain, ctor]);
    const untyped = resolved.type === undefined && resolved.enum === undefined && resolved.anyOf === undefined && resolved.oneOf === undefined;
    const designed = untyped ? SCALAR_SCHEMAS.get(Reflect.getMetadata("design:type", ctor.prototype, key)) : undefined;
    properties[key] = designed ? { ...designed, ...resolved } : resolved;
  }
  return {
    type: "object",
    properties,
    ...(raw.required?.length ? { required: raw.required } : {}),
    additionalProperties: false,
  };
}

function resolveNested(owner: Function, key: string, property: JSONSchemaObject, chain: Function[]): JSONSchemaObject {
  if (typeof property.$ref === "string") {
    const { $ref: _ref, ...siblings } = property;
    return { ...siblings, ...schemaForClass(nestedClass(owner, key), chain) };
  }
  if (property.items !== undefined && !Array.isArray(property.items) && typeof property.items.$ref === "string") {
    const { $ref: _ref, ...siblings } = property.items;
    return { ...property, items: { ...siblings, ...schemaForClass(nestedClass(owner, key), chain) } };
  }
  return property;
}

/** The class of a nested property: class-transformer's `@Type`, else the emitted design type. */
function nestedClass(owner: Function, key: string): Function {
  const declared = defaultMetadataStorage.findTypeMetadata(owner, key)?.typeFunction();
  const designed = Reflect.getMetadata("design:type", owner.prototype, key) as Function | undefined;
  const nested = declared ?? (designed !== Array ? designed : undefined);
  if (typeof nested !== "function" || nested === Object) {
    throw new DtoSchemaError(`Property ${owner.name}.${key} is a nested object, but its class is unknown: add @Type(() => TheClass) from class-transformer.`);
  }
  return nested;
}
