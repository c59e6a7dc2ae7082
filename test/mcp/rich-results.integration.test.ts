/**
 * Rich results through the official MCP SDK Client, in memory and over HTTP: tools/list
 * declares each tool's outputSchema, and the client's callTool (which checks structuredContent
 * against it) receives structured results, image and audio blocks, embedded resources and
 * links. A tool whose result breaks its schema answers with an error result (`invalid_output`),
 * never a protocol error.
 */
import "reflect-metadata";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
} from "@modelcontextprotocol/sdk/types.js";
import {
  audio,
  defineTool,
  file,
  image,
  resourceLink,
  toMcp,
  Tool,
  Toolkit,
  type JSONSchemaObject,
  type Tool as ToolShape,
} from "toolnexus";
import { createMcpServer, serveMcp, toMcpResult, type McpServerHandle } from "../../src/mcp";
import { connectHttp } from "./support";

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
const WAV = Buffer.concat([Buffer.from("RIFF"), Buffer.from([36, 0, 0, 0]), Buffer.from("WAVEfmt ")]);
const PDF = Buffer.from("%PDF-1.7\n%EOF\n");
const NOTES = "first line\nsecond line\n";
const b64 = (bytes: Buffer) => bytes.toString("base64");

const FIGURES: JSONSchemaObject = {
  type: "object",
  properties: { quarter: { type: "string", pattern: "^Q[1-4]$" }, revenue: { type: "number", minimum: 0 } },
  required: ["quarter", "revenue"],
  additionalProperties: false,
};

class Reports {
  @Tool({ description: "Quarterly figures", output: FIGURES })
  figures(quarter: string) {
    // Q0 is a bug in the tool: its result breaks the promise of its output schema.
    return quarter === "Q0" ? { quarter, revenue: -1 } : { quarter, revenue: 1250 };
  }
}

const quote = defineTool({
  name: "quote",
  description: "Quote a price",
  inputSchema: { type: "object", properties: { sku: { type: "string" } }, required: ["sku"] },
  outputSchema: {
    type: "object",
    properties: { sku: { type: "string" }, price: { type: "number" } },
    required: ["sku", "price"],
  },
  execute: ({ sku }) => (sku === "missing" ? { output: "No such product", isError: true } : { sku, price: 12.5 }),
});

/** Promises structured results, but answers a success with text only (a ToolResult it wrote). */
const careless = defineTool({
  name: "careless",
  description: "Forgets its structured result",
  outputSchema: { type: "object", properties: { done: { type: "boolean" } } },
  execute: () => ({ output: "done", isError: false }),
});

/** The same, as a hand-written Tool object: nothing of toolnexus checks what it returns. */
const handWritten: ToolShape = {
  name: "hand_written",
  description: "Forgets its structured result too",
  inputSchema: { type: "object", properties: {} },
  outputSchema: { type: "object", properties: { done: { type: "boolean" } } },
  source: "custom",
  execute: async () => ({ output: "done", isError: false }),
};

const media = [
  defineTool({
    name: "chart",
    description: "A chart",
    execute: () => [{ type: "text", text: "Sales by month" }, image(PNG)],
  }),
  defineTool({ name: "voice", description: "A voice note", execute: () => audio(WAV) }),
  defineTool({
    name: "report",
    description: "The quarterly report",
    execute: () => [file(PDF, "application/pdf", "report.pdf"), file(Buffer.from(NOTES), "text/plain", "notes.txt")],
  }),
  defineTool({
    name: "links",
    description: "Where things are",
    execute: () => [
      image(new URL("https://example.com/pets/cat.png")),
      file(new URL("https://example.com/q3.pdf"), "application/pdf", "q3.pdf"),
      resourceLink("https://example.com/logs/today", {
        name: "today.log",
        mimeType: "text/plain",
        description: "Today's log",
      }),
    ],
  }),
];

const toolkit = new Toolkit([new Reports(), quote, careless, handWritten, ...media]);

async function connectInMemory(): Promise<{ client: Client; close: () => Promise<void> }> {
  const server = createMcpServer(toolkit);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "toolnexus-test", version: "1.0.0" });
  await client.connect(clientSide);
  return { client, close: () => client.close() };
}

async function connectOverHttp(): Promise<{ client: Client; close: () => Promise<void> }> {
  const handle: McpServerHandle = await serveMcp(toolkit, { transport: "http", port: 0 });
  const client = await connectHttp(handle.url!);
  return {
    client,
    close: async () => {
      await client.close();
      await handle.close();
    },
  };
}

describe.each([
  ["in memory", connectInMemory],
  ["over HTTP", connectOverHttp],
])("the SDK client, %s", (_transport, connect) => {
  let client: Client;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ client, close } = await connect());
    // callTool checks structured results against the output schemas tools/list gave it.
    await client.listTools();
  });

  afterAll(async () => {
    await close?.();
  });

  it("tools/list declares each output schema, and none for tools without one", async () => {
    const { tools } = await client.listTools();
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    expect(byName.get("figures")!.outputSchema).toEqual(FIGURES);
    expect(byName.get("quote")!.outputSchema).toEqual(quote.outputSchema);
    expect(byName.get("chart")!.outputSchema).toBeUndefined();
  });

  it("receives structuredContent matching the output schema (callTool checked it), with its JSON text", async () => {
    expect(await client.callTool({ name: "figures", arguments: { quarter: "Q3" } })).toEqual({
      content: [{ type: "text", text: '{"quarter":"Q3","revenue":1250}' }],
      structuredContent: { quarter: "Q3", revenue: 1250 },
      isError: false,
    });
    expect((await client.callTool({ name: "quote", arguments: { sku: "A-1" } })).structuredContent).toEqual({
      sku: "A-1",
      price: 12.5,
    });
  });

  it("a result that breaks the output schema is an error result (invalid_output), not a protocol error", async () => {
    const result = (await client.callTool({ name: "figures", arguments: { quarter: "Q0" } })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    expect(result.content).toEqual([
      {
        type: "text",
        text: expect.stringContaining('Tool "figures" returned a result that does not match its output schema'),
      },
    ]);
    expect((result.content[0] as { text: string }).text).toMatch(/"quarter".*pattern|"revenue" must be >= 0/);
  });

  it("an error of a tool with an output schema reaches the client as an error result", async () => {
    expect(await client.callTool({ name: "quote", arguments: { sku: "missing" } })).toEqual({
      content: [{ type: "text", text: "No such product" }],
      isError: true,
    });
  });

  it.each(["careless", "hand_written"])(
    "a success without structuredContent from a tool that declares an output schema (%s) is an invalid_output error result",
    async (name) => {
      expect(await client.callTool({ name, arguments: {} })).toEqual({
        content: [
          {
            type: "text",
            text: `Tool "${name}" returned a result that does not match its output schema:\n- the result has no structuredContent`,
          },
        ],
        isError: true,
      });
    },
  );

  it("receives an image block beside the text", async () => {
    expect(await client.callTool({ name: "chart", arguments: {} })).toEqual({
      content: [
        { type: "text", text: "Sales by month" },
        { type: "image", data: b64(PNG), mimeType: "image/png" },
      ],
      isError: false,
    });
  });

  it("receives an audio block", async () => {
    expect((await client.callTool({ name: "voice", arguments: {} })).content).toEqual([
      { type: "audio", data: b64(WAV), mimeType: "audio/wav" },
    ]);
  });

  it("receives files as embedded resources: a PDF as blob, a text file as text", async () => {
    expect((await client.callTool({ name: "report", arguments: {} })).content).toEqual([
      {
        type: "resource",
        resource: { uri: "toolnexus://result/report.pdf", mimeType: "application/pdf", blob: b64(PDF) },
      },
      { type: "resource", resource: { uri: "toolnexus://result/notes.txt", mimeType: "text/plain", text: NOTES } },
    ]);
  });

  it("receives what is only linked as resource_link blocks", async () => {
    expect((await client.callTool({ name: "links", arguments: {} })).content).toEqual([
      { type: "resource_link", uri: "https://example.com/pets/cat.png", name: "cat.png" },
      { type: "resource_link", uri: "https://example.com/q3.pdf", name: "q3.pdf", mimeType: "application/pdf" },
      {
        type: "resource_link",
        uri: "https://example.com/logs/today",
        name: "today.log",
        mimeType: "text/plain",
        description: "Today's log",
      },
    ]);
  });
});

describe("why structured results must match: the client refuses those that do not", () => {
  it("a server that sent non-matching structuredContent would fail the client's callTool", async () => {
    // A bare SDK server answering with what toolnexus would send if it did not check results.
    const server = new Server({ name: "unchecked", version: "1.0.0" }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, () => ({
      tools: toMcp([new Toolkit([new Reports()]).tools()[0]!]),
    }));
    server.setRequestHandler(CallToolRequestSchema, () =>
      toMcpResult({ output: "{}", isError: false, structuredContent: { quarter: "Q0", revenue: -1 } }),
    );
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: "toolnexus-test", version: "1.0.0" });
    await client.connect(clientSide);
    await client.listTools();
    const refused = await client
      .callTool({ name: "figures", arguments: { quarter: "Q0" } })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(McpError);
    expect((refused as McpError).message).toContain("does not match the tool's output schema");
    await client.close();
  });
});
