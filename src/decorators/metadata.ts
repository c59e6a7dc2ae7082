import "reflect-metadata";
import type { Icon, JSONSchemaObject, StandardSchemaV1, ToolAnnotations, ToolPolicy } from "../core/types";
import {
  isStandardContext,
  STANDARD_MODE_WAYS_FORWARD,
  standardMetadataOf,
  type DecoratorMode,
} from "./decorator-mode";

/** Metadata keys, in one place (NestJS style). Decorators only write; the scanner reads. */
export const TOOL_METHODS = "toolnexus:tool-methods";
export const TOOL_PARAMETERS = "toolnexus:tool-parameters";

export type Constructor = abstract new (...args: never[]) => unknown;

/** Anything TypeScript can use as an enum: an array of values or an enum object. */
export type EnumLike = readonly (string | number | boolean)[] | Record<string, string | number>;

export interface ToolOptions extends ToolPolicy {
  /**
   * The tool's whole input, in place of its parameters: a Standard Schema (zod, valibot,
   * arktype ...), which checks each call and gives the method its output; a JSON Schema of an
   * object; or a DTO class (its class-validator schema; the method gets an instance). The method
   * then takes `(args, ctx)`. The way to describe a tool's input under standard (TC39)
   * decorators, which have no parameter decorators; it works the same under legacy ones.
   */
  input?: StandardSchemaV1 | JSONSchemaObject | Constructor;
  /**
   * Not declared up front: the model finds the tool by searching (Anthropic's and OpenAI's own
   * tool search; toolnexus's `search_tools` on the other providers). The tool still runs when called.
   */
  defer?: boolean;
  /** A group of related tools (e.g. the class's), declared together where the provider groups tools (OpenAI Responses). */
  namespace?: string;
  /**
   * Example arguments, each checked against the input schema when the tool is scanned: Anthropic's
   * `input_examples`; elsewhere appended to the description when the export asks (`examplesInDescription`).
   */
  examples?: ReadonlyArray<Record<string, unknown>>;
  /** Declared in the provider's strict form (OpenAI, Anthropic, Bedrock) whether or not the export asks for it. */
  strict?: boolean;
  /** Icons a client may show beside the tool (MCP): `https:` or `data:` URLs. */
  icons?: readonly Icon[];
  /** Defaults to the method name. */
  name?: string;
  /** What the tool does; models choose tools by it. Required unless the manifest supplies one. */
  description?: string;
  /**
   * Milliseconds before a call is ended with a `timeout` result (the toolkit's by default); `false` for no deadline.
   */
  timeout?: number | false;
  /**
   * Run the patterns RE2 cannot (backreferences, lookahead) on JavaScript's backtracking
   * engine instead of refusing the tool. Such a pattern can take exponential time on input a
   * model chooses: opt in only for patterns you have checked, on strings with a small `maxLength`.
   */
  backtrackingPatterns?: boolean;
  /** MCP hints. */
  annotations?: ToolAnnotations;
  /** A long-running tool: MCP clients may call it as a task, polling for its result (see `Tool.task`). */
  task?: boolean;
  /**
   * What the tool's structured results look like: a DTO class (its class-validator schema) or
   * a JSON Schema of an object. Object results become `structuredContent`, checked against it
   * (`invalid_output` when they do not match). Left out: the manifest's, inferred by
   * `toolnexus generate` from the method's return type.
   */
  output?: Constructor | JSONSchemaObject;
  /** The mime type of the bytes the method returns (a Buffer or Uint8Array), e.g. "image/png". */
  mimeType?: string;
}

export interface ParamOptions {
  description?: string;
  optional?: boolean;
  /** The parameter's type when metadata cannot tell: a constructor, or `[Ctor]` for an array of Ctor. */
  type?: Constructor | [Constructor];
  enum?: EnumLike;
  /**
   * The parameter's schema, replacing inference entirely: a JSON Schema fragment, or a Standard
   * Schema (zod 4, valibot, arktype ...), which then also checks the value on each call (its
   * issues reported under the parameter's name) and gives the method its output.
   */
  schema?: JSONSchemaObject | StandardSchemaV1;
  /** Element schema for arrays, when `type: [Ctor]` cannot say it. */
  items?: JSONSchemaObject;
  /** A number that must be whole. */
  integer?: boolean;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string | RegExp;
  format?: string;
  default?: unknown;
}

export interface ToolMethodRecord {
  propertyKey: string;
  options: ToolOptions;
  /** Which kind of decorators the class was compiled with. */
  mode: DecoratorMode;
}

export type ParameterRecord =
  { kind: "param"; name?: string; options: ParamOptions } | { kind: "ctx" } | { kind: "args"; type?: Constructor };

/** Where standard decorators list a class's `@Tool` methods, in the class's `Symbol.metadata` object. */
const STANDARD_TOOL_METHODS = Symbol("toolnexus:tool-methods");

/** The `@Tool` methods declared on exactly this prototype (not inherited ones), by either kind of decorator. */
export function ownToolMethods(prototype: object): readonly ToolMethodRecord[] {
  const legacy = (Reflect.getOwnMetadata(TOOL_METHODS, prototype) as ToolMethodRecord[] | undefined) ?? [];
  const metadata = standardMetadataOf(prototype);
  // A subclass's metadata object inherits its base's: only its own list is this class's.
  if (metadata === undefined || !Object.hasOwn(metadata, STANDARD_TOOL_METHODS)) return legacy;
  const standard = (metadata as Record<symbol, ToolMethodRecord[]>)[STANDARD_TOOL_METHODS]!;
  return legacy.length === 0 ? standard : [...legacy, ...standard];
}

/** Records a `@Tool` method applied by standard decorators, in its class's metadata object. */
export function addStandardToolMethod(metadata: object, record: ToolMethodRecord): void {
  const own = metadata as Record<symbol, ToolMethodRecord[]>;
  if (Object.hasOwn(own, STANDARD_TOOL_METHODS)) own[STANDARD_TOOL_METHODS]!.push(record);
  else Object.defineProperty(own, STANDARD_TOOL_METHODS, { value: [record] });
}

/**
 * The `@Tool` methods of a prototype and the ones it inherits, each with the prototype that
 * declares it: the nearest declaration wins (an override in a subclass replaces its base's).
 */
export function toolMethodsOf(prototype: unknown): Array<{ prototype: object; record: ToolMethodRecord }> {
  const found = new Map<string, { prototype: object; record: ToolMethodRecord }>();
  for (
    let owner = prototype;
    typeof owner === "object" && owner !== null && owner !== Object.prototype;
    owner = Object.getPrototypeOf(owner)
  ) {
    for (const record of ownToolMethods(owner))
      if (!found.has(record.propertyKey)) found.set(record.propertyKey, { prototype: owner, record });
  }
  return [...found.values()];
}

export function addToolMethod(prototype: object, record: ToolMethodRecord): void {
  // Own metadata only: the list is this prototype's, so it is extended in place.
  const records = Reflect.getOwnMetadata(TOOL_METHODS, prototype) as ToolMethodRecord[] | undefined;
  if (records === undefined) Reflect.defineMetadata(TOOL_METHODS, [record], prototype);
  else records.push(record);
  DECORATED_CLASSES.add(prototype.constructor);
}

const DECORATED_CLASSES = new Set<Function>();

/** Every class whose `@Tool` decorators have run, in order (integrations report those they never saw). */
export function decoratedClasses(): readonly Function[] {
  return [...DECORATED_CLASSES];
}

/** Prototypes an instance was scanned from, with the ones they inherit from: their tools are in use somewhere. */
const SCANNED_PROTOTYPES = new WeakSet<object>();

/** Records that tools were built from an instance of this prototype (and so from its bases' methods too). */
export function markScanned(prototype: object | null): void {
  for (
    let owner = prototype;
    owner !== null && owner !== Object.prototype;
    owner = Object.getPrototypeOf(owner) as object | null
  )
    SCANNED_PROTOTYPES.add(owner);
}

/** Whether tools were built from an instance of this class or of a subclass, so far in this process. */
export function wasScanned(cls: Function): boolean {
  return SCANNED_PROTOTYPES.has(cls.prototype as object);
}

/** Parameter records of one method, indexed by position (holes where nothing was declared). */
export function ownParameterRecords(
  prototype: object,
  propertyKey: string,
): ReadonlyArray<ParameterRecord | undefined> {
  return (Reflect.getOwnMetadata(TOOL_PARAMETERS, prototype, propertyKey) as ParameterRecord[] | undefined) ?? [];
}

export function addParameterRecord(
  decorator: string,
  prototype: object,
  propertyKey: string | symbol | undefined,
  index: number,
  record: ParameterRecord,
): void {
  const key: unknown = propertyKey;
  if (isStandardContext(key)) {
    throw new TypeError(
      `${decorator} on ${key.kind} ${String(key.name)}: this code is compiled with standard (TC39) decorators, ` +
        `which have no parameter decorators. ${STANDARD_MODE_WAYS_FORWARD}.`,
    );
  }
  const className = typeof prototype === "function" ? prototype.name : prototype.constructor?.name;
  if (propertyKey === undefined) {
    throw new TypeError(
      `${decorator} on a constructor parameter of class ${className}: use it on parameters of @Tool methods.`,
    );
  }
  if (typeof propertyKey === "symbol") {
    throw new TypeError(`${decorator} on ${className}.${String(propertyKey)}: tool methods need string names.`);
  }
  if (typeof prototype === "function") {
    throw new TypeError(`${decorator} on static method ${className}.${propertyKey}: tools are instance methods.`);
  }
  // Own metadata only: the list is this method's, so it is filled in place.
  const existing = Reflect.getOwnMetadata(TOOL_PARAMETERS, prototype, propertyKey) as ParameterRecord[] | undefined;
  const records = existing ?? [];
  if (records[index] !== undefined) {
    throw new TypeError(
      `${className}.${propertyKey}, parameter ${index}: only one of @Param, @Ctx, @Args per parameter.`,
    );
  }
  records[index] = record;
  if (existing === undefined) Reflect.defineMetadata(TOOL_PARAMETERS, records, prototype, propertyKey);
}
