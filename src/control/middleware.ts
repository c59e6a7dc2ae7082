import { abortedResult, isThenable, timeoutResult } from "../runtime/invoke";
import { errorResult, toToolResult } from "../runtime/result";
import type { Tool, ToolContext, ToolResult } from "../core/types";
import { runSeam, type SeamLimits, type SeamOutcome } from "./seam-deadline";
import { seamFailure } from "./seam-failure";

/** One call as middleware sees it. `args` may be replaced before `next()`: the tool gets what is there then. */
export interface ToolCall {
  readonly tool: Tool;
  args: Record<string, unknown>;
  readonly ctx: ToolContext;
}

/**
 * Wraps every call that passed visibility, authorization and approval: it may answer without
 * calling `next` (a cache, a rate limit), change the result `next` gives, or time it. What it
 * returns becomes the result as a tool's return would; a throw becomes an `execution_failed`
 * result worded with an `errorId` (what was thrown goes to `onError`, not to the model). The
 * first middleware `use`d is the outermost.
 */
export type ToolMiddleware = (call: ToolCall, next: () => Promise<ToolResult>) => unknown;

/**
 * Runs `call` through `chain` (outermost first) down to `core`, within `limits`: a chain still
 * running at the call's deadline is answered `timeout` (`aborted` when the call's signal
 * aborts); never rejects. Once a middleware has answered, or the call has, its `next` runs
 * nothing: a first `next()` after that gets a result saying so, and the tool does not run.
 */
export function runThrough(
  chain: readonly ToolMiddleware[],
  call: ToolCall,
  core: (call: ToolCall) => Promise<ToolResult>,
  limits: SeamLimits,
): Promise<ToolResult> {
  const name = call.tool.name;
  let over = false;
  const failed = (thrown: unknown) =>
    seamFailure(
      "execution_failed",
      name,
      thrown,
      (errorId) =>
        `Tool "${name}" failed in a middleware (error id ${errorId}). Try another approach, or tell the user the ` +
        "tool is failing.",
    );
  const step = (index: number): ToolResult | Promise<ToolResult> => {
    if (index === chain.length) return core(call);
    const middleware = chain[index]!;
    let answered = false;
    // A second call of next would run the tool twice: it gets the first run's result.
    let ran: Promise<ToolResult> | undefined;
    const next = () =>
      (ran ??= answered || over ? Promise.resolve(nextTooLate(name)) : Promise.resolve(step(index + 1)));
    const outcome = runSeam(() => middleware(call, next), NO_LIMITS);
    const settle = (settled: SeamOutcome) => {
      answered = true;
      return "answered" in settled ? toToolResult(settled.answered) : failed((settled as { threw: unknown }).threw);
    };
    return isThenable(outcome) ? outcome.then(settle) : settle(outcome);
  };
  // One deadline for the whole chain, kept by the outermost step: the inner ones only settle.
  const outcome = runSeam(() => step(0), limits);
  const settle = (settled: SeamOutcome): ToolResult => {
    over = true;
    if ("answered" in settled) return settled.answered as ToolResult;
    if ("late" in settled) return timeoutResult(name, settled.late);
    if ("aborted" in settled) return abortedResult(name, settled.aborted);
    return failed(settled.threw);
  };
  return isThenable(outcome) ? outcome.then(settle) : Promise.resolve(settle(outcome));
}

/** Inner steps are waited for without limits of their own: the outermost one keeps the call's. */
const NO_LIMITS: SeamLimits = { timeout: false, signal: undefined };

/** What a middleware's `next()` gives once the middleware (or the call) has answered. */
function nextTooLate(tool: string): ToolResult {
  return errorResult(
    "execution_failed",
    `Tool "${tool}" did not run: a middleware called next() after it, or the call, had answered.`,
    { tool },
  );
}
