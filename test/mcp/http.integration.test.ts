/**
 * serveMcp over streamable HTTP, in process, on 127.0.0.1 with an ephemeral port; the
 * official SDK client talks to it, and raw HTTP requests probe what a client would not send.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { Toolkit } from "../../src";
import { serveMcp, type McpServerHandle } from "../../src/mcp";
import { PaymentsService, SlowService, WeatherService } from "../fixtures/cli/services";
import { connectHttp, eventually, INITIALIZE, jsonRpc, rawRequest, textOf } from "./support";

const TOKEN = "test-token-0123456789";
const auth = { authorization: `Bearer ${TOKEN}` };

const toolkit = new Toolkit([new WeatherService(), new PaymentsService(), new SlowService()]);
let server: McpServerHandle;
let client: Client;

beforeAll(async () => {
  server = await serveMcp(toolkit, { transport: "http", port: 0, token: TOKEN });
  client = await connectHttp(server.url!, auth);
});

afterAll(async () => {
  await client?.close();
  await server?.close();
});

async function waitEvents(): Promise<string[]> {
  return JSON.parse(textOf(await client.callTool({ name: "waitEvents", arguments: {} }))) as string[];
}

describe("serveMcp over HTTP", () => {
  it("binds 127.0.0.1 by default and reports the URL and port", () => {
    expect(server.transport).toBe("http");
    expect(server.host).toBe("127.0.0.1");
    expect(server.port).toBeGreaterThan(0);
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/mcp`);
  });

  it("tools/list returns every tool with its description, inputSchema and annotations", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(["getWeather", "add", "charge", "wait", "waitEvents"]);
    // toolnexus's own schemas go out as they are: the same as toMcp().
    const expected = toolkit.toMcp();
    for (const [index, tool] of tools.entries()) {
      expect(tool.inputSchema).toEqual(expected[index]!.inputSchema);
      expect(tool.description).toBe(expected[index]!.description);
    }
    const weather = tools.find((tool) => tool.name === "getWeather")!;
    expect(weather.title).toBe("Weather");
    expect(weather.annotations).toEqual({ title: "Weather", readOnlyHint: true });
    expect(weather.inputSchema.required).toEqual(["city"]);
    expect(tools.find((tool) => tool.name === "charge")!.annotations).toEqual({ destructiveHint: true });
  });

  it("tools/call runs the tool through the toolkit", async () => {
    const result = await client.callTool({ name: "getWeather", arguments: { city: "Chennai", units: "fahrenheit" } });
    expect(result.isError).toBe(false);
    expect(JSON.parse(textOf(result))).toEqual({ city: "Chennai", temperature: 88, units: "fahrenheit" });
    expect(textOf(await client.callTool({ name: "add", arguments: { a: 2, b: "40" } }))).toBe("42");
  });

  it("a failing tool is a CallToolResult with isError: true, and the server keeps answering", async () => {
    const failed = await client.callTool({ name: "charge", arguments: { amount: 500 } });
    expect(failed).toEqual({
      content: [{ type: "text", text: "payment provider unavailable (charging 500 cents)" }],
      isError: true,
    });
    const invalid = await client.callTool({ name: "charge", arguments: { amount: 0 } });
    expect(invalid.isError).toBe(true);
    expect(textOf(invalid)).toContain('Invalid arguments for tool "charge"');
    expect(textOf(await client.callTool({ name: "add", arguments: { a: 1, b: 1 } }))).toBe("2");
  });

  it("an unknown tool is the SDK's invalid-params error, naming the closest tools", async () => {
    const error = await client.callTool({ name: "getWether", arguments: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(ErrorCode.InvalidParams);
    expect((error as McpError).message).toContain('Unknown tool "getWether". Did you mean "getWeather"?');
  });

  it("a client's cancellation reaches the tool's ctx.signal", async () => {
    const controller = new AbortController();
    const pending = client.callTool({ name: "wait", arguments: { ms: 60_000, label: "http-cancel" } }, undefined, {
      signal: controller.signal,
    });
    const outcome = pending.then(
      () => "resolved",
      () => "rejected",
    );
    await eventually("the call to start", async () =>
      (await waitEvents()).includes("started http-cancel") ? true : undefined,
    );
    controller.abort(new Error("the user pressed stop"));
    expect(await outcome).toBe("rejected");
    const events = await eventually("the tool to see the abort", async () => {
      const seen = await waitEvents();
      return seen.some((event) => event.startsWith("aborted http-cancel")) ? seen : undefined;
    });
    expect(events.find((event) => event.startsWith("aborted http-cancel"))).toContain("the user pressed stop");
    expect(events).not.toContain("finished http-cancel");
  });

  it("answers malformed JSON-RPC with errors and keeps answering the good requests between them", async () => {
    const url = server.url!;
    const good = (id: number) =>
      rawRequest(url, { body: jsonRpc(id, "tools/call", { name: "add", arguments: { a: id, b: 1 } }), headers: auth });

    const first = await good(10);
    expect(first.status).toBe(200);
    expect(first.messages[0]).toMatchObject({
      id: 10,
      result: { content: [{ type: "text", text: "11" }], isError: false },
    });

    const broken = await rawRequest(url, { body: '{"jsonrpc": "2.0", "id": 11, "method": "tools/li', headers: auth });
    expect(broken.status).toBe(400);
    expect(broken.messages[0]).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: ErrorCode.ParseError } });

    expect((await good(12)).messages[0]).toMatchObject({ id: 12, result: { content: [{ text: "13" }] } });

    for (const invalid of [
      '{"jsonrpc":"2.0","id":13}',
      '{"jsonrpc":"1.0","id":14,"method":"tools/list"}',
      '{"id":15,"method":"tools/list"}',
      "[]",
      "42",
      '"tools/list"',
    ]) {
      const answer = await rawRequest(url, { body: invalid, headers: auth });
      expect([answer.status, answer.messages[0]?.error?.code, answer.messages[0]?.id]).toEqual([
        400,
        ErrorCode.InvalidRequest,
        null,
      ]);
    }

    // A request for a method nobody handles is a JSON-RPC error inside a 200, per request.
    const unknownMethod = await rawRequest(url, { body: jsonRpc(16, "tools/frobnicate"), headers: auth });
    expect(unknownMethod.messages[0]).toMatchObject({ id: 16, error: { code: ErrorCode.MethodNotFound } });

    expect((await good(17)).messages[0]).toMatchObject({ id: 17, result: { content: [{ text: "18" }] } });
    expect((await client.listTools()).tools).toHaveLength(5);
  });

  it("refuses a Host header that is not allowed (DNS rebinding) and accepts the local names", async () => {
    for (const host of ["evil.example.com", `evil.example.com:${server.port}`, `127.0.0.1.nip.io:${server.port}`]) {
      const refused = await rawRequest(server.url!, { body: INITIALIZE, headers: { ...auth, host } });
      expect(refused.status).toBe(403);
      expect(refused.messages[0]!.error.message).toContain("is not allowed (DNS rebinding protection)");
    }
    for (const host of [`localhost:${server.port}`, `127.0.0.1:${server.port}`]) {
      expect((await rawRequest(server.url!, { body: INITIALIZE, headers: { ...auth, host } })).status).toBe(200);
    }
  });

  it("refuses a browser Origin from another site", async () => {
    const refused = await rawRequest(server.url!, {
      body: INITIALIZE,
      headers: { ...auth, origin: "https://evil.example.com" },
    });
    expect(refused.status).toBe(403);
    expect(refused.messages[0]!.error.message).toContain('Origin "https://evil.example.com" is not allowed');
    const local = await rawRequest(server.url!, {
      body: INITIALIZE,
      headers: { ...auth, origin: `http://localhost:${server.port}` },
    });
    expect(local.status).toBe(200);
  });

  it("refuses a missing or wrong bearer token", async () => {
    const missing = await rawRequest(server.url!, { body: INITIALIZE });
    expect(missing.status).toBe(401);
    expect(missing.headers["www-authenticate"]).toMatch(/^Bearer /);
    const wrong = await rawRequest(server.url!, {
      body: INITIALIZE,
      headers: { authorization: "Bearer not-the-token" },
    });
    expect(wrong.status).toBe(401);
    const basic = await rawRequest(server.url!, {
      body: INITIALIZE,
      headers: { authorization: `Basic ${Buffer.from(`x:${TOKEN}`).toString("base64")}` },
    });
    expect(basic.status).toBe(401);

    const anonymous = new Client({ name: "anonymous", version: "1.0.0" });
    await expect(anonymous.connect(new StreamableHTTPClientTransport(new URL(server.url!)))).rejects.toThrow();
    await anonymous.close();
  });

  it("refuses a body over the size limit before reading it", async () => {
    const huge = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "add", arguments: { a: 1, b: 2, pad: "x".repeat(1024 * 1024) } },
    });
    const answer = await rawRequest(server.url!, { body: huge, headers: auth });
    expect(answer.status).toBe(413);
    expect(answer.messages[0]!.error.message).toContain("limit is 1048576 bytes");
    // Without a Content-Length the size is counted while reading, and reading stops at the limit.
    const chunked = await rawRequest(server.url!, { body: huge, headers: auth, chunked: true });
    expect([chunked.status, chunked.headers.connection, chunked.messages[0]?.error?.message]).toEqual([
      413,
      "close",
      expect.stringContaining("limit is 1048576 bytes"),
    ]);
    expect(textOf(await client.callTool({ name: "add", arguments: { a: 1, b: 2 } }))).toBe("3");
  });

  it("is stateless: GET and DELETE are 405, other paths 404", async () => {
    const get = await rawRequest(server.url!, { method: "GET", headers: { ...auth, accept: "text/event-stream" } });
    expect(get.status).toBe(405);
    expect(get.headers.allow).toBe("POST");
    expect((await rawRequest(server.url!, { method: "DELETE", headers: auth })).status).toBe(405);
    expect((await rawRequest(server.url!.replace("/mcp", "/other"), { body: INITIALIZE, headers: auth })).status).toBe(
      404,
    );
  });
});

describe("stateless instances behind a load balancer", () => {
  it("one client's requests can land on different instances", async () => {
    const a = await serveMcp(toolkit, { transport: "http", port: 0 });
    const b = await serveMcp(toolkit, { transport: "http", port: 0 });
    const ports = [a.port!, b.port!];
    const seen: number[] = [];
    let next = 0;
    // A round-robin "load balancer" in the client's fetch: every request goes to the next instance.
    const roundRobin: typeof fetch = (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      url.port = String(ports[next++ % 2]);
      seen.push(Number(url.port));
      return fetch(url, init);
    };
    const balanced = await connectHttp(a.url!, {}, roundRobin);
    try {
      expect((await balanced.listTools()).tools).toHaveLength(5);
      expect(textOf(await balanced.callTool({ name: "add", arguments: { a: 20, b: 22 } }))).toBe("42");
      expect(textOf(await balanced.callTool({ name: "add", arguments: { a: 1, b: 2 } }))).toBe("3");
      expect(new Set(seen)).toEqual(new Set(ports));
    } finally {
      await balanced.close();
      await a.close();
      await b.close();
    }
  });
});

describe("graceful shutdown", () => {
  it("finishes the calls in flight, then stops accepting connections", async () => {
    const local = await serveMcp(toolkit, { transport: "http", port: 0 });
    const early = await connectHttp(local.url!);
    const inFlight = early.callTool({ name: "wait", arguments: { ms: 400, label: "shutdown-finish" } });
    await eventually("the call to start", async () => {
      const seen = JSON.parse(textOf(await early.callTool({ name: "waitEvents", arguments: {} }))) as string[];
      return seen.includes("started shutdown-finish") ? true : undefined;
    });
    let closed = false;
    const closing = local.close().then(() => (closed = true));
    const result = await inFlight;
    expect(result).toEqual({
      content: [{ type: "text", text: "finished waiting for shutdown-finish" }],
      isError: false,
    });
    await closing;
    expect(closed).toBe(true);
    await expect(rawRequest(local.url!, { body: INITIALIZE })).rejects.toMatchObject({ code: "ECONNREFUSED" });
    await expect(local.closed).resolves.toBeUndefined();
    await early.close();
  });

  it("aborts the calls still running when the shutdown timeout passes", async () => {
    const local = await serveMcp(toolkit, { transport: "http", port: 0, shutdownTimeout: 200 });
    const early = await connectHttp(local.url!);
    const inFlight = early.callTool({ name: "wait", arguments: { ms: 60_000, label: "shutdown-abort" } });
    await eventually("the call to start", async () => {
      const seen = JSON.parse(textOf(await early.callTool({ name: "waitEvents", arguments: {} }))) as string[];
      return seen.includes("started shutdown-abort") ? true : undefined;
    });
    await local.close();
    const result = await inFlight;
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("shutting down");
    await early.close();
  });
});
