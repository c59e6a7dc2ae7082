/**
 * Signed call jobs against a real redis-server: a worker given a `signingKey` runs only the jobs
 * a queue executor with that key made, for the job and queue they were made for. Jobs written
 * to Redis by anyone else (by BullMQ's own Queue.add, as anyone with write access can) are
 * answered `execution_failed`, and no tool body runs.
 */
import { randomBytes } from "node:crypto";
import { Queue, QueueEvents, type Job } from "bullmq";
import { defineTool, Toolkit, type ToolResult } from "../../src";
import { queueExecutor, startToolWorker, type SigningKey } from "../../src/bullmq";
import { workerRedisServer, type RedisServer } from "../support/redis-server";
import { patience } from "../support/time";

const CALL_JOB = "toolnexus.call";
const KEY = randomBytes(32);
const OTHER_KEY = randomBytes(32).toString("base64");

let redis: RedisServer;
let queueCount = 0;
/** What the tools' bodies ran, on every worker of the test. */
let ran: string[] = [];
const cleanups: Array<() => Promise<unknown>> = [];

beforeAll(async () => {
  redis = await workerRedisServer();
});
beforeEach(() => {
  ran = [];
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
afterAll(async () => {
  await redis?.stop();
});

function tools() {
  return [
    defineTool({
      name: "read_account",
      description: "Reads the account of the user in ctx.state",
      inputSchema: { type: "object", properties: { account: { type: "string" } }, required: ["account"] },
      execute: ({ account }: { account: string }, ctx) => {
        ran.push(`read_account ${account}`);
        return `account ${account} read for ${String(ctx.state?.user)}`;
      },
    }),
    defineTool({
      name: "delete_account",
      description: "Deletes an account: only admins are shown it where calls arrive",
      inputSchema: { type: "object", properties: { account: { type: "string" } }, required: ["account"] },
      execute: ({ account }: { account: string }) => {
        ran.push(`delete_account ${account}`);
        return `account ${account} deleted`;
      },
    }),
  ];
}

const newQueueName = () => `signed-${++queueCount}`;

async function workerOn(queueName: string, signingKey?: SigningKey | SigningKey[]): Promise<void> {
  const worker = await startToolWorker(new Toolkit(tools()), {
    connection: redis.connection,
    queueName,
    ...(signingKey !== undefined ? { signingKey } : {}),
  });
  cleanups.push(() => worker.close());
}

/** The toolkit where calls arrive, sending them to `queueName`. */
function arrivingOn(queueName: string, signingKey?: SigningKey): Toolkit {
  const executor = queueExecutor({
    connection: redis.connection,
    queueName,
    ...(signingKey !== undefined ? { signingKey } : {}),
  });
  cleanups.push(() => executor.close());
  return new Toolkit(tools(), { executor });
}

/** BullMQ's own clients on `queueName`, as anyone who can reach Redis has them. */
async function redisAccessTo(queueName: string) {
  const queue = new Queue(queueName, { connection: redis.connection });
  const events = new QueueEvents(queueName, { connection: redis.connection });
  cleanups.push(() => Promise.all([queue.close(), events.close()]));
  await Promise.all([queue.waitUntilReady(), events.waitUntilReady()]);
  /** The result a worker gave `job`. */
  const resultOf = async (job: Job): Promise<ToolResult> => {
    const value: unknown = await job.waitUntilFinished(events, patience(10_000));
    return (typeof value === "string" ? JSON.parse(value) : (value as { result: ToolResult })).result as ToolResult;
  };
  /** The first job waiting on the queue (one a caller sent, no worker having taken it yet). */
  const waitingJob = async (): Promise<Job> => {
    for (;;) {
      const [job] = await queue.getJobs(["waiting"]);
      if (job !== undefined) return job;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  return { queue, resultOf, waitingJob };
}

/** A call job made by hand: what a forger with Redis write access adds. */
const forgedCall = (tool: string, state: Record<string, unknown>) => ({
  version: 1,
  tool,
  args: { account: "bob" },
  ctx: { callId: "forged-1", state },
  deadlineAt: null,
  timeoutMs: null,
});

/** The call a job's data carries (in its signed text when it has one). */
function callIn(data: Record<string, unknown>): Record<string, unknown> {
  return typeof data.signed === "string" ? (JSON.parse(data.signed) as Record<string, unknown>) : data;
}

/** A job's data with the call it carries changed by `change` (in its signed text when it has one). */
function withCallChanged(
  data: Record<string, unknown>,
  change: (call: Record<string, unknown>) => void,
): Record<string, unknown> {
  if (typeof data.signed === "string") {
    const call = JSON.parse(data.signed) as Record<string, unknown>;
    change(call);
    return { ...data, signed: JSON.stringify(call) };
  }
  const call = structuredClone(data);
  change(call);
  return call;
}

/** The call a waiting job carries, changed by `change`, put back as the job's data. */
async function alterCall(job: Job, change: (call: Record<string, unknown>) => void): Promise<void> {
  await job.updateData(withCallChanged(job.data as Record<string, unknown>, change));
}

describe("a worker given a signingKey", () => {
  it("runs the calls of a queue executor with the same key, with their ctx data", async () => {
    const queueName = newQueueName();
    await workerOn(queueName, KEY);
    const toolkit = arrivingOn(queueName, KEY);
    const result = await toolkit.execute("read_account", { account: "ada" }, { callId: "c-1", state: { user: "ada" } });
    expect(result).toEqual({ output: "account ada read for ada", isError: false });
  });

  it("refuses a call job written to Redis without a signature, saying so, and runs nothing", async () => {
    const queueName = newQueueName();
    await workerOn(queueName, KEY);
    const redisAccess = await redisAccessTo(queueName);
    const job = await redisAccess.queue.add(CALL_JOB, forgedCall("delete_account", { user: "mallory", role: "admin" }));
    const result = await redisAccess.resultOf(job);
    expect(result).toMatchObject({ isError: true, metadata: { error: "execution_failed", signature: "missing" } });
    expect(result.output).toBe(
      `Job ${job.id} was refused, and nothing was run: it carries no signature, and this worker runs signed calls only. Give the queue executor that sends these calls the workers' signingKey.`,
    );
    expect(ran).toEqual([]);
  });

  it("answers an unsigned job alike whether or not its tool exists on the worker", async () => {
    const queueName = newQueueName();
    await workerOn(queueName, KEY);
    const redisAccess = await redisAccessTo(queueName);
    const [known, unknown] = await Promise.all([
      redisAccess.queue.add(CALL_JOB, forgedCall("delete_account", {}), { jobId: "probe" }),
      redisAccess.queue.add(CALL_JOB, forgedCall("no_such_tool", {}), { jobId: "probf" }),
    ]);
    const [knownResult, unknownResult] = await Promise.all([
      redisAccess.resultOf(known),
      redisAccess.resultOf(unknown),
    ]);
    expect(unknownResult.output.replace("probf", "probe")).toBe(knownResult.output);
    expect(unknownResult.metadata).toEqual(knownResult.metadata);
    expect(knownResult.output).not.toContain("delete_account");
    expect(ran).toEqual([]);
  });

  it("refuses a job with a made-up signature", async () => {
    const queueName = newQueueName();
    await workerOn(queueName, KEY);
    const redisAccess = await redisAccessTo(queueName);
    const signed = JSON.stringify(forgedCall("delete_account", { role: "admin" }));
    const signatures = [
      `v1.hmac-sha256.${randomBytes(32).toString("base64url")}`,
      `v2.hmac-sha512.${randomBytes(64).toString("base64url")}`,
      "",
      42,
    ];
    const jobs = await Promise.all(
      signatures.map((signature) => redisAccess.queue.add(CALL_JOB, { signed, signature })),
    );
    for (const job of jobs) {
      const result = await redisAccess.resultOf(job);
      expect(result).toMatchObject({ isError: true, metadata: { error: "execution_failed", signature: "invalid" } });
      expect(result.output).toContain(`Job ${job.id} was refused, and nothing was run: its signature is invalid`);
    }
    expect(ran).toEqual([]);
  });

  const alterations: Array<[string, (call: Record<string, unknown>) => void]> = [
    ["tool", (call) => void (call.tool = "delete_account")],
    ["arguments", (call) => void (call.args = { account: "bob" })],
    ["ctx.state", (call) => void ((call.ctx as Record<string, unknown>).state = { user: "bob" })],
    ["deadline", (call) => void (call.deadlineAt = null)],
    ["timeout", (call) => void (call.timeoutMs = 999_999)],
    ["call id", (call) => void ((call.ctx as Record<string, unknown>).callId = "c-other")],
    ["provider", (call) => void ((call.ctx as Record<string, unknown>).provider = "anthropic")],
    ["task id", (call) => void ((call.ctx as Record<string, unknown>).taskId = "someone-elses-task")],
  ];
  it.each(alterations)("refuses a signed job with its %s changed in Redis, and runs nothing", async (_what, change) => {
    const queueName = newQueueName();
    const redisAccess = await redisAccessTo(queueName);
    const pending = arrivingOn(queueName, KEY).execute(
      "read_account",
      { account: "ada" },
      { callId: "c-1", provider: "openai", state: { user: "ada" }, timeout: patience(20_000) },
    );
    await alterCall(await redisAccess.waitingJob(), change);
    await workerOn(queueName, KEY);
    const result = await pending;
    expect(result).toMatchObject({ isError: true, metadata: { error: "execution_failed", signature: "invalid" } });
    expect(ran).toEqual([]);
  });

  it("refuses a job signed with another key", async () => {
    const queueName = newQueueName();
    await workerOn(queueName, KEY);
    const result = await arrivingOn(queueName, OTHER_KEY).execute("read_account", { account: "ada" });
    expect(result).toMatchObject({ isError: true, metadata: { error: "execution_failed", signature: "invalid" } });
    expect(ran).toEqual([]);
  });

  it("runs a signed job once: a copy of it under another job id, or on another queue, is refused", async () => {
    const queueName = newQueueName();
    const otherQueueName = newQueueName();
    const redisAccess = await redisAccessTo(queueName);
    const otherAccess = await redisAccessTo(otherQueueName);
    const pending = arrivingOn(queueName, KEY).execute(
      "read_account",
      { account: "ada" },
      { state: { user: "ada" }, timeout: patience(20_000) },
    );
    const original = await redisAccess.waitingJob();
    const copy = await redisAccess.queue.add(CALL_JOB, original.data, { jobId: "copy-1" });
    const elsewhere = await otherAccess.queue.add(CALL_JOB, original.data, { jobId: original.id! });
    await Promise.all([workerOn(queueName, KEY), workerOn(otherQueueName, KEY)]);
    expect(await pending).toEqual({ output: "account ada read for ada", isError: false });
    for (const result of [await redisAccess.resultOf(copy), await otherAccess.resultOf(elsewhere)]) {
      expect(result).toMatchObject({ isError: true, metadata: { error: "execution_failed", signature: "invalid" } });
    }
    expect(ran).toEqual(["read_account ada"]);
  });

  it("does not run a signed job put back in Redis after its deadline, nor one put back with its deadline moved", async () => {
    const queueName = newQueueName();
    const redisAccess = await redisAccessTo(queueName);
    const executor = queueExecutor({ connection: redis.connection, queueName, signingKey: KEY });
    const pending = new Toolkit(tools(), { executor }).execute("read_account", { account: "ada" }, { timeout: 300 });
    const original = await redisAccess.waitingJob();
    const kept = { id: original.id!, data: original.data as Record<string, unknown> };
    // The caller gone, and its job taken off the queue: nobody but the one who kept a copy can put it back.
    await executor.close();
    await pending;
    await original.remove();
    const { deadlineAt } = callIn(kept.data);
    while (Date.now() <= Number(deadlineAt)) await new Promise((resolve) => setTimeout(resolve, 50));

    const replayed = await redisAccess.queue.add(CALL_JOB, kept.data, { jobId: kept.id });
    await workerOn(queueName, KEY);
    expect((await redisAccess.resultOf(replayed)).metadata?.error).toBe("timeout");
    await replayed.remove();

    // Altered before it is added: the worker is running and would take the job at once.
    const movedData = withCallChanged(kept.data, (call) => void (call.deadlineAt = Date.now() + 60_000));
    const moved = await redisAccess.queue.add(CALL_JOB, movedData, { jobId: kept.id });
    expect(await redisAccess.resultOf(moved)).toMatchObject({
      isError: true,
      metadata: { error: "execution_failed", signature: "invalid" },
    });
    expect(ran).toEqual([]);
  });

  it("accepts jobs signed with any of its keys, so that keys can be rotated", async () => {
    const queueName = newQueueName();
    await workerOn(queueName, [OTHER_KEY, KEY]);
    expect((await arrivingOn(queueName, KEY).execute("read_account", { account: "old" })).isError).toBe(false);
    expect((await arrivingOn(queueName, OTHER_KEY).execute("read_account", { account: "new" })).isError).toBe(false);
    expect(ran).toEqual(["read_account old", "read_account new"]);

    const rotated = newQueueName();
    await workerOn(rotated, [OTHER_KEY]);
    expect((await arrivingOn(rotated, KEY).execute("read_account", { account: "retired" })).metadata).toMatchObject({
      signature: "invalid",
    });
    expect(ran).not.toContain("read_account retired");
  });
});

describe("a worker without a signingKey", () => {
  it("runs signed calls too (the executors can be given the key before the workers)", async () => {
    const queueName = newQueueName();
    await workerOn(queueName);
    const result = await arrivingOn(queueName, KEY).execute(
      "read_account",
      { account: "ada" },
      { state: { user: "ada" } },
    );
    expect(result).toEqual({ output: "account ada read for ada", isError: false });
  });
});

describe("signing keys", () => {
  const options = (queueName: string, signingKey: unknown) =>
    ({ connection: redis.connection, queueName, signingKey }) as Parameters<typeof queueExecutor>[0];

  it("are refused by queueExecutor when shorter than 32 bytes, not a string or Buffer, or a list, saying what to pass", () => {
    expect(() => queueExecutor(options("keys", "short"))).toThrow(
      "queueExecutor: signingKey must be at least 32 bytes (got 5): a short key can be guessed. Make one with `openssl rand -base64 32`",
    );
    expect(() => queueExecutor(options("keys", randomBytes(31)))).toThrow(
      "signingKey must be at least 32 bytes (got 31)",
    );
    expect(() => queueExecutor(options("keys", 12345))).toThrow(
      "queueExecutor: signingKey must be a string or a Buffer (got number).",
    );
    expect(() => queueExecutor(options("keys", null))).toThrow(
      "queueExecutor: signingKey must be a string or a Buffer (got null).",
    );
    expect(() => queueExecutor(options("keys", [KEY]))).toThrow(
      "queueExecutor: signingKey is one key, the one calls are signed with",
    );
  });

  it("count bytes, not characters", async () => {
    expect(() => queueExecutor(options("keys", "é".repeat(15)))).toThrow(
      "signingKey must be at least 32 bytes (got 30)",
    );
    // 16 two-byte characters: a key.
    const queueName = newQueueName();
    await workerOn(queueName, "é".repeat(16));
    expect(await arrivingOn(queueName, "é".repeat(16)).execute("read_account", { account: "ada" })).toMatchObject({
      isError: false,
    });
  });

  it("are refused by startToolWorker when short, of another type, or an empty list", async () => {
    const start = (signingKey: unknown) =>
      startToolWorker(new Toolkit(tools()), options("keys", signingKey) as Parameters<typeof startToolWorker>[1]);
    await expect(start("short")).rejects.toThrow("startToolWorker: signingKey must be at least 32 bytes (got 5)");
    await expect(start([KEY, "short"])).rejects.toThrow(
      "startToolWorker (signingKey[1]): signingKey must be at least 32 bytes (got 5)",
    );
    await expect(start(new Date())).rejects.toThrow(
      "startToolWorker: signingKey must be a string or a Buffer (got object).",
    );
    await expect(start([])).rejects.toThrow("startToolWorker: signingKey is an empty list");
  });
});
