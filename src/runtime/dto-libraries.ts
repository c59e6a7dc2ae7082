import type * as ClassTransformer from "class-transformer";
import type { MetadataStorage as TransformerMetadataStorage } from "class-transformer/types/MetadataStorage";
import type * as ClassValidator from "class-validator";
import type * as ClassValidatorJsonSchema from "class-validator-jsonschema";

/*
 * The DTO libraries, loaded the first time a DTO needs them (its schema built, an argument
 * made into an instance or validated). class-validator brings validator and
 * libphonenumber-js, about 200 ms of loading that a program of plain `defineTool`s and
 * `@Param` scalars never needs. A DTO module imports class-validator itself; `require`
 * resolves to that same module instance, so decorators and validation share one metadata store.
 */

let validatorModule: typeof ClassValidator | undefined;
let transformerModule: typeof ClassTransformer | undefined;
let transformerStorage: TransformerMetadataStorage | undefined;
let jsonSchemaModule: typeof ClassValidatorJsonSchema | undefined;

export function classValidator(): typeof ClassValidator {
  return (validatorModule ??= require("class-validator") as typeof ClassValidator);
}

export function classTransformer(): typeof ClassTransformer {
  return (transformerModule ??= require("class-transformer") as typeof ClassTransformer);
}

/** Where class-transformer keeps `@Type` metadata: a storage its typings only declare under types/. */
export function classTransformerStorage(): TransformerMetadataStorage {
  return (transformerStorage ??= (
    require("class-transformer/cjs/storage") as typeof import("class-transformer/types/storage")
  ).defaultMetadataStorage);
}

export function classValidatorJsonSchema(): typeof ClassValidatorJsonSchema {
  return (jsonSchemaModule ??= require("class-validator-jsonschema") as typeof ClassValidatorJsonSchema);
}
