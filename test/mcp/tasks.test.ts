/**
 * MCP tasks: a tool marked `task: true` answers a task-augmented tools/call with a task at
 * once and runs on; the official SDK client polls it (tasks/get, tasks/result), lists and
 * cancels it. A cancel aborts the call's ctx.signal; a failure is the task's result.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { CallToolResultSchema, CreateTaskResultSchema, ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import "reflect-metadata";
import { Ctx, defineTool, Param, Tool, Toolkit, ToolDefinitionError, type ToolContext } from "../../src";
import { createMcpServer, inMemoryTaskStore, type McpServerOptions } from "../../src/mcp";
import { eventually, textOf } from "./support";

/** A gate a test opens: the task tools wait on it, so a task is seen working before it ends. */
function gate(): { open: () => void; opened: Promise<void> } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

let release = gate();
const aborted: string[] = [];

class Reports {
  @Tool({ description: "Builds a report; takes a while.", task: true })
  async report(@Param() title: string): Promise<string> {
    await release.opened;
    return `report: ${title}`;
  }

  @Tool({ description: "Fails after a while.", task: true })
  async broken(): Promise<string> {
    await release.opened;
    throw new Error("the disk is full");
  }

  @Tool({ description: "Runs until cancelled.", task: true })
  async endless(@Ctx() ctx: ToolContext): Promise<string> {
    return new Promise((_, reject) =>
      ctx.signal!.addEventListener("abort", () => {
        aborted.push(String((ctx.signal!.reason as Error).message));
        reject(ctx.signal!.reason as Error);
      }),
    );
  }

  @Tool("Answers at once.")
  quick(): string {
    return "quick";
  }
}

async function connected(toolkit: Toolkit, options: McpServerOptions = {}): Promise<Client> {
  const server = createMcpServer(toolkit, options);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "tasks-test", version: "1.0.0" });
  await client.connect(clientSide);
  await client.listTools(); // the SDK client learns which tools run as tasks
  return client;
}

/** Starts a task-augmented call and returns its task, as the SDK client's stream first yields it. */
async function startTask(client: Client, name: string, args: Record<string, unknown> = {}, ttl?: number) {
  const created = await client.request(
    { method: "tools/call", params: { name, arguments: args } },
    CreateTaskResultSchema,
    { task: ttl === undefined ? {} : { ttl } },
  );
  return created.task;
}

const clients: Client[] = [];
beforeEach(() => {
  release = gate();
  aborted.length = 0;
});
afterEach(async () => {
  release.open();
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

async function client(options?: McpServerOptions): Promise<Client> {
  const made = await connected(new Toolkit([new Reports()]), options);
  clients.push(made);
  return made;
}

describe("tools marked task: true", () => {
  it("are listed with execution.taskSupport optional, and the server declares task support for tools/call", async () => {
    const mcp = await client();
    const { tools } = await mcp.listTools();
    const support = Object.fromEntries(tools.map((tool) => [tool.name, tool.execution?.taskSupport]));
    expect(support).toEqual({ report: "optional", broken: "optional", endless: "optional", quick: undefined });
    expect(mcp.getServerCapabilities()?.tasks).toEqual({ list: {}, cancel: {}, requests: { tools: { call: {} } } });
  });

  it("answer a task-augmented call with a working task, then complete it with the tool's result", async () => {
    const mcp = await client();
    const task = await startTask(mcp, "report", { title: "Q3" });
    expect(task).toMatchObject({ status: "working", ttl: 60 * 60 * 1_000, pollInterval: 1_000 });
    expect(await mcp.experimental.tasks.getTask(task.taskId)).toMatchObject({ taskId: task.taskId, status: "working" });
    release.open();
    const result = await mcp.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
    expect(textOf(result)).toBe("report: Q3");
    expect(result.isError).toBe(false);
    expect(await mcp.experimental.tasks.getTask(task.taskId)).toMatchObject({ status: "completed" });
  });

  it("run through the SDK client's callToolStream: taskCreated, then the result", async () => {
    const mcp = await client();
    release.open();
    const kinds: string[] = [];
    let text = "";
    for await (const message of mcp.experimental.tasks.callToolStream({ name: "report", arguments: { title: "Q4" } })) {
      kinds.push(message.type);
      if (message.type === "result") text = textOf(message.result);
    }
    expect(kinds[0]).toBe("taskCreated");
    expect(kinds[kinds.length - 1]).toBe("result");
    expect(text).toBe("report: Q4");
  });

  it("can still be called without a task, answering at once", async () => {
    const mcp = await client();
    release.open();
    expect(textOf(await mcp.callTool({ name: "report", arguments: { title: "now" } }))).toBe("report: now");
  });

  it("end a failing call as a failed task whose result is the tool's error", async () => {
    const mcp = await client();
    const task = await startTask(mcp, "broken");
    release.open();
    const result = await mcp.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("the disk is full");
    expect(await mcp.experimental.tasks.getTask(task.taskId)).toMatchObject({ status: "failed" });
  });

  it("report invalid arguments as a failed task, not a protocol error", async () => {
    const mcp = await client();
    const task = await startTask(mcp, "report", { title: 42 });
    const result = await mcp.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/title/);
  });

  it("are cancelled by tasks/cancel: the call's ctx.signal aborts and the task stays cancelled", async () => {
    const mcp = await client();
    const task = await startTask(mcp, "endless");
    const cancelled = await mcp.experimental.tasks.cancelTask(task.taskId);
    expect(cancelled).toMatchObject({ taskId: task.taskId, status: "cancelled" });
    await eventually("the call to be aborted", async () => (aborted.length > 0 ? true : undefined));
    expect(aborted[0]).toMatch(/cancel/i);
    expect(await mcp.experimental.tasks.getTask(task.taskId)).toMatchObject({ status: "cancelled" });
    await expect(mcp.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema)).rejects.toThrow(
      /was cancelled, so it has no result/,
    );
    // A finished task cannot be cancelled again (the specification's invalid-params error).
    await expect(mcp.experimental.tasks.cancelTask(task.taskId)).rejects.toMatchObject({
      code: ErrorCode.InvalidParams,
    });
  });

  it("are listed by tasks/list, newest last", async () => {
    const mcp = await client();
    const first = await startTask(mcp, "report", { title: "a" });
    const second = await startTask(mcp, "report", { title: "b" });
    const { tasks } = await mcp.experimental.tasks.listTasks();
    expect(tasks.map((task) => task.taskId)).toEqual([first.taskId, second.taskId]);
  });

  it("keep the TTL the client asks for, within the server's maxTtl", async () => {
    const mcp = await client({ tasks: { ttl: 1_000, maxTtl: 5_000, pollInterval: 50 } });
    expect(await startTask(mcp, "report", { title: "a" }, 2_000)).toMatchObject({ ttl: 2_000, pollInterval: 50 });
    expect(await startTask(mcp, "report", { title: "b" }, 10 ** 9)).toMatchObject({ ttl: 5_000 });
    expect(await startTask(mcp, "report", { title: "c" })).toMatchObject({ ttl: 1_000 });
  });

  it("are gone once their TTL has passed", async () => {
    const mcp = await client({ tasks: { ttl: 50, pollInterval: 10 } });
    release.open();
    const task = await startTask(mcp, "report", { title: "short-lived" });
    await eventually("the task to expire", () =>
      mcp.experimental.tasks.getTask(task.taskId).then(
        () => undefined,
        (error: McpError) => error,
      ),
    ).then((error) => expect(error.message).toMatch(/not found/i));
  });
  it("abort a call still running when their TTL passes; the task is gone, its outcome with it", async () => {
    const mcp = await client({ tasks: { ttl: 100, pollInterval: 10 } });
    const task = await startTask(mcp, "endless");
    await eventually("the call to be aborted", async () => (aborted.length > 0 ? true : undefined));
    expect(aborted).toEqual(["The task expired: its TTL of 100 ms passed before the call finished."]);
    await eventually("the task to expire", () =>
      mcp.experimental.tasks.getTask(task.taskId).then(
        () => undefined,
        (error: McpError) => error,
      ),
    ).then((error) => expect(error.message).toMatch(/not found/i));
  });
});

describe("a task-augmented call", () => {
  it("to a tool not marked task is refused with method-not-found, as the specification asks", async () => {
    const mcp = await client();
    const refused = mcp.request(
      { method: "tools/call", params: { name: "quick", arguments: {} } },
      CreateTaskResultSchema,
      { task: {} },
    );
    await expect(refused).rejects.toMatchObject({ code: ErrorCode.MethodNotFound });
    await expect(refused).rejects.toThrow(/does not run as a task/);
  });

  it("to an unknown tool is an invalid-params error and creates no task", async () => {
    const mcp = await client();
    await expect(
      mcp.request({ method: "tools/call", params: { name: "nope", arguments: {} } }, CreateTaskResultSchema, {
        task: {},
      }),
    ).rejects.toMatchObject({
      code: ErrorCode.InvalidParams,
    });
    expect((await mcp.experimental.tasks.listTasks()).tasks).toEqual([]);
  });

  it("to a server without task tools is answered as a plain call (the task field is ignored)", async () => {
    const plain = await connected(
      new Toolkit([defineTool({ name: "hello", description: "Says hello.", execute: () => "hello" })]),
    );
    clients.push(plain);
    expect(plain.getServerCapabilities()?.tasks).toBeUndefined();
    const result = await plain.request(
      { method: "tools/call", params: { name: "hello", arguments: {}, task: { ttl: 1_000 } } },
      CallToolResultSchema,
    );
    expect(textOf(result)).toBe("hello");
  });
});

describe("task stores", () => {
  it("a store given in tasks is the one used: tasks created through one server are read through another", async () => {
    const store = inMemoryTaskStore();
    const one = await client({ tasks: { store } });
    const other = await client({ tasks: { store } });
    const task = await startTask(one, "report", { title: "shared" });
    release.open();
    expect(textOf(await other.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema))).toBe(
      "report: shared",
    );
  });

  it("bad task options are refused, saying what they take", () => {
    const toolkit = new Toolkit([new Reports()]);
    expect(() => createMcpServer(toolkit, { tasks: { ttl: -1 } })).toThrow(
      /tasks.ttl must be a positive whole number of milliseconds/,
    );
    expect(() => createMcpServer(toolkit, { tasks: { ttl: 10, maxTtl: 5 } })).toThrow(/must not exceed tasks.maxTtl/);
    expect(() => createMcpServer(toolkit, { tasks: { store: {} as never } })).toThrow(
      /tasks.store must be a task store/,
    );
  });
});

describe("task: true on a tool", () => {
  it("is kept by defineTool and @Tool; a value that is not a boolean is refused", () => {
    const defined = defineTool({ name: "slow", description: "Slow.", task: true, execute: () => "done" });
    expect(defined.task).toBe(true);
    expect(new Toolkit([new Reports()]).get("report")?.task).toBe(true);
    expect(() =>
      defineTool({ name: "slow", description: "Slow.", task: "yes" as never, execute: () => "done" }),
    ).toThrow(ToolDefinitionError);
    expect(() =>
      defineTool({ name: "slow", description: "Slow.", task: "yes" as never, execute: () => "done" }),
    ).toThrow(/task must be true .* or false \(got "yes"\)/);
    class Bad {
      @Tool({ description: "Bad.", task: 1 as never })
      bad(): string {
        return "";
      }
    }
    expect(() => new Toolkit([new Bad()])).toThrow(/task must be true/);
    const handWritten = { ...defined, task: "no" as never, execute: async () => ({ output: "", isError: false }) };
    expect(() => new Toolkit([handWritten])).toThrow(/task must be true/);
  });

  it("changes nothing for execute: the call runs and answers as any other", async () => {
    release.open();
    expect(await new Toolkit([new Reports()]).execute("report", { title: "direct" })).toMatchObject({
      output: "report: direct",
      isError: false,
    });
  });
});
