import type { ValidationMetadata } from "class-validator/types/metadata/ValidationMetadata";
import type { IOptions } from "class-validator-jsonschema/build/options";
import type { ISchemaConverters } from "class-validator-jsonschema/build/defaultConverters";
import { classTransformerStorage, classValidator, classValidatorJsonSchema } from "../runtime/dto-libraries";
import { LinearRegExp, linearPattern } from "../runtime/linear-regexp";
import { childPointer } from "../core/subschemas";
import type { JSONSchemaObject } from "../core/types";
import { enumSchema, enumValues } from "./enum-values";
import { flagsProblem, isUserClass, patternSource, SCALAR_SCHEMAS } from "./scalars";
import { SchemaSizeCounter, SchemaSizeError } from "./schema-size";

type ConvertedSchema = Exclude<ISchemaConverters[string], Function>;

/**
 * class-validator-jsonschema does most mappings right; these it gets wrong for tools:
 * numeric enums (it mixes keys and values), `@IsUrl` (`url` is no JSON Schema format),
 * `@IsDateString` (a loose pattern instead of the standard format), `@Min`/`@Max` (they set
 * `type: "number"` and so undo `@IsInt` written above them; the type comes from the type
 * decorators or the property's TypeScript type instead), and `@Matches` with flags (JSON
 * Schema patterns have none: refused rather than silently changed).
 */
function converters(): ISchemaConverters {
  const { IS_DATE_STRING, IS_ENUM, IS_URL, MATCHES, MAX, MIN } = classValidator();
  return {
    [IS_ENUM]: (meta: ValidationMetadata) => enumSchema(enumValues(meta.constraints[0])) as ConvertedSchema,
    [IS_URL]: { type: "string", format: "uri" },
    [IS_DATE_STRING]: { type: "string", format: "date-time" },
    [MIN]: (meta: ValidationMetadata) => ({ minimum: meta.constraints[0] }),
    [MAX]: (meta: ValidationMetadata) => ({ maximum: meta.constraints[0] }),
    [MATCHES]: (meta: ValidationMetadata) => ({ type: "string", pattern: matchesPattern(meta) }),
  };
}

function matchesPattern(meta: ValidationMetadata): string {
  const result = patternSource(meta.constraints[0], meta.constraints[1]);
  if ("flags" in result) {
    throw new DtoSchemaError(
      `${meta.target instanceof Function ? meta.target.name : "DTO"}.${meta.propertyName}: ` +
        `${flagsProblem(result.flags)}.`,
    );
  }
  // class-validator then runs the same pattern on RE2 too (a pattern RE2 cannot run is refused
  // with the tool, or left to JavaScript's engine when the tool opted in).
  const linear = linearPattern(result.source);
  if (linear.ok && !(meta.constraints[0] instanceof LinearRegExp))
    meta.constraints[0] = new LinearRegExp(result.source, linear.regexp);
  return result.source;
}

/** Built with the first DTO schema: the DTO libraries load only when a DTO needs them. */
let options: Partial<IOptions> | undefined;
const schemaOptions = () =>
  (options ??= { additionalConverters: converters(), classTransformerMetadataStorage: classTransformerStorage() });

/** Thrown with a sentence a developer can act on; the scanner adds where it happened. */
export class DtoSchemaError extends Error {}

/**
 * The JSON Schema of a DTO class from its class-validator metadata: nested classes
 * (`@ValidateNested` + `@Type`) and arrays of them inlined, every object closed
 * (`additionalProperties: false`) so unknown keys are refused. Recursive DTOs cannot be
 * inlined and are refused, and so are DTOs whose schema, nested classes written out, would pass
 * `MAX_SCHEMA_SIZE` (counted as it is built). A `@Type` with a discriminator becomes an `anyOf` of its subtypes.
 */
export function schemaForClass(ctor: Function): JSONSchemaObject {
  try {
    return objectSchema(ctor, [], false, { size: new SchemaSizeCounter(), pointer: "" });
  } catch (error) {
    if (!(error instanceof SchemaSizeError)) throw error;
    throw new DtoSchemaError(
      `DTO ${ctor.name} is too large to inline: with each nested class written out wherever it is used, its schema ` +
        `grows past ${error.limit.toLocaleString("en-US")} characters of JSON ` +
        `(toolnexus's limit, MAX_SCHEMA_SIZE) at ${error.pointer === "" ? "the root" : error.pointer}: classes ` +
        "nested in many places multiply. Nest large classes in fewer places",
    );
  }
}

/** Where in the schema being built a class is written, and the count of what was written so far. */
interface Place {
  size: SchemaSizeCounter;
  pointer: string;
}

function objectSchema(ctor: Function, chain: readonly Function[], allowEmpty: boolean, at: Place): JSONSchemaObject {
  if (chain.includes(ctor)) {
    throw new DtoSchemaError(
      `DTO ${[...chain, ctor].map((c) => c.name).join(" → ")} refers back to itself; recursive types cannot be ` +
        "inlined into a tool schema. Give the parameter an explicit schema with @Param({ schema }) instead.",
    );
  }
  const raw = classValidatorJsonSchema().targetConstructorToSchema(ctor, schemaOptions()) as JSONSchemaObject;
  // Counted before its nested classes are written: a schema too large stops before it is built.
  at.size.value(raw, at.pointer);
  const entries = Object.entries(raw.properties ?? {});
  if (entries.length === 0 && !allowEmpty) {
    throw new DtoSchemaError(
      `DTO class ${ctor.name} has no properties with class-validator decorators, so its schema would be empty. ` +
        "Decorate its properties (@IsString(), @IsInt(), ...) or give an explicit schema.",
    );
  }
  const properties: Record<string, JSONSchemaObject> = {};
  for (const [key, property] of entries) {
    const resolved = resolveNested(ctor, key, property as JSONSchemaObject, [...chain, ctor], {
      size: at.size,
      pointer: childPointer(at.pointer, "properties", key),
    });
    const untyped =
      resolved.type === undefined &&
      resolved.enum === undefined &&
      resolved.anyOf === undefined &&
      resolved.oneOf === undefined;
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

function resolveNested(
  owner: Function,
  key: string,
  property: JSONSchemaObject,
  chain: Function[],
  at: Place,
): JSONSchemaObject {
  if (typeof property.$ref === "string") {
    const { $ref: _ref, ...siblings } = property;
    return { ...siblings, ...nestedSchema(owner, key, chain, at) };
  }
  if (property.items !== undefined && !Array.isArray(property.items) && typeof property.items.$ref === "string") {
    const { $ref: _ref, ...siblings } = property.items;
    return {
      ...property,
      items: {
        ...siblings,
        ...nestedSchema(owner, key, chain, { size: at.size, pointer: childPointer(at.pointer, "items") }),
      },
    };
  }
  return property;
}

function nestedSchema(owner: Function, key: string, chain: Function[], at: Place): JSONSchemaObject {
  const discriminator = discriminatorOf(owner, key);
  if (discriminator === undefined) return objectSchema(nestedClass(owner, key), chain, false, at);
  const { property, subTypes, keep } = discriminator;
  if (!keep) {
    for (const { value } of subTypes) {
      if (requires(value, property)) {
        throw new DtoSchemaError(
          `${owner.name}.${key}: class-transformer removes "${property}" from each value before validation ` +
            `(keepDiscriminatorProperty is false), but ${value.name}.${property} has validators that require it, so ` +
            `every call would fail. Set keepDiscriminatorProperty: true, or make ${value.name}.${property} ` +
            "@IsOptional().",
        );
      }
    }
  }
  // One closed object per subtype, its discriminator required and fixed: a one-value string
  // enum, which every provider takes as it is (`const` is rewritten by some).
  return {
    anyOf: subTypes.map(({ name, value }, index) => {
      const own = objectSchema(value, chain, true, {
        size: at.size,
        pointer: childPointer(at.pointer, "anyOf", index),
      });
      const { [property]: _declared, ...others } = own.properties!;
      return {
        type: "object",
        properties: { [property]: { type: "string", enum: [name] }, ...others },
        required: [property, ...(own.required ?? []).filter((required) => required !== property)],
        additionalProperties: false,
      };
    }),
  };
}

/**
 * Whether class-validator fails an instance of `ctor` that lacks `property` (validators on it, none making it
 * optional).
 */
function requires(ctor: Function, property: string): boolean {
  const { getMetadataStorage, ValidationTypes } = classValidator();
  const metadata = getMetadataStorage()
    .getTargetValidationMetadatas(ctor, "", true, false)
    .filter((meta) => meta.propertyName === property);
  return metadata.length > 0 && !metadata.some((meta) => meta.type === ValidationTypes.CONDITIONAL_VALIDATION);
}

/**
 * class-transformer's `@Type(() => Base, { discriminator })`: the subclass a value becomes is named by one of its keys.
 */
export interface Discriminator {
  property: string;
  subTypes: ReadonlyArray<{ name: string; value: Function }>;
  /** `keepDiscriminatorProperty`: when false, class-transformer deletes the key from the value it reads. */
  keep: boolean;
}

/**
 * The discriminator declared on `owner.key`, checked (a DtoSchemaError says what is wrong with it); undefined without
 * one.
 */
export function discriminatorOf(owner: Function, key: string): Discriminator | undefined {
  const typeOptions = classTransformerStorage().findTypeMetadata(owner, key)?.options;
  const declared = typeOptions?.discriminator as { property?: unknown; subTypes?: unknown } | undefined;
  if (declared === undefined || declared === null) return undefined;
  const where = `${owner.name}.${key}`;
  const { property, subTypes } = declared;
  if (typeof property !== "string" || property === "") {
    throw new DtoSchemaError(
      `${where}: @Type's discriminator needs the name of the key that tells the subtypes apart ` +
        "(discriminator.property).",
    );
  }
  if (!Array.isArray(subTypes) || subTypes.length === 0) {
    throw new DtoSchemaError(
      `${where}: @Type's discriminator lists no subTypes; list each subtype as { value: TheClass, name: "its-kind" }.`,
    );
  }
  const byName = new Map<string, Function>();
  for (const subType of subTypes as Array<{ name?: unknown; value?: unknown }>) {
    const { name, value } = subType ?? {};
    if (typeof name !== "string" || name === "" || typeof value !== "function") {
      throw new DtoSchemaError(
        `${where}: each of @Type's discriminator subTypes needs a class and a non-empty name: ` +
          `{ value: TheClass, name: "its-kind" }.`,
      );
    }
    const other = byName.get(name);
    if (other !== undefined) {
      throw new DtoSchemaError(
        `${where}: @Type's discriminator names two subTypes "${name}" (${other.name} and ${value.name}); give each a ` +
          "name of its own.",
      );
    }
    byName.set(name, value);
  }
  return {
    property,
    subTypes: [...byName].map(([name, value]) => ({ name, value })),
    keep: Boolean(typeOptions?.keepDiscriminatorProperty),
  };
}

/**
 * The classes a property's values are made into: a discriminator's subtypes, else the `@Type`
 * class, else (for `@ValidateNested`) the emitted design type when it is a class; none for a
 * property of another kind or whose class is unknown (the schema says what is missing there).
 */
export function nestedClassesOf(owner: Function, key: string, validatesNested: boolean): Function[] {
  const discriminator = discriminatorOf(owner, key);
  if (discriminator !== undefined) return discriminator.subTypes.map(({ value }) => value);
  const declared = classTransformerStorage().findTypeMetadata(owner, key)?.typeFunction();
  const nested = declared ?? (validatesNested ? Reflect.getMetadata("design:type", owner.prototype, key) : undefined);
  return isUserClass(nested) ? [nested] : [];
}

/** The class of a nested property: class-transformer's `@Type`, else the emitted design type. */
function nestedClass(owner: Function, key: string): Function {
  const declared = classTransformerStorage().findTypeMetadata(owner, key)?.typeFunction();
  const designed = Reflect.getMetadata("design:type", owner.prototype, key) as Function | undefined;
  const nested = declared ?? (designed !== Array ? designed : undefined);
  if (typeof nested !== "function" || nested === Object) {
    throw new DtoSchemaError(
      `Property ${owner.name}.${key} is a nested object, but its class is unknown: add @Type(() => TheClass) from ` +
        "class-transformer.",
    );
  }
  return nested;
}
