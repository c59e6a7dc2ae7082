/**
 * Task tools for clients of revision 2026-07-28, as the Tasks extension
 * (`io.modelcontextprotocol/tasks`) defines them: a client that declares the extension gets a
 * task handle (`resultType: "task"`) from `tools/call` and polls `tasks/get`; `tasks/cancel`
 * reaches the running call; one store serves every instance. A client that does not declare
 * it gets the tool's result at once.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { defineTool, type JSONSchemaObject } from "toolnexus";
import { inMemoryTaskStore, serveMcp, type McpServerHandle } from "toolnexus/mcp";
import { modernRequest, type ModernAnswer } from "./support";

const NONE: JSONSchemaObject = { type: "object", properties: {} };
const seen = { reportAborted: "" };

const tools = [
  defineTool({
    name: "build_report",
    description: "Builds a report in the background",
    inputSchema: { type: "object", properties: { ms: { type: "integer" } }, required: ["ms"] },
    task: true,
    execute: async ({ ms }, ctx) => {
      try {
        await sleep(Number(ms), undefined, { signal: ctx.signal });
      } catch {
        seen.reportAborted = String((ctx.signal?.reason as Error | undefined)?.message);
        throw ctx.signal?.reason;
      }
      return `report after ${String(ms)} ms`;
    },
  }),
  defineTool({
    name: "broken_report",
    description: "Fails in the background",
    inputSchema: NONE,
    task: true,
    execute: () => {
      throw new Error("the report service is down");
    },
  }),
  defineTool({
    name: "asking_report",
    description: "Asks the user while running as a task",
    inputSchema: NONE,
    task: true,
    execute: (_args, ctx) =>
      ctx.elicit({ message: "Which format?", schema: { type: "object", properties: { format: { type: "string" } } } }),
  }),
  defineTool({ name: "ping", description: "Answers pong", inputSchema: NONE, execute: () => "pong" }),
];

const TASKS = { "io.modelcontextprotocol/tasks": {} };

/** A 2026-07-28 request by hand, from a client that declares the Tasks extension (or not). */
function request(
  url: string,
  method: string,
  params: Record<string, unknown>,
  { extension = true, authorization }: { extension?: boolean; authorization?: string } = {},
): Promise<ModernAnswer> {
  return modernRequest(url, method, params, {
    capabilities: extension ? { extensions: TASKS } : {},
    headers: authorization !== undefined ? { authorization } : {},
  });
}

async function settled(
  url: string,
  taskId: string,
  options?: { authorization?: string },
): Promise<NonNullable<ModernAnswer["result"]>> {
  for (let waited = 0; waited < 10_000; waited += 20) {
    const { result } = await request(url, "tasks/get", { taskId }, options);
    if (result !== undefined && !["working", "input_required"].includes(result.status)) return result;
    await sleep(20);
  }
  throw new Error(`task ${taskId} did not settle`);
}

let server: McpServerHandle;
const store = inMemoryTaskStore();
let other: McpServerHandle;

beforeAll(async () => {
  server = await serveMcp(tools, { transport: "http", port: 0, tasks: { store, pollInterval: 250 } });
  other = await serveMcp(tools, { transport: "http", port: 0, tasks: { store, pollInterval: 250 } });
});
afterAll(async () => {
  await server.close();
  await other.close();
});

it("server/discover names the extension", async () => {
  const { result } = await request(server.url!, "server/discover", {});
  expect(result!.capabilities).toMatchObject({ tools: {}, extensions: TASKS });
});

it("tools/list declares no taskSupport: the extension has none", async () => {
  const { result } = await request(server.url!, "tools/list", {});
  expect(result!.tools.map((tool: Record<string, unknown>) => tool.execution)).toEqual([
    undefined,
    undefined,
    undefined,
  ]);
});

it("a task tool answers with a task handle, and tasks/get gives its result once completed", async () => {
  const { result: handle } = await request(server.url!, "tools/call", { name: "build_report", arguments: { ms: 50 } });
  expect(handle).toMatchObject({ resultType: "task", status: "working", ttlMs: 3_600_000, pollIntervalMs: 250 });
  expect(Date.parse(handle!.createdAt)).not.toBeNaN();
  const done = await settled(server.url!, handle!.taskId);
  expect(done).toMatchObject({
    resultType: "complete",
    taskId: handle!.taskId,
    status: "completed",
    result: { content: [{ type: "text", text: "report after 50 ms" }], isError: false },
  });
});

it("a tool's failure is a completed task whose result is the error (failed is for JSON-RPC errors)", async () => {
  const { result: handle } = await request(server.url!, "tools/call", { name: "broken_report", arguments: {} });
  expect(await settled(server.url!, handle!.taskId)).toMatchObject({
    status: "completed",
    result: { isError: true, content: [{ text: "the report service is down" }] },
  });
});

it("a task call cannot ask the client: its client is polling", async () => {
  const { result: handle } = await request(server.url!, "tools/call", { name: "asking_report", arguments: {} });
  expect(await settled(server.url!, handle!.taskId)).toMatchObject({
    status: "completed",
    result: {
      isError: true,
      content: [{ text: expect.stringContaining("A call run as an MCP task cannot ask the client") }],
    },
  });
});

it("a client that does not declare the extension gets the result at once", async () => {
  const { result } = await request(
    server.url!,
    "tools/call",
    { name: "build_report", arguments: { ms: 1 } },
    { extension: false },
  );
  expect(result).toMatchObject({ content: [{ type: "text", text: "report after 1 ms" }], isError: false });
});

it("a tool without task: true answers at once, also to a client that takes tasks", async () => {
  expect((await request(server.url!, "tools/call", { name: "ping", arguments: {} })).result).toMatchObject({
    content: [{ type: "text", text: "pong" }],
  });
});

it("any instance with the same store answers tasks/get, and tasks/cancel on it stops the call where it runs", async () => {
  seen.reportAborted = "";
  const { result: handle } = await request(server.url!, "tools/call", {
    name: "build_report",
    arguments: { ms: 60_000 },
  });
  expect((await request(other.url!, "tasks/get", { taskId: handle!.taskId })).result).toMatchObject({
    status: "working",
  });
  expect((await request(other.url!, "tasks/cancel", { taskId: handle!.taskId })).result).toMatchObject({
    resultType: "complete",
  });
  expect(await settled(other.url!, handle!.taskId)).toMatchObject({ status: "cancelled" });
  for (let waited = 0; seen.reportAborted === "" && waited < 5_000; waited += 50) await sleep(50);
  expect(seen.reportAborted).toContain("Cancelled by the client.");
});

it("another client's credentials do not reach the task", async () => {
  const { result: handle } = await request(
    server.url!,
    "tools/call",
    { name: "build_report", arguments: { ms: 1 } },
    { authorization: "Bearer ada" },
  );
  const { error } = await request(
    server.url!,
    "tasks/get",
    { taskId: handle!.taskId },
    { authorization: "Bearer bob" },
  );
  expect(error).toMatchObject({ code: -32602, message: expect.stringContaining(`Unknown task "${handle!.taskId}"`) });
  expect(await settled(server.url!, handle!.taskId, { authorization: "Bearer ada" })).toMatchObject({
    status: "completed",
  });
});

it("tasks/update and tasks/cancel of an unknown task are invalid-params errors", async () => {
  for (const method of ["tasks/update", "tasks/cancel"]) {
    const { error } = await request(server.url!, method, { taskId: "nope", inputResponses: {} });
    expect(error).toMatchObject({ code: -32602, message: expect.stringContaining('Unknown task "nope"') });
  }
});
