import "reflect-metadata";
import type { Completer, PrimitivePolicy } from "../core/primitives";
import type { ContentAnnotations, Icon, JSONSchemaObject, StandardSchemaV1 } from "../core/types";
import { standardMetadataOf, type DecoratorMode } from "./decorator-mode";
import type { Constructor } from "./metadata";

/** Where legacy decorators list a prototype's `@Resource`, `@ResourceTemplate` and `@Prompt` methods. */
export const PRIMITIVE_METHODS = "toolnexus:primitive-methods";

/** Where standard decorators list them, in the class's `Symbol.metadata` object. */
const STANDARD_PRIMITIVE_METHODS = Symbol("toolnexus:primitive-methods");

/** What resources and prompts share: how they are shown, who may use them, how long they may take. */
export interface PrimitiveOptions extends PrimitivePolicy {
  /** Defaults to the method name. */
  name?: string;
  /** A name for people. */
  title?: string;
  description?: string;
  icons?: readonly Icon[];
  /** Milliseconds a read or get may take (`DEFAULT_TIMEOUT_MS`, 60 s, by default; the toolkit's `timeout` does not apply); `false` for no deadline. */
  timeout?: number | false;
}

export interface ResourceOptions extends PrimitiveOptions {
  /** The media type of what it reads: `text/plain` for strings, `application/octet-stream` for bytes by default. */
  mimeType?: string;
  /** Size in bytes, when known ahead. */
  size?: number;
  annotations?: ContentAnnotations;
}

export interface ResourceTemplateOptions extends Omit<ResourceOptions, "size"> {
  /**
   * The variables as one input, in place of `@Param`s (the method then takes `(variables, ctx)`):
   * a Standard Schema, a JSON Schema of an object, or a DTO class; the way under standard decorators.
   */
  input?: StandardSchemaV1 | JSONSchemaObject | Constructor;
  /** Completions per variable: a list (filtered by what the user typed) or a function. */
  complete?: Record<string, Completer>;
}

export interface PromptOptions extends PrimitiveOptions {
  /**
   * The arguments as one input, in place of `@Param`s (the method then takes `(args, ctx)`):
   * a Standard Schema, a JSON Schema of an object, or a DTO class; the way under standard decorators.
   */
  input?: StandardSchemaV1 | JSONSchemaObject | Constructor;
  /** Completions per argument: a list (filtered by what the user typed) or a function. */
  complete?: Record<string, Completer>;
}

export type PrimitiveMethodRecord =
  | { kind: "resource"; propertyKey: string; uri: string; options: ResourceOptions; mode: DecoratorMode }
  | {
      kind: "resourceTemplate";
      propertyKey: string;
      uriTemplate: string;
      options: ResourceTemplateOptions;
      mode: DecoratorMode;
    }
  | { kind: "prompt"; propertyKey: string; options: PromptOptions; mode: DecoratorMode };

/** Records a primitive method applied by legacy decorators on its prototype. */
export function addPrimitiveMethod(prototype: object, record: PrimitiveMethodRecord): void {
  const records = Reflect.getOwnMetadata(PRIMITIVE_METHODS, prototype) as PrimitiveMethodRecord[] | undefined;
  if (records === undefined) Reflect.defineMetadata(PRIMITIVE_METHODS, [record], prototype);
  else records.push(record);
}

/** Records a primitive method applied by standard decorators, in its class's metadata object. */
export function addStandardPrimitiveMethod(metadata: object, record: PrimitiveMethodRecord): void {
  const own = metadata as Record<symbol, PrimitiveMethodRecord[]>;
  if (Object.hasOwn(own, STANDARD_PRIMITIVE_METHODS)) own[STANDARD_PRIMITIVE_METHODS]!.push(record);
  else Object.defineProperty(own, STANDARD_PRIMITIVE_METHODS, { value: [record] });
}

function ownPrimitiveMethods(prototype: object): readonly PrimitiveMethodRecord[] {
  const legacy = (Reflect.getOwnMetadata(PRIMITIVE_METHODS, prototype) as PrimitiveMethodRecord[] | undefined) ?? [];
  const metadata = standardMetadataOf(prototype);
  if (metadata === undefined || !Object.hasOwn(metadata, STANDARD_PRIMITIVE_METHODS)) return legacy;
  return [...legacy, ...(metadata as Record<symbol, PrimitiveMethodRecord[]>)[STANDARD_PRIMITIVE_METHODS]!];
}

/**
 * The primitive methods of a prototype and the ones it inherits, each with the prototype that
 * declares it: the nearest declaration of a method wins.
 */
export function primitiveMethodsOf(prototype: unknown): Array<{ prototype: object; record: PrimitiveMethodRecord }> {
  const found = new Map<string, { prototype: object; record: PrimitiveMethodRecord }>();
  for (
    let owner = prototype;
    typeof owner === "object" && owner !== null && owner !== Object.prototype;
    owner = Object.getPrototypeOf(owner)
  ) {
    for (const record of ownPrimitiveMethods(owner))
      if (!found.has(record.propertyKey)) found.set(record.propertyKey, { prototype: owner, record });
  }
  return [...found.values()];
}
