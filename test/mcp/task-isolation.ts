/**
 * Who reaches which MCP task over streamable HTTP, specified once and run against every task
 * store (test/mcp/task-isolation.test.ts in memory, test/bullmq/task-isolation.test.ts in
 * Redis). Two server instances share the store; the official SDK client talks to them, with
 * the session the server hands out, or without one (a stateless client: the SDK client never
 * learns the `Mcp-Session-Id`, so it sends none).
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { CallToolResultSchema, CreateTaskResultSchema, ErrorCode, type Task } from "@modelcontextprotocol/sdk/types.js";
import { defineTool, Toolkit } from "../../src";
import { createMcpServer, serveMcp, type McpServerHandle, type McpTaskStore } from "../../src/mcp";
import { textOf, withoutSessionId } from "./support";

const TOKEN = "task-isolation-token-0123456789";
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

const echo = defineTool({
  name: "echo",
  description: "Answers with its text",
  inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
  task: true,
  execute: ({ text }) => `echo ${String(text)}`,
});

const endless = defineTool({
  name: "endless",
  description: "Runs until its call is aborted",
  task: true,
  execute: (_args, ctx) =>
    new Promise<string>((_, reject) =>
      ctx.signal!.addEventListener("abort", () => reject(ctx.signal!.reason as Error)),
    ),
});

/** What a task another client may not reach is answered with: the answer for an id that names no task, that id aside. */
async function refusal(attempt: Promise<unknown>, taskId: string): Promise<{ code: number; message: string }> {
  const error = (await attempt.then(
    () => {
      throw new Error(`task ${taskId} was reached`);
    },
    (refused: unknown) => refused,
  )) as { code?: number; message: string };
  return { code: error.code ?? 0, message: error.message.replaceAll(taskId, "<id>") };
}

/**
 * The isolation specification for one kind of store. `stores()` makes the stores of two
 * instances sharing their tasks (the same object for an in-process store); `release` lets go
 * of what they hold, once a test is over.
 */
export function specifyTaskIsolation(
  stores: () => [McpTaskStore, McpTaskStore],
  release: () => Promise<void> = async () => {},
): void {
  const clients: Client[] = [];
  const servers: McpServerHandle[] = [];

  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close().catch(() => {})));
    await Promise.all(servers.splice(0).map((server) => server.close()));
    await release();
  });

  /** Two instances sharing one task store; `token` null: no token of their own (a proxy in front checks `Authorization`). */
  async function instances(
    token: string | null = TOKEN,
  ): Promise<{ a: string; b: string; stores: [McpTaskStore, McpTaskStore] }> {
    const pair = stores();
    const [a, b] = await Promise.all(
      pair.map((store) =>
        serveMcp(new Toolkit([echo, endless]), {
          transport: "http",
          port: 0,
          shutdownTimeout: 50,
          ...(token !== null ? { token } : {}),
          tasks: { store, pollInterval: 20 },
        }),
      ),
    );
    servers.push(a!, b!);
    return { a: a!.url!, b: b!.url!, stores: pair };
  }

  /** An SDK client of `url`: with the session the server hands out (or `sessionId`, the same client reaching another instance), or with none. */
  async function client(
    url: string,
    { session = true, sessionId, token = TOKEN }: { session?: boolean; sessionId?: string; token?: string } = {},
  ) {
    const transport = new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: bearer(token) },
      ...(session ? {} : { fetch: withoutSessionId }),
      ...(sessionId !== undefined ? { sessionId } : {}),
    });
    const made = new Client({ name: "task-isolation-test", version: "1.0.0" });
    await made.connect(transport);
    clients.push(made);
    return { client: made, sessionId: transport.sessionId };
  }

  async function startTask(client: Client, name: string, args: Record<string, unknown> = {}): Promise<Task> {
    return (
      await client.request({ method: "tools/call", params: { name, arguments: args } }, CreateTaskResultSchema, {
        task: {},
      })
    ).task;
  }

  /** Every way to reach a task by id is refused to `stranger`, each as for an id that names no task; the task is still working. */
  async function expectUnreachable(stranger: Client, task: Task, owner: Client): Promise<void> {
    const unknownId = "0".repeat(32);
    const tasks = stranger.experimental.tasks;
    for (const [reach, what] of [
      [(id: string) => tasks.getTask(id), "tasks/get"],
      [(id: string) => tasks.getTaskResult(id, CallToolResultSchema), "tasks/result"],
      [(id: string) => tasks.cancelTask(id), "tasks/cancel"],
    ] as const) {
      const refused = await refusal(reach(task.taskId), task.taskId);
      expect({ what, ...refused }).toEqual({ what, ...(await refusal(reach(unknownId), unknownId)) });
      expect(refused.code).toBe(ErrorCode.InvalidParams);
    }
    expect((await tasks.listTasks()).tasks.map((listed) => listed.taskId)).not.toContain(task.taskId);
    expect(await owner.experimental.tasks.getTask(task.taskId)).toMatchObject({ status: "working" });
  }

  describe("a request without a session", () => {
    it("reaches the task it created by its id, on any instance: polls it, reads its result, cancels it", async () => {
      const { a, b } = await instances();
      const { client: viaA } = await client(a, { session: false });
      const { client: viaB } = await client(b, { session: false });
      const done = await startTask(viaA, "echo", { text: "hi" });
      // 128 random bits: the id is what only its creator was told.
      expect(done.taskId).toMatch(/^[0-9a-f]{32}$/);
      expect(textOf(await viaB.experimental.tasks.getTaskResult(done.taskId, CallToolResultSchema))).toBe("echo hi");
      expect(await viaB.experimental.tasks.getTask(done.taskId)).toMatchObject({ status: "completed" });
      const running = await startTask(viaA, "endless");
      expect(await viaB.experimental.tasks.cancelTask(running.taskId)).toMatchObject({
        taskId: running.taskId,
        status: "cancelled",
      });
    });

    it("is listed no task by tasks/list, not even its own: other clients without a session share its token", async () => {
      const { a, b } = await instances();
      const { client: first } = await client(a, { session: false });
      const { client: second } = await client(b, { session: false });
      const task = await startTask(first, "endless");
      expect((await second.experimental.tasks.listTasks()).tasks).toEqual([]);
      expect((await first.experimental.tasks.listTasks()).tasks).toEqual([]);
      await expect(first.experimental.tasks.listTasks(task.taskId)).rejects.toThrow(
        /Invalid cursor .*list again without one/,
      );
      expect(await first.experimental.tasks.getTask(task.taskId)).toMatchObject({ status: "working" });
    });

    it("does not reach a session's task, even by its id", async () => {
      const { a, b } = await instances();
      const { client: owner } = await client(a);
      const task = await startTask(owner, "endless");
      const { client: stranger } = await client(b, { session: false });
      await expectUnreachable(stranger, task, owner);
    });

    it("does not reach the task of a request without a session under other credentials, even by its id", async () => {
      const { a, b } = await instances(null);
      const { client: owner } = await client(a, { session: false, token: "alice-0123456789" });
      const task = await startTask(owner, "endless");
      const { client: stranger } = await client(b, { session: false, token: "bob-0123456789" });
      await expectUnreachable(stranger, task, owner);
    });
  });

  describe("a session", () => {
    it("lists, reads and cancels its own tasks on any instance", async () => {
      const { a, b } = await instances();
      const { client: viaA, sessionId } = await client(a);
      const done = await startTask(viaA, "echo", { text: "hi" });
      const running = await startTask(viaA, "endless");
      const { client: viaB } = await client(b, { sessionId: sessionId! });
      expect((await viaB.experimental.tasks.listTasks()).tasks.map((task) => task.taskId)).toEqual([
        done.taskId,
        running.taskId,
      ]);
      expect(textOf(await viaB.experimental.tasks.getTaskResult(done.taskId, CallToolResultSchema))).toBe("echo hi");
      expect(await viaB.experimental.tasks.cancelTask(running.taskId)).toMatchObject({ status: "cancelled" });
    });

    it("does not reach another session's task under the same token, even by its id", async () => {
      const { a, b } = await instances();
      const { client: owner } = await client(a);
      const task = await startTask(owner, "endless");
      const { client: stranger } = await client(b);
      await expectUnreachable(stranger, task, owner);
      expect((await stranger.experimental.tasks.listTasks()).tasks).toEqual([]);
    });

    it("does not reach the task of a request without a session, even by its id", async () => {
      const { a, b } = await instances();
      const { client: owner } = await client(a, { session: false });
      const task = await startTask(owner, "endless");
      const { client: stranger } = await client(b);
      await expectUnreachable(stranger, task, owner);
    });

    it("sent again under other credentials does not reach the tasks of the session", async () => {
      const { a, b } = await instances(null);
      const { client: owner, sessionId } = await client(a, { token: "alice-0123456789" });
      const task = await startTask(owner, "endless");
      const { client: stranger } = await client(b, { sessionId: sessionId!, token: "bob-0123456789" });
      await expectUnreachable(stranger, task, owner);
      expect((await stranger.experimental.tasks.listTasks()).tasks).toEqual([]);
    });
  });

  describe("a task created without an owner (a server on stdio or in process, sharing the store)", () => {
    it("is not reached over HTTP, by a session or without one, even by its id", async () => {
      const { a, stores: pair } = await instances();
      const local = createMcpServer(new Toolkit([echo, endless]), { tasks: { store: pair[0], pollInterval: 20 } });
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      await local.connect(serverSide);
      const owner = new Client({ name: "local", version: "1.0.0" });
      await owner.connect(clientSide);
      clients.push(owner);
      const task = await startTask(owner, "endless");
      await expectUnreachable((await client(a)).client, task, owner);
      await expectUnreachable((await client(a, { session: false })).client, task, owner);
      await owner.experimental.tasks.cancelTask(task.taskId);
    });
  });
}
