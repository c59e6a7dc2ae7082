import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { request } from "node:http";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { patience } from "../support/time";
import { requireBuild } from "../support/built-package";

export const root = join(__dirname, "..", "..");
/** The built CLI: the tests run it the way users do. */
export const bin = join(root, "dist", "cjs", "cli", "main.js");
export const fixture = (name: string): string => join(root, "test", "fixtures", "cli", name);

export const assertBuilt = (): void => requireBuild("these tests run the built bin");

/** An SDK client connected over streamable HTTP. */
export async function connectHttp(
  url: string,
  headers: Record<string, string> = {},
  fetchImpl?: typeof fetch,
): Promise<Client> {
  const client = new Client({ name: "toolnexus-test", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers },
    ...(fetchImpl ? { fetch: fetchImpl } : {}),
  });
  await client.connect(transport);
  return client;
}

/** A fetch that hides the `Mcp-Session-Id` the server hands out: an SDK client given it never sends one, as a stateless client. */
export const withoutSessionId: typeof fetch = async (input, init) => {
  const response = await fetch(input, init);
  const headers = new Headers(response.headers);
  headers.delete("mcp-session-id");
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
};

/** Waits (polling, not timing) until `probe` returns a value that is not undefined. */
export async function eventually<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  timeoutMs = patience(15_000),
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The text of a CallToolResult's first content block. */
export function textOf(result: unknown): string {
  const content = (result as { content?: Array<{ type: string; text?: string }> }).content ?? [];
  return content[0]?.text ?? "";
}

/** A JSON-RPC message as parsed, read loosely by the assertions. */
type Message = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** The JSON-RPC message(s) of the body: a JSON body as is, an SSE body's `data:` lines parsed. */
  messages: Array<Message>;
}

/** A raw HTTP request (node:http, so that any Host header can be sent). */
export function rawRequest(
  url: string,
  {
    method = "POST",
    body,
    headers = {},
    chunked = false,
  }: { method?: string; body?: string; headers?: Record<string, string>; chunked?: boolean } = {},
): Promise<RawResponse> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method,
        headers: {
          accept: "application/json, text/event-stream",
          ...(body !== undefined
            ? { "content-type": "application/json", ...(chunked ? {} : { "content-length": Buffer.byteLength(body) }) }
            : {}),
          ...headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          let messages: Array<Message> = [];
          if (String(res.headers["content-type"]).startsWith("text/event-stream")) {
            messages = text
              .split("\n")
              .filter((line) => line.startsWith("data: "))
              .map((line) => JSON.parse(line.slice(6)));
          } else if (text !== "") {
            messages = [JSON.parse(text)].flat();
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, messages });
        });
      },
    );
    req.on("error", reject);
    if (body !== undefined && chunked) {
      // No Content-Length: the server only learns the size while reading.
      for (let i = 0; i < body.length; i += 64 * 1024) req.write(body.slice(i, i + 64 * 1024));
    } else if (body !== undefined) req.write(body);
    req.end();
  });
}

export const INITIALIZE = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
});

export function jsonRpc(id: number, method: string, params?: unknown): string {
  return JSON.stringify({ jsonrpc: "2.0", id, method, ...(params !== undefined ? { params } : {}) });
}

/** `toolnexus serve ... --http 127.0.0.1:0` as a child process; resolves with the URL it prints. */
export async function startCliHttpServer(
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ child: ChildProcessWithoutNullStreams; url: string; stderr: () => string }> {
  const child = spawn(process.execPath, [bin, "serve", ...args], { cwd: root, env: { ...process.env, ...env } });
  let stderr = "";
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (chunk: string) => (stderr += chunk));
  const url = await new Promise<string>((resolve, reject) => {
    const onData = () => {
      const match = /at (http:\/\/\S+)/.exec(stderr);
      if (match) {
        child.stderr.off("data", onData);
        resolve(match[1]!);
      }
    };
    child.stderr.on("data", onData);
    child.once("exit", (code) => reject(new Error(`toolnexus serve exited with ${code} before listening: ${stderr}`)));
  });
  return { child, url, stderr: () => stderr };
}

/** Resolves with the exit code once the child has exited. */
export function exited(child: ChildProcessWithoutNullStreams): Promise<number | null> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once("exit", (code) => resolve(code)));
}

/** What a JSON-RPC response of the tests' by-hand requests holds, read loosely. */
export interface ModernAnswer {
  result?: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  error?: { code: number; message: string; data?: unknown };
}

/** How a hand-made 2026-07-28 request is sent: its id, the client's capabilities, extra headers. */
export interface ModernRequestOptions {
  id?: number;
  capabilities?: object;
  headers?: Record<string, string>;
}

/**
 * A request of revision 2026-07-28 by hand, framed as an SDK 2.x client frames it (the `_meta`
 * envelope with the client's capabilities; `MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`):
 * the HTTP response, unread.
 */
export function modernPost(
  url: string,
  method: string,
  params: Record<string, unknown>,
  { id = 1, capabilities = {}, headers = {} }: ModernRequestOptions = {},
): Promise<Response> {
  const name = params.taskId ?? params.name;
  return fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...modernHeaders(method, typeof name === "string" ? name : undefined),
      ...headers,
    },
    body: JSON.stringify(modernBody(id, method, params, capabilities)),
  });
}

/**
 * `modernPost`, and its response read, whether a JSON body (a refusal before the era is known)
 * or an SSE stream.
 */
export async function modernRequest(
  url: string,
  method: string,
  params: Record<string, unknown>,
  options: ModernRequestOptions = {},
): Promise<ModernAnswer> {
  const text = await (await modernPost(url, method, params, options)).text();
  return JSON.parse(
    text.startsWith("{")
      ? text
      : text
          .split("\n")
          .find((line) => line.startsWith("data:"))!
          .slice(5),
  );
}

/** The headers of a 2026-07-28 request (the era is told by them and the `_meta` envelope). */
export function modernHeaders(method: string, name?: string): Record<string, string> {
  return {
    "mcp-protocol-version": "2026-07-28",
    "mcp-method": method,
    ...(name !== undefined ? { "mcp-name": name } : {}),
  };
}

/** A 2026-07-28 request body, framed as an SDK 2.x client frames it. */
export function modernBody(id: number, method: string, params: Record<string, unknown>, capabilities: object = {}) {
  return {
    jsonrpc: "2.0",
    id,
    method,
    params: {
      ...params,
      _meta: {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": { name: "toolnexus-test", version: "1.0.0" },
        "io.modelcontextprotocol/clientCapabilities": capabilities,
      },
    },
  };
}
