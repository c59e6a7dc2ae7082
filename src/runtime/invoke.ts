import type { ToolContext, ToolResult } from "../types";
import { errorMessage, errorResult, toToolResult } from "./result";

/**
 * Calls a tool body under the call's limits and turns whatever happens into a ToolResult:
 * a return value, a throw (sync or async), a timeout (`ctx.timeout`, else `defaultTimeout`)
 * or an abort of `ctx.signal`. Never rejects. A body still running when its deadline passes
 * is told through `ctx.signal` and its late result is discarded.
 */
export function invokeWithLimits(
  toolName: string,
  body: (ctx: ToolContext) => unknown,
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
  if (timeout === undefined && outerSignal === undefined) return settle(body, ctx ?? {});
  return new Promise<ToolResult>((resolve) => {
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const finish = (result: ToolResult) => {
      if (timer !== undefined) clearTimeout(timer);
      outerSignal?.removeEventListener("abort", onOuterAbort);
      resolve(result);
    };
    const onOuterAbort = () => {
      controller.abort(outerSignal!.reason);
      finish(abortedResult(toolName, outerSignal!));
    };
    outerSignal?.addEventListener("abort", onOuterAbort, { once: true });
    if (timeout !== undefined) {
      timer = setTimeout(() => {
        const message = `Tool "${toolName}" timed out after ${timeout} ms`;
        controller.abort(new DOMException(message, "TimeoutError"));
        finish(errorResult("timeout", message, { timeoutMs: timeout }));
      }, timeout);
    }
    // `resolve` ignores every call after the first, so a late result never leaks.
    void settle(body, { ...ctx, signal: controller.signal }).then(finish);
  });
}

export const MAX_TIMER_MS = 2_147_483_647;

/**
 * Runs the body and settles its outcome. A synchronous return settles without an extra
 * async frame; only a thenable is awaited.
 */
function settle(body: (ctx: ToolContext) => unknown, ctx: ToolContext): Promise<ToolResult> {
  try {
    const value = body(ctx);
    // Reading `then` can throw (a getter, a Proxy): inside the try, as `await` would have it.
    if (((typeof value === "object" && value !== null) || typeof value === "function") && typeof (value as PromiseLike<unknown>).then === "function") {
      return Promise.resolve(value).then(toToolResult).then(undefined, failed);
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
  const reason = signal.reason === undefined ? "" : `: ${errorMessage(signal.reason)}`;
  return errorResult("aborted", `Tool "${toolName}" was aborted${reason}`);
}
