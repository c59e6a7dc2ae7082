/**
 * Shutting a server down does not leave task calls running unseen: `close()` (HTTP and stdio)
 * waits for the task calls running in the background, up to its timeout, then aborts them;
 * each task ends `failed` with a result saying the server shut down, in its store.
 */
import { PassThrough } from "node:stream";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CreateTaskResultSchema, type Task } from "@modelcontextprotocol/sdk/types.js";
import { defineTool, Toolkit } from "../../src";
import { inMemoryTaskStore, serveMcp, type McpServerHandle, type McpToolkit } from "../../src/mcp";
import { eventually, INITIALIZE, jsonRpc, textOf } from "./support";

let openGate!: () => void;
let gate: Promise<void>;
const aborted: string[] = [];
const started: string[] = [];

const report = defineTool({
  name: "report",
  description: "Finishes once the test opens the gate",
  task: true,
  execute: async () => {
    started.push("report");
    await gate;
    return "report done";
  },
});

const endless = defineTool({
  name: "endless",
  description: "Runs until aborted",
  task: true,
  execute: (_args, ctx) =>
    new Promise<string>((_, reject) => {
      started.push("endless");
      ctx.signal!.addEventListener("abort", () => {
        aborted.push((ctx.signal!.reason as Error).message);
        reject(ctx.signal!.reason as Error);
      });
    }),
});

const stubborn = defineTool({
  name: "stubborn",
  description: "Never ends, aborted or not",
  task: true,
  timeout: 60_000,
  execute: () => {
    started.push("stubborn");
    return new Promise<string>(() => {});
  },
});

const toolkit = () => new Toolkit([report, endless, stubborn]);

beforeEach(() => {
  gate = new Promise((resolve) => (openGate = resolve));
  aborted.length = 0;
  started.length = 0;
});
afterEach(() => openGate());

async function startTask(client: Client, name: string): Promise<Task> {
  return (
    await client.request({ method: "tools/call", params: { name, arguments: {} } }, CreateTaskResultSchema, {
      task: {},
    })
  ).task;
}

describe("closing an HTTP server with task calls running", () => {
  async function served(shutdownTimeout: number, kit: McpToolkit = toolkit()) {
    const store = inMemoryTaskStore();
    const server: McpServerHandle = await serveMcp(kit, {
      transport: "http",
      port: 0,
      shutdownTimeout,
      tasks: { store },
    });
    const client = new Client({ name: "task-shutdown-test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url!)));
    return { store, server, client };
  }

  it("waits for a task call to end on its own within the timeout; the task completes", async () => {
    const { store, server, client } = await served(30_000);
    const task = await startTask(client, "report");
    await eventually("the call to start", async () => (started.includes("report") ? true : undefined));
    await client.close();
    let closed = false;
    const closing = server.close().then(() => (closed = true));
    // The server refuses new requests once closing, while the task call still runs.
    await eventually("the server to refuse requests", () =>
      fetch(server.url!, { method: "POST", body: "{}" }).then(
        (response) => (response.status === 503 ? true : undefined),
        () => true,
      ),
    );
    expect(closed).toBe(false);
    openGate();
    await closing;
    expect(await store.getTask(task.taskId)).toMatchObject({ status: "completed" });
    expect(textOf(await store.getTaskResult(task.taskId))).toBe("report done");
  });

  it("aborts the task calls still running after the timeout; each task fails, saying the server shut down", async () => {
    const { store, server, client } = await served(50);
    const task = await startTask(client, "endless");
    await eventually("the call to start", async () => (started.includes("endless") ? true : undefined));
    await client.close();
    await server.close();
    expect(aborted).toEqual([expect.stringMatching(/server shut down before the task finished/) as unknown as string]);
    expect(await store.getTask(task.taskId)).toMatchObject({ status: "failed" });
    const result = await store.getTaskResult(task.taskId);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/server shut down before the task finished; call the tool again/);
  });

  it("fails the task of a tool that ignores the abort (the toolkit answers for it at once)", async () => {
    const { store, server, client } = await served(50);
    const task = await startTask(client, "stubborn");
    await eventually("the call to start", async () => (started.includes("stubborn") ? true : undefined));
    await client.close();
    await server.close();
    expect(await store.getTask(task.taskId)).toMatchObject({ status: "failed" });
    expect(textOf(await store.getTaskResult(task.taskId))).toBe(
      'Tool "stubborn" was aborted: The MCP server shut down before the task finished; call the tool again.',
    );
  });

  it("fails the task of a call that never answers, even aborted (a toolkit of one's own), saying it was left behind", async () => {
    const kit = toolkit();
    const deaf: McpToolkit = {
      tools: (ctx) => kit.tools(ctx),
      get: (name) => kit.get(name),
      execute: (name, args, ctx) =>
        name === "stubborn" ? (started.push(name), new Promise(() => {})) : kit.execute(name, args, ctx),
    };
    const { store, server, client } = await served(50, deaf);
    const task = await startTask(client, "stubborn");
    await eventually("the call to start", async () => (started.includes("stubborn") ? true : undefined));
    await client.close();
    await server.close();
    expect(await store.getTask(task.taskId)).toMatchObject({ status: "failed" });
    expect(textOf(await store.getTaskResult(task.taskId))).toMatch(
      /server shut down.*did not stop within \d+ ms of being aborted; it was left behind/,
    );
  });
});

describe("closing a stdio server with task calls running", () => {
  it("aborts them after its shutdown timeout; the task fails, saying the server shut down", async () => {
    const store = inMemoryTaskStore();
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    let output = "";
    stdout.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
    const server = await serveMcp(toolkit(), { stdin, stdout, shutdownTimeout: 50, tasks: { store } });
    stdin.write(`${INITIALIZE}\n`);
    stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`);
    stdin.write(`${jsonRpc(2, "tools/call", { name: "endless", arguments: {}, task: {} })}\n`);
    const taskId = await eventually("the task", async () => /"taskId":"([0-9a-f]+)"/.exec(output)?.[1]);
    await eventually("the call to start", async () => (started.includes("endless") ? true : undefined));
    await server.close();
    expect(aborted).toEqual([expect.stringMatching(/server shut down/) as unknown as string]);
    expect(await store.getTask(taskId)).toMatchObject({ status: "failed" });
    expect(textOf(await store.getTaskResult(taskId))).toMatch(/server shut down before the task finished/);
  });
});
