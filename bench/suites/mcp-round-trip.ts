/**
 * MCP round trip: one `tools/call` over streamable HTTP on 127.0.0.1, answered by `serveMcp`
 * and, as the baseline, by a bare server of the MCP SDK 2.x with the same tool
 * (`createMcpHandler` on `node:http`, as its README serves one). Both are called by the same
 * client, the SDK 1.x's, in the 2025 era, the one both serve: `serveMcp` is stateless there
 * and the SDK 2.x answers 2025-era requests with its stateless fallback. Sequential calls of
 * one client, and 20 clients calling at once (time per call of the whole batch).
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
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

async function clientsOf(url: string, count: number): Promise<Client[]> {
  return Promise.all(
    Array.from({ length: count }, async () => {
      const client = new Client({ name: "bench", version: "1.0.0" });
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      return client;
    }),
  );
}

const call = (client: Client) => client.callTool({ name: "echo", arguments: { value: 42 } });

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
  const ours = await clientsOf(toolnexus.url!, CONCURRENT_CLIENTS);
  const theirs = await clientsOf(bare.url, CONCURRENT_CLIENTS);
  try {
    for (const client of [ours[0]!, theirs[0]!]) {
      const answer = await call(client);
      if (JSON.stringify(answer.content) !== JSON.stringify([{ type: "text", text: "42" }]))
        throw new Error(`the MCP bench's servers must answer alike; got ${JSON.stringify(answer)}`);
    }
    // A round trip takes milliseconds: a few calls per sample, and one batch of 20 at once.
    const settings = { ...settingsFor(options), batch: 5 };
    const sequential = await compare({ toolnexus: () => call(ours[0]!), sdk: () => call(theirs[0]!) }, settings);
    const concurrent = await compare(
      {
        toolnexus: () => Promise.all(ours.map(call)),
        sdk: () => Promise.all(theirs.map(call)),
      },
      { ...settings, batch: 1 },
    );
    const baseline = "bare MCP SDK 2.x server (createMcpHandler), same tool, same client";
    const target = { text: "≤ 1.1×", maxRatio: 1.1 };
    const rows: BenchRow[] = [
      row(
        {
          suite: SUITE,
          case: "serveMcp over HTTP: one client, sequential tools/call",
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
          case: `serveMcp over HTTP: ${CONCURRENT_CLIENTS} clients calling at once`,
          value: concurrent.toolnexus! / CONCURRENT_CLIENTS / 1_000,
          baseline,
          baselineValue: concurrent.sdk! / CONCURRENT_CLIENTS / 1_000,
          unit: "µs/call (wall)",
        },
        target,
      ),
    ];
    return rows;
  } finally {
    await Promise.all([...ours, ...theirs].map((client) => client.close()));
    await toolnexus.close();
    await bare.close();
  }
};
