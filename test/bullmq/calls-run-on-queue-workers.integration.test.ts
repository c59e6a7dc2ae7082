/**
 * toolnexus/bullmq against a real redis-server: calls made through `execute`, run* and MCP run
 * on worker processes and come back as the same ToolResults as in process.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { ToolFailure } from "toolnexus";
import { queueExecutor, redisTaskStore, type QueueExecutor } from "../../src/bullmq";
import { createMcpServer } from "../../src/mcp";
import { startRedisServer, workerRedisServer, type RedisServer } from "../support/redis-server";
import { queueTestToolkit } from "./fixtures/tools";
import { startWorkerProcess, type WorkerProcess } from "./support";

let redis: RedisServer;
let queueCount = 0;
const executors: QueueExecutor[] = [];
const workers: WorkerProcess[] = [];

beforeAll(async () => {
  redis = await workerRedisServer();
});
afterEach(async () => {
  await Promise.all(executors.splice(0).map((executor) => executor.close()));
  await Promise.all(workers.splice(0).map((worker) => worker.kill()));
});
afterAll(async () => {
  await redis?.stop();
});

/** A fresh queue with `count` worker processes on it, and the executor that sends calls there. */
async function queueWith(count: number, options: { lockMs?: number; concurrency?: number; tasksPrefix?: string } = {}) {
  const queue = `calls-${++queueCount}`;
  const started = await Promise.all(
    Array.from({ length: count }, (_, index) =>
      startWorkerProcess(`worker-${index + 1}`, { port: redis.port, queue, ...options }),
    ),
  );
  workers.push(...started);
  const executor = queueExecutor({ connection: redis.connection, queueName: queue });
  executors.push(executor);
  return { queue, executor, workers: started };
}

describe("calls through a queue", () => {
  // Two workers taking one call at a time, shared by these tests (a worker process takes seconds to start).
  let shared: Awaited<ReturnType<typeof queueWith>>;
  const sharedExecutor = () => shared.executor;
  /** Resolves once some shared worker printed `line`. */
  const somePrinted = (line: string) => Promise.race(shared.workers.map((worker) => worker.printed(line)));
  const printedTimes = (line: string) =>
    shared.workers.flatMap((worker) => worker.lines).filter((seen) => seen === line).length;

  beforeAll(async () => {
    shared = await queueWith(2, { concurrency: 1 });
    // Kept past each test's cleanup.
    executors.splice(executors.indexOf(shared.executor), 1);
    for (const worker of shared.workers) workers.splice(workers.indexOf(worker), 1);
  });
  afterAll(async () => {
    await shared.executor.close();
    await Promise.all(shared.workers.map((worker) => worker.stop()));
  });

  it("runs a call on a worker and answers with its result, the ctx's data carried over", async () => {
    const executor = sharedExecutor();
    const toolkit = queueTestToolkit({ executor });
    expect(await toolkit.execute("add", { a: 2, b: 3 })).toEqual({ output: "5", isError: false });
    const who = await toolkit.execute(
      "whoami",
      {},
      { callId: "c-1", provider: "test", state: { user: "ada", hook: () => 1 } },
    );
    expect(JSON.parse(who.output)).toMatchObject({ callId: "c-1", provider: "test", state: { user: "ada" } });
  });

  it("answers every error kind as in process: invalid arguments, a throw (its message and type for onError), a missing tool", async () => {
    const executor = sharedExecutor();
    const failures: ToolFailure[] = [];
    const toolkit = queueTestToolkit({ executor, onError: (failure) => void failures.push(failure) });
    expect((await toolkit.execute("add", { a: "two", b: 3 })).metadata?.error).toBe("invalid_arguments");
    const thrown = await toolkit.execute("explode", {});
    expect(thrown).toMatchObject({
      isError: true,
      output: "boom on the worker",
      metadata: { error: "execution_failed" },
    });
    expect(failures.map((failure) => failure.kind)).toEqual(["invalid_arguments", "execution_failed"]);
    expect(failures[1]!.error).toMatchObject({ name: "RangeError", message: "boom on the worker" });

    // The errorId policy hides a worker's thrown message from the model as it hides a local one.
    const hiding = queueTestToolkit({ executor, errorText: "errorId" });
    expect((await hiding.execute("explode", {})).output).not.toContain("boom");
  });

  it("answers run* turns with the workers' results", async () => {
    const executor = sharedExecutor();
    const toolkit = queueTestToolkit({ executor });
    const reply = await toolkit.runOpenAI({
      choices: [
        {
          message: {
            tool_calls: [{ id: "call_1", type: "function", function: { name: "add", arguments: '{"a":1,"b":1}' } }],
          },
        },
      ],
    });
    expect(reply).toEqual([{ role: "tool", tool_call_id: "call_1", content: "2" }]);
  });

  it("runs a repeated call once: the same call id, arguments and state join the first call's job", async () => {
    const executor = sharedExecutor();
    const toolkit = queueTestToolkit({ executor });
    const [first, second] = await Promise.all([
      toolkit.execute("charge", { ms: 300 }, { callId: "pay-1" }),
      toolkit.execute("charge", { ms: 300 }, { callId: "pay-1" }),
    ]);
    expect(first).toEqual(second);
    const third = await toolkit.execute("charge", { ms: 300 }, { callId: "pay-1" });
    expect(third).toEqual(first);
    expect(printedTimes("ran charge pay-1")).toBe(1);
    // Another user's call with the same id is a call of its own.
    await toolkit.execute("charge", { ms: 300 }, { callId: "pay-1", state: { user: "bob" } });
    expect(printedTimes("ran charge pay-1")).toBe(2);
  });

  it("lets several servers share the workers: a call repeated through another server joins the first's job", async () => {
    // Two executors with connections of their own, as two server processes would have.
    const other = queueExecutor({ connection: redis.connection, queueName: shared.queue });
    executors.push(other);
    const serverA = queueTestToolkit({ executor: sharedExecutor() });
    const serverB = queueTestToolkit({ executor: other });
    const [a, b] = await Promise.all([
      serverA.execute("charge", { ms: 300 }, { callId: "twice-1" }),
      serverB.execute("charge", { ms: 300 }, { callId: "twice-1" }),
    ]);
    expect(b).toEqual(a);
    expect(printedTimes("ran charge twice-1")).toBe(1);
    expect((await serverB.execute("add", { a: 20, b: 22 })).output).toBe("42");
  });

  it("spreads calls over several workers", async () => {
    const toolkit = queueTestToolkit({ executor: sharedExecutor() });
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, index) => toolkit.execute("whoami", { ms: 200 }, { callId: `spread-${index}` })),
    );
    const ranOn = new Set(results.map((result) => (JSON.parse(result.output) as { worker: string }).worker));
    expect(ranOn).toEqual(new Set(["worker-1", "worker-2"]));
  });

  it("ends a call at its deadline with a timeout result, and the worker's run with it", async () => {
    const executor = sharedExecutor();
    const toolkit = queueTestToolkit({ executor });
    const result = await toolkit.execute("wait_for_abort", {}, { callId: "slow-1", timeout: 500 });
    expect(result).toMatchObject({
      isError: true,
      output: 'Tool "wait_for_abort" timed out after 500 ms',
      metadata: { error: "timeout", timeoutMs: 500 },
    });
    await somePrinted("aborted slow-1");
  });

  it("times out a call no worker picks up, and never runs it later", async () => {
    const queue = `calls-${++queueCount}`;
    const executor = queueExecutor({ connection: redis.connection, queueName: queue });
    executors.push(executor);
    const toolkit = queueTestToolkit({ executor });
    expect((await toolkit.execute("charge", {}, { callId: "late-1", timeout: 300 })).metadata?.error).toBe("timeout");
    const late = await startWorkerProcess("late", { port: redis.port, queue });
    workers.push(late);
    expect((await toolkit.execute("add", { a: 1, b: 1 })).output).toBe("2");
    expect(late.lines).not.toContain("ran charge late-1");
  });

  it("aborts the worker's run when the caller's signal aborts", async () => {
    const executor = sharedExecutor();
    const toolkit = queueTestToolkit({ executor });
    const controller = new AbortController();
    const pending = toolkit.execute("wait_for_abort", {}, { callId: "abort-1", signal: controller.signal });
    await somePrinted("started abort-1");
    controller.abort(new Error("user left"));
    expect(await pending).toMatchObject({
      isError: true,
      output: 'Tool "wait_for_abort" was aborted: user left',
      metadata: { error: "aborted" },
    });
    await somePrinted("aborted abort-1");
  });

  it("carries MCP calls, their progress and their cancellation to the workers", async () => {
    const executor = sharedExecutor();
    const server = createMcpServer(queueTestToolkit({ executor }));
    const client = new Client({ name: "queue-test", version: "1.0.0" });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
    try {
      expect(await client.callTool({ name: "add", arguments: { a: 4, b: 4 } })).toMatchObject({
        content: [{ type: "text", text: "8" }],
        isError: false,
      });
      const progress: number[] = [];
      const stepped = await client.callTool({ name: "steps", arguments: {} }, undefined, {
        onprogress: ({ progress: value }) => void progress.push(value),
      });
      expect(stepped).toMatchObject({ content: [{ type: "text", text: "stepped" }] });
      expect(progress).toEqual([1, 2]);

      const controller = new AbortController();
      const pending = client.callTool({ name: "wait_for_abort", arguments: {} }, undefined, {
        signal: controller.signal,
      });
      const started = await waitForLine(shared.workers, /^started \d+$/);
      controller.abort();
      await expect(pending).rejects.toThrow();
      await somePrinted(started.replace("started", "aborted"));
    } finally {
      await client.close();
      await server.close();
    }
  });
});

describe("a worker that dies mid-call", () => {
  it("has an idempotent call retried on another worker", async () => {
    const {
      executor,
      workers: [first, second],
    } = await queueWith(2, { lockMs: 1_000, concurrency: 1 });
    const toolkit = queueTestToolkit({ executor });
    const pending = toolkit.execute("lookup", { ms: 1_500 }, { callId: "lookup-1", timeout: 30_000 });
    const ranFirst = await Promise.race([
      first!.printed("ran lookup lookup-1").then(() => first!),
      second!.printed("ran lookup lookup-1").then(() => second!),
    ]);
    const other = ranFirst === first ? second! : first!;
    await ranFirst.kill();
    const result = await pending;
    expect(result).toEqual({ output: `looked up by ${other.name}`, isError: false });
  });

  it("answers a call that is not idempotent execution_failed, without running it again", async () => {
    const {
      executor,
      workers: [first, second],
    } = await queueWith(2, { lockMs: 1_000, concurrency: 1 });
    const toolkit = queueTestToolkit({ executor });
    const pending = toolkit.execute("charge", { ms: 5_000 }, { callId: "charge-1", timeout: 30_000 });
    const ranFirst = await Promise.race([
      first!.printed("ran charge charge-1").then(() => first!),
      second!.printed("ran charge charge-1").then(() => second!),
    ]);
    const other = ranFirst === first ? second! : first!;
    await ranFirst.kill();
    const result = await pending;
    expect(result).toMatchObject({ isError: true, metadata: { error: "execution_failed", workerStopped: true } });
    expect(result.output).toContain("not annotated idempotent");
    expect(other.lines).not.toContain("ran charge charge-1");
  });
});

describe("a worker given the servers' task store", () => {
  it("does not run a task's call when the task ended before the worker took it", async () => {
    const {
      executor,
      workers: [worker],
    } = await queueWith(1, { tasksPrefix: "ended-tasks" });
    const store = redisTaskStore({ connection: redis.connection, prefix: "ended-tasks" });
    try {
      const task = await store.createTask({ ttl: 60_000 }, 1, { method: "tools/call" });
      await store.updateTaskStatus(task.taskId, "cancelled", "The user gave up.");
      const result = await queueTestToolkit({ executor }).execute("build_report", { ms: 10 }, { taskId: task.taskId });
      expect(result).toMatchObject({ isError: true, metadata: { error: "execution_failed" } });
      expect(result.output).toContain("its MCP task ended cancelled before a worker took the call");
      expect(worker!.lines.some((line) => line.startsWith("started build_report"))).toBe(false);
    } finally {
      await store.close();
    }
  });

  it("runs a call whose task its store does not hold as any other call", async () => {
    const { executor } = await queueWith(1, { tasksPrefix: "other-tasks" });
    const result = await queueTestToolkit({ executor }).execute(
      "build_report",
      { ms: 10 },
      { taskId: "kept-by-another-store" },
    );
    expect(result).toEqual({ output: "report by worker-1", isError: false });
  });
});

describe("Redis out of reach", () => {
  it("answers calls execution_failed, saying where Redis was expected, instead of hanging", async () => {
    const gone = await startRedisServer();
    await gone.stop();
    const executor = queueExecutor({
      connection: { ...gone.connection, retryStrategy: () => 50 },
      queueName: "nowhere",
      connectTimeoutMs: 300,
    });
    executors.push(executor);
    const result = await queueTestToolkit({ executor }).execute("add", { a: 1, b: 1 });
    expect(result).toMatchObject({ isError: true, metadata: { error: "execution_failed" } });
    expect(result.output).toContain(`Redis at 127.0.0.1:${gone.port} is not reachable`);
  });

  it("answers calls execution_failed when Redis goes away after the executor connected", async () => {
    const server = await startRedisServer();
    const executor = queueExecutor({
      connection: { ...server.connection, retryStrategy: () => 50 },
      queueName: "vanishing",
      connectTimeoutMs: 300,
    });
    executors.push(executor);
    const toolkit = queueTestToolkit({ executor });
    // Connected, with no worker: the call waits for its deadline.
    expect((await toolkit.execute("add", { a: 1, b: 1 }, { timeout: 200 })).metadata?.error).toBe("timeout");
    await server.stop();
    const result = await toolkit.execute("add", { a: 1, b: 1 }, { timeout: 10_000 });
    expect(result).toMatchObject({ isError: true, metadata: { error: "execution_failed" } });
    expect(result.output).toContain("is not reachable");
  });
});

/** The first line one of `among` printed (or prints) that matches `pattern`. */
async function waitForLine(among: WorkerProcess[], pattern: RegExp): Promise<string> {
  for (;;) {
    const line = among.flatMap((worker) => worker.lines).find((seen) => pattern.test(seen));
    if (line !== undefined) return line;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
