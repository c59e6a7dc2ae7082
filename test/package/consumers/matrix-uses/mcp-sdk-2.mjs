// fromMcp with a client of the MCP SDK 2.x: against a server of the SDK 2.x speaking revision
// 2026-07-28, and against serveMcp, which speaks it too (and the 2025 revisions to 1.x clients).
import { createServer } from "node:http";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { toNodeHandler } from "@modelcontextprotocol/node";
import { createMcpHandler, fromJsonSchema, McpServer } from "@modelcontextprotocol/server";
import { Toolkit } from "toolnexus";
import { fromMcp, serveMcp } from "toolnexus/mcp";
import { report, weatherToolkit } from "./weather-toolkit.mjs";

const modernServer = () => {
  const server = new McpServer({ name: "weather-2026", version: "1.0.0" });
  const city = { type: "object", properties: { city: { type: "string" } }, required: ["city"] };
  server.registerTool(
    "get_weather",
    { description: "Current weather", inputSchema: fromJsonSchema(city) },
    async (args) => ({
      content: [{ type: "text", text: `sunny in ${args.city}, says 2026` }],
    }),
  );
  return server;
};
const http = createServer(toNodeHandler(createMcpHandler(modernServer)));
await new Promise((resolve) => http.listen(0, "127.0.0.1", resolve));
const served = await serveMcp(weatherToolkit(), { transport: "http", host: "127.0.0.1", port: 0 });

async function throughFromMcp(url) {
  const client = new Client({ name: "toolnexus-matrix", version: "1.0.0" }, { versionNegotiation: { mode: "auto" } });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  const result = await new Toolkit(await fromMcp(client)).execute("get_weather", { city: "Chennai" });
  const seen = { era: client.getProtocolEra(), version: client.getNegotiatedProtocolVersion(), result };
  await client.close();
  return seen;
}

const modern = await throughFromMcp(`http://127.0.0.1:${http.address().port}/mcp`);
const throughServeMcp = await throughFromMcp(served.url);
await served.close();
http.closeAllConnections();
http.close();
report({ modern, served: throughServeMcp });
