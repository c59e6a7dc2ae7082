// serveMcp over streamable HTTP on 127.0.0.1, and the official MCP client listing and calling its tool.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { serveMcp } from "toolnexus/mcp";
import { report, weatherToolkit } from "./weather-toolkit.mjs";

const server = await serveMcp(weatherToolkit(), { transport: "http", host: "127.0.0.1", port: 0 });
const client = new Client({ name: "toolnexus-matrix", version: "1.0.0" });
await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
const { tools } = await client.listTools();
const result = await client.callTool({ name: "get_weather", arguments: { city: "Chennai" } });
await client.close();
await server.close();
report({ tools: tools.map(({ name, inputSchema }) => ({ name, inputSchema })), result });
