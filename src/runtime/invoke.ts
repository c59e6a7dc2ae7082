import type { ToolContext, ToolResult } from "../types";
import { errorMessage, errorResult, toToolResult } from "./result";

/**
 * Calls a tool body under the call's limits and turns whatever happens into a ToolResult:
 * a return value, a throw (sync or async), a timeout (`ctx.timeout`, else `defaultTimeout`)
 * or an abort of `ctx.signal`. Never rejects. A body still running when its deadline passes
 * is told through `ctx.signal` and its late result is discarded.
 */
export function invokeWithLimits<Args>(
  toolName: string,
  body: (args: Args, ctx: ToolContext) => unknown,
  args: Args,
  ctx: ToolContext | undefined,
  defaultTimeout?: number,
): Promise<ToolResult> {
  const requested = ctx?.timeout ?? defaultTimeout;
  if (requested !== undefined && !(typeof requested === "number" && requested > 0)) {
    return Promise.resolve(errorResult("execution_failed", `Tool "${toolName}" was not run: the timeout must be a positive number of milliseconds (got ${String(requested)}).`));
  }
  // Node fires timers longer than 2^31-1 ms at once; such a deadline is as good as none.
  const timeout = requested !== undefined && requested <= MAX_TIMER_MS ? requested : undefined;
  const outerSignal = ctx?.signal;
  if (outerSignal?.aborted) return Promise.resolve(abortedResult(toolName, outerSignal));
  if (timeout === undefined && outerSignal === undefined) return settle(body, args, ctx ?? {});
  return new Promise<ToolResult>((resolve) => {
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const finish = (result: ToolResult) => {
      // `resolve` ignores every call after the first, so a late result never leaks.
      resolve(result);
      if (timer !== undefined) clearTimeout(timer);
      try {
        outerSignal?.removeEventListener("abort", onOuterAbort);
      } catch {
        // A host's signal-like object that cannot unsubscribe: the call is answered all the same.
      }
    };
    const onOuterAbort = () => {
      controller.abort(outerSignal!.reason);
      finish(abortedResult(toolName, outerSignal!));
    };
    // A host's signal-like object or context getter can throw here: the call is then not run.
    try {
      outerSignal?.addEventListener("abort", onOuterAbort, { once: true });
      if (timeout !== undefined) {
        timer = setTimeout(() => {
          const message = `Tool "${toolName}" timed out after ${timeout} ms`;
          controller.abort(new DOMException(message, "TimeoutError"));
          finish(errorResult("timeout", message, { timeoutMs: timeout }));
        }, timeout);
      }
      void settle(body, args, { ...ctx, signal: controller.signal }).then(finish);
    } catch (thrown) {
      finish(errorResult("execution_failed", `Tool "${toolName}" was not run: ${errorMessage(thrown)}`));
    }
  });
}

export const MAX_TIMER_MS = 2_147_483_647;

const PROMISE_THEN = Promise.prototype.then;

/**
 * Runs the body and settles its outcome. A synchronous return settles without an extra
 * async frame; only a thenable is awaited.
 */
function settle<Args>(body: (args: Args, ctx: ToolContext) => unknown, args: Args, ctx: ToolContext): Promise<ToolResult> {
  try {
    const value = body(args, ctx);
    // Reading `then` can throw (a getter, a Proxy): inside the try, as `await` would have it.
    if (((typeof value === "object" && value !== null) || typeof value === "function") && typeof (value as PromiseLike<unknown>).then === "function") {
      // toToolResult never throws, so one reaction settles both outcomes. The prototype's
      // `then`, not the value's own: a promise carrying its own `then` must not answer for us.
      return PROMISE_THEN.call(Promise.resolve(value), toToolResult, failed) as Promise<ToolResult>;
    }
    return Promise.resolve(toToolResult(value));
  } catch (thrown) {
    return Promise.resolve(failed(thrown));
  }
}

function failed(thrown: unknown): ToolResult {
  return errorResult("execution_failed", errorMessage(thrown));
}

function abortedResult(toolName: string, signal: AbortSignal): ToolResult {
  let reason = "";
  try {
    if (signal.reason !== undefined) reason = `: ${errorMessage(signal.reason)}`;
  } catch {
    // A signal whose `reason` cannot be read still aborted the call.
  }
  return errorResult("aborted", `Tool "${toolName}" was aborted${reason}`);
}
