/** The params of MCP's `notifications/progress`. */
export interface ProgressNotificationParams {
  progressToken: string | number;
  progress: number;
  total?: number;
  message?: string;
}

/** The longest a result waits for the progress notifications before it (a client that stopped reading). */
const PROGRESS_FLUSH_MS = 2_000;

/**
 * `ctx.reportProgress` of an MCP call: progress notifications for the client's progress token,
 * in order, only increasing values (the specification requires it), never failing the call;
 * nothing when the client sent no token. `sent()` settles when those reported so far are out.
 */
export function progressReporter(
  token: string | number | undefined,
  send: (notification: { method: "notifications/progress"; params: ProgressNotificationParams }) => Promise<void>,
): { report: (progress: number, total?: number, message?: string) => void; sent: () => Promise<void> } {
  if (token === undefined) return { report: () => {}, sent: () => Promise.resolve() };
  let last = -Infinity;
  let queue = Promise.resolve();
  const report = (progress: number, total?: number, message?: string) => {
    if (typeof progress !== "number" || !Number.isFinite(progress) || progress <= last) return;
    last = progress;
    const params = {
      progressToken: token,
      progress,
      ...(typeof total === "number" && Number.isFinite(total) ? { total } : {}),
      ...(typeof message === "string" ? { message } : {}),
    };
    // A notification that cannot be sent (the client went away) does not concern the call.
    queue = queue.then(() => send({ method: "notifications/progress", params })).catch(() => {});
  };
  const sent = () =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, PROGRESS_FLUSH_MS);
      timer.unref?.();
      void queue.then(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  return { report, sent };
}

/** One signal aborted when any of `signals` is (AbortSignal.any needs Node 20.3). */
export function anySignal(present: readonly AbortSignal[]): AbortSignal {
  const controller = new AbortController();
  const already = present.find((signal) => signal.aborted);
  if (already) {
    controller.abort(already.reason);
    return controller.signal;
  }
  const onAbort = (event: Event) => {
    for (const signal of present) signal.removeEventListener("abort", onAbort);
    controller.abort((event.target as AbortSignal).reason);
  };
  for (const signal of present) signal.addEventListener("abort", onAbort, { once: true });
  return controller.signal;
}
