import type { Tool, ToolContext, ToolResult } from "../core/types";
import { acceptArguments } from "./arguments";
import { invokeWithLimits, isThenable, type Timeout } from "./invoke";
import { cutText, errorMessage, errorResult, failedWith, MAX_ERROR_TEXT } from "./result";

/**
 * Runs a call whose arguments already passed `acceptArguments`. `fallbackTimeout` (the
 * toolkit's) applies when neither the call nor the tool sets one.
 */
export type RunAccepted = (
  args: Record<string, unknown>,
  ctx: ToolContext | undefined,
  fallbackTimeout?: Timeout,
) => Promise<ToolResult>;

/**
 * Checks accepted arguments the way the tool's run checks them, without running it: the
 * arguments as the run reads them (coerced, a `null` for an optional value dropped), which
 * stay JSON data, or the result that refuses the call (`invalid_arguments`, or a check that
 * failed). The toolkit checks here before it sends a call elsewhere (an executor), so that a
 * call that is refused never leaves the process it arrived at.
 */
export type CheckArguments = (
  args: Record<string, unknown>,
  ctx: ToolContext,
) => ArgumentsVerdict | Promise<ArgumentsVerdict>;

export type ArgumentsVerdict = { ok: true; args: Record<string, unknown> } | { ok: false; result: ToolResult };

/**
 * The two sides of a toolnexus-made tool: its run, and the check of its arguments alone (none: the arguments go as they
 * are).
 */
export interface ToolRunner {
  run: RunAccepted;
  check?: CheckArguments;
  /** Pays now what the first call would (compiling its validator); throws what that compile throws. */
  warm?: () => void;
}

const RUN_ACCEPTED = Symbol("toolnexus.runAccepted");
const CHECK_ARGUMENTS = Symbol("toolnexus.checkArguments");
const VALIDATES = Symbol("toolnexus.validates");
const WARM = Symbol("toolnexus.warm");

/**
 * A Tool made by toolnexus: `execute` accepts raw arguments, and the toolkit can skip that
 * step (it already did it) through a non-enumerable symbol, so the object stays a plain Tool.
 * `validates` says whether calls are checked against `inputSchema`.
 */
export function managedTool(
  fields: Omit<Tool, "execute">,
  { run: unguardedRun, check, warm }: ToolRunner,
  validates: boolean,
): Tool {
  const run = guarded(fields.name, unguardedRun);
  const tool: Tool = {
    ...fields,
    execute(args: Record<string, unknown>, ctx?: ToolContext): Promise<ToolResult> {
      const accepted = acceptArguments(args);
      return accepted.ok ? run(accepted.args, ctx) : Promise.resolve(invalidArguments(fields.name, [accepted.problem]));
    },
  };
  Object.defineProperty(tool, RUN_ACCEPTED, { value: run });
  if (check !== undefined) Object.defineProperty(tool, CHECK_ARGUMENTS, { value: check });
  if (warm !== undefined) Object.defineProperty(tool, WARM, { value: warm });
  Object.defineProperty(tool, VALIDATES, { value: validates });
  return tool;
}

/**
 * The last line of "never rejects": whatever a run throws before it has a promise (a schema
 * Ajv cannot compile on the first call, a bug) becomes an `execution_failed` result. The
 * promises themselves need no guard: `invokeWithLimits` settles every outcome into a result.
 */
export function guarded(toolName: string, run: RunAccepted): RunAccepted {
  const failed = (thrown: unknown) => failedWith(thrown, `Tool "${toolName}" could not run: ${errorMessage(thrown)}`);
  return (args, ctx, fallbackTimeout) => {
    try {
      return run(args, ctx, fallbackTimeout);
    } catch (thrown) {
      return Promise.resolve(failed(thrown));
    }
  };
}

/** The accepted-arguments entry of a toolnexus-made tool, if `tool` is one. */
export function runAcceptedOf(tool: Tool): RunAccepted | undefined {
  return (tool as unknown as { [RUN_ACCEPTED]?: RunAccepted })[RUN_ACCEPTED];
}

/** What compiles a toolnexus-made tool's validator ahead of its first call, if it has one to compile. */
export function warmOf(tool: Tool): (() => void) | undefined {
  return (tool as unknown as { [WARM]?: () => void })[WARM];
}

/**
 * `make` run on the first call of the function returned, its value (or what it threw) kept for
 * every later call: a validator is compiled once, and a schema that cannot compile fails each
 * call alike without compiling again.
 */
export function once<T>(make: () => T): () => T {
  let made: { value: T } | { thrown: unknown } | undefined;
  return () => {
    if (made === undefined) {
      try {
        made = { value: make() };
      } catch (thrown) {
        made = { thrown };
      }
    }
    if ("thrown" in made) throw made.thrown;
    return made.value;
  };
}

/** The argument check of a toolnexus-made tool that has one. */
export function checkArgumentsOf(tool: Tool): CheckArguments | undefined {
  return (tool as unknown as { [CHECK_ARGUMENTS]?: CheckArguments })[CHECK_ARGUMENTS];
}

/** `then` for a value that may or may not be a promise: synchronous stays synchronous. */
export function thenOrNow<T, R>(value: T | Promise<T>, next: (settled: T) => R | Promise<R>): R | Promise<R> {
  return isThenable(value) ? (value as Promise<T>).then(next) : next(value as T);
}

/**
 * `check` run under the call's limits (an asynchronous check ends with its deadline or
 * signal): its verdict, or the result that ends the call (refused, timed out, aborted, or a
 * check that threw, as `execution_failed`).
 */
export async function checkedWithinLimits(
  toolName: string,
  check: CheckArguments,
  args: Record<string, unknown>,
  ctx: ToolContext,
  timeout: Timeout,
): Promise<ArgumentsVerdict> {
  let passed: Record<string, unknown> | undefined;
  const pass = (verdict: ArgumentsVerdict): ToolResult =>
    verdict.ok ? ((passed = verdict.args), PASSED) : verdict.result;
  // Worded as the run's own failures, should the check throw.
  const checked = guarded(toolName, (sent, callCtx) => Promise.resolve(thenOrNow(check(sent, callCtx ?? {}), pass)));
  const result = await invokeWithLimits(toolName, checked, args, ctx, timeout);
  return passed !== undefined && !result.isError ? { ok: true, args: passed } : { ok: false, result };
}

/** What a passed check answers inside `invokeWithLimits` (its arguments are kept aside). */
const PASSED: ToolResult = { output: "", isError: false };

/** Whether calls of `tool` are checked against its `inputSchema`; `undefined` for a Tool written by hand. */
export function validatesArguments(tool: Tool): boolean | undefined {
  return (tool as unknown as { [VALIDATES]?: boolean })[VALIDATES];
}

/** At most this many problems are listed; the rest are counted (a model needs the first few, not 10,000). */
export const MAX_LISTED_PROBLEMS = 20;
/** The most characters one problem takes: each stays readable, and the first ones always fit. */
const MAX_PROBLEM_TEXT = 400;

/**
 * The `invalid_arguments` result every tool kind shares: the tool, then one line per problem,
 * as many as fit in `MAX_ERROR_TEXT` with the count of the others always kept.
 */
export function invalidArguments(toolName: string, allProblems: string[]): ToolResult {
  const head = `Invalid arguments for tool "${toolName}":`;
  if (allProblems.length === 1)
    return errorResult("invalid_arguments", `${head} ${allProblems[0]}`, { tool: toolName });
  const lines: string[] = [];
  // Kept back for the line that counts the problems left out.
  let room = MAX_ERROR_TEXT - head.length - 64;
  for (const problem of allProblems.slice(0, MAX_LISTED_PROBLEMS)) {
    if (room < 100) break;
    // "- " before it and "\n" after it fit in `room` too.
    const line = `- ${cutText(problem, Math.min(MAX_PROBLEM_TEXT, room - 3))}`;
    lines.push(line);
    room -= line.length + 1;
  }
  const left = allProblems.length - lines.length;
  if (left > 0) lines.push(`... and ${left} more problems`);
  return errorResult("invalid_arguments", `${head}\n${lines.join("\n")}`, { tool: toolName });
}
