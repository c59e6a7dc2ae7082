import type { Result } from "@modelcontextprotocol/sdk/types.js";
import { InputUnavailableError } from "../core/errors";
import type { ToolContext, ToolResult } from "../core/types";
import { inMemoryTaskStore, isTerminalStatus, type McpTaskStore } from "../tasks/task-store";
import { DEFAULT_MAX_TASK_TTL, DEFAULT_TASK_POLL_INTERVAL, DEFAULT_TASK_TTL } from "./defaults";

/** How an MCP server runs the tools marked `task: true` as MCP tasks. */
export interface McpTaskOptions {
  /**
   * Where tasks live. Default: this process's memory (one server instance). Several instances
   * behind a load balancer share one store, e.g. `redisTaskStore({ connection })` from
   * `toolnexus/bullmq`: then `tasks/get`, `tasks/result`, `tasks/list` and `tasks/cancel` work
   * on any instance, and a cancel reaches the instance that runs the call.
   */
  store?: McpTaskStore;
  /** Milliseconds a task and its result are kept when the client asks for no `ttl`. Default 1 hour. */
  ttl?: number;
  /** The longest `ttl` a client may ask for; longer requests get this. Default 24 hours. */
  maxTtl?: number;
  /** Milliseconds clients are told to wait between polls (`pollInterval`). Default 1 000. */
  pollInterval?: number;
}

/**
 * The task options with their defaults, checked; the store is made here when none is given (once per server or HTTP
 * handler).
 */
export function resolvedTaskOptions(options: McpTaskOptions | undefined): Required<McpTaskOptions> {
  if (options !== undefined && (typeof options !== "object" || options === null))
    throw new TypeError(`tasks must be an object { store?, ttl?, maxTtl?, pollInterval? } (got ${typeof options}).`);
  const {
    store,
    ttl = DEFAULT_TASK_TTL,
    maxTtl = DEFAULT_MAX_TASK_TTL,
    pollInterval = DEFAULT_TASK_POLL_INTERVAL,
  } = options ?? {};
  for (const [key, value] of [
    ["ttl", ttl] as const,
    ["maxTtl", maxTtl] as const,
    ["pollInterval", pollInterval] as const,
  ]) {
    if (!(Number.isSafeInteger(value) && value > 0))
      throw new TypeError(`tasks.${key} must be a positive whole number of milliseconds (got ${String(value)}).`);
  }
  if (ttl > maxTtl) throw new TypeError(`tasks.ttl (${ttl}) must not exceed tasks.maxTtl (${maxTtl}).`);
  const methods = [
    "createTask",
    "getTask",
    "storeTaskResult",
    "getTaskResult",
    "updateTaskStatus",
    "listTasks",
  ] as const;
  if (
    store !== undefined &&
    (typeof store !== "object" || store === null || methods.some((method) => typeof store[method] !== "function"))
  ) {
    throw new TypeError(
      `tasks.store must be a task store (${methods.join(", ")}), e.g. inMemoryTaskStore() or ` +
        "redisTaskStore({ connection }) from toolnexus/bullmq.",
    );
  }
  return { store: store ?? inMemoryTaskStore(), ttl, maxTtl, pollInterval };
}

/** Whether a server runs task calls: it has a `task: true` tool for this client, or was given task options. */
export function servesTasks(
  kit: { tools(ctx?: ToolContext): Array<{ task?: boolean }> },
  options: McpTaskOptions | undefined,
  listCtx: ToolContext,
): boolean {
  return options !== undefined || kit.tools(listCtx).some((tool) => tool.task === true);
}

/** The TTL a task gets: the client's, within bounds (the specification lets the server choose), else the default. */
export function taskTtl(requested: number | undefined, options: Required<McpTaskOptions>): number {
  if (typeof requested !== "number" || !Number.isFinite(requested) || requested <= 0) return options.ttl;
  return Math.min(Math.ceil(requested), options.maxTtl);
}

/** What runs one task: the call itself (given the task's signal and id) and where its outcome goes. */
export interface TaskRun {
  taskId: string;
  /** The task's TTL in ms: a call still running when it passes is aborted (nobody could read its result). */
  ttl: number | null;
  store: McpTaskStore;
  owner: string | undefined;
  pollInterval: number;
  call: (
    ctx: Pick<ToolContext, "signal" | "callId" | "taskId">,
  ) => Promise<{ result: ToolResult; mcp: Result & { isError?: boolean } }>;
  /** Told when the run starts (its controller aborts it, at shutdown); the returned function when it ends. */
  track?: ((controller: AbortController) => () => void) | undefined;
}

/**
 * `ctx.elicit` / `ctx.sample` of a call run as an MCP task: its client polls for the outcome
 * and nobody is there to answer (not the toolkit's hooks either, which answer for this process).
 */
export const NO_INPUT_IN_TASKS: Required<Pick<ToolContext, "elicit" | "sample">> = {
  elicit: () => Promise.reject(new InputUnavailableError(TASK_CANNOT_ASK)),
  sample: () => Promise.reject(new InputUnavailableError(TASK_CANNOT_ASK)),
};

const TASK_CANNOT_ASK =
  "A call run as an MCP task cannot ask the client (ctx.elicit, ctx.sample): ask before it becomes a task, in a tool " +
  "that is not task: true, or call it without the task.";

/** How long an aborted call (cancelled, shut down, expired) has to end before its task is failed without it. */
export const ABORT_GRACE_MS = 1_000;

/**
 * Runs a task's call in the background and stores its outcome: a result the tool answered
 * with `isError` makes the task `failed` (its result is still that `CallToolResult`), any
 * other `completed`. A cancel through any instance aborts the call's `ctx.signal`; the task
 * stays `cancelled` whatever the call answers then. A call still running when the task's TTL
 * passes is aborted, its outcome dropped with the task. A call that does not end within
 * `ABORT_GRACE_MS` of its abort is left behind, its task failed with the abort's reason.
 * Never rejects.
 */
export async function runTask({ taskId, ttl, store, owner, pollInterval, call, track }: TaskRun): Promise<void> {
  const controller = new AbortController();
  const release = track?.(controller);
  const abort = (reason: string) => controller.abort(new Error(reason));
  const stopWatching =
    store.watchCancellation?.(taskId, abort) ?? pollForCancellation(store, taskId, owner, pollInterval, abort);
  const releaseLease = store.holdLease?.(taskId);
  const leftBehind = abandonedAfterAbort(controller.signal, ABORT_GRACE_MS);
  let expired = false;
  const expiry =
    ttl === null
      ? undefined
      : setTimeout(
          () => ((expired = true), abort(`The task expired: its TTL of ${ttl} ms passed before the call finished.`)),
          ttl,
        );
  expiry?.unref();
  try {
    const mcp = await Promise.race([
      call({ signal: controller.signal, callId: taskId, taskId }).then(({ mcp }) => mcp),
      leftBehind.result,
    ]);
    // An expired task is gone from the store, or about to be: its outcome is nobody's.
    if (expired) return;
    await store.storeTaskResult(taskId, mcp.isError === true ? "failed" : "completed", mcp, owner);
  } catch {
    // Cancelled meanwhile (the task stays so), or expired: nobody is left to tell.
  } finally {
    clearTimeout(expiry);
    leftBehind.stop();
    stopWatching();
    releaseLease?.();
    release?.();
  }
}

/**
 * The error result of a call that did not stop within `grace` ms of `signal` aborting, for its task (never settles
 * otherwise).
 */
function abandonedAfterAbort(
  signal: AbortSignal,
  grace: number,
): { result: Promise<Result & { isError: true }>; stop: () => void } {
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const result = new Promise<Result & { isError: true }>((resolve) => {
    onAbort = () => {
      const reason = signal.reason instanceof Error ? signal.reason.message : "The call was aborted.";
      timer = setTimeout(
        () =>
          resolve({
            content: [
              {
                type: "text",
                text: `${reason} The call did not stop within ${grace} ms of being aborted; it was left behind.`,
              },
            ],
            isError: true,
          }),
        grace,
      );
      timer.unref();
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
  return {
    result,
    stop: () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort!);
    },
  };
}

/**
 * The task calls running in one server (stdio) or HTTP handler, so that shutting it down
 * neither leaves them running unseen nor ends them unrecorded: `drain` waits for them, then
 * aborts those still running (their tasks end with the reason).
 */
export class RunningTasks {
  readonly #controllers = new Set<AbortController>();

  /** `changed` is told whenever a task call ends. */
  constructor(private readonly changed: () => void = () => {}) {}

  get size(): number {
    return this.#controllers.size;
  }

  /** For `TaskRun.track`: registers a call's controller; the returned function is called when it ends. */
  readonly track = (controller: AbortController): (() => void) => {
    this.#controllers.add(controller);
    return () => {
      this.#controllers.delete(controller);
      this.changed();
    };
  };

  abortAll(reason: string): void {
    for (const controller of this.#controllers) controller.abort(new Error(reason));
  }
}

/** Why a task call is aborted when its server shuts down. */
export const SHUTDOWN_REASON = "The MCP server shut down before the task finished; call the tool again.";

/** For a store that cannot tell of cancellations: its status, read every `interval` ms while the call runs. */
function pollForCancellation(
  store: McpTaskStore,
  taskId: string,
  owner: string | undefined,
  interval: number,
  abort: (reason: string) => void,
): () => void {
  const timer = setInterval(() => {
    store.getTask(taskId, owner).then(
      (task) => {
        if (task === null || isTerminalStatus(task.status)) clearInterval(timer);
        if (task?.status === "cancelled") abort(task.statusMessage ?? "The task was cancelled.");
      },
      () => {},
    );
  }, interval);
  timer.unref();
  return () => clearInterval(timer);
}
