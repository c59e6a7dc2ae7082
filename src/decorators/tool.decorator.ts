import type { Tool as ToolShape } from "../core/types";
import { isStandardContext, type StandardMethodContext } from "./decorator-mode";
import { recordDefiningFile } from "./defining-file";
import { addStandardToolMethod, addToolMethod, type ToolOptions } from "./metadata";

/**
 * What `@Tool(...)` returns: a method decorator for both kinds of decorators, standard (TC39:
 * TypeScript 5+ and esbuild without `experimentalDecorators`) and legacy (`experimentalDecorators`).
 */
export interface ToolDecorator {
  /** Standard decorators: `(method, context)`. */
  // `any` as lib.decorators.d.ts constrains a method's context: any method, whatever its parameters.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  <This, Method extends (this: This, ...args: any) => any>(
    method: Method,
    context: ClassMethodDecoratorContext<This, Method>,
  ): void;
  /** Legacy decorators (`experimentalDecorators`): `(prototype, name, descriptor)`. */
  (target: object, propertyKey: string | symbol, descriptor: PropertyDescriptor): void;
}

/**
 * Marks a method as a tool. `@Tool("Current weather for a city")` or
 * `@Tool({ name, description, input, timeout, annotations, task })`. The name defaults to the method name.
 * Works under both standard and legacy (`experimentalDecorators`) decorators; under standard
 * ones, the tool's input comes from `input` or from the manifest `toolnexus generate` writes.
 */
export function Tool(descriptionOrOptions?: string | ToolOptions): ToolDecorator {
  const options: ToolOptions =
    typeof descriptionOrOptions === "string" ? { description: descriptionOrOptions } : { ...descriptionOrOptions };
  function decorate(target: unknown, key: unknown, descriptor?: PropertyDescriptor): void {
    if (isStandardContext(key)) decorateStandard(options, target, key, decorate);
    else decorateLegacy(options, target as object, key as string | symbol, descriptor, decorate);
  }
  return decorate as ToolDecorator;
}

function decorateLegacy(
  options: ToolOptions,
  target: object,
  propertyKey: string | symbol,
  descriptor: PropertyDescriptor | undefined,
  decorator: Function,
): void {
  const className = typeof target === "function" ? target.name : target.constructor?.name;
  if (typeof propertyKey === "symbol" || typeof descriptor?.value !== "function") {
    throw new TypeError(`@Tool on ${className}.${String(propertyKey)}: @Tool goes on methods with string names.`);
  }
  if (typeof target === "function") {
    throw new TypeError(`@Tool on static method ${className}.${propertyKey}: tools are instance methods.`);
  }
  addToolMethod(target, { propertyKey, options, mode: "legacy" });
  // Where its manifest is looked for, and which of several same-named classes it is.
  recordDefiningFile(target, decorator);
}

function decorateStandard(
  options: ToolOptions,
  method: unknown,
  context: StandardMethodContext,
  decorator: Function,
): void {
  const name = String(context.name);
  if (context.kind !== "method" || typeof method !== "function")
    throw new TypeError(`@Tool on ${context.kind} ${name}: @Tool goes on methods.`);
  if (typeof context.name === "symbol" || context.private)
    throw new TypeError(`@Tool on ${name}: @Tool goes on public methods with string names.`);
  if (context.static) {
    // The class is known only once it is defined: its static initializers name it.
    context.addInitializer(function (this: unknown) {
      throw new TypeError(`@Tool on static method ${(this as Function).name}.${name}: tools are instance methods.`);
    });
    return;
  }
  const metadata = context.metadata;
  if (typeof metadata !== "object" || metadata === null)
    throw new TypeError(
      `@Tool on ${name}: the compiler gave the decorator no context.metadata, where standard decorators keep what ` +
        "toolnexus records. Load toolnexus before the class is defined, or compile with a TypeScript 5.2+, esbuild, " +
        'SWC or Babel that supports decorator metadata (or use "experimentalDecorators": true).',
    );
  addStandardToolMethod(metadata, { propertyKey: name, options, mode: "standard" });
  recordDefiningFile(metadata, decorator);
}

/** The type of the tools a toolkit holds: its fields are those of the interface `Tool` (the decorator, this type and the interface share the name). */
export type Tool = ToolShape;
