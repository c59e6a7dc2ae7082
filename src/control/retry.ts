import { onAbort } from "../runtime/abort";
import { DEFAULT_TIMEOUT_MS, wholeMs, type Timeout } from "../runtime/invoke";
import { carryingThrown, thrownBy } from "../runtime/result";
import type { RetryPolicy, ToolContext, ToolResult } from "../core/types";

/**
 * No retry starts with less of the deadline left than this: an attempt that short would end as a timeout, hiding the
 * failure.
 */
export const MIN_ATTEMPT_MS = 10;

/**
 * Runs `attempt` until it gives anything but an `execution_failed` result, at most
 * `policy.attempts` times, waiting between attempts (doubling, capped). Every attempt shares
 * the call's one deadline: each gets what is left of it as its `timeout`, and no retry starts
 * unless `MIN_ATTEMPT_MS` would be left after the wait. Invalid arguments, denials, timeouts and aborts
 * are never retried. The result says how many attempts it took (`metadata.attempts`).
 */
export async function withRetries(
  policy: Required<RetryPolicy>,
  deadline: Timeout,
  ctx: ToolContext,
  attempt: (ctx: ToolContext) => Promise<ToolResult>,
): Promise<ToolResult> {
  const started = performance.now();
  let delay = policy.delayMs;
  for (let tries = 1; ; tries++) {
    const left = deadline === false ? undefined : deadline - (performance.now() - started);
    const result = await attempt(
      left === undefined ? { ...ctx, timeout: false } : { ...ctx, timeout: Math.max(1, wholeMs(left)) },
    );
    const retriable = result.isError && result.metadata?.error === "execution_failed";
    const leftAfterWait = deadline === false ? Infinity : deadline - (performance.now() - started) - delay;
    if (!retriable || tries >= policy.attempts || leftAfterWait < MIN_ATTEMPT_MS || ctx.signal?.aborted)
      return tries === 1 ? result : withAttempts(result, tries);
    if (!(await waited(delay, ctx.signal))) return withAttempts(result, tries);
    delay = Math.min(delay * 2, policy.maxDelayMs);
  }
}

/** The deadline a call runs under: the call's, the tool's, the toolkit's, or the default. */
export function deadlineOf(
  ctx: ToolContext | undefined,
  toolTimeout: Timeout | undefined,
  toolkitTimeout: Timeout | undefined,
): Timeout {
  const deadline = ctx?.timeout ?? toolTimeout ?? toolkitTimeout ?? DEFAULT_TIMEOUT_MS;
  return typeof deadline === "number" ? wholeMs(deadline) : deadline;
}

/** `result` saying how many attempts it took; what the last attempt threw stays with it (for `onError`). */
function withAttempts(result: ToolResult, attempts: number): ToolResult {
  const counted = { ...result, metadata: { ...result.metadata, attempts } };
  const thrown = thrownBy(result);
  return thrown === undefined ? counted : carryingThrown(counted, thrown.thrown);
}

/** Waits `ms`; `false` when `signal` aborted first. */
function waited(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  return new Promise((resolve) => {
    let stop: (() => void) | undefined;
    const timer = setTimeout(() => {
      stop?.();
      resolve(true);
    }, ms);
    if (signal !== undefined) {
      stop = onAbort(signal, () => {
        clearTimeout(timer);
        resolve(false);
      });
    }
  });
}
