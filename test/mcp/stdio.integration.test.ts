/**
 * `toolnexus serve <module> --stdio`, spawned from the built bin, driven by the official SDK
 * client (StdioClientTransport) and by raw lines on its stdin.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { Client as ModernClient } from "@modelcontextprotocol/client";
import { StdioClientTransport as ModernStdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { assertBuilt, bin, eventually, exited, fixture, INITIALIZE, jsonRpc, root, textOf } from "./support";

function stdioClient(module: string): { client: Client; transport: StdioClientTransport; stderr: () => string } {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bin, "serve", fixture(module), "--stdio"],
    cwd: root,
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  return { client: new Client({ name: "toolnexus-stdio-test", version: "1.0.0" }), transport, stderr: () => stderr };
}

/** A JSON-RPC message as parsed, read loosely by the assertions. */
type Message = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** A raw `serve --stdio` process and the JSON-RPC messages it writes, one per stdout line. */
function rawServer(module: string): {
  child: ChildProcessWithoutNullStreams;
  messages: Array<Message>;
  lines: string[];
  send: (line: string) => void;
} {
  const child = spawn(process.execPath, [bin, "serve", fixture(module), "--stdio"], { cwd: root });
  const messages: Array<Message> = [];
  const lines: string[] = [];
  let buffer = "";
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (chunk: string) => {
    buffer += chunk;
    let newline: number;
    while ((newline = buffer.indexOf("\n")) !== -1) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + 1);
      lines.push(line);
      messages.push(JSON.parse(line) as Message);
    }
  });
  return { child, messages, lines, send: (line) => child.stdin.write(`${line}\n`) };
}

beforeAll(assertBuilt);

describe("serve --stdio with the SDK client", () => {
  const { client, transport, stderr } = stdioClient("services.ts");

  beforeAll(async () => {
    await client.connect(transport);
  });
  afterAll(async () => {
    await client.close();
  });

  it("announces itself on stderr, never on stdout", async () => {
    await eventually("the banner", async () =>
      stderr().includes("serving 5 tools over MCP on stdio") ? true : undefined,
    );
    expect(client.getServerVersion()).toMatchObject({ name: "toolnexus" });
  });

  it("lists every tool with its schema and annotations (decorator metadata intact through the .ts loader)", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(["getWeather", "add", "charge", "wait", "waitEvents"]);
    // `add(a: number, b: number)` has no @Param: its types come from design:paramtypes alone.
    expect(tools.find((tool) => tool.name === "add")!.inputSchema).toEqual({
      type: "object",
      properties: { a: { type: "number" }, b: { type: "number" } },
      required: ["a", "b"],
      additionalProperties: false,
    });
    expect(tools.find((tool) => tool.name === "getWeather")!.annotations).toEqual({
      title: "Weather",
      readOnlyHint: true,
    });
  });

  it("calls a tool", async () => {
    expect(await client.callTool({ name: "add", arguments: { a: 19, b: 23 } })).toEqual({
      content: [{ type: "text", text: "42" }],
      isError: false,
    });
  });

  it("a failing tool is isError: true, not a JSON-RPC error", async () => {
    expect(await client.callTool({ name: "charge", arguments: { amount: 1 } })).toEqual({
      content: [{ type: "text", text: "payment provider unavailable (charging 1 cents)" }],
      isError: true,
    });
  });

  it("an unknown tool is the SDK's invalid-params error", async () => {
    const error = await client.callTool({ name: "nope", arguments: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(ErrorCode.InvalidParams);
    expect((error as McpError).message).toContain('Unknown tool "nope"');
  });

  it("a client's cancellation reaches the tool's ctx.signal", async () => {
    const events = async () =>
      JSON.parse(textOf(await client.callTool({ name: "waitEvents", arguments: {} }))) as string[];
    const controller = new AbortController();
    const outcome = client
      .callTool({ name: "wait", arguments: { ms: 60_000, label: "stdio-cancel" } }, undefined, {
        signal: controller.signal,
      })
      .then(
        () => "resolved",
        () => "rejected",
      );
    await eventually("the call to start", async () =>
      (await events()).includes("started stdio-cancel") ? true : undefined,
    );
    controller.abort(new Error("stop waiting"));
    expect(await outcome).toBe("rejected");
    const seen = await eventually("the tool to see the abort", async () => {
      const all = await events();
      return all.some((event) => event.startsWith("aborted stdio-cancel")) ? all : undefined;
    });
    expect(seen.find((event) => event.startsWith("aborted stdio-cancel"))).toContain("stop waiting");
  });
});

describe("serve --stdio with a client of revision 2026-07-28 (MCP SDK 2.x)", () => {
  const client = new ModernClient(
    { name: "toolnexus-stdio-modern", version: "1.0.0" },
    { versionNegotiation: { mode: "auto" } },
  );

  beforeAll(async () => {
    await client.connect(
      new ModernStdioClientTransport({
        command: process.execPath,
        args: [bin, "serve", fixture("services.ts"), "--stdio"],
        cwd: root,
      }),
    );
  });
  afterAll(async () => {
    await client.close();
  });

  it("negotiates the modern era, lists and calls", async () => {
    expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual([
      "getWeather",
      "add",
      "charge",
      "wait",
      "waitEvents",
    ]);
    expect(await client.callTool({ name: "add", arguments: { a: 19, b: 23 } })).toMatchObject({
      content: [{ type: "text", text: "42" }],
      isError: false,
    });
  });

  it("a client's cancellation reaches the tool's ctx.signal", async () => {
    const events = async () =>
      JSON.parse(textOf(await client.callTool({ name: "waitEvents", arguments: {} }))) as string[];
    const controller = new AbortController();
    const outcome = client
      .callTool({ name: "wait", arguments: { ms: 60_000, label: "modern-cancel" } }, { signal: controller.signal })
      .then(
        () => "resolved",
        () => "rejected",
      );
    await eventually("the call to start", async () =>
      (await events()).includes("started modern-cancel") ? true : undefined,
    );
    controller.abort(new Error("stop waiting"));
    expect(await outcome).toBe("rejected");
    await eventually("the tool to see the abort", async () =>
      (await events()).some((event) => event.startsWith("aborted modern-cancel")) ? true : undefined,
    );
  });
});

describe("serve --stdio, raw", () => {
  it("answers malformed lines with JSON-RPC errors and keeps answering", async () => {
    const server = rawServer("services.ts");
    try {
      server.send(INITIALIZE);
      server.send('{"jsonrpc":"2.0","method":"notifications/initialized"}');
      server.send('{"jsonrpc": "2.0", "id": 2, "method": "tools/li');
      server.send(jsonRpc(3, "tools/call", { name: "add", arguments: { a: 1, b: 2 } }));
      server.send('{"jsonrpc":"2.0","id":4}');
      server.send("not json at all");
      server.send(jsonRpc(5, "tools/list"));
      await eventually("six answers", async () => (server.messages.length >= 6 ? true : undefined));
      const rest = server.messages;
      const byId = (id: number) => rest.find((message) => message.id === id);
      expect(byId(1)).toMatchObject({ result: { serverInfo: { name: "toolnexus" } } });
      expect(byId(3)).toMatchObject({ result: { content: [{ type: "text", text: "3" }], isError: false } });
      expect(byId(5)!.result.tools).toHaveLength(5);
      const errors = rest.filter((message) => message.id === undefined).map((message) => message.error.code);
      expect(errors.sort()).toEqual([ErrorCode.ParseError, ErrorCode.ParseError, ErrorCode.InvalidRequest].sort());
    } finally {
      server.child.kill();
      await exited(server.child);
    }
  });

  it("keeps stdout for the protocol: what a tool logs goes to stderr", async () => {
    const server = rawServer("tools.js");
    let stderr = "";
    server.child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    try {
      server.send(INITIALIZE);
      server.send(jsonRpc(2, "tools/call", { name: "shout", arguments: { text: "hello" } }));
      await eventually("the answer", async () => (server.messages.length >= 2 ? true : undefined));
      expect(server.messages[1]).toMatchObject({ id: 2, result: { content: [{ text: "HELLO" }] } });
      expect(stderr).toContain("shouting hello");
      expect(server.lines.every((line) => line.startsWith("{"))).toBe(true);
    } finally {
      server.child.kill();
      await exited(server.child);
    }
  });

  it("when the client closes stdin, finishes the call in flight, answers it, and exits 0", async () => {
    const server = rawServer("services.ts");
    server.send(INITIALIZE);
    server.send(jsonRpc(2, "tools/call", { name: "wait", arguments: { ms: 300, label: "stdin-end" } }));
    server.send(jsonRpc(3, "tools/call", { name: "waitEvents", arguments: {} }));
    // Answered in order of reading: once 3 is answered, call 2 is in flight.
    await eventually("the waitEvents answer", async () => (server.messages.some((m) => m.id === 3) ? true : undefined));
    server.child.stdin.end();
    expect(await exited(server.child)).toBe(0);
    expect(server.messages.find((m) => m.id === 2)).toMatchObject({
      result: { content: [{ text: "finished waiting for stdin-end" }], isError: false },
    });
  });

  it("on SIGTERM, finishes the call in flight, answers it, and exits 0", async () => {
    const server = rawServer("services.ts");
    server.send(INITIALIZE);
    server.send(jsonRpc(2, "tools/call", { name: "wait", arguments: { ms: 300, label: "sigterm" } }));
    server.send(jsonRpc(3, "tools/call", { name: "waitEvents", arguments: {} }));
    // Answered in order of reading: once 3 is answered, call 2 is in flight.
    await eventually("the waitEvents answer", async () => (server.messages.some((m) => m.id === 3) ? true : undefined));
    server.child.kill("SIGTERM");
    expect(await exited(server.child)).toBe(0);
    expect(server.messages.find((m) => m.id === 2)).toMatchObject({
      result: { content: [{ text: "finished waiting for sigterm" }], isError: false },
    });
  });
});
