/**
 * MCP round trip: one `tools/call` over streamable HTTP on 127.0.0.1, answered by `serveMcp`
 * and, as the baseline, by a bare server of the MCP SDK 2.x with the same tool
 * (`createMcpHandler` on `node:http`, as its README serves one). Both are called by the same
 * clients in each era: the SDK 2.x's client on revision 2026-07-28, and the SDK 1.x's in the
 * 2025 era (stateless on both servers: the SDK 2.x answers it with its stateless fallback).
 * Sequential calls of one client, and 20 clients calling at once (time per call of the batch).
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from "@modelcontextprotocol/client";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { toNodeHandler } from "@modelcontextprotocol/node";
import { createMcpHandler, fromJsonSchema, McpServer } from "@modelcontextprotocol/server";
import { defineTool } from "../../src";
import { serveMcp } from "../../src/mcp";
import { compare, row, settingsFor } from "../harness";
import type { BenchRow, BenchSuite } from "../types";

const SUITE = "MCP round trip";
const CONCURRENT_CLIENTS = 20;
const ECHO_INPUT = { type: "object", properties: { value: { type: "number" } }, required: ["value"] } as const;

/** The bare SDK 2.x server: a server per request from one factory, both eras. */
async function bareSdkServer(): Promise<{ url: string; close: () => Promise<void> }> {
  const factory = () => {
    const server = new McpServer({ name: "bare", version: "1.0.0" });
    server.registerTool(
      "echo",
      {
        description: "Echo a value",
        inputSchema: fromJsonSchema<{ value: number }>({ ...ECHO_INPUT, required: ["value"] }),
      },
      async ({ value }) => ({ content: [{ type: "text", text: String(value) }] }),
    );
    return server;
  };
  const http: Server = createServer(toNodeHandler(createMcpHandler(factory)));
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`,
    close: () => {
      http.closeAllConnections();
      return new Promise((resolve) => http.close(() => resolve()));
    },
  };
}

/** What the bench needs of a client of either SDK. */
interface BenchClient {
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
  close(): Promise<void>;
}

/** The clients of one era: how to connect one, and what the rows call it. */
const ERAS: Array<{ era: string; connect: (url: string) => Promise<BenchClient> }> = [
  {
    era: "revision 2026-07-28, SDK 2.x client",
    connect: async (url) => {
      const client = new ModernClient({ name: "bench", version: "1.0.0" }, { versionNegotiation: { mode: "auto" } });
      await client.connect(new ModernTransport(new URL(url)));
      if (client.getNegotiatedProtocolVersion() !== "2026-07-28")
        throw new Error(`the modern rows need revision 2026-07-28; got ${client.getNegotiatedProtocolVersion()}`);
      return client;
    },
  },
  {
    era: "2025 era, SDK 1.x client",
    connect: async (url) => {
      const client = new Client({ name: "bench", version: "1.0.0" });
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      return client;
    },
  },
];

const call = (client: BenchClient) => client.callTool({ name: "echo", arguments: { value: 42 } });

export const run: BenchSuite = async (options) => {
  const toolnexus = await serveMcp(
    [
      defineTool({
        name: "echo",
        description: "Echo a value",
        inputSchema: { type: "object", properties: { value: { type: "number" } }, required: ["value"] },
        validate: true,
        execute: ({ value }) => String(value),
      }),
    ],
    { transport: "http", port: 0 },
  );
  const bare = await bareSdkServer();
  const rows: BenchRow[] = [];
  const baseline = "bare MCP SDK 2.x server (createMcpHandler), same tool, same client";
  const target = { text: "≤ 1.1×", maxRatio: 1.1 };
  // A round trip takes milliseconds: a few calls per sample, and one batch of 20 at once.
  const settings = { ...settingsFor(options), batch: 5 };
  try {
    for (const { era, connect } of ERAS) {
      const clientsOf = (url: string) => Promise.all(Array.from({ length: CONCURRENT_CLIENTS }, () => connect(url)));
      const ours = await clientsOf(toolnexus.url!);
      const theirs = await clientsOf(bare.url);
      try {
        for (const client of [ours[0]!, theirs[0]!]) {
          const answer = (await call(client)) as { content?: unknown };
          if (JSON.stringify(answer.content) !== JSON.stringify([{ type: "text", text: "42" }]))
            throw new Error(`the MCP bench's servers must answer alike; got ${JSON.stringify(answer)}`);
        }
        const sequential = await compare({ toolnexus: () => call(ours[0]!), sdk: () => call(theirs[0]!) }, settings);
        const concurrent = await compare(
          { toolnexus: () => Promise.all(ours.map(call)), sdk: () => Promise.all(theirs.map(call)) },
          { ...settings, batch: 1 },
        );
        rows.push(
          row(
            {
              suite: SUITE,
              case: `serveMcp over HTTP, ${era}: one client, sequential tools/call`,
              value: sequential.toolnexus! / 1_000,
              baseline,
              baselineValue: sequential.sdk! / 1_000,
              unit: "µs/call",
            },
            target,
          ),
          row(
            {
              suite: SUITE,
              case: `serveMcp over HTTP, ${era}: ${CONCURRENT_CLIENTS} clients calling at once`,
              value: concurrent.toolnexus! / CONCURRENT_CLIENTS / 1_000,
              baseline,
              baselineValue: concurrent.sdk! / CONCURRENT_CLIENTS / 1_000,
              unit: "µs/call (wall)",
            },
            target,
          ),
        );
      } finally {
        await Promise.all([...ours, ...theirs].map((client) => client.close()));
      }
    }
    return rows;
  } finally {
    await toolnexus.close();
    await bare.close();
  }
};
