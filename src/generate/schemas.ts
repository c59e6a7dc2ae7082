import type * as ts from "typescript";
import { TJS, TS } from "./compiler";
import { inOrder, literalOrder } from "./source-order";
import type * as tjs from "typescript-json-schema";
import { canonicalSchema, inlineRefs } from "../schema/canonical";
import { SchemaSizeError } from "../schema/schema-size";
import type { JSONSchemaObject } from "../core/types";

/** The part of typescript-json-schema's generator this uses: the per-type entry point behind `getSchemaForSymbol`. */
interface TypeDefinitions {
  getTypeDefinition(
    type: ts.Type,
    asRef?: boolean,
    unionModifier?: string,
    prop?: ts.Symbol,
    ...rest: unknown[]
  ): tjs.Definition;
  getClassDefinition(type: ts.Type, definition: tjs.Definition): tjs.Definition;
  getUnionDefinition(type: ts.UnionType, unionModifier: string, definition: tjs.Definition): tjs.Definition;
  getDefinitionForProperty(property: ts.Symbol, node: ts.Node): tjs.Definition | null;
  readonly ReffedDefinitions: Record<string, tjs.Definition>;
}

/**
 * typescript-json-schema settings for tool arguments: close objects, required from `?`. Named
 * types are generated once and referenced (`ref`), then copied into each schema, so a type
 * used by many tools costs one generation.
 */
const SETTINGS: tjs.PartialArgs = {
  ref: true,
  aliasRef: false,
  topRef: false,
  required: true,
  noExtraProps: true,
  excludePrivate: true,
  strictNullChecks: true,
  ignoreErrors: true,
  titles: false,
  defaultProps: false,
  propOrder: false,
  defaultNumberType: "number",
};

/** Keywords typescript-json-schema can emit that are not JSON Schema. */
const NOT_SCHEMA = new Set(["propertyOrder", "defaultProperties", "typeof", "$schema", "definitions", "$id"]);

/**
 * What schemas describe: the arguments a tool takes, or the results it returns (values as
 * `JSON.stringify` writes them, see `describeWrittenValues`).
 */
export type SchemaPurpose = "arguments" | "results";

/**
 * JSON Schemas of parameter (or result) types, from one typescript-json-schema generator over
 * the project's one program (the generator is built once and asked once per parameter; the
 * definitions of named types it collects are shared by every tool).
 */
export class SchemaGenerator {
  readonly #generator: TypeDefinitions;
  readonly warnings: string[] = [];

  constructor(checker: ts.TypeChecker, purpose: SchemaPurpose = "arguments") {
    const generator = new TJS.JsonSchemaGenerator([], {}, {}, {}, checker, {
      ...TJS.getDefaultArgs(),
      ...SETTINGS,
    }) as unknown as TypeDefinitions;
    if (
      [
        generator.getTypeDefinition,
        generator.getClassDefinition,
        generator.getUnionDefinition,
        generator.getDefinitionForProperty,
      ].some((method) => typeof method !== "function")
    ) {
      throw new Error(
        "This version of typescript-json-schema lacks " +
          "getTypeDefinition/getClassDefinition/getUnionDefinition/getDefinitionForProperty; toolnexus generate " +
          "needs typescript-json-schema ^0.68.",
      );
    }
    // typescript-json-schema reads index signatures from declarations, so a mapped type such as
    // Record<string, X> comes out closed ({ additionalProperties: false }): give it its values' schema.
    const classDefinition = generator.getClassDefinition.bind(generator);
    generator.getClassDefinition = (type, definition) => {
      const result = classDefinition(type, definition);
      const index = checker.getIndexInfoOfType(type, TS.IndexKind.String);
      if (index !== undefined && (result.additionalProperties === false || result.additionalProperties === undefined)) {
        result.additionalProperties = generator.getTypeDefinition(index.type);
      }
      return result;
    };
    keepSourceOrder(generator, checker);
    if (purpose === "results") describeWrittenValues(generator, checker);
    this.#generator = generator;
  }

  /**
   * The schema of `type`, self-contained and in canonical key order. `symbol` is the parameter
   * (its JSDoc `@param` text becomes the description) or the property it comes from.
   */
  schemaOf(type: ts.Type, symbol: ts.Symbol | undefined): JSONSchemaObject {
    const definition = this.#quietly(() => this.#generator.getTypeDefinition(type, false, "anyOf", symbol));
    // Named types were generated once and referenced (`#/definitions/<URI-encoded name>`): copy them in.
    const definitions: Record<string, unknown> = {};
    for (const [name, target] of Object.entries(this.#generator.ReffedDefinitions))
      definitions[encodeURIComponent(name)] = target;
    let inlined: unknown;
    try {
      inlined = inlineRefs(definition, definitions, (chain) => {
        throw new Error(`the type refers to itself (${chain.map(decodeURIComponent).join(" → ")})`);
      });
    } catch (error) {
      if (!(error instanceof SchemaSizeError)) throw error;
      throw new Error(
        "with each named type it uses written out wherever it is used, its schema grows past " +
          `${error.limit.toLocaleString("en-US")} characters of JSON ` +
          `(toolnexus's limit, MAX_SCHEMA_SIZE) at ${error.pointer === "" ? "the root" : error.pointer}: types used ` +
          "in many places multiply",
      );
    }
    return canonicalSchema(tidy(inlined) as JSONSchemaObject);
  }

  /** typescript-json-schema reports odd initializers with console.warn: kept as warnings instead of stray output. */
  #quietly<T>(run: () => T): T {
    const { warn, error } = console;
    console.warn = (...args: unknown[]) => void this.warnings.push(args.map(String).join(" "));
    console.error = console.warn;
    try {
      return run();
    } finally {
      console.warn = warn;
      console.error = error;
    }
  }
}

/**
 * Enum values in the order the source writes them (typescript-json-schema sorts those of
 * unions): each union is read against the annotation it comes from, that of its alias
 * (`type Mode = "b" | "a"`) or of the parameter or property being described. A union without
 * an annotation keeps typescript-json-schema's (stable) order.
 */
function keepSourceOrder(generator: TypeDefinitions, checker: ts.TypeChecker): void {
  const annotations: Array<ts.TypeNode | undefined> = [];
  const typeDefinition = generator.getTypeDefinition.bind(generator);
  generator.getTypeDefinition = (type, asRef, unionModifier, prop, ...rest) => {
    if (prop === undefined) return typeDefinition(type, asRef, unionModifier, prop, ...rest);
    annotations.push(annotationOf(prop));
    try {
      return typeDefinition(type, asRef, unionModifier, prop, ...rest);
    } finally {
      annotations.pop();
    }
  };
  const unionDefinition = generator.getUnionDefinition.bind(generator);
  generator.getUnionDefinition = (type, unionModifier, definition) => {
    const result = unionDefinition(type, unionModifier, definition);
    const alias = type.aliasSymbol?.declarations?.find(TS.isTypeAliasDeclaration);
    const annotation = alias?.type ?? annotations.at(-1);
    if (annotation === undefined) return result;
    const order = literalOrder(annotation, checker);
    for (const schema of [
      result,
      ...(Array.isArray(result[unionModifier as "anyOf"])
        ? (result[unionModifier as "anyOf"] as tjs.Definition[])
        : []),
    ]) {
      if (typeof schema === "object" && Array.isArray(schema.enum))
        schema.enum = inOrder(schema.enum, order) as tjs.Definition["enum"];
    }
    return result;
  };
}

/**
 * Result schemas describe what `JSON.stringify` writes of a value: a class's accessors and
 * `#private` fields are not own properties, so they are left out; a property that admits
 * `undefined` may be missing, so it is not required; and an initializer says what a value
 * started with, not what a result holds, so it is no `default` (the warnings typescript-json-schema
 * gives about initializers do not concern results: `EntryBuilder` does not pass them on).
 */
function describeWrittenValues(generator: TypeDefinitions, checker: ts.TypeChecker): void {
  const propertyDefinition = generator.getDefinitionForProperty.bind(generator);
  generator.getDefinitionForProperty = (property, node) => {
    if (!isWritten(property)) return null;
    const definition = propertyDefinition(property, node);
    const declaration = property.valueDeclaration as { initializer?: ts.Expression } | undefined;
    if (definition !== null && declaration?.initializer !== undefined) delete definition.default;
    return definition;
  };
  const classDefinition = generator.getClassDefinition.bind(generator);
  generator.getClassDefinition = (type, definition) => {
    const result = classDefinition(type, definition);
    if (!Array.isArray(result.required)) return result;
    const properties = new Map(checker.getPropertiesOfType(type).map((property) => [property.getName(), property]));
    const required = result.required.filter((name) => {
      const property = properties.get(name);
      return property !== undefined && isWritten(property) && !admitsUndefined(checker.getTypeOfSymbol(property));
    });
    if (required.length > 0) result.required = required;
    else delete result.required;
    return result;
  };
}

/** Whether `JSON.stringify` writes the property of a value that has it: not a class's accessor or `#private` field. */
function isWritten(property: ts.Symbol): boolean {
  const declarations = property.declarations ?? [];
  if (declarations.some(isPrivateField)) return false;
  return !(declarations.length > 0 && declarations.every(isClassAccessor));
}

function isPrivateField(declaration: ts.Declaration): boolean {
  const name = TS.getNameOfDeclaration(declaration);
  return name !== undefined && TS.isPrivateIdentifier(name);
}

function isClassAccessor(declaration: ts.Declaration): boolean {
  return (
    (TS.isGetAccessorDeclaration(declaration) || TS.isSetAccessorDeclaration(declaration)) &&
    TS.isClassLike(declaration.parent)
  );
}

function admitsUndefined(type: ts.Type): boolean {
  const members = type.isUnion() ? type.types : [type];
  return members.some((member) => (member.flags & (TS.TypeFlags.Undefined | TS.TypeFlags.Void)) !== 0);
}

/** The type annotation of a parameter, property or alias, if it has one. */
function annotationOf(symbol: ts.Symbol): ts.TypeNode | undefined {
  const declaration = symbol.valueDeclaration ?? symbol.declarations?.[0];
  if (declaration === undefined) return undefined;
  if (
    TS.isParameter(declaration) ||
    TS.isPropertySignature(declaration) ||
    TS.isPropertyDeclaration(declaration) ||
    TS.isTypeAliasDeclaration(declaration)
  ) {
    return declaration.type;
  }
  return undefined;
}

/**
 * typescript-json-schema's output made into a tool schema: its own keywords dropped, numeric
 * enums of whole numbers typed `integer` (as class-validator's are), and properties with a
 * default (a class property initializer, `@default`) not required.
 */
function tidy(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(tidy);
  if (typeof node !== "object" || node === null) return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (NOT_SCHEMA.has(key)) continue;
    if (key === "enum" || key === "const" || key === "default" || key === "examples" || key === "required")
      out[key] = value;
    else if (key === "properties" && typeof value === "object" && value !== null) {
      out[key] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, tidy(sub)]));
    } else out[key] = tidy(value);
  }
  if (out.type === "number" && Array.isArray(out.enum) && out.enum.every((v) => Number.isInteger(v)))
    out.type = "integer";
  if (out.type === "number" && Number.isInteger(out.const)) out.type = "integer";
  if (Array.isArray(out.required) && typeof out.properties === "object" && out.properties !== null) {
    const properties = out.properties as Record<string, { default?: unknown }>;
    const required = (out.required as string[]).filter((name) => properties[name]?.default === undefined);
    if (required.length > 0) out.required = required;
    else delete out.required;
  }
  return out;
}
