/**
 * MCP tasks across server processes: two `serveMcp` HTTP servers, each a process of its own
 * (test/fixtures/tasks/serve-instance.ts), share one real redis-server through
 * `redisTaskStore`. The official SDK client creates a task through one process and reads,
 * awaits and cancels it through the other, as a client behind a load balancer would. With a
 * queue executor, the calls run on a worker process that holds the tasks as well.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CallToolResultSchema, CreateTaskResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { eventually, root, textOf } from "../mcp/support";
import { workerRedisServer, type RedisServer } from "../support/redis-server";
import { requireBuiltPackage, startWorkerProcess, type WorkerProcess } from "./support";

const TOKEN = "task-instances-token-0123456789";
const headers = { authorization: `Bearer ${TOKEN}` };

interface Instance {
  url: string;
  child: ChildProcessWithoutNullStreams;
  /** What the process printed so far. */
  output: () => string;
}

let redis: RedisServer;
const children: ChildProcessWithoutNullStreams[] = [];
const clients: Client[] = [];
const workers: WorkerProcess[] = [];

beforeAll(async () => {
  requireBuiltPackage();
  redis = await workerRedisServer();
});

afterAll(async () => {
  await redis?.stop();
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close().catch(() => {})));
  await Promise.all(children.splice(0).map(stopChild));
  await Promise.all(workers.splice(0).map((worker) => worker.stop()));
});

/** The task store's prefix of the running test: its instances and workers share it, other tests' do not. */
const tasksPrefix = () => `instances:${expect.getState().currentTestName}`;

async function startInstance(name: string, env: Record<string, string> = {}): Promise<Instance> {
  const prefix = tasksPrefix();
  const child = spawn(
    process.execPath,
    ["-r", "ts-node/register/transpile-only", join(root, "test", "fixtures", "tasks", "serve-instance.ts")],
    {
      cwd: root,
      env: {
        ...process.env,
        REDIS_PORT: String(redis.port),
        TASKS_PREFIX: prefix,
        INSTANCE: name,
        MCP_TOKEN: TOKEN,
        ...env,
      },
    },
  );
  children.push(child);
  let output = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
  const url = await new Promise<string>((resolve, reject) => {
    const onData = () => {
      const match = /listening (http:\/\/\S+)/.exec(output);
      if (match) {
        child.stdout.off("data", onData);
        resolve(match[1]!);
      }
    };
    child.stdout.on("data", onData);
    child.once("exit", (code) =>
      reject(new Error(`instance ${name} exited with ${String(code)} before listening:\n${output}`)),
    );
  });
  return { url, child, output: () => output };
}

function stopChild(child: ChildProcessWithoutNullStreams): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGTERM");
  return exited;
}

/** An SDK client on `url`; with `sessionId`, the same client (session and credentials) as before, reaching another instance. */
async function connect(url: string, sessionId?: string): Promise<{ client: Client; sessionId: string }> {
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers },
    ...(sessionId !== undefined ? { sessionId } : {}),
  });
  const client = new Client({ name: "task-instances-test", version: "1.0.0" });
  await client.connect(transport);
  clients.push(client);
  return { client, sessionId: transport.sessionId! };
}

async function startTask(client: Client, name: string, args: Record<string, unknown> = {}) {
  const created = await client.request(
    { method: "tools/call", params: { name, arguments: args } },
    CreateTaskResultSchema,
    { task: {} },
  );
  return created.task;
}

describe("tasks shared by server processes through Redis", () => {
  it("a task created through process A is read, listed and answered through process B", async () => {
    const [a, b] = await Promise.all([startInstance("A"), startInstance("B")]);
    const { client: viaA, sessionId } = await connect(a.url);
    const task = await startTask(viaA, "report", { title: "Q3" });
    expect(task.status).toBe("working");

    const { client: viaB } = await connect(b.url, sessionId);
    expect(await viaB.experimental.tasks.getTask(task.taskId)).toMatchObject({
      taskId: task.taskId,
      status: "working",
    });
    expect((await viaB.experimental.tasks.listTasks()).tasks.map((listed) => listed.taskId)).toEqual([task.taskId]);

    const waiting = viaB.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
    await viaA.callTool({ name: "open_gate", arguments: {} });
    expect(textOf(await waiting)).toBe("report Q3 by A");
    expect(await viaB.experimental.tasks.getTask(task.taskId)).toMatchObject({ status: "completed" });
  });

  it("a cancel taken by process B aborts the call running on process A; the task ends cancelled", async () => {
    const [a, b] = await Promise.all([startInstance("A"), startInstance("B")]);
    const { client: viaA, sessionId } = await connect(a.url);
    const task = await startTask(viaA, "endless");
    await eventually("the call to start on A", async () => (a.output().includes("started endless") ? true : undefined));

    const { client: viaB } = await connect(b.url, sessionId);
    expect(await viaB.experimental.tasks.cancelTask(task.taskId)).toMatchObject({ status: "cancelled" });
    const aborted = await eventually(
      "A's call to see its signal abort",
      async () => /aborted (.*)/.exec(a.output())?.[1],
    );
    expect(aborted).toMatch(/cancel/i);
    expect(b.output()).not.toMatch(/started endless|aborted/);
    expect(await viaA.experimental.tasks.getTask(task.taskId)).toMatchObject({ status: "cancelled" });
    await expect(viaB.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema)).rejects.toThrow(
      /was cancelled/,
    );
  });

  it("a task whose process was killed mid-call is failed once its lease lapses, saying so, on the process still up", async () => {
    const [a, b] = await Promise.all([
      startInstance("A", { LEASE_MS: "300" }),
      startInstance("B", { LEASE_MS: "300" }),
    ]);
    const { client: viaA, sessionId } = await connect(a.url);
    const task = await startTask(viaA, "endless");
    await eventually("the call to start on A", async () => (a.output().includes("started endless") ? true : undefined));
    const { client: viaB } = await connect(b.url, sessionId);
    // Held by A's lease, the task is working for as long as A lives.
    expect(await viaB.experimental.tasks.getTask(task.taskId)).toMatchObject({ status: "working" });

    const killed = new Promise((resolve) => a.child.once("exit", resolve));
    a.child.kill("SIGKILL");
    await killed;
    const waiting = viaB.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
    const failed = await eventually("the task to fail", async () => {
      const seen = await viaB.experimental.tasks.getTask(task.taskId);
      return seen.status === "working" ? undefined : seen;
    });
    expect(failed).toMatchObject({
      status: "failed",
      statusMessage: expect.stringMatching(
        /server instance running this task stopped.*nor did a queue worker/,
      ) as unknown as string,
    });
    const result = await waiting;
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/stopped before the call finished.*call the tool again/);
    expect(a.output()).not.toMatch(/aborted/);
  });
});

describe("tasks whose calls run on queue workers", () => {
  let queues = 0;
  /** A worker process holding tasks in the test's store, and two server processes sending their calls to it; leases of 300 ms everywhere. */
  async function queueSetup() {
    const queue = `task-calls-${++queues}`;
    const worker = await startWorkerProcess("worker-1", {
      port: redis.port,
      queue,
      tasksPrefix: tasksPrefix(),
      leaseMs: 300,
    });
    workers.push(worker);
    const [a, b] = await Promise.all([
      startInstance("A", { QUEUE: queue, LEASE_MS: "300" }),
      startInstance("B", { QUEUE: queue, LEASE_MS: "300" }),
    ]);
    return { worker, a, b };
  }

  async function killed(instance: Instance): Promise<void> {
    const exited = new Promise((resolve) => instance.child.once("exit", resolve));
    instance.child.kill("SIGKILL");
    await exited;
  }

  it("a task outlives the server process that took it: the worker running its call holds it and stores its result", async () => {
    const { worker, a, b } = await queueSetup();
    const { client: viaA, sessionId } = await connect(a.url);
    const task = await startTask(viaA, "build_report", { ms: 1_500 });
    await worker.printed(`started build_report ${task.taskId}`);
    await killed(a);
    const { client: viaB } = await connect(b.url, sessionId);
    // Well past A's lease: the worker's keeps the task working.
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(await viaB.experimental.tasks.getTask(task.taskId)).toMatchObject({ status: "working" });
    const result = await viaB.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
    expect(textOf(result)).toBe("report by worker-1");
    expect(await viaB.experimental.tasks.getTask(task.taskId)).toMatchObject({ status: "completed" });
  });

  it("a task's result is the one its server process words (errorText), not the worker's raw failure", async () => {
    const { a } = await queueSetup();
    const { client } = await connect(a.url);
    const task = await startTask(client, "failing_report");
    const result = await client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/error id/i);
    expect(textOf(result)).not.toContain("secret detail");
    expect(await client.experimental.tasks.getTask(task.taskId)).toMatchObject({ status: "failed" });
  });

  it("a cancel taken by another process reaches the worker running the task's call, after the process that took it died", async () => {
    const { worker, a, b } = await queueSetup();
    const { client: viaA, sessionId } = await connect(a.url);
    const task = await startTask(viaA, "build_report", { ms: 60_000 });
    await worker.printed(`started build_report ${task.taskId}`);
    await killed(a);
    const { client: viaB } = await connect(b.url, sessionId);
    await viaB.experimental.tasks.cancelTask(task.taskId);
    await eventually("the worker to abort the call", async () =>
      worker.lines.some((line) => line.startsWith("aborted build_report")) ? true : undefined,
    );
    expect(await viaB.experimental.tasks.getTask(task.taskId)).toMatchObject({ status: "cancelled" });
  });

  it("a task whose server process and worker both died is failed once their leases lapse", async () => {
    const { worker, a, b } = await queueSetup();
    const { client: viaA, sessionId } = await connect(a.url);
    const task = await startTask(viaA, "build_report", { ms: 60_000 });
    await worker.printed(`started build_report ${task.taskId}`);
    await Promise.all([killed(a), worker.kill()]);
    const { client: viaB } = await connect(b.url, sessionId);
    const failed = await eventually("the task to fail", async () => {
      const seen = await viaB.experimental.tasks.getTask(task.taskId);
      return seen.status === "working" ? undefined : seen;
    });
    expect(failed).toMatchObject({ status: "failed" });
  });
});
