import type { KeyObject } from "node:crypto";
import type { EventEmitter } from "node:events";
import { Job, Queue, QueueEvents } from "bullmq";
import type { Redis } from "ioredis";
import type { ExecutorCall, ToolExecutor } from "../control/executor";
import { onAbort } from "../runtime/abort";
import { abortedResult, timeoutResult } from "../runtime/invoke";
import { errorResult } from "../runtime/result";
import type { ToolResult } from "../core/types";
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
import { CALL_JOB, jobIdOf, resultOfJob, sentContext, type CallJobData } from "./job";
import { signCallJob, signingKeyOf, type SigningKey } from "./signing";

export interface QueueExecutorOptions {
  /** Where Redis is: ioredis options (`{ host, port }`) or an ioredis client. */
  connection: RedisConnection;
  /** The queue the workers (`startToolWorker`) take calls from. */
  queueName: string;
  /** BullMQ's key prefix (default `"bull"`); the same on both sides. */
  prefix?: string;
  /**
   * Milliseconds to wait for Redis to answer before a call is answered `execution_failed` (default 5,000; never past
   * the call's deadline).
   */
  connectTimeoutMs?: number;
  /**
   * Seconds a finished call's result stays in Redis (default 3,600): a call repeated with the
   * same call id in that time gets the same result without running again.
   */
  keepResultsFor?: number;
  /**
   * A secret shared with the workers (a string or Buffer of at least 32 bytes): every job is
   * signed with it (HMAC-SHA256 over the tool, arguments, ctx data and deadline, bound to the
   * job's id and queue), and a worker given the key runs no job it did not sign. Without it,
   * anyone who can write to Redis can have the workers run any tool with any arguments and
   * `ctx.state`, past visibility, authorization and approval.
   */
  signingKey?: SigningKey;
}

/** An executor that sends calls to a BullMQ queue; `close()` ends its Redis connections. */
export interface QueueExecutor extends ToolExecutor {
  close(): Promise<void>;
}

/**
 * Sends every call, after the seams of the toolkit it arrived at, as a job to `queueName`,
 * where workers started with `startToolWorker` run it. The job id comes from the call id: a
 * repeated call joins the job of the first instead of running twice. Results, error kinds,
 * timeouts and aborts come back as the same `ToolResult`s as in process; Redis not answering
 * is an `execution_failed` result, never a hang.
 */
export function queueExecutor(options: QueueExecutorOptions): QueueExecutor {
  checkQueueOptions("queueExecutor", options);
  const { signingKey } = options;
  if (Array.isArray(signingKey))
    throw new TypeError(
      "queueExecutor: signingKey is one key, the one calls are signed with (workers may accept several while keys " +
        "are rotated).",
    );
  // Checked before any connection is made: a bad key leaves nothing open.
  return new BullQueueExecutor(
    options,
    signingKey === undefined ? undefined : signingKeyOf("queueExecutor", signingKey),
  );
}

class BullQueueExecutor implements QueueExecutor {
  readonly #connection: RedisConnection;
  readonly #queue: Queue;
  readonly #prefix: string;
  readonly #events: QueueEvents;
  readonly #channel: string;
  readonly #connectTimeoutMs: number;
  readonly #keepFor: number;
  readonly #signingKey: KeyObject | undefined;
  readonly #ready: Promise<unknown>;
  #publisher: Redis | undefined;
  #lastError: unknown;
  #closed = false;
  #eventsReady = false;
  /** Calls waiting for their job: each is answered when the executor closes. */
  readonly #waiting = new Set<(result: ToolResult) => void>();

  constructor(options: QueueExecutorOptions, signingKey: KeyObject | undefined) {
    const { connection, queueName, prefix = DEFAULT_PREFIX } = options;
    this.#connection = connection;
    this.#prefix = prefix;
    this.#signingKey = signingKey;
    this.#connectTimeoutMs = options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
    this.#keepFor = options.keepResultsFor ?? 3_600;
    // No offline queue for jobs: a call made while Redis is away fails now instead of running whenever it returns.
    const closed = () => this.#closed;
    this.#queue = new Queue(queueName, {
      connection: bullConnection(connection, { enableOfflineQueue: false }, closed),
      prefix,
    });
    // Blocking reads: BullMQ wants no per-command retry limit there (a client passed in has one).
    this.#events = new QueueEvents(queueName, {
      connection: bullConnection(connection, { maxRetriesPerRequest: null }, closed),
      prefix,
    });
    this.#events.setMaxListeners(0);
    const remember = (error: unknown) => void (this.#lastError = error);
    this.#queue.on("error", remember);
    this.#events.on("error", remember);
    this.#channel = cancelChannel(prefix, queueName);
    this.#ready = Promise.all([
      this.#queue.waitUntilReady(),
      this.#events.waitUntilReady().then(() => (this.#eventsReady = true)),
    ]);
    this.#ready.catch(remember);
  }

  async run(call: ExecutorCall): Promise<ToolResult> {
    const { tool, ctx, timeout } = call;
    const name = tool.name;
    if (this.#closed)
      return errorResult("execution_failed", `Tool "${name}" could not run: its queue executor was closed.`, {
        tool: name,
      });
    const signal = ctx.signal;
    if (signal?.aborted) return abortedResult(name, signal);
    const started = Date.now();
    const deadlineAt = timeout === false ? null : started + timeout;
    const connectWithin =
      deadlineAt === null
        ? this.#connectTimeoutMs
        : Math.min(this.#connectTimeoutMs, Math.max(0, deadlineAt - started));
    if (!(await settlesWithin(this.#ready, connectWithin)))
      return errorResult(
        "execution_failed",
        unreachable(`Tool "${name}" could not run`, this.#connection, this.#lastError),
        { tool: name },
      );

    const sent = sentContext(ctx);
    const jobId = jobIdOf(name, call.args, sent);
    const data: CallJobData = {
      version: 1,
      tool: name,
      args: call.args,
      ctx: sent,
      deadlineAt,
      timeoutMs: timeout === false ? null : timeout,
    };
    return new Promise<ToolResult>((resolve) => {
      const cleanups: Array<() => void> = [];
      const finish = (result: ToolResult) => {
        for (const cleanup of cleanups) cleanup();
        this.#waiting.delete(finish);
        resolve(result);
      };
      this.#waiting.add(finish);
      const completed = (event: { returnvalue: unknown }) => finish(this.#answered(name, event.returnvalue, timeout));
      const failed = (event: { failedReason?: string }) => finish(failedJob(name, event.failedReason));
      const progress = (event: { data: unknown }) => reportProgress(ctx.reportProgress, event.data);
      // QueueEvents also emits each event under "<event>:<job id>", which its typed listeners do not list.
      const events = this.#events as unknown as EventEmitter;
      events.on(`completed:${jobId}`, completed);
      events.on(`failed:${jobId}`, failed);
      if (ctx.reportProgress !== undefined) events.on(`progress:${jobId}`, progress);
      cleanups.push(() => {
        events.off(`completed:${jobId}`, completed);
        events.off(`failed:${jobId}`, failed);
        events.off(`progress:${jobId}`, progress);
      });
      if (deadlineAt !== null) {
        const timer = setTimeout(() => {
          finish(timeoutResult(name, deadlineAt - started));
          this.#cancel(jobId, "timed out");
        }, deadlineAt - started);
        cleanups.push(() => clearTimeout(timer));
      }
      if (signal !== undefined) {
        cleanups.push(
          onAbort(signal, () => {
            finish(abortedResult(name, signal));
            this.#cancel(jobId, "aborted by the caller");
          }),
        );
      }
      this.#send(jobId, data).then(
        (settled) => settled !== undefined && finish(settled),
        (thrown: unknown) =>
          finish(
            errorResult(
              "execution_failed",
              unreachable(`Tool "${name}" could not be queued`, this.#connection, thrown),
              { tool: name },
            ),
          ),
      );
    });
  }

  /** Adds the call's job (or finds the one its call id already made); its result if it is already finished. */
  async #send(jobId: string, data: CallJobData): Promise<ToolResult | undefined> {
    const removeAfter = { age: this.#keepFor };
    const key = this.#signingKey;
    const sent =
      key === undefined ? data : signCallJob(data, { prefix: this.#prefix, queueName: this.#queue.name, jobId }, key);
    await this.#queue.add(CALL_JOB, sent, {
      jobId,
      attempts: 1,
      removeOnComplete: removeAfter,
      removeOnFail: removeAfter,
    });
    // A job of the same id may have finished before this call listened: its result is there to
    // read. The state first: a job read before it finished would have no result yet.
    const state = await this.#queue.getJobState(jobId);
    if (state !== "completed" && state !== "failed") return undefined;
    const job = await Job.fromId(this.#queue, jobId);
    if (job === undefined) return undefined;
    return state === "completed"
      ? this.#answered(data.tool, job.returnvalue, data.timeoutMs ?? false)
      : failedJob(data.tool, job.failedReason);
  }

  /** A worker's result; its own timeout says the call's whole timeout, as in process. */
  #answered(name: string, value: unknown, timeout: number | false): ToolResult {
    const result = resultOfJob(name, value);
    if (result.metadata?.error !== "timeout" || timeout === false) return result;
    return timeoutResult(name, timeout);
  }

  /**
   * Tells the worker running `jobId` to abort it, and takes it off the queue if no worker has it yet. Best effort: the
   * worker's own deadline ends it too.
   */
  #cancel(jobId: string, reason: string): void {
    if (this.#publisher === undefined) {
      this.#publisher = newClient(this.#connection, { maxRetriesPerRequest: 1 }, () => this.#closed);
      // Unreachable Redis is reported by the calls; the client's own retries are not news.
      this.#publisher.on("error", () => {});
    }
    this.#publisher.publish(this.#channel, JSON.stringify({ jobId, reason })).catch(() => {});
    Job.fromId(this.#queue, jobId)
      .then((job) => job?.remove())
      .catch(() => {
        // Active (locked by a worker, which the message reaches) or gone: nothing to take off.
      });
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const finish of [...this.#waiting])
      finish(errorResult("execution_failed", "The call's queue executor was closed before its result came back."));
    // QueueEvents.close() waits for a connection that never came: its backend alone drops it. It
    // is still told to close (not waited for), or its reading loop retries that connection forever.
    const events = this.#eventsReady
      ? this.#events.close()
      : (this.#events.close().catch(() => {}), this.#events.backend.close(true));
    // Cancels are sent and forgotten: nothing is left to flush.
    this.#publisher?.disconnect();
    const closed = Promise.allSettled([this.#queue.close(), events]);
    // A Redis that is gone cannot be told goodbye: the connections are dropped instead.
    if (!(await settlesWithin(closed, CLOSE_WAIT_MS))) {
      await settlesWithin(
        Promise.allSettled([this.#queue.backend.close(true), this.#events.backend.close(true)]),
        CLOSE_WAIT_MS,
      );
    }
  }
}

/** How long `close()` waits for Redis to acknowledge before it drops the connections. */
const CLOSE_WAIT_MS = 1_000;

/** A job BullMQ failed: the only way is a worker that stopped in the middle of it once too often. */
function failedJob(name: string, reason: string | undefined): ToolResult {
  return errorResult("execution_failed", `Tool "${name}" failed on its worker: ${reason ?? "no reason given"}`, {
    tool: name,
  });
}

function reportProgress(
  report: ((progress: number, total?: number, message?: string) => void) | undefined,
  data: unknown,
): void {
  if (report === undefined || typeof data !== "object" || data === null) return;
  const { progress, total, message } = data as { progress?: unknown; total?: unknown; message?: unknown };
  if (typeof progress !== "number") return;
  try {
    report(progress, typeof total === "number" ? total : undefined, typeof message === "string" ? message : undefined);
  } catch {
    // A failing progress listener must not fail the call.
  }
}
