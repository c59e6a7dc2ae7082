/**
 * fromMcp over real transports: `toolnexus serve --stdio` spawned from the built bin
 * (StdioClientTransport), and `createMcpHttpHandler` on a local HTTP server
 * (StreamableHTTPClientTransport). Listing, calls, failures as results, abort, progress, and
 * a server that goes away mid-call: killed over stdio, closed over HTTP.
 */
import { createServer, type Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { defineTool, Toolkit, type Tool } from "toolnexus";
import { createMcpHttpHandler, fromMcp, type McpHttpHandler } from "toolnexus/mcp";
import { ack, stepper } from "../fixtures/cli/progress-handshake";
import { assertBuilt, bin, eventually, fixture, root } from "./support";

const byName = (tools: Tool[], name: string) => tools.find((tool) => tool.name === name)!;

const STEPS = [
  [1, 3, "step 1"],
  [2, 3, "step 2"],
  [3, 3, "step 3"],
];

/** Calls `stepper`, acknowledging each progress notification it forwards (see the fixture). */
async function stepsSeen(tools: Tool[]): Promise<{ result: unknown; seen: unknown[] }> {
  const seen: unknown[] = [];
  const result = await byName(tools, "stepper").execute(
    {},
    {
      reportProgress: (...step) => {
        seen.push(step);
        void byName(tools, "ack").execute({});
      },
    },
  );
  return { result, seen };
}

async function stdioClient(module: string): Promise<{ client: Client; transport: StdioClientTransport }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bin, "serve", fixture(module), "--stdio"],
    cwd: root,
    stderr: "pipe",
  });
  const client = new Client({ name: "from-mcp-stdio", version: "1.0.0" });
  await client.connect(transport);
  return { client, transport };
}

describe("fromMcp over stdio (toolnexus serve --stdio)", () => {
  let client: Client;
  let tools: Tool[];

  beforeAll(async () => {
    assertBuilt();
    ({ client } = await stdioClient("services.ts"));
    tools = await fromMcp(client, { namePrefix: "svc_" });
  });

  afterAll(async () => {
    await client?.close();
  });

  it("lists the server's tools under the prefix, with their schemas and hints", () => {
    expect(tools.map((tool) => tool.name)).toEqual([
      "svc_getWeather",
      "svc_add",
      "svc_charge",
      "svc_wait",
      "svc_waitEvents",
    ]);
    expect(byName(tools, "svc_add")).toMatchObject({
      description: "Adds two numbers",
      inputSchema: {
        type: "object",
        properties: { a: { type: "number" }, b: { type: "number" } },
        required: ["a", "b"],
        additionalProperties: false,
      },
    });
    expect(byName(tools, "svc_getWeather").annotations).toEqual({ title: "Weather", readOnly: true });
  });

  it("calls them; failures and refused arguments are results with the server's text", async () => {
    expect(await byName(tools, "svc_add").execute({ a: 19, b: 23 })).toEqual({ output: "42", isError: false });
    expect(await byName(tools, "svc_charge").execute({ amount: 1 })).toMatchObject({
      output: "payment provider unavailable (charging 1 cents)",
      isError: true,
      metadata: { error: "execution_failed" },
    });
    const refused = await byName(tools, "svc_add").execute({ a: "nineteen", b: 23 });
    expect(refused).toMatchObject({ isError: true, metadata: { error: "execution_failed" } });
    expect(refused.output).toMatch(/^Invalid arguments for tool "add"/);
  });

  it("an abort of ctx.signal ends the call and cancels it in the server process", async () => {
    const controller = new AbortController();
    const pending = byName(tools, "svc_wait").execute(
      { ms: 30_000, label: "stdio-abort" },
      { signal: controller.signal },
    );
    const seen = async () => (await byName(tools, "svc_waitEvents").execute({})).output;
    await eventually("the call to start", async () =>
      (await seen()).includes("started stdio-abort") ? true : undefined,
    );
    controller.abort(new Error("the user left"));
    expect(await pending).toMatchObject({
      output: 'Tool "svc_wait" was aborted: the user left',
      metadata: { error: "aborted" },
    });
    await eventually("the server to see the cancellation", async () =>
      (await seen()).includes("aborted stdio-abort") ? true : undefined,
    );
  });

  it("forwards progress from the server process", async () => {
    const progress = await stdioClient("progress-handshake.ts");
    try {
      expect(await stepsSeen(await fromMcp(progress.client))).toEqual({
        result: { output: "stepped", isError: false },
        seen: STEPS,
      });
    } finally {
      await progress.client.close();
    }
  });

  it("a server process killed mid-call is an error result at once, and later calls are too", async () => {
    const doomed = await stdioClient("services.ts");
    const doomedTools = await fromMcp(doomed.client);
    const wait = byName(doomedTools, "wait");
    const pending = wait.execute({ ms: 30_000, label: "killed" }, { timeout: 20_000 });
    const seen = async () => (await byName(doomedTools, "waitEvents").execute({})).output;
    await eventually("the call to start", async () => ((await seen()).includes("started killed") ? true : undefined));
    const started = performance.now();
    process.kill(doomed.transport.pid!, "SIGKILL");
    expect(await pending).toEqual({
      output:
        'The MCP server "toolnexus" closed the connection before answering the call of "wait"; it may or may not have run.',
      isError: true,
      metadata: { error: "execution_failed", tool: "wait", server: "toolnexus", code: -32000 },
    });
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(await wait.execute({ ms: 1, label: "after" })).toMatchObject({
      output: 'The MCP server "toolnexus" is not connected (its client was closed), so "wait" was not called.',
      isError: true,
    });
  });
});

describe("fromMcp over streamable HTTP (createMcpHttpHandler)", () => {
  const events: string[] = [];
  const slow = defineTool({
    name: "slow",
    description: "Waits until the call is cancelled",
    inputSchema: { type: "object", properties: { label: { type: "string" } }, required: ["label"] },
    execute: ({ label }, ctx) =>
      new Promise((resolve) => {
        events.push(`started ${String(label)}`);
        ctx.signal?.addEventListener("abort", () => {
          events.push(`aborted ${String(label)}`);
          resolve("aborted");
        });
      }),
  });
  const greet = defineTool({
    name: "greet",
    description: "Greets someone",
    inputSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
    validate: true,
    execute: ({ name }) => `hello ${String(name)}`,
  });
  const toolkit = new Toolkit([slow, greet, stepper, ack]);

  /** A local HTTP server with the MCP endpoint, and a client connected to it. */
  async function serve(
    jsonResponse = false,
  ): Promise<{ client: Client; http: HttpServer; handler: McpHttpHandler; stop: () => Promise<void> }> {
    const handler = createMcpHttpHandler(toolkit, { jsonResponse });
    const http = createServer((req, res) => void handler(req, res));
    await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
    const client = new Client({ name: "from-mcp-http", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`)),
    );
    const stop = async () => {
      await client.close();
      await handler.close();
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    };
    return { client, http, handler, stop };
  }

  it("lists and calls; refused arguments are results; progress is forwarded", async () => {
    const { client, stop } = await serve();
    try {
      const tools = await fromMcp(client);
      expect(tools.map((tool) => tool.name)).toEqual(["slow", "greet", "stepper", "ack"]);
      expect(await byName(tools, "greet").execute({ name: "Ada" })).toEqual({ output: "hello Ada", isError: false });
      expect(await byName(tools, "greet").execute({})).toMatchObject({
        isError: true,
        metadata: { error: "execution_failed" },
      });
      expect(await stepsSeen(tools)).toEqual({ result: { output: "stepped", isError: false }, seen: STEPS });
    } finally {
      await stop();
    }
  });

  it("an abort of ctx.signal cancels the call on the server", async () => {
    const { client, stop } = await serve();
    try {
      const [slowTool] = await fromMcp(client, { include: ["slow"] });
      const controller = new AbortController();
      const pending = slowTool!.execute({ label: "http-abort" }, { signal: controller.signal });
      await eventually("the call to start", async () => (events.includes("started http-abort") ? true : undefined));
      controller.abort();
      expect(await pending).toMatchObject({ isError: true, metadata: { error: "aborted" } });
      await eventually("the server to see the cancellation", async () =>
        events.includes("aborted http-abort") ? true : undefined,
      );
    } finally {
      await stop();
    }
  });

  it("a server closed mid-call (SSE responses) ends the call at its deadline as a timeout; the next call fails at once", async () => {
    const { client, http, stop } = await serve();
    try {
      const [slowTool] = await fromMcp(client, { include: ["slow"] });
      // The SDK client keeps waiting for a stream it could resume: the call's deadline ends it.
      const pending = slowTool!.execute({ label: "http-closed" }, { timeout: 500 });
      await eventually("the call to start", async () => (events.includes("started http-closed") ? true : undefined));
      http.close();
      http.closeAllConnections();
      expect(await pending).toEqual({
        output: 'Tool "slow" timed out after 500 ms',
        isError: true,
        metadata: { error: "timeout", timeoutMs: 500 },
      });
      const next = await slowTool!.execute({ label: "after" });
      expect(next).toMatchObject({ isError: true, metadata: { error: "execution_failed" } });
      expect(next.output).toMatch(/^The call of "slow" to the MCP server "toolnexus" failed: /);
    } finally {
      await stop();
    }
  });

  it("a server closed mid-call (JSON responses) is an error result at once", async () => {
    const { client, http, stop } = await serve(true);
    try {
      const [slowTool] = await fromMcp(client, { include: ["slow"] });
      const pending = slowTool!.execute({ label: "json-closed" }, { timeout: 20_000 });
      await eventually("the call to start", async () => (events.includes("started json-closed") ? true : undefined));
      const started = performance.now();
      http.close();
      http.closeAllConnections();
      const result = await pending;
      expect(result).toMatchObject({
        isError: true,
        metadata: { error: "execution_failed", tool: "slow", server: "toolnexus" },
      });
      expect(result.output).toMatch(/^The call of "slow" to the MCP server "toolnexus" failed: /);
      expect(performance.now() - started).toBeLessThan(5_000);
    } finally {
      await stop();
    }
  });
});
