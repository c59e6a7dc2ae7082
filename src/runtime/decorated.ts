import { plainToInstance } from "class-transformer";
import { validate, type ValidationError } from "class-validator";
import { invalidArguments, type RunAccepted } from "../define-tool";
import type { JSONSchemaObject, ToolContext } from "../types";
import { describeValue } from "./arguments";
import { compileArgumentCleaner } from "./coerce";
import { invokeWithLimits } from "./invoke";
import { lazyValidator } from "./validation";

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
  timeout?: number;
}

/**
 * The run side of a decorated tool: null-for-optional removed, scalar strings coerced, the
 * tool's own schema enforced (compiled once), arguments mapped by name to positions, DTOs
 * made into instances and checked by class-validator (custom validators included), `Date`s
 * made, then the method called on its instance under the call's limits.
 */
export function decoratedRunner(plan: DecoratedToolPlan): RunAccepted {
  const problemsOf = lazyValidator(plan.inputSchema);
  // Planned on the first call, like the validator: scanning thousands of tools stays cheap.
  let clean: ((args: Record<string, unknown>) => Record<string, unknown>) | undefined;
  const hasDtos = plan.bindings.some((b) => b.kind === "args" || (b.kind === "param" && b.convert !== undefined && "dto" in b.convert));
  const receiverFor = (plan.instance as { [CALL_RECEIVER]?: (ctx: ToolContext) => unknown })[CALL_RECEIVER];
  const synchronous = !hasDtos && typeof receiverFor !== "function";
  return (rawArgs, ctx, fallbackTimeout) => {
    clean ??= compileArgumentCleaner(plan.inputSchema, { coerce: true });
    const args = clean(rawArgs);
    const problems = problemsOf(args);
    if (problems.length > 0) return Promise.resolve(invalidArguments(plan.name, problems));
    const body = synchronous
      ? // Nothing to await before the call (no DTO, no per-call receiver): call in the same tick.
        (callCtx: ToolContext) => plan.method.apply(plan.instance, bindAll(plan.bindings, args, callCtx))
      : async (callCtx: ToolContext) => {
          const positional = bindAll(plan.bindings, args, callCtx);
          if (hasDtos) {
            const dtoProblems = await validateDtos(plan.bindings, positional);
            if (dtoProblems.length > 0) return invalidArguments(plan.name, dtoProblems);
          }
          const receiver = typeof receiverFor === "function" ? await receiverFor.call(plan.instance, callCtx) : plan.instance;
          return plan.method.apply(receiver, positional);
        };
    return invokeWithLimits(plan.name, body, ctx, plan.timeout ?? fallbackTimeout);
  };
}

function bindAll(bindings: ParameterBinding[], args: Record<string, unknown>, ctx: ToolContext): unknown[] {
  const positional = new Array<unknown>(bindings.length);
  for (let i = 0; i < bindings.length; i++) positional[i] = bind(bindings[i]!, args, ctx);
  return positional;
}

function bind(binding: ParameterBinding, args: Record<string, unknown>, ctx: ToolContext): unknown {
  if (binding.kind === "ctx") return ctx;
  if (binding.kind === "args") return plainToInstance(binding.dto as new () => object, args);
  const sent = Object.prototype.hasOwnProperty.call(args, binding.name) ? args[binding.name] : undefined;
  // A declared `@Param({ default })` is what the schema promised the model; copy it per call.
  const value = sent === undefined && binding.defaultValue !== undefined ? structuredClone(binding.defaultValue) : sent;
  if (value === undefined || binding.convert === undefined) return value;
  const { convert: how } = binding;
  const convert = "date" in how ? (item: unknown) => new Date(item as string) : (item: unknown) => plainToInstance(how.dto as new () => object, item);
  return how.each ? (value as unknown[]).map(convert) : convert(value);
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
      for (const error of await validate(item as object)) problems.push(...describeValidationError(error, path));
    }
  }
  return problems;
}

/** class-validator's errors, flattened to one sentence per failed constraint with its path. */
function describeValidationError(error: ValidationError, parent: string): string[] {
  const path = /^\d+$/.test(error.property) ? `${parent}[${error.property}]` : parent ? `${parent}.${error.property}` : error.property;
  const own = Object.values(error.constraints ?? {}).map((message) => `"${path}": ${message}, got ${describeValue(error.value)}`);
  return [...own, ...(error.children ?? []).flatMap((child) => describeValidationError(child, path))];
}
