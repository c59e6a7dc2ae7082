/**
 * createMcpHttpHandler mounted the way a framework mounts it: a plain Node server whose
 * "middleware" parses the JSON body first and passes it as `parsedBody`.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ErrorCode } from "@modelcontextprotocol/sdk/types.js";
import { defineTool, Toolkit } from "../../src";
import { createMcpHttpHandler, type McpHttpHandler } from "../../src/mcp";
import { connectHttp, INITIALIZE, jsonRpc, rawRequest, textOf } from "./support";

let release: (() => void) | undefined;
const whoami = defineTool({
  name: "whoami",
  description: "The user the host attached to this request",
  execute: (_args, ctx) => ({ user: ctx?.state?.user ?? null, provider: ctx?.provider }),
});
const hold = defineTool({
  name: "hold",
  description: "Answers once the test releases it",
  execute: () => new Promise<string>((resolve) => (release = () => resolve("released"))),
});

function listen(server: Server): Promise<string> {
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}/rpc`)),
  );
}

/** A tiny "framework": reads and parses the JSON body (as express.json() would), then calls the handler. */
function withBodyParser(handler: McpHttpHandler): Server {
  return createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      let body: unknown;
      try {
        body = chunks.length > 0 ? JSON.parse(Buffer.concat(chunks).toString("utf8")) : undefined;
      } catch {
        res.writeHead(400).end("bad json");
        return;
      }
      void handler(req, res, body);
    });
  });
}

describe("createMcpHttpHandler", () => {
  let handler: McpHttpHandler;
  let server: Server;
  let url: string;
  let client: Client;

  beforeAll(async () => {
    handler = createMcpHttpHandler(new Toolkit([whoami, hold]), {
      allowedHosts: ["tools.example.com", "127.0.0.1"],
      maxBodyBytes: 4096,
      jsonResponse: true,
      state: (req) => ({ user: req.headers["x-user"] ?? "anonymous" }),
    });
    server = withBodyParser(handler);
    url = await listen(server);
    client = await connectHttp(url, { "x-user": "ada" });
  });

  afterAll(async () => {
    await client?.close();
    await handler?.close();
    await new Promise((resolve) => server?.close(resolve));
  });

  it("serves tools from a pre-parsed body, at whatever path it is mounted", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(["whoami", "hold"]);
  });

  it("hands the host's state to the tools as ctx.state, with provider mcp", async () => {
    expect(JSON.parse(textOf(await client.callTool({ name: "whoami", arguments: {} })))).toEqual({
      user: "ada",
      provider: "mcp",
    });
  });

  it("answers with JSON bodies when jsonResponse is set", async () => {
    const answer = await rawRequest(url, { body: jsonRpc(3, "tools/list"), headers: { host: "tools.example.com" } });
    expect(answer.status).toBe(200);
    expect(answer.headers["content-type"]).toMatch(/^application\/json/);
    expect(answer.messages[0]).toMatchObject({ id: 3, result: { tools: [{ name: "whoami" }, { name: "hold" }] } });
  });

  it("checks Host against the configured allowlist (names with any port, or exact host:port)", async () => {
    expect((await rawRequest(url, { body: INITIALIZE, headers: { host: "tools.example.com:8443" } })).status).toBe(200);
    const refused = await rawRequest(url, { body: INITIALIZE, headers: { host: "localhost" } });
    expect(refused.status).toBe(403);
    expect(refused.messages[0]).toMatchObject({
      jsonrpc: "2.0",
      id: null,
      error: { code: ErrorCode.ConnectionClosed },
    });
    expect((await rawRequest(url, { body: INITIALIZE, headers: { host: "tools.example.com.evil.net" } })).status).toBe(
      403,
    );
  });

  it("refuses a declared Content-Length over maxBodyBytes even with a parsed body", async () => {
    const body = JSON.stringify({
      jsonrpc: "2.0",
      id: 4,
      method: "tools/call",
      params: { name: "whoami", arguments: { pad: "x".repeat(5000) } },
    });
    const answer = await rawRequest(url, { body });
    expect(answer.status).toBe(413);
    expect(answer.messages[0]!.error.message).toContain("limit is 4096 bytes");
  });

  it("validates the JSON-RPC shape of a parsed body too", async () => {
    const answer = await rawRequest(url, { body: '{"jsonrpc":"2.0","method":42,"id":5}' });
    expect(answer.status).toBe(400);
    expect(answer.messages[0]!.error.code).toBe(ErrorCode.InvalidRequest);
  });

  it("close() waits for the requests in flight, answers 503 meanwhile, then resolves", async () => {
    const second = createMcpHttpHandler(new Toolkit([whoami, hold]));
    const secondServer = createServer((req, res) => void second(req, res));
    const secondUrl = await listen(secondServer);
    const holder = await connectHttp(secondUrl);
    try {
      release = undefined;
      const pending = holder.callTool({ name: "hold", arguments: {} });
      // The call is in flight once the tool has handed out its release function.
      for (let i = 0; release === undefined && i < 500; i++) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(release).toBeDefined();
      expect(second.activeRequests).toBe(1);

      let closed = false;
      const closing = second.close().then(() => (closed = true));
      const refused = await rawRequest(secondUrl, { body: INITIALIZE });
      expect(refused.status).toBe(503);
      expect(refused.headers.connection).toBe("close");
      expect(closed).toBe(false);

      release!();
      expect(textOf(await pending)).toBe("released");
      await closing;
      expect(second.activeRequests).toBe(0);
    } finally {
      await holder.close();
      await new Promise((resolve) => secondServer.close(resolve));
    }
  });

  it("maps a tool name MCP does not allow to one it does, and calls back through it", async () => {
    const refund = defineTool({ name: "billing:refund", description: "Refunds an order", execute: () => "refunded" });
    const mapped = createMcpHttpHandler(new Toolkit([refund]));
    const mappedServer = createServer((req, res) => void mapped(req, res));
    const mappedClient = await connectHttp(await listen(mappedServer));
    try {
      expect((await mappedClient.listTools()).tools.map((tool) => tool.name)).toEqual(["billing_refund"]);
      expect(await mappedClient.callTool({ name: "billing_refund", arguments: {} })).toEqual({
        content: [{ type: "text", text: "refunded" }],
        isError: false,
      });
    } finally {
      await mappedClient.close();
      await mapped.close();
      await new Promise((resolve) => mappedServer.close(resolve));
    }
  });

  it("rejects options that would make it unsafe or broken", () => {
    expect(() => createMcpHttpHandler(new Toolkit([whoami]), { token: "" })).toThrow("token must not be empty");
    expect(() => createMcpHttpHandler(new Toolkit([whoami]), { maxBodyBytes: 0 })).toThrow("maxBodyBytes");
  });
});
