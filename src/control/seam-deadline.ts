import { onAbort } from "../runtime/abort";
import { MAX_TIMER_MS } from "../core/timers";
import { isThenable, type Timeout } from "../runtime/invoke";
import { errorResult } from "../runtime/result";
import type { ToolResult } from "../core/types";

/** How a seam (a host's function around a call: `authorize`, `approve`, a middleware) answered. */
export type SeamOutcome = { answered: unknown } | { threw: unknown } | { late: number } | { aborted: AbortSignal };

/** What a seam is waited for under: milliseconds (`false` for no limit), and the call's signal. */
export interface SeamLimits {
  timeout: Timeout;
  signal: AbortSignal | undefined;
}

/**
 * Calls `seam` and tells how it answered. A synchronous answer or throw is told at once (no
 * timer is made: a seam that answers at once costs nothing); a thenable is waited for until it
 * settles, `limits.timeout` ms pass (`late`) or `limits.signal` aborts, whichever comes first,
 * and its timer and abort listener go as soon as one does. What the seam does after that (a
 * late answer, a rejection) is discarded, never unhandled.
 */
export function runSeam(seam: () => unknown, limits: SeamLimits): SeamOutcome | Promise<SeamOutcome> {
  let value: unknown;
  try {
    value = seam();
    if (!isThenable(value)) return { answered: value };
  } catch (thrown) {
    return { threw: thrown };
  }
  return waitFor(value, limits);
}

/** The first of `value` settling, the deadline and the abort. */
function waitFor(value: PromiseLike<unknown>, { timeout, signal }: SeamLimits): Promise<SeamOutcome> {
  return new Promise<SeamOutcome>((resolve) => {
    let timer: NodeJS.Timeout | undefined;
    let stopListening: (() => void) | undefined;
    let done = false;
    const settle = (outcome: SeamOutcome) => {
      if (done) return;
      done = true;
      if (timer !== undefined) clearTimeout(timer);
      stopListening?.();
      resolve(outcome);
    };
    // Adopted by a promise of our own: a thenable's own `then` (or a getter on it) cannot throw from here.
    new Promise<unknown>((adopt) => adopt(value)).then(
      (answered) => settle({ answered }),
      (thrown: unknown) => settle({ threw: thrown }),
    );
    if (signal !== undefined) {
      try {
        if (signal.aborted) return settle({ aborted: signal });
        stopListening = onAbort(signal, () => settle({ aborted: signal }));
      } catch {
        // A signal-like object that cannot be listened to: the call's body reports it.
      }
    }
    // Node fires longer timers at once: such a deadline is none, as for the body.
    if (!done && timeout !== false && timeout <= MAX_TIMER_MS)
      timer = setTimeout(() => settle({ late: timeout }), timeout);
  });
}

/**
 * Whether `timeout` is a deadline a call can run under (as the body's limits check it): a positive number of
 * milliseconds, or `false`.
 */
export function isTimeout(timeout: unknown): timeout is Timeout {
  return timeout === false || (typeof timeout === "number" && timeout > 0);
}

/** The result of a call whose deadline is not one: refused before any seam runs, as its body would refuse it. */
export function invalidTimeoutResult(tool: string, timeout: unknown): ToolResult {
  const got =
    typeof timeout === "number" || typeof timeout === "boolean" || timeout === undefined || timeout === null
      ? String(timeout)
      : `a ${typeof timeout}`;
  return errorResult(
    "execution_failed",
    `Tool "${tool}" was not run: the timeout must be a positive number of milliseconds or false (got ${got}).`,
    { tool },
  );
}

/**
 * The result of a call one of whose steps (`step`, e.g. "its permission check") did not answer within the call's
 * deadline.
 */
export function seamTimedOut(tool: string, step: string, timeoutMs: number): ToolResult {
  return errorResult("timeout", `Tool "${tool}" timed out after ${timeoutMs} ms: ${step} did not answer in time.`, {
    tool,
    timeoutMs,
  });
}
