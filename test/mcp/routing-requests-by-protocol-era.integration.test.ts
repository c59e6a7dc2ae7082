/**
 * Which side of `serveMcp` answers a request: 2026-07-28 requests (the per-request `_meta`
 * envelope, or a modern `MCP-Protocol-Version`) go to the MCP SDK 2.x, everything else to the
 * 2025-era server. The split agrees with the SDK 2.x's own `isLegacyRequest` on every shape.
 */
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import fc from "fast-check";
import { isLegacyRequest } from "@modelcontextprotocol/server";
import { claimsModernEra } from "../../src/mcp/modern-era";

const ENVELOPE = { "io.modelcontextprotocol/protocolVersion": "2026-07-28" };

async function sdkSaysModern(body: unknown, headers: Record<string, string> = {}): Promise<boolean> {
  const request = new Request("http://127.0.0.1/mcp", {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
    body: JSON.stringify(body),
  });
  return !(await isLegacyRequest(request, body));
}

const cases: Array<[string, unknown, Record<string, string>?]> = [
  ["initialize", { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25" } }],
  [
    "a 2025 tools/call",
    { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "a" } },
    { "mcp-protocol-version": "2025-11-25" },
  ],
  [
    "server/discover with the envelope",
    { jsonrpc: "2.0", id: 3, method: "server/discover", params: { _meta: ENVELOPE } },
  ],
  [
    "tools/call with the envelope",
    { jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "a", _meta: ENVELOPE } },
  ],
  [
    "an envelope naming an unknown revision",
    {
      jsonrpc: "2.0",
      id: 5,
      method: "tools/list",
      params: { _meta: { "io.modelcontextprotocol/protocolVersion": "2031-01-01" } },
    },
  ],
  [
    "a modern header without the envelope",
    { jsonrpc: "2.0", id: 6, method: "tools/list" },
    { "mcp-protocol-version": "2026-07-28" },
  ],
  ["a 2025 notification", { jsonrpc: "2.0", method: "notifications/initialized" }],
  ["a batch", [{ jsonrpc: "2.0", id: 7, method: "tools/list" }]],
  ["a posted response", { jsonrpc: "2.0", id: 8, result: {} }],
  ["a claim-less server/discover", { jsonrpc: "2.0", id: 9, method: "server/discover" }],
];

describe("claimsModernEra", () => {
  it.each(cases)("agrees with the SDK 2.x on %s", async (_name, body, headers = {}) => {
    expect(claimsModernEra(body, headers as IncomingHttpHeaders)).toBe(await sdkSaysModern(body, headers));
  });

  it("agrees with the SDK 2.x on any request with or without an envelope and a version header", async () => {
    const version = fc.constantFrom("2024-11-05", "2025-06-18", "2025-11-25", "2026-07-28", "2027-01-01");
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("tools/list", "tools/call", "ping", "server/discover"),
        fc.option(version, { nil: undefined }),
        fc.option(version, { nil: undefined }),
        async (method, inEnvelope, inHeader) => {
          const body = {
            jsonrpc: "2.0",
            id: 1,
            method,
            params:
              inEnvelope === undefined ? {} : { _meta: { "io.modelcontextprotocol/protocolVersion": inEnvelope } },
          };
          const headers: Record<string, string> = inHeader === undefined ? {} : { "mcp-protocol-version": inHeader };
          expect(claimsModernEra(body, headers)).toBe(await sdkSaysModern(body, headers));
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe("a server without the MCP SDK 2.x", () => {
  it("answers a 2026-07-28 request with the revisions it speaks and what to install, so clients fall back", async () => {
    jest.resetModules();
    jest.doMock("@modelcontextprotocol/server", () => {
      throw Object.assign(new Error("Cannot find module '@modelcontextprotocol/server'"), { code: "MODULE_NOT_FOUND" });
    });
    let createMcpHttpHandler!: typeof import("../../src/mcp/http").createMcpHttpHandler;
    jest.isolateModules(() => ({ createMcpHttpHandler } = require("../../src/mcp/http")));
    const errors: Error[] = [];
    const handler = createMcpHttpHandler([], { onError: (error) => errors.push(error) });
    const http = createServer((req, res) => void handler(req, res));
    await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
    try {
      const response = await fetch(`http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "server/discover", params: { _meta: ENVELOPE } }),
      });
      const answer = (await response.json()) as { id: number; error: { code: number; message: string; data: unknown } };
      expect(answer).toMatchObject({
        id: 1,
        error: { code: -32022, data: { supported: expect.arrayContaining(["2025-11-25"]), requested: "2026-07-28" } },
      });
      expect(answer.error.message).toContain("npm install @modelcontextprotocol/server @modelcontextprotocol/node");
      expect(errors.map((error) => error.message)).toEqual([answer.error.message]);
    } finally {
      http.close();
      jest.dontMock("@modelcontextprotocol/server");
    }
  });
});

describe("an app with only the MCP SDK 2.x", () => {
  const V1_MODULES = [
    "@modelcontextprotocol/sdk/server/index.js",
    "@modelcontextprotocol/sdk/server/stdio.js",
    "@modelcontextprotocol/sdk/server/streamableHttp.js",
    "@modelcontextprotocol/sdk/types.js",
  ];
  afterEach(() => {
    for (const name of V1_MODULES) jest.dontMock(name);
  });

  it("imports toolnexus/mcp and uses fromMcp; serveMcp says what to install", async () => {
    jest.resetModules();
    for (const name of V1_MODULES)
      jest.doMock(name, () => {
        throw Object.assign(new Error(`Cannot find module '${name}'`), { code: "MODULE_NOT_FOUND" });
      });
    let entry!: typeof import("../../src/mcp");
    jest.isolateModules(() => (entry = require("../../src/mcp")));
    expect(typeof entry.fromMcp).toBe("function");
    expect(entry.DEFAULT_SHUTDOWN_TIMEOUT).toBe(10_000);
    await expect(entry.serveMcp([])).rejects.toThrow(
      "serveMcp needs @modelcontextprotocol/sdk (1.x), an optional peer dependency that is not installed",
    );
    expect(() => entry.createMcpHttpHandler([])).toThrow("npm install @modelcontextprotocol/sdk");
  });
});
