import type { ValidationError } from "class-validator";
import { invalidArguments, type RunAccepted } from "./run-contract";
import type { JSONSchemaObject, ToolContext } from "../types";
import { describeValue } from "./arguments";
import { compileArgumentCleaner } from "./coerce";
import { classTransformer, classValidator } from "./dto-libraries";
import { invokeWithLimits, type Timeout } from "./invoke";
import { compileValidator, type ArgumentsValidator } from "./validation";

/** How each position of a decorated method is filled. */
export type ParameterBinding =
  | { kind: "param"; name: string; convert?: { date: true; each: boolean } | { dto: Function; each: boolean }; defaultValue?: unknown }
  | { kind: "ctx" }
  | { kind: "args"; dto: Function };

/**
 * An object scanned for tools may stand in for instances made per call (NestJS request-scoped
 * providers): when it has a function under this key, each call runs the method on what that
 * function returns (or resolves to) for the call's context, after the arguments are accepted.
 */
export const CALL_RECEIVER = Symbol.for("toolnexus.callReceiver");

export interface DecoratedToolPlan {
  name: string;
  inputSchema: JSONSchemaObject;
  bindings: ParameterBinding[];
  method: (...args: unknown[]) => unknown;
  instance: object;
  timeout?: Timeout;
  /** Patterns RE2 cannot run go to JavaScript's engine instead of failing the compile. */
  backtrackingPatterns?: boolean;
}

/**
 * The run side of a decorated tool: null-for-optional removed, scalar strings coerced, the
 * tool's own schema enforced (compiled once), arguments mapped by name to positions, DTOs
 * made into instances and checked by class-validator (custom validators included), `Date`s
 * made, then the method called on its instance under the call's limits.
 */
export function decoratedRunner(plan: DecoratedToolPlan): RunAccepted {
  const { name, method, instance, bindings } = plan;
  // Compiled on the first call (scanning thousands of tools stays cheap), then kept. A schema
  // Ajv cannot compile throws there, on each call; the toolkit turns it into an error result.
  let compiled: Compiled | undefined;
  const hasDtos = bindings.some((b) => b.kind === "args" || (b.kind === "param" && b.convert !== undefined && "dto" in b.convert));
  const receiverFor = (instance as { [CALL_RECEIVER]?: (ctx: ToolContext) => unknown })[CALL_RECEIVER];
  const body =
    !hasDtos && typeof receiverFor !== "function"
      ? // Nothing to await before the call (no DTO, no per-call receiver): call in the same tick.
        (args: Record<string, unknown>, ctx: ToolContext) => method.apply(instance, compiled!.positional(args, ctx))
      : async (args: Record<string, unknown>, ctx: ToolContext) => {
          const values = compiled!.positional(args, ctx);
          if (hasDtos) {
            const dtoProblems = await validateDtos(bindings, values);
            if (dtoProblems.length > 0) return invalidArguments(name, dtoProblems);
          }
          const receiver = typeof receiverFor === "function" ? await receiverFor.call(instance, ctx) : instance;
          return method.apply(receiver, values);
        };
  return (rawArgs, ctx, fallbackTimeout) => {
    const { clean, problemsOf } = (compiled ??= compile(plan));
    const args = clean(rawArgs);
    const problems = problemsOf(args);
    if (problems.length > 0) return Promise.resolve(invalidArguments(name, problems));
    return invokeWithLimits(name, body, args, ctx, plan.timeout ?? fallbackTimeout);
  };
}

interface Compiled {
  clean: (args: Record<string, unknown>) => Record<string, unknown>;
  problemsOf: ArgumentsValidator;
  positional: (args: Record<string, unknown>, ctx: ToolContext) => unknown[];
}

function compile(plan: DecoratedToolPlan): Compiled {
  return {
    problemsOf: compileValidator(plan.inputSchema, { backtrackingPatterns: plan.backtrackingPatterns === true }),
    clean: compileArgumentCleaner(plan.inputSchema, { coerce: true }),
    positional: compilePositional(plan.bindings),
  };
}

type Binder = (args: Record<string, unknown>, ctx: ToolContext) => unknown;

const hasOwn = Object.prototype.hasOwnProperty;

/**
 * The method's positional arguments for one call: one binder per position, each decided once
 * per tool. Methods of up to four parameters (nearly all) get a closure of their own arity,
 * which keeps the call free of a loop and of an array grown element by element.
 */
function compilePositional(bindings: ParameterBinding[]): (args: Record<string, unknown>, ctx: ToolContext) => unknown[] {
  const binders = bindings.map(binderFor);
  const [a, b, c, d] = binders;
  switch (binders.length) {
    case 0:
      return () => [];
    case 1:
      return (args, ctx) => [a!(args, ctx)];
    case 2:
      return (args, ctx) => [a!(args, ctx), b!(args, ctx)];
    case 3:
      return (args, ctx) => [a!(args, ctx), b!(args, ctx), c!(args, ctx)];
    case 4:
      return (args, ctx) => [a!(args, ctx), b!(args, ctx), c!(args, ctx), d!(args, ctx)];
    default:
      return (args, ctx) => binders.map((binder) => binder(args, ctx));
  }
}

/** How one position is filled, decided once per tool rather than per call. */
function binderFor(binding: ParameterBinding): Binder {
  if (binding.kind === "ctx") return (_args, ctx) => ctx;
  // class-transformer reads a copy, never the caller's arguments: with a discriminator it deletes
  // that key from what it reads (keepDiscriminatorProperty: false), and @Transform functions are
  // handed it. Accepted arguments are JSON data. Not structuredClone: where that global comes
  // from another realm (jest), its objects fail class-transformer's `instanceof Object`.
  const copyOf = (value: unknown): unknown => JSON.parse(JSON.stringify(value));
  if (binding.kind === "args") {
    const dto = binding.dto as new () => object;
    return (args) => classTransformer().plainToInstance(dto, copyOf(args));
  }
  const { name, defaultValue, convert: how } = binding;
  // Arguments are plain (or null-prototype) objects: only a name Object.prototype also has
  // (`toString`, ...) can be read from elsewhere than the arguments themselves.
  const sent = name in Object.prototype ? (args: Record<string, unknown>) => (hasOwn.call(args, name) ? args[name] : undefined) : (args: Record<string, unknown>) => args[name];
  // A declared `@Param({ default })` is what the schema promised the model; copy it per call.
  const given =
    defaultValue === undefined
      ? sent
      : (args: Record<string, unknown>) => {
          const value = sent(args);
          return value === undefined ? structuredClone(defaultValue) : value;
        };
  if (how === undefined) return given;
  const convert = "date" in how ? (item: unknown) => new Date(item as string) : (item: unknown) => classTransformer().plainToInstance(how.dto as new () => object, copyOf(item));
  return (args) => {
    const value = given(args);
    if (value === undefined) return value;
    return how.each ? (value as unknown[]).map(convert) : convert(value);
  };
}

async function validateDtos(bindings: ParameterBinding[], positional: unknown[]): Promise<string[]> {
  const problems: string[] = [];
  for (const [index, binding] of bindings.entries()) {
    const value = positional[index];
    if (binding.kind === "ctx" || value === undefined) continue;
    if (binding.kind === "param" && (binding.convert === undefined || "date" in binding.convert)) continue;
    const prefix = binding.kind === "args" ? "" : binding.name;
    const items = Array.isArray(value) ? value.map((item, i) => ({ item, path: `${prefix}[${i}]` })) : [{ item: value, path: prefix }];
    for (const { item, path } of items) {
      for (const error of await classValidator().validate(item as object)) {
        const known = withoutUnknownInstances(error);
        if (known !== undefined) problems.push(...describeValidationError(known, path));
      }
    }
  }
  return problems;

  // An instance of a class without validators (a discriminated subtype that is only its
  // discriminator) is "an unknown value" to class-validator, though the schema check already
  // accepted its exact shape. A plain object (a nested DTO without @Type) is still reported.
  function withoutUnknownInstances(error: ValidationError): ValidationError | undefined {
    const target: unknown = error.target;
    if (error.constraints?.unknownValue !== undefined && typeof target === "object" && target !== null && Object.getPrototypeOf(target) !== Object.prototype) return undefined;
    if (error.children === undefined || error.children.length === 0) return error;
    const children = error.children.map(withoutUnknownInstances).filter((child) => child !== undefined);
    if (children.length === error.children.length) return error;
    return children.length === 0 && error.constraints === undefined ? undefined : ({ ...error, children } as ValidationError);
  }
}

/** class-validator's errors, flattened to one sentence per failed constraint with its path. */
function describeValidationError(error: ValidationError, parent: string): string[] {
  const path = /^\d+$/.test(error.property) ? `${parent}[${error.property}]` : parent ? `${parent}.${error.property}` : error.property;
  const own = Object.values(error.constraints ?? {}).map((message) => `"${path}": ${message}, got ${describeValue(error.value)}`);
  return [...own, ...(error.children ?? []).flatMap((child) => describeValidationError(child, path))];
}
