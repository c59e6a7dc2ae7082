import type { ValidationError } from "class-validator";
import {
  invalidArguments,
  once,
  thenOrNow,
  type ArgumentsVerdict,
  type CheckArguments,
  type RunAccepted,
  type ToolRunner,
} from "./run-contract";
import {
  isObject,
  type JSONSchemaObject,
  type StandardSchemaV1,
  type ToolContext,
  type ToolResult,
} from "../core/types";
import { problemsTogether, problemTexts, type ArgumentProblem } from "./argument-problems";
import { describeValue } from "./arguments";
import { compileArgumentCleaner } from "./coerce";
import { classTransformer, classValidator } from "./dto-libraries";
import { invokeWithLimits, isThenable, type Timeout } from "./invoke";
import { cutText, errorMessage, failedWith, MAX_ECHOED_PATH, shapedBody, type ResultShape } from "./result";
import { standardVerdict, type StandardVerdict } from "./standard-validation";
import { compileSchemaCheck, type SchemaCheck, type SchemaFindings } from "./validation";

/** How each position of a decorated method is filled. */
export type ParameterBinding =
  | {
      kind: "param";
      name: string;
      convert?: { date: true; each: boolean } | { dto: Function; each: boolean };
      defaultValue?: unknown;
      /** A Standard Schema that checks the value and gives the method its output (`@Param({ schema })`). */
      standard?: StandardSchemaV1;
    }
  | { kind: "ctx" }
  | { kind: "args"; dto: Function };

/** One accepted call of a decorated method, as an invoker sees it. */
export interface MethodCall {
  /** The tool's name. */
  tool: string;
  /** The method the tool runs, as declared on its class. */
  method: (...args: unknown[]) => unknown;
  methodName: string;
  /** The method's positional arguments, converted (DTO instances, `Date`s, the ctx) and checked. */
  positional: unknown[];
  /**
   * The accepted arguments by name, as the model sent them after validation (a parameter's Standard Schema output in
   * place of its value).
   */
  args: Record<string, unknown>;
  ctx: ToolContext;
}

/**
 * Runs a decorated method for one accepted call, in place of calling it on the scanned
 * instance: integrations use it to resolve the instance per call and to run the method
 * through their own pipeline (toolnexus/nestjs: guards, interceptors, pipes and filters).
 */
export type MethodInvoker = (call: MethodCall) => unknown;

export interface DecoratedToolPlan {
  name: string;
  /** What the arguments are checked against (parameters with a Standard Schema: only that they are there). */
  inputSchema: JSONSchemaObject;
  bindings: ParameterBinding[];
  method: (...args: unknown[]) => unknown;
  methodName: string;
  /** What the method runs on, unless `invoke` is given. */
  instance?: object;
  invoke?: MethodInvoker;
  timeout?: Timeout;
  /** Patterns RE2 cannot run go to JavaScript's engine instead of failing the compile. */
  backtrackingPatterns?: boolean;
  /** How the method's returns become results (its output schema, the mime type of its bytes). */
  shape?: ResultShape;
}

/**
 * The run side of a decorated tool: null-for-optional removed, scalar strings coerced, the
 * tool's own schema enforced (compiled once), parameters with a Standard Schema checked by it
 * (the method gets its output), arguments mapped by name to positions, DTOs made into
 * instances and checked by class-validator (custom validators included), `Date`s made, then
 * the method called on its instance under the call's limits. When the schema refuses a call,
 * the Standard Schemas and class-validator still check what the schema left safe to read, so
 * that a model gets every problem in one answer.
 */
export function decoratedRunner(plan: DecoratedToolPlan): ToolRunner {
  const { name, method, methodName, instance, bindings, invoke } = plan;
  // Compiled on the first call (scanning thousands of tools stays cheap), then kept. A schema
  // Ajv cannot compile throws there, on each call; the toolkit turns it into an error result.
  let compiled: Compiled | undefined;
  // A schema that cannot compile fails every call alike, without compiling again.
  const compileOnce = once(() => compile(plan));
  const hasDtos = bindings.some(
    (b) => b.kind === "args" || (b.kind === "param" && b.convert !== undefined && "dto" in b.convert),
  );
  const standardParams = bindings.filter((b): b is StandardParameter => b.kind === "param" && b.standard !== undefined);
  // Only the tool's schema judges the arguments: nothing to await, nothing else to ask.
  const schemaOnly = !hasDtos && standardParams.length === 0;
  const invoked =
    invoke === undefined
      ? (positional: unknown[]) => method.apply(instance, positional)
      : (positional: unknown[], args: Record<string, unknown>, ctx: ToolContext) =>
          invoke({ tool: name, method, methodName, positional, args, ctx });
  const call = shapedBody(invoked, plan.shape);
  // Problems of the Standard Schemas, then class-validator's: every problem in one answer.
  const refused = (problems: ArgumentProblem[], checkable: Record<string, unknown>) =>
    hasDtos ? withDtoProblems(name, bindings, { problems, checkable }) : invalidArguments(name, problemTexts(problems));
  // DTO instances made and checked by class-validator (custom validators included).
  const withValues = !hasDtos
    ? (args: Record<string, unknown>, ctx: ToolContext): Prepared => new Prepared(compiled!.positional(args, ctx), args)
    : async (args: Record<string, unknown>, ctx: ToolContext): Promise<Prepared | ToolResult> => {
        const values = compiled!.positional(args, ctx);
        const dtoProblems = await validateDtos(bindings, values);
        return dtoProblems.length > 0 ? invalidArguments(name, problemTexts(dtoProblems)) : new Prepared(values, args);
      };
  /** The method's values for arguments the tool's schema accepted, or the result that refuses them. */
  const prepare =
    standardParams.length === 0
      ? withValues
      : (args: Record<string, unknown>, ctx: ToolContext): Prepared | ToolResult | Promise<Prepared | ToolResult> => {
          const couldNotCheck = (thrown: unknown) =>
            failedWith(
              thrown,
              `Tool "${name}" could not check its arguments: a parameter's schema threw: ${errorMessage(thrown)}`,
            );
          let outcome: StandardOutcome | Promise<StandardOutcome>;
          try {
            outcome = checkStandardParameters(standardParams, args);
          } catch (thrown) {
            return couldNotCheck(thrown);
          }
          const next = ({ problems, args: checked }: StandardOutcome) =>
            problems.length > 0 ? refused(problems, args) : withValues(checked, ctx);
          return isThenable(outcome) ? Promise.resolve(outcome).then(next, couldNotCheck) : next(outcome);
        };
  const body = schemaOnly
    ? // Nothing to await before the call: call in the same tick.
      (args: Record<string, unknown>, ctx: ToolContext) => call(compiled!.positional(args, ctx), args, ctx)
    : (args: Record<string, unknown>, ctx: ToolContext) =>
        thenOrNow(prepare(args, ctx), (ready) =>
          ready instanceof Prepared ? call(ready.values, ready.args, ctx) : ready,
        );
  /**
   * The arguments as the method reads them (null-for-optional removed, scalars coerced), and what the tool's schema
   * finds wrong with them.
   */
  const screened = (rawArgs: Record<string, unknown>) => {
    const { clean, check } = (compiled ??= compileOnce());
    const args = clean(rawArgs);
    return { args, findings: check(args) };
  };
  // When the schema refuses a call, the Standard Schemas and class-validator still check what
  // it left safe to read.
  const refusedBySchema = (findings: SchemaFindings) =>
    schemaOnly
      ? invalidArguments(name, problemTexts(findings.problems))
      : withOtherProblems(standardParams, findings, refused);
  const run: RunAccepted = (rawArgs, ctx, fallbackTimeout) => {
    const { args, findings } = screened(rawArgs);
    if (findings === undefined) return invokeWithLimits(name, body, args, ctx, plan.timeout ?? fallbackTimeout);
    if (schemaOnly) return Promise.resolve(invalidArguments(name, problemTexts(findings.problems)));
    return invokeWithLimits(name, () => refusedBySchema(findings), args, ctx, plan.timeout ?? fallbackTimeout);
  };
  const check: CheckArguments = (rawArgs, ctx) => {
    const { args, findings } = screened(rawArgs);
    const refusal = (result: ToolResult): ArgumentsVerdict => ({ ok: false, result });
    if (findings !== undefined) return thenOrNow(refusedBySchema(findings), refusal);
    if (schemaOnly) return { ok: true, args };
    return thenOrNow(prepare(args, ctx), (ready): ArgumentsVerdict =>
      ready instanceof Prepared ? { ok: true, args } : refusal(ready),
    );
  };
  return {
    run,
    check,
    warm: () => {
      compiled ??= compileOnce();
    },
  };
}

/**
 * A call's arguments made ready for the method: its positional values (DTO instances, `Date`s, the ctx), and its
 * arguments by name with Standard Schema outputs.
 */
class Prepared {
  constructor(
    readonly values: unknown[],
    readonly args: Record<string, unknown>,
  ) {}
}

type StandardParameter = Extract<ParameterBinding, { kind: "param" }> & { standard: StandardSchemaV1 };

/** The arguments with each Standard Schema's output in place of what was sent, or its problems (sent values only). */
interface StandardOutcome {
  args: Record<string, unknown>;
  problems: ArgumentProblem[];
}

/**
 * Each parameter with a Standard Schema checked by it: the value sent, else the declared
 * default. A parameter left out whose schema refuses `undefined` stays left out (the tool's
 * schema already said whether it may be); one whose schema takes it gets its output (a default).
 */
function checkStandardParameters(
  params: StandardParameter[],
  args: Record<string, unknown>,
): StandardOutcome | Promise<StandardOutcome> {
  const values = params.map(({ name, defaultValue }) => {
    const sent = hasOwn.call(args, name) ? args[name] : undefined;
    return sent === undefined && defaultValue !== undefined ? structuredClone(defaultValue) : sent;
  });
  const verdicts: Array<StandardVerdict | Promise<StandardVerdict>> = [];
  try {
    params.forEach(({ name, standard }, i) => verdicts.push(standardVerdict(standard, values[i], name)));
  } catch (thrown) {
    // The call fails with this throw: the pending checks of earlier parameters are let go, their rejections handled.
    for (const verdict of verdicts) if (isThenable(verdict)) Promise.resolve(verdict).catch(() => undefined);
    throw thrown;
  }
  const outcome = (settled: StandardVerdict[]): StandardOutcome => {
    const problems: ArgumentProblem[] = [];
    let checked = args;
    settled.forEach((verdict, i) => {
      if (!verdict.ok) {
        if (values[i] !== undefined) problems.push(...verdict.problems);
      } else if (verdict.value !== undefined || values[i] !== undefined) {
        if (checked === args) checked = { ...args };
        checked[params[i]!.name] = verdict.value;
      }
    });
    return { args: checked, problems };
  };
  return verdicts.some(isThenable) ? Promise.all(verdicts).then(outcome) : outcome(verdicts as StandardVerdict[]);
}

/**
 * The answer to a call the tool's schema refused, with what the parameters' Standard Schemas
 * find in the values it left checkable; a Standard Schema that throws there adds nothing.
 */
async function withOtherProblems(
  params: StandardParameter[],
  findings: SchemaFindings,
  refused: (problems: ArgumentProblem[], checkable: Record<string, unknown>) => ToolResult | Promise<ToolResult>,
): Promise<ToolResult> {
  let problems = findings.problems;
  if (params.length > 0) {
    try {
      problems = problemsTogether(problems, (await checkStandardParameters(params, findings.checkable)).problems);
    } catch {
      // The schema's own problems are the answer, as they were before the parameter's schema was asked.
    }
  }
  return refused(problems, findings.checkable);
}

interface Compiled {
  clean: (args: Record<string, unknown>) => Record<string, unknown>;
  check: SchemaCheck;
  positional: (args: Record<string, unknown>, ctx: ToolContext) => unknown[];
}

function compile(plan: DecoratedToolPlan): Compiled {
  return {
    check: compileSchemaCheck(plan.inputSchema, { backtrackingPatterns: plan.backtrackingPatterns === true }),
    clean: compileArgumentCleaner(plan.inputSchema, { coerce: true }),
    positional: compilePositional(plan.bindings),
  };
}

// class-transformer reads a copy, never the caller's arguments: with a discriminator it deletes
// that key from what it reads (keepDiscriminatorProperty: false), and @Transform functions are
// handed it. Accepted arguments are JSON data. Not structuredClone: where that global comes
// from another realm (jest), its objects fail class-transformer's `instanceof Object`.
const copyOf = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

type Binder = (args: Record<string, unknown>, ctx: ToolContext) => unknown;

const hasOwn = Object.prototype.hasOwnProperty;

/**
 * The method's positional arguments for one call: one binder per position, each decided once
 * per tool. Methods of up to four parameters (nearly all) get a closure of their own arity,
 * which keeps the call free of a loop and of an array grown element by element.
 */
function compilePositional(
  bindings: ParameterBinding[],
): (args: Record<string, unknown>, ctx: ToolContext) => unknown[] {
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
  if (binding.kind === "args") {
    const dto = binding.dto as new () => object;
    return (args) => classTransformer().plainToInstance(dto, copyOf(args));
  }
  const { name, defaultValue, convert: how } = binding;
  // Arguments are plain (or null-prototype) objects: only a name Object.prototype also has
  // (`toString`, ...) can be read from elsewhere than the arguments themselves.
  const sent =
    name in Object.prototype
      ? (args: Record<string, unknown>) => (hasOwn.call(args, name) ? args[name] : undefined)
      : (args: Record<string, unknown>) => args[name];
  // A declared `@Param({ default })` is what the schema promised the model; copy it per call.
  const given =
    defaultValue === undefined
      ? sent
      : (args: Record<string, unknown>) => {
          const value = sent(args);
          return value === undefined ? structuredClone(defaultValue) : value;
        };
  if (how === undefined) return given;
  const convert =
    "date" in how
      ? (item: unknown) => new Date(item as string)
      : (item: unknown) => classTransformer().plainToInstance(how.dto as new () => object, copyOf(item));
  return (args) => {
    const value = given(args);
    if (value === undefined) return value;
    return how.each ? (value as unknown[]).map(convert) : convert(value);
  };
}

/** class-validator's problems with a call's DTO instances (the method's positional arguments). */
async function validateDtos(bindings: ParameterBinding[], positional: unknown[]): Promise<ArgumentProblem[]> {
  const problems: ArgumentProblem[] = [];
  for (const [index, binding] of bindings.entries()) {
    const value = positional[index];
    if (binding.kind === "ctx" || value === undefined) continue;
    if (binding.kind === "param" && (binding.convert === undefined || "date" in binding.convert)) continue;
    const prefix = binding.kind === "args" ? "" : binding.name;
    const items = Array.isArray(value)
      ? value.map((item, i) => ({ item, path: `${prefix}[${i}]` }))
      : [{ item: value, path: prefix }];
    for (const { item, path } of items) problems.push(...(await instanceProblems(item as object, path)));
  }
  return problems;
}

/**
 * The `invalid_arguments` result of a call the schema refused, with class-validator's problems
 * added: it checks the DTO values the schema left checkable (objects, made into instances as
 * the call would make them), and says only what the schema did not already say.
 */
async function withDtoProblems(
  toolName: string,
  bindings: ParameterBinding[],
  findings: SchemaFindings,
): Promise<ToolResult> {
  let dtoProblems: ArgumentProblem[] = [];
  try {
    dtoProblems = await checkableDtoProblems(bindings, findings.checkable);
  } catch {
    // A validator (or @Transform) that throws on a value the schema refused: the schema's own
    // problems are the answer, as they were before class-validator was asked.
  }
  return invalidArguments(toolName, problemTexts(problemsTogether(findings.problems, dtoProblems)));
}

async function checkableDtoProblems(
  bindings: ParameterBinding[],
  args: Record<string, unknown>,
): Promise<ArgumentProblem[]> {
  const { plainToInstance } = classTransformer();
  const problems: ArgumentProblem[] = [];
  const check = async (dto: Function, plain: unknown, path: string) => {
    if (isObject(plain))
      problems.push(...(await instanceProblems(plainToInstance(dto as new () => object, copyOf(plain)), path)));
  };
  for (const binding of bindings) {
    if (binding.kind === "args") await check(binding.dto, args, "");
    if (binding.kind !== "param" || binding.convert === undefined || "date" in binding.convert) continue;
    const value = hasOwn.call(args, binding.name) ? args[binding.name] : undefined;
    const { dto, each } = binding.convert;
    if (!each) await check(dto, value, binding.name);
    else if (Array.isArray(value))
      for (const [i, item] of value.entries()) await check(dto, item, `${binding.name}[${i}]`);
  }
  return problems;
}

/** class-validator's problems with one DTO instance, whose path in the arguments is `path`. */
async function instanceProblems(item: object, path: string): Promise<ArgumentProblem[]> {
  const problems: ArgumentProblem[] = [];
  for (const error of await classValidator().validate(item)) {
    const known = withoutUnknownInstances(error);
    if (known !== undefined) problems.push(...describeValidationError(known, path));
  }
  return problems;
}

/**
 * An instance of a class without validators (a discriminated subtype that is only its
 * discriminator) is "an unknown value" to class-validator, though the schema check already
 * accepted its exact shape. A plain object (a nested DTO without @Type) is still reported.
 */
function withoutUnknownInstances(error: ValidationError): ValidationError | undefined {
  const target: unknown = error.target;
  if (
    error.constraints?.unknownValue !== undefined &&
    typeof target === "object" &&
    target !== null &&
    Object.getPrototypeOf(target) !== Object.prototype
  )
    return undefined;
  if (error.children === undefined || error.children.length === 0) return error;
  const children = error.children.map(withoutUnknownInstances).filter((child) => child !== undefined);
  if (children.length === error.children.length) return error;
  return children.length === 0 && error.constraints === undefined
    ? undefined
    : ({ ...error, children } as ValidationError);
}

/** class-validator's errors, flattened to one problem per failed constraint with its path. */
function describeValidationError(error: ValidationError, parent: string): ArgumentProblem[] {
  const path = /^\d+$/.test(error.property)
    ? `${parent}[${error.property}]`
    : parent
      ? `${parent}.${error.property}`
      : error.property;
  const shown = cutText(path, MAX_ECHOED_PATH);
  const own = Object.values(error.constraints ?? {}).map((message) => ({
    path,
    text: `"${shown}": ${message}, got ${describeValue(error.value)}`,
  }));
  return [...own, ...(error.children ?? []).flatMap((child) => describeValidationError(child, path))];
}
