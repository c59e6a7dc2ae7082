import type { KeyObject } from "node:crypto";
import { Worker, type Job } from "bullmq";
import { Toolkit } from "../toolkit";
import { reportQueuedFailure, runQueuedCall } from "../toolkit/queued-calls";
import { isTerminalStatus, type McpTaskStore } from "../tasks/task-store";
import { mcpCallResult } from "../providers/mcp";
import { onAbort } from "../runtime/abort";
import { timeoutResult } from "../runtime/invoke";
import { errorResult } from "../runtime/result";
import type { ToolContext, ToolResult } from "../core/types";
import {
  bullConnection,
  cancelChannel,
  checkQueueOptions,
  DEFAULT_CONNECT_TIMEOUT_MS,
  DEFAULT_PREFIX,
  newClient,
  settlesWithin,
  unreachable,
  type RedisConnection,
} from "./connection";
import { CALL_JOB, jobResultOf, readCallJob, type CallJobData, type CallJobResult } from "./job";
import { openCallJob, refusedJob, signingKeysOf, type JobPlace, type SigningKey } from "./signing";

export interface ToolWorkerOptions {
  /** Where Redis is: ioredis options (`{ host, port }`) or an ioredis client. */
  connection: RedisConnection;
  /** The queue `queueExecutor` sends calls to. */
  queueName: string;
  /** Calls this worker runs at once (default 10). */
  concurrency?: number;
  /** BullMQ's key prefix (default `"bull"`); the same on both sides. */
  prefix?: string;
  /**
   * Milliseconds a worker holds a call without renewing its lock (default 30,000): a worker
   * that dies is noticed about this long after, and its call retried (idempotent tools) or
   * answered `execution_failed` (all others).
   */
  lockDuration?: number;
  /** Milliseconds between checks for calls whose worker died (default half of `lockDuration`). */
  stalledInterval?: number;
  /** Milliseconds to wait for Redis before `startToolWorker` rejects (default 5,000). */
  connectTimeoutMs?: number;
  /**
   * The MCP servers' task store (`redisTaskStore`, with the same prefix). Given it, a worker
   * running a task's call holds the task's lease, stores its result and stops the call when the
   * task is cancelled: the task lives on when the server instance that took it dies.
   */
  tasks?: McpTaskStore;
  /**
   * The queue executors' `signingKey` (or several, while keys are rotated: the new one and the
   * old). Given it, the worker runs only jobs signed with one of them for the very job and
   * queue they are in; any other job is answered `execution_failed` and nothing is run.
   * Without it, the worker runs every call job it is given, signed or not: whoever can write
   * to Redis can have it run any tool with any arguments and `ctx.state`.
   */
  signingKey?: SigningKey | readonly SigningKey[];
}

/** A running worker: `close()` lets the calls it runs finish, then ends its connections. */
export interface ToolWorker {
  close(): Promise<void>;
}

/**
 * Takes calls off `queueName` and runs them with `toolkit`'s tools of the same names: retries
 * and the body (approval, middleware and the arguments' check already ran where each call
 * arrived; the tool checks the arguments again as it makes its values, since what comes off
 * Redis is input too). Runs `concurrency` calls at once; start as many workers, in as many
 * processes, as needed. A call is cancelled here when its caller aborts it or its deadline
 * passes. Rejects only when Redis cannot be reached at all.
 */
export async function startToolWorker(toolkit: Toolkit, options: ToolWorkerOptions): Promise<ToolWorker> {
  if (!(toolkit instanceof Toolkit))
    throw new TypeError(
      "startToolWorker takes a Toolkit (with the same tools as the toolkit the calls arrive at) and " +
        "{ connection, queueName }.",
    );
  checkQueueOptions("startToolWorker", options);
  const { connection, queueName, prefix = DEFAULT_PREFIX, concurrency = 10 } = options;
  if (!Number.isInteger(concurrency) || concurrency < 1)
    throw new TypeError(
      `startToolWorker: concurrency must be a whole number of calls, 1 or more (got ${String(concurrency)}).`,
    );
  const { tasks } = options;
  if (
    tasks !== undefined &&
    (typeof tasks !== "object" || tasks === null || typeof tasks.storeTaskResult !== "function")
  )
    throw new TypeError(
      "startToolWorker: tasks must be the MCP servers' task store, e.g. redisTaskStore({ connection }) with their " +
        "prefix.",
    );
  const keys = options.signingKey === undefined ? undefined : signingKeysOf("startToolWorker", options.signingKey);
  const lockDuration = options.lockDuration ?? 30_000;
  const handovers = new Handovers();
  const opening: JobOpening = { prefix, queueName, keys };
  let closed = false;
  const isClosed = () => closed;
  const worker = new Worker(
    queueName,
    (job: Job, _token?: string, signal?: AbortSignal) => runJob(toolkit, job, opening, signal, tasks, handovers),
    {
      connection: bullConnection(connection, { maxRetriesPerRequest: null }, isClosed),
      prefix,
      concurrency,
      lockDuration,
      stalledInterval: options.stalledInterval ?? Math.max(1, Math.floor(lockDuration / 2)),
      autorun: false,
    },
  );
  let lastError: unknown;
  worker.on("error", (error) => void (lastError = error));

  // Cancels reach every worker; the one running the call aborts its ctx.signal.
  const listener = newClient(connection, {}, isClosed);
  listener.on("error", (error) => void (lastError = error));
  listener.on("message", (_channel: string, text: string) => {
    const message = parseCancel(text);
    if (message !== undefined) worker.cancelJob(message.jobId, message.reason);
  });
  const ready = Promise.all([worker.waitUntilReady(), listener.subscribe(cancelChannel(prefix, queueName))]);
  if (!(await settlesWithin(ready, options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS))) {
    closed = true;
    listener.disconnect();
    // Closing waits for nothing that never connected.
    void worker.close(true).catch(() => {});
    throw new Error(unreachable("startToolWorker", connection, lastError));
  }
  void worker.run().catch((error: unknown) => void (lastError = error));
  return {
    close: async () => {
      // Its calls end first: they need Redis, reconnecting if it blinks, to hand in their results.
      await worker.close();
      await handovers.flush();
      closed = true;
      await listener.quit().catch(() => {});
    },
  };
}

/**
 * What a worker reads its jobs with: where it takes them from, and the keys their signatures must be made with (none:
 * read as they are).
 */
interface JobOpening {
  prefix: string;
  queueName: string;
  keys: KeyObject[] | undefined;
}

/** One call job: its result, which BullMQ keeps as the job's return value. */
async function runJob(
  toolkit: Toolkit,
  job: Job,
  opening: JobOpening,
  signal: AbortSignal | undefined,
  tasks: McpTaskStore | undefined,
  handovers: Handovers,
): Promise<CallJobResult> {
  const jobId = job.id ?? "";
  const notACall = () =>
    jobResultOf(
      errorResult(
        "execution_failed",
        `Job ${jobId} is not a toolnexus call: this queue is for toolnexus tool calls only.`,
      ),
    );
  if (job.name !== CALL_JOB) return notACall();
  // Before anything of the call is read: a refused job learns nothing of this worker's tools or tasks.
  const place: JobPlace = { prefix: opening.prefix, queueName: opening.queueName, jobId };
  const opened = openCallJob(job.data, place, opening.keys);
  if ("refused" in opened) return jobResultOf(refusedJob(jobId, opened.refused));
  const data = readCallJob(opened.data);
  if (data === undefined) return notACall();
  const taskId = data.ctx.taskId;
  const result =
    taskId === undefined || tasks === undefined
      ? await runCall(toolkit, data, job, signal)
      : await runTaskCall(toolkit, data, job, signal, tasks, taskId, handovers);
  return jobResultOf(result);
}

/**
 * How long a worker leaves a finished task to the server instance waiting for its job, which
 * words the result its toolkit's way (errorText, middleware), before it stores the result itself.
 */
const HANDOVER_MS = 5_000;

/**
 * A task's call: the task's lease held while it runs and until its result is stored, a cancel of
 * the task aborting it. The server instance waiting for the job stores the result; when that
 * instance is gone, this worker does, after `HANDOVER_MS`, so that the task outlives it.
 */
async function runTaskCall(
  toolkit: Toolkit,
  data: CallJobData,
  job: Job,
  signal: AbortSignal | undefined,
  tasks: McpTaskStore,
  taskId: string,
  handovers: Handovers,
): Promise<ToolResult> {
  const release = tasks.holdLease?.(taskId) ?? (() => {});
  // Read after the lease is taken: a task failed because its holders died before any worker took the call is not run
  // now.
  const task = await tasks.getTask(taskId).catch(() => undefined);
  if (task !== undefined && task !== null && isTerminalStatus(task.status)) {
    release();
    return errorResult(
      "execution_failed",
      `Tool "${data.tool}" was not run: its MCP task ended ${task.status} before a worker took the call.`,
      { tool: data.tool },
    );
  }
  if (task === null) {
    // Not in this store (the servers keep their tasks elsewhere): the server instance waiting for the job is all the
    // task has.
    release();
    return runCall(toolkit, data, job, signal);
  }
  const controller = new AbortController();
  const stopForwarding = signal === undefined ? undefined : onAbort(signal, () => controller.abort(signal.reason));
  const stopWatching = tasks.watchCancellation?.(taskId, (reason) => controller.abort(new Error(reason)));
  let result: ToolResult;
  try {
    result = await runCall(toolkit, data, job, controller.signal);
  } finally {
    stopForwarding?.();
    stopWatching?.();
  }
  handovers.add(async () => {
    try {
      const now = await tasks.getTask(taskId);
      if (now === null || isTerminalStatus(now.status)) return;
      const worded = reportQueuedFailure(toolkit, data.tool, result, { ...data.ctx });
      const mcp = mcpCallResult(toolkit.get(data.tool), worded);
      await tasks.storeTaskResult(taskId, mcp.isError ? "failed" : "completed", mcp);
    } catch {
      // Finished meanwhile (a cancel, or its instance's result), or the store is out of reach: nothing left to do.
    } finally {
      release();
    }
  });
  return result;
}

/** Work a worker does after a job completed, each after `HANDOVER_MS`, or at once when the worker closes. */
class Handovers {
  readonly #pending = new Set<() => void>();
  readonly #running = new Set<Promise<void>>();

  add(work: () => Promise<void>): void {
    let start!: () => void;
    const started = new Promise<void>((resolve) => (start = resolve));
    const timer = setTimeout(() => start(), HANDOVER_MS);
    const now = () => (clearTimeout(timer), start());
    this.#pending.add(now);
    const running = started.then(() => (this.#pending.delete(now), work()));
    this.#running.add(running);
    void running.finally(() => this.#running.delete(running));
  }

  /** Does the work left now, and waits for it. */
  async flush(): Promise<void> {
    for (const now of [...this.#pending]) now();
    await Promise.allSettled([...this.#running]);
  }
}

async function runCall(
  toolkit: Toolkit,
  data: CallJobData,
  job: Job,
  signal: AbortSignal | undefined,
): Promise<ToolResult> {
  const { tool } = data;
  // Picked up again after the worker running it stopped: only a tool that may run twice runs again (at most once for
  // the others).
  if (job.attemptsStarted > 1 || job.stalledCounter > 0) {
    if (toolkit.get(tool)?.annotations?.idempotent !== true) {
      const text =
        `Tool "${tool}" may not have finished: the worker running it stopped. It was not run again, since ` +
        "it is not annotated idempotent; check whether it took effect before calling it again.";
      return errorResult("execution_failed", text, { tool, workerStopped: true });
    }
  }
  const left = data.deadlineAt === null ? false : data.deadlineAt - Date.now();
  // The caller has answered `timeout` already: the body must not start now.
  if (left !== false && left <= 0) return timeoutResult(tool, data.timeoutMs ?? 0);
  const ctx: ToolContext = {
    ...data.ctx,
    timeout: left,
    ...(signal !== undefined ? { signal } : {}),
    reportProgress: (progress, total, message) => void job.updateProgress({ progress, total, message }).catch(() => {}),
  };
  return runQueuedCall(toolkit, tool, data.args, ctx);
}

function parseCancel(text: string): { jobId: string; reason?: string } | undefined {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value === "object" && value !== null && typeof (value as { jobId?: unknown }).jobId === "string")
      return value as { jobId: string; reason?: string };
  } catch {
    // Not a message of ours.
  }
  return undefined;
}
