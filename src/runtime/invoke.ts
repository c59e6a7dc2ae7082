import { MAX_TIMER_MS } from "../core/timers";
import { logLevelRank } from "../core/log-levels";
import {
  noElicitation,
  noSampling,
  type ElicitAnswer,
  type ElicitRequest,
  type SampleRequest,
  type SampleResult,
} from "../core/input-requests";
import type { LogLevel, ToolCallContext, ToolContext, ToolResult } from "../core/types";
import { listenedBefore, onAbort } from "./abort";
import { clockFor, preciseNow } from "./call-clock";
import { errorMessage, errorResult, failedWith, toToolResult } from "./result";

/** Milliseconds a call may run when neither the call, the tool nor the toolkit sets a timeout. */
export const DEFAULT_TIMEOUT_MS = 60_000;

/** A deadline in milliseconds, or `false` for none. */
export type Timeout = number | false;

/**
 * A deadline in whole milliseconds, rounded up (never shorter): what is left of a deadline
 * that retries share is a fraction, and a timeout's text and metadata state it.
 */
export function wholeMs(ms: number): number {
  return Number.isFinite(ms) ? Math.ceil(ms) : ms;
}

/**
 * Calls a tool body under the call's limits and turns whatever happens into a ToolResult:
 * a return value, a throw (sync or async), a timeout (`ctx.timeout`, else `fallbackTimeout`,
 * else `DEFAULT_TIMEOUT_MS`; `false` for none) or an abort of `ctx.signal`. Never rejects.
 *
 * A body still running at its deadline is told through `ctx.signal` and its late result is
 * discarded. A body that returns after its deadline (it blocked the event loop, so no timer
 * could fire) is a timeout too, reported with the time it took. The call's own signal is made
 * only when the body reads `ctx.signal`: a synchronous tool that never looks costs no
 * controller and no timer.
 */
export function invokeWithLimits<Args>(
  toolName: string,
  body: (args: Args, ctx: ToolCallContext) => unknown,
  args: Args,
  ctx: ToolContext | undefined,
  fallbackTimeout?: Timeout,
): Promise<ToolResult> {
  const requested = ctx?.timeout ?? fallbackTimeout ?? DEFAULT_TIMEOUT_MS;
  if (requested !== false && !(typeof requested === "number" && requested > 0)) {
    return Promise.resolve(
      errorResult(
        "execution_failed",
        `Tool "${toolName}" was not run: the timeout must be a positive number of milliseconds or false (got ` +
          `${String(requested)}).`,
      ),
    );
  }
  const timeout = requested !== false && requested <= MAX_TIMER_MS ? wholeMs(requested) : undefined;
  const outerSignal = ctx?.signal;
  if (outerSignal?.aborted) return Promise.resolve(abortedResult(toolName, outerSignal));
  if (timeout === undefined && outerSignal === undefined) return settleUnlimited(body, args, withCallDefaults(ctx));

  const now = timeout === undefined ? preciseNow : clockFor(timeout);
  const started = now();
  let callCtx: CallContext;
  let watched: WatchedCall | undefined;
  try {
    callCtx = new CallContext(ctx);
    // Listening before the body runs: a host's signal-like object that cannot be listened to
    // (or a context whose getters throw) stops the call before it starts. A signal listened to
    // before is listened to once the body returns a promise: until the body returns, only the
    // body itself can abort it, and that is seen when it returns. A synchronous tool called with
    // the same signal call after call then never adds and removes a listener.
    if (outerSignal !== undefined && !listenedBefore(outerSignal))
      watched = new WatchedCall(toolName, timeout, now, started, callCtx, outerSignal);
  } catch (thrown) {
    return Promise.resolve(errorResult("execution_failed", `Tool "${toolName}" was not run: ${errorMessage(thrown)}`));
  }

  let value: unknown;
  try {
    value = body(args, callCtx);
    // Reading `then` can throw (a getter, a Proxy): inside the try, as `await` would have it.
    if (!isThenable(value))
      return Promise.resolve(
        abortedWhileRunning(toolName, watched, outerSignal, callCtx) ??
          overran(toolName, timeout, now, started, callCtx) ??
          toToolResult(value),
      );
  } catch (thrown) {
    return Promise.resolve(
      abortedWhileRunning(toolName, watched, outerSignal, callCtx) ??
        overran(toolName, timeout, now, started, callCtx) ??
        failedWith(thrown),
    );
  }
  if (watched !== undefined) return watched.settle(value);
  try {
    return new WatchedCall(toolName, timeout, now, started, callCtx, outerSignal).settle(value);
  } catch (thrown) {
    // A signal-like object listened to before that refuses now: the call ends here, and the body's outcome is
    // discarded.
    callCtx.end(thrown);
    PROMISE_THEN.call(Promise.resolve(value), undefined, () => {});
    return Promise.resolve(
      errorResult(
        "execution_failed",
        `Tool "${toolName}" was stopped: its signal cannot be listened to: ${errorMessage(thrown)}`,
      ),
    );
  }
}

/**
 * For a body that returned synchronously: the `aborted` result when the caller's signal
 * aborted while it ran, else `undefined`. Leaves the signal either way.
 */
function abortedWhileRunning(
  toolName: string,
  watched: WatchedCall | undefined,
  outerSignal: AbortSignal | undefined,
  ctx: CallContext,
): ToolResult | undefined {
  if (watched !== undefined) return watched.leave();
  if (outerSignal === undefined || !outerSignal.aborted) return undefined;
  ctx.end(reasonOf(outerSignal));
  return abortedResult(toolName, outerSignal);
}

/**
 * The timeout result of a call that returned after its deadline, or `undefined`. `waited`: the
 * body handed back its promise in time, so what kept the event loop from ending the call at its
 * deadline may not have been the body (other calls of its batch, other work): the text says only
 * when its result came.
 */
function overran(
  toolName: string,
  timeout: number | undefined,
  now: () => number,
  started: number,
  ctx: CallContext,
  waited = false,
): ToolResult | undefined {
  if (timeout === undefined) return undefined;
  const took = now() - started;
  if (took <= timeout) return undefined;
  const tookMs = Math.round(took);
  const why = waited
    ? `its result came after ${tookMs} ms, while the process was too busy to end the call sooner`
    : `it took ${tookMs} ms and kept the process busy, so it could not be stopped sooner`;
  const message = `Tool "${toolName}" timed out after ${timeout} ms (${why})`;
  ctx.end(new DOMException(message, "TimeoutError"));
  return errorResult("timeout", message, { timeoutMs: timeout, tookMs });
}

/** A call that may end before its body does: by its deadline, or by the caller's signal. */
class WatchedCall {
  #early: ToolResult | undefined;
  #resolve: ((result: ToolResult) => void) | undefined;
  #timer: NodeJS.Timeout | undefined;
  #unsubscribe: (() => void) | undefined;

  constructor(
    private readonly toolName: string,
    private readonly timeout: number | undefined,
    private readonly now: () => number,
    private readonly started: number,
    private readonly ctx: CallContext,
    signal?: AbortSignal,
  ) {
    if (signal !== undefined) {
      const aborted = () => {
        ctx.end(reasonOf(signal));
        this.#finish(abortedResult(toolName, signal));
      };
      this.#unsubscribe = onAbort(signal, aborted);
      // Listened to once the body returned: the body may have aborted it meanwhile.
      if (signal.aborted) aborted();
    }
  }

  /** Stops listening; the result of an abort that came first, if one did. */
  leave(): ToolResult | undefined {
    this.#unsubscribe?.();
    return this.#early;
  }

  /** The body returned a thenable: the first of its outcome, the deadline and an abort. */
  settle(value: PromiseLike<unknown>): Promise<ToolResult> {
    if (this.#early !== undefined) {
      // Ended (aborted) while the body was still synchronous: its outcome is discarded, and a later rejection must not
      // go unhandled.
      PROMISE_THEN.call(Promise.resolve(value), undefined, () => {});
      return Promise.resolve(this.leave()!);
    }
    return new Promise<ToolResult>((resolve) => {
      this.#resolve = resolve;
      const { toolName, timeout, now, started, ctx } = this;
      let waited = false;
      if (timeout !== undefined) {
        const onTimeout = () => {
          const result = timeoutResult(toolName, timeout);
          ctx.end(new DOMException(result.output, "TimeoutError"));
          this.#finish(result);
        };
        const handedBackAfter = now() - started;
        waited = handedBackAfter <= timeout;
        this.#timer = setTimeout(onTimeout, Math.max(0, timeout - handedBackAfter));
      }
      // The prototype's `then`, not the value's own: a promise carrying its own `then` must not answer for us.
      PROMISE_THEN.call(
        Promise.resolve(value),
        (settled: unknown) =>
          this.#finish(overran(toolName, timeout, now, started, ctx, waited) ?? toToolResult(settled)),
        (thrown: unknown) => this.#finish(overran(toolName, timeout, now, started, ctx, waited) ?? failedWith(thrown)),
      );
    });
  }

  #finish(result: ToolResult): void {
    if (this.#resolve === undefined) {
      this.#early ??= result;
      return;
    }
    // `resolve` ignores every call after the first, so a late result never leaks.
    this.#resolve(result);
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#unsubscribe?.();
  }
}

/**
 * The ctx a body sees: the caller's fields, and a `signal` of the call's own, made when first
 * read (an AbortController costs microseconds; most tools never look) and born aborted when
 * the call has already ended. Once read, `signal` is an own property, so spreads carry it.
 */
class CallContext implements ToolCallContext {
  #controller: AbortController | undefined;
  #ended: { reason: unknown } | undefined;

  constructor(ctx: ToolContext | undefined) {
    if (ctx !== undefined) {
      for (const key of Object.keys(ctx))
        if (key !== "signal") (this as Record<string, unknown>)[key] = (ctx as Record<string, unknown>)[key];
    }
  }

  /** Progress goes nowhere unless the caller's ctx brought a way to send it (an own property then). */
  reportProgress(_progress: number, _total?: number, _message?: string): void {}

  /** Nobody answers unless the caller's ctx brought a way to ask (an own property then). */
  elicit(_request: ElicitRequest): Promise<ElicitAnswer> {
    return noElicitation();
  }

  sample(_request: SampleRequest): Promise<SampleResult> {
    return noSampling();
  }

  /** Logs go nowhere unless the caller's ctx brought a logger (an own property then). */
  log(level: LogLevel, _message: string, _data?: unknown): void {
    logLevelRank(level);
  }

  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.#ended !== undefined) this.#controller.abort(this.#ended.reason);
      Object.defineProperty(this, "signal", {
        value: this.#controller.signal,
        enumerable: true,
        configurable: true,
        writable: true,
      });
    }
    return this.#controller.signal;
  }

  /** Ends the call: its signal, made now or later, is aborted with `reason`. */
  end(reason: unknown): void {
    this.#ended ??= { reason };
    this.#controller?.abort(reason);
  }
}

const PROMISE_THEN = Promise.prototype.then;

function ignoreProgress(): void {}

function ignoreLog(level: LogLevel): void {
  logLevelRank(level);
}

/** The caller's ctx as a tool body's: what it did not bring does nothing (progress) or says nobody answers. */
function withCallDefaults(ctx: ToolContext | undefined): ToolCallContext {
  if (
    ctx?.reportProgress !== undefined &&
    ctx.elicit !== undefined &&
    ctx.sample !== undefined &&
    ctx.log !== undefined
  )
    return ctx as ToolCallContext;
  return {
    ...ctx,
    reportProgress: ctx?.reportProgress ?? ignoreProgress,
    elicit: ctx?.elicit ?? noElicitation,
    sample: ctx?.sample ?? noSampling,
    log: ctx?.log ?? ignoreLog,
  };
}

export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    ((typeof value === "object" && value !== null) || typeof value === "function") &&
    typeof (value as PromiseLike<unknown>).then === "function"
  );
}

/** A call with neither deadline nor signal (timeouts turned off): the body's outcome, settled. */
function settleUnlimited<Args>(
  body: (args: Args, ctx: ToolCallContext) => unknown,
  args: Args,
  ctx: ToolCallContext,
): Promise<ToolResult> {
  try {
    const value = body(args, ctx);
    if (isThenable(value))
      return PROMISE_THEN.call(Promise.resolve(value), toToolResult, failedWith) as Promise<ToolResult>;
    return Promise.resolve(toToolResult(value));
  } catch (thrown) {
    return Promise.resolve(failedWith(thrown));
  }
}

/** The `timeout` result of a call that ran out of its `timeoutMs`. */
export function timeoutResult(toolName: string, timeoutMs: number): ToolResult {
  return errorResult("timeout", `Tool "${toolName}" timed out after ${timeoutMs} ms`, { timeoutMs });
}

/** The `aborted` result of a call whose `signal` aborted, with the reason when it can be read. */
export function abortedResult(toolName: string, signal: AbortSignal): ToolResult {
  const reason = reasonOf(signal);
  return errorResult(
    "aborted",
    `Tool "${toolName}" was aborted${reason === undefined ? "" : `: ${errorMessage(reason)}`}`,
  );
}

/**
 * Why `signal` aborted; `undefined` when it says nothing or its `reason` cannot be read (a signal-like object's getter
 * that throws still aborted the call).
 */
function reasonOf(signal: AbortSignal): unknown {
  try {
    return signal.reason;
  } catch {
    return undefined;
  }
}
