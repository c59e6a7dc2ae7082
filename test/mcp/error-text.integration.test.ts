/**
 * What an MCP client's user reads when the server answers with an error: the SDK's client puts
 * `MCP error <code>: ` in front of the server's text, so the server sends the text without it.
 * The prefix appears exactly once, over HTTP and on any other transport.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { defineTool, Toolkit } from "../../src";
import { createMcpServer, serveMcp, type McpServerHandle } from "../../src/mcp";
import { connectHttp } from "./support";

const toolkit = new Toolkit([
  defineTool({
    name: "getWeather",
    description: "Current weather for a city",
    inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
    execute: ({ city }) => `sunny in ${String(city)}`,
  }),
]);

async function errorOf(pending: Promise<unknown>): Promise<McpError> {
  const error = await pending.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof McpError)) throw new Error(`expected an McpError, got ${String(error)}`);
  return error;
}

function expectPrefixedOnce(error: McpError, text: string): void {
  expect(error.code).toBe(ErrorCode.InvalidParams);
  expect(error.message).toBe(`MCP error -32602: ${text}`);
}

/** Arguments no JSON object: sent as the wire carries them, past the client's own typing. */
const notAnObject = "city=Chennai" as unknown as Record<string, unknown>;

describe("MCP error texts, read through the SDK's client", () => {
  describe("over streamable HTTP", () => {
    let server: McpServerHandle;
    let client: Client;
    beforeAll(async () => {
      server = await serveMcp(toolkit, { transport: "http", port: 0 });
      client = await connectHttp(server.url!);
    });
    afterAll(async () => {
      await client?.close();
      await server?.close();
    });

    it("an unknown tool: the prefix once, then the toolkit's text", async () => {
      const error = await errorOf(client.callTool({ name: "getWether", arguments: {} }));
      expectPrefixedOnce(error, 'Unknown tool "getWether". Did you mean "getWeather"? Available tools: getWeather.');
    });

    it("arguments that are not an object: the prefix once", async () => {
      const error = await errorOf(client.callTool({ name: "getWeather", arguments: notAnObject }));
      expectPrefixedOnce(
        error,
        'Invalid params: tools/call "arguments" must be a JSON object; got string "city=Chennai".',
      );
    });
  });

  describe("on any transport (createMcpServer)", () => {
    it("an unknown tool: the prefix once", async () => {
      const server = createMcpServer(toolkit);
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      const client = new Client({ name: "error-text", version: "1.0.0" });
      await server.connect(serverSide);
      await client.connect(clientSide);
      try {
        const error = await errorOf(client.callTool({ name: "nope", arguments: {} }));
        expect(error.message.match(/MCP error/g)).toHaveLength(1);
        expect(error.message).toMatch(/^MCP error -32602: Unknown tool "nope"\./);
      } finally {
        await client.close();
        await server.close();
      }
    });
  });
});
