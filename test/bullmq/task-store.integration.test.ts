/**
 * MCP tasks kept in Redis: several server instances (separate servers, each with its own
 * Redis connections) share them. A task created through one is read, listed and cancelled
 * through another, and the cancel reaches the call running on the first. A real redis-server
 * runs on 127.0.0.1 on a free port for these tests.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { CallToolResultSchema, CreateTaskResultSchema, ErrorCode } from "@modelcontextprotocol/sdk/types.js";
import "reflect-metadata";
import { Redis } from "ioredis";
import { Ctx, Param, Tool, Toolkit, type ToolContext } from "../../src";
import { redisTaskStore, type RedisTaskStore } from "toolnexus/bullmq";
import { createMcpServer, serveMcp, type McpServerHandle, type McpTaskOptions } from "../../src/mcp";
import { eventually, textOf } from "../mcp/support";
import { workerRedisServer, type RedisServer } from "../support/redis-server";

let redis: RedisServer;
const stores: RedisTaskStore[] = [];
const clients: Client[] = [];
const servers: McpServerHandle[] = [];

let release!: () => void;
let released: Promise<void>;
/** Which instance's call was aborted, and why. */
const aborted: Array<{ instance: string; reason: string }> = [];

class Reports {
  constructor(private readonly instance: string) {}

  @Tool({ description: "Builds a report; takes a while.", task: true })
  async report(@Param() title: string): Promise<string> {
    await released;
    return `report ${title} by ${this.instance}`;
  }

  @Tool({ description: "Fails after a while.", task: true })
  async broken(): Promise<string> {
    await released;
    throw new Error(`instance ${this.instance} ran out of disk`);
  }

  @Tool({ description: "Runs until cancelled.", task: true })
  async endless(@Ctx() ctx: ToolContext): Promise<string> {
    return new Promise((_, reject) =>
      ctx.signal!.addEventListener("abort", () => {
        aborted.push({ instance: this.instance, reason: (ctx.signal!.reason as Error).message });
        reject(ctx.signal!.reason as Error);
      }),
    );
  }
}

beforeAll(async () => {
  redis = await workerRedisServer();
});

afterAll(async () => {
  await redis?.stop();
});

beforeEach(() => {
  released = new Promise((resolve) => (release = resolve));
  aborted.length = 0;
});

afterEach(async () => {
  release();
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await Promise.all(servers.splice(0).map((server) => server.close()));
  await Promise.all(stores.splice(0).map((store) => store.close()));
});

/** One server instance: its own toolkit, its own Redis connections, the shared Redis. */
function instanceTasks(extra: Partial<McpTaskOptions> = {}): McpTaskOptions {
  const store = redisTaskStore({
    connection: { host: redis.host, port: redis.port },
    prefix: `test:${expect.getState().currentTestName}`,
  });
  stores.push(store);
  return { store, pollInterval: 20, ...extra };
}

async function instance(name: string, extra: Partial<McpTaskOptions> = {}): Promise<Client> {
  const server = createMcpServer(new Toolkit([new Reports(name)]), { tasks: instanceTasks(extra) });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: `client-of-${name}`, version: "1.0.0" });
  await client.connect(clientSide);
  clients.push(client);
  return client;
}

async function startTask(client: Client, name: string, args: Record<string, unknown> = {}, ttl?: number) {
  const created = await client.request(
    { method: "tools/call", params: { name, arguments: args } },
    CreateTaskResultSchema,
    { task: ttl === undefined ? {} : { ttl } },
  );
  return created.task;
}

describe("tasks in Redis, across server instances", () => {
  it("a task created through one instance is read, listed and answered through another", async () => {
    const a = await instance("A");
    const b = await instance("B");
    const task = await startTask(a, "report", { title: "Q3" });
    expect(await b.experimental.tasks.getTask(task.taskId)).toMatchObject({ taskId: task.taskId, status: "working" });
    expect((await b.experimental.tasks.listTasks()).tasks.map((listed) => listed.taskId)).toEqual([task.taskId]);
    release();
    const result = await b.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
    expect(textOf(result)).toBe("report Q3 by A");
    expect(await b.experimental.tasks.getTask(task.taskId)).toMatchObject({ status: "completed" });
  });

  it("a cancel taken by another instance aborts the call running on the first", async () => {
    const a = await instance("A");
    const b = await instance("B");
    const task = await startTask(a, "endless");
    expect(await b.experimental.tasks.cancelTask(task.taskId)).toMatchObject({ status: "cancelled" });
    await eventually("A's call to be aborted", async () => (aborted.length > 0 ? true : undefined));
    expect(aborted).toEqual([{ instance: "A", reason: expect.stringMatching(/cancel/i) as unknown as string }]);
    expect(await a.experimental.tasks.getTask(task.taskId)).toMatchObject({ status: "cancelled" });
    await expect(a.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema)).rejects.toThrow(
      /was cancelled/,
    );
    await expect(a.experimental.tasks.cancelTask(task.taskId)).rejects.toMatchObject({ code: ErrorCode.InvalidParams });
  });

  it("a failed call is the task's result, read anywhere", async () => {
    const a = await instance("A");
    const b = await instance("B");
    const task = await startTask(a, "broken");
    release();
    const result = await b.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("instance A ran out of disk");
    expect(await b.experimental.tasks.getTask(task.taskId)).toMatchObject({ status: "failed" });
  });

  it("a task is gone from every instance once its TTL has passed, and from the list", async () => {
    const a = await instance("A", { ttl: 100 });
    const b = await instance("B");
    release();
    const task = await startTask(a, "report", { title: "short" });
    expect(task.ttl).toBe(100);
    await eventually("the task to expire", () =>
      b.experimental.tasks.getTask(task.taskId).then(
        () => undefined,
        (error: Error) => error.message,
      ),
    ).then((message) => expect(message).toMatch(/not found/i));
    expect((await b.experimental.tasks.listTasks()).tasks).toEqual([]);
  });

  it("tasks/list pages through many tasks with its cursor", async () => {
    const a = await instance("A");
    const ids: string[] = [];
    for (let index = 0; index < 60; index++) ids.push((await startTask(a, "report", { title: String(index) })).taskId);
    const first = await a.experimental.tasks.listTasks();
    expect(first.nextCursor).toBeDefined();
    const second = await a.experimental.tasks.listTasks(first.nextCursor);
    expect(second.nextCursor).toBeUndefined();
    expect([...first.tasks, ...second.tasks].map((task) => task.taskId)).toEqual(ids);
    await expect(a.experimental.tasks.listTasks("not-a-cursor")).rejects.toThrow(/Invalid cursor/);
  });

  it("a store given an ioredis client duplicates it for the channel and leaves it open", async () => {
    const connection = new Redis({ host: redis.host, port: redis.port });
    const store = redisTaskStore({ connection, prefix: "test:given-client" });
    const stop = store.watchCancellation!("nothing", () => {});
    stop();
    await store.close();
    expect(await connection.ping()).toBe("PONG");
    await connection.quit();
  });

  it("bad options are refused, saying what to pass", () => {
    expect(() => redisTaskStore(undefined as never)).toThrow(/needs \{ connection \}/);
    expect(() => redisTaskStore({ connection: { host: "127.0.0.1" }, prefix: "" })).toThrow(
      /prefix must be a non-empty string/,
    );
    expect(() => redisTaskStore({ connection: { host: "127.0.0.1" }, lease: 0 })).toThrow(
      /lease must be a whole number of milliseconds, 30 or more \(got 0\)/,
    );
  });
});

describe("tasks in Redis over streamable HTTP", () => {
  const TOKEN = "tasks-token-0123456789";
  const headers = { authorization: `Bearer ${TOKEN}` };

  async function httpInstance(name: string): Promise<McpServerHandle> {
    const server = await serveMcp(new Toolkit([new Reports(name)]), {
      transport: "http",
      port: 0,
      token: TOKEN,
      tasks: instanceTasks(),
    });
    servers.push(server);
    return server;
  }

  async function httpClient(
    url: string,
    sessionId?: string,
  ): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
    const transport = new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers },
      ...(sessionId !== undefined ? { sessionId } : {}),
    });
    const client = new Client({ name: "http-tasks-test", version: "1.0.0" });
    await client.connect(transport);
    clients.push(client);
    return { client, transport };
  }

  it("a client's task started on instance A is read and cancelled through instance B (a load balancer's next hop)", async () => {
    const a = await httpInstance("A");
    const b = await httpInstance("B");
    const { client: viaA, transport } = await httpClient(a.url!);
    const report = await startTask(viaA, "report", { title: "over http" });
    const endless = await startTask(viaA, "endless");

    // The same client (its session, its credentials) reaches B next.
    const { client: viaB } = await httpClient(b.url!, transport.sessionId);
    expect((await viaB.experimental.tasks.listTasks()).tasks.map((task) => task.taskId)).toEqual([
      report.taskId,
      endless.taskId,
    ]);
    release();
    expect(textOf(await viaB.experimental.tasks.getTaskResult(report.taskId, CallToolResultSchema))).toBe(
      "report over http by A",
    );
    await viaB.experimental.tasks.cancelTask(endless.taskId);
    await eventually("A's call to be aborted", async () => (aborted.length > 0 ? true : undefined));
    expect(aborted[0]!.instance).toBe("A");
  });

  it("another client (another session) neither sees nor cancels the task", async () => {
    const a = await httpInstance("A");
    const b = await httpInstance("B");
    const { client: owner } = await httpClient(a.url!);
    const task = await startTask(owner, "endless");
    const { client: stranger } = await httpClient(b.url!);
    expect((await stranger.experimental.tasks.listTasks()).tasks).toEqual([]);
    await expect(stranger.experimental.tasks.getTask(task.taskId)).rejects.toMatchObject({
      code: ErrorCode.InvalidParams,
    });
    await expect(stranger.experimental.tasks.cancelTask(task.taskId)).rejects.toMatchObject({
      code: ErrorCode.InvalidParams,
    });
    expect(await owner.experimental.tasks.getTask(task.taskId)).toMatchObject({ status: "working" });
    await owner.experimental.tasks.cancelTask(task.taskId);
  });
});
