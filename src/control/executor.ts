import { ToolDefinitionError } from "../core/errors";
import { abortedResult, type Timeout } from "../runtime/invoke";
import { isToolResult } from "../runtime/result";
import type { Tool, ToolContext, ToolResult } from "../core/types";
import { runSeam, seamTimedOut } from "./seam-deadline";
import { seamFailure } from "./seam-failure";

/**
 * How long past the call's deadline an executor's own answer is still waited for: an executor
 * answers a call that ran out of time itself (a queue's worker may still be handing back a
 * result), and only one that never answers is answered for it.
 */
export const EXECUTOR_GRACE_MS = 1_000;

/**
 * Decides where a call runs once visibility, authorization, approval, middleware and the check
 * of its arguments let it through: in this process (no executor, the default), or elsewhere (a
 * queue of workers, see `toolnexus/bullmq`). It never rejects: every failure, local or remote, is a `ToolResult`.
 */
export interface ToolExecutor {
  run(call: ExecutorCall): Promise<ToolResult>;
}

/** One call as an executor gets it. */
export interface ExecutorCall {
  readonly tool: Tool;
  /**
   * The arguments as middleware left them, checked against the tool's schema (and its DTOs'
   * or Standard Schema's rules) and read as the tool reads them: a `null` for an optional value
   * left out, a JSON Schema tool's scalars coerced. JSON data. Tools with no check of their own
   * here (written by hand, `validate: false`, `fromMcp`) send them as they are.
   */
  readonly args: Record<string, unknown>;
  readonly ctx: ToolContext;
  /**
   * Milliseconds the call may take in all (the call's, the tool's, the toolkit's or the default timeout); `false` for
   * none.
   */
  readonly timeout: Timeout;
  /** Runs the call here instead: retries and the body (its checks again), as without an executor. */
  runHere(): Promise<ToolResult>;
}

/** A toolkit's `executor` option, checked when the toolkit is made. */
export function checkExecutor(executor: unknown): ToolExecutor | undefined {
  if (executor === undefined) return undefined;
  if (typeof executor !== "object" || executor === null || typeof (executor as ToolExecutor).run !== "function") {
    throw new ToolDefinitionError(
      "Toolkit: executor must be an object with a run(call) method, such as queueExecutor(...) from toolnexus/bullmq " +
        `(got ${executor === null ? "null" : typeof executor}).`,
    );
  }
  return executor as ToolExecutor;
}

/**
 * Hands `call` to `executor` and reads its answer: a result as it came, or, for an executor that
 * throws, answers no `ToolResult`, or does not answer within the call's deadline (and
 * `EXECUTOR_GRACE_MS`) or its abort, the result that says so (never what it threw). `call.timeout`
 * is what is left of the call's deadline; a timeout states the deadline itself, `deadlineMs`.
 */
export async function runOnExecutor(
  executor: ToolExecutor,
  call: ExecutorCall,
  deadlineMs: number | false = call.timeout,
): Promise<ToolResult> {
  const name = call.tool.name;
  const limit = call.timeout === false ? false : call.timeout + EXECUTOR_GRACE_MS;
  const answer = await runSeam(() => executor.run(call), { timeout: limit, signal: call.ctx.signal });
  if ("late" in answer) return seamTimedOut(name, "the toolkit's executor", deadlineMs as number);
  if ("aborted" in answer) return abortedResult(name, answer.aborted);
  if ("threw" in answer) {
    const text = (errorId: string) =>
      `Tool "${name}" could not run: the toolkit's executor failed (error id ${errorId}). Try again later, or tell ` +
      "the user the tool is failing.";
    return seamFailure("execution_failed", name, answer.threw, text);
  }
  const result = answer.answered;
  if (isToolResult(result)) return result;
  const gave = new TypeError(
    "The toolkit's executor gave no ToolResult (got " +
      `${result === null ? "null" : typeof result === "object" ? "an object" : `a ${typeof result}`}).`,
  );
  return seamFailure(
    "execution_failed",
    name,
    gave,
    (errorId) =>
      `Tool "${name}" could not run: the toolkit's executor gave no ToolResult (error id ${errorId}). Tell the user ` +
      "the tool is failing.",
  );
}
