/**
 * What a remote MCP server answers is held to the rules a local tool's parts are held to
 * (addresses, mime types, bytes, names, sizes), refused into `metadata.unsentContent` when it
 * breaks one; each content block's `annotations` come along, those that are not MCP's shape
 * left out and listed in `metadata.unsentAnnotations`.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { defineTool, image, resourceLink, Toolkit, type ToolResult } from "toolnexus";
import { createMcpServer, fromMcp, type McpToolsClient } from "toolnexus/mcp";

const PNG = Buffer.from("89504e470d0a1a0a0000000d4948445200000001", "hex");
const PDF = Buffer.from("%PDF-1.7\n%EOF\n");
const HTML = Buffer.from("<html><script>alert(1)</script></html>");
const b64 = (bytes: Buffer) => bytes.toString("base64");

/** A stand-in client whose one tool answers every call with `content` (no SDK between: nothing checks it on the way). */
function answering(content: unknown[], extra: Record<string, unknown> = {}): McpToolsClient {
  return {
    listTools: async () => ({ tools: [{ name: "t", description: "t", inputSchema: { type: "object" } }] }),
    callTool: async () => ({ content, ...extra }),
    getServerVersion: () => ({ name: "remote" }),
    getServerCapabilities: () => ({ tools: {} }),
  };
}

async function callOnce(client: McpToolsClient): Promise<ToolResult> {
  const [tool] = await fromMcp(client);
  return tool!.execute({});
}

describe("fromMcp: the annotations of content blocks", () => {
  const annotations = { audience: ["assistant"], priority: 0.25, lastModified: "2025-01-12T15:00:58Z" };

  it("are kept on the parts of every kind of block", async () => {
    const result = await callOnce(
      answering([
        { type: "text", text: "Sales", annotations },
        { type: "image", data: b64(PNG), mimeType: "image/png", annotations },
        { type: "resource_link", uri: "https://example.com/q3", name: "q3", annotations },
        {
          type: "resource",
          resource: { uri: "file:///srv/q3.pdf", mimeType: "application/pdf", blob: b64(PDF) },
          annotations,
        },
        {
          type: "resource",
          resource: { uri: "file:///srv/notes.txt", mimeType: "text/plain", text: "notes" },
          annotations,
        },
      ]),
    );
    expect(result.content).toEqual([
      { type: "text", text: "Sales", annotations },
      { type: "image", data: b64(PNG), mimeType: "image/png", annotations },
      { type: "resource_link", uri: "https://example.com/q3", name: "q3", annotations },
      { type: "file", data: b64(PDF), mimeType: "application/pdf", name: "q3.pdf", annotations },
      { type: "text", text: "notes", annotations },
    ]);
    expect(result.metadata).toBeUndefined();
  });

  it("of a text-only answer make it a result with content, so that they are not lost", async () => {
    const result = await callOnce(answering([{ type: "text", text: "hi", annotations: { priority: 1 } }]));
    expect(result).toEqual({
      output: "hi",
      isError: false,
      content: [{ type: "text", text: "hi", annotations: { priority: 1 } }],
    });
  });

  it("that are not MCP's shape are left out, the part kept, and each listed in metadata.unsentAnnotations", async () => {
    const result = await callOnce(
      answering([
        { type: "text", text: "a", annotations: { audience: ["user", "root"], priority: 0.5 } },
        { type: "image", data: b64(PNG), mimeType: "image/png", annotations: { priority: 1.5, lastModified: "soon" } },
        { type: "text", text: "b", annotations: [1] },
      ]),
    );
    expect(result.content).toEqual([
      { type: "text", text: "a", annotations: { priority: 0.5 } },
      { type: "image", data: b64(PNG), mimeType: "image/png" },
      { type: "text", text: "b" },
    ]);
    expect(result.metadata?.unsentAnnotations).toEqual([
      {
        index: 0,
        type: "text",
        field: "audience",
        reason: 'audience must be a list of "user" and "assistant" (got an array)',
      },
      { index: 1, type: "image", field: "priority", reason: "priority must be a number from 0 to 1 (got 1.5)" },
      {
        index: 1,
        type: "image",
        field: "lastModified",
        reason: 'lastModified must be an RFC 3339 date-time, e.g. "2025-01-12T15:00:58Z" (got "soon")',
      },
      { index: 2, type: "text", field: "annotations", reason: "annotations must be an object (got an array)" },
    ]);
  });

  it("that the SDK client itself refuses (it checks results against MCP's schema) fail the call as the server's fault, not as bad arguments", async () => {
    const server = new Server({ name: "hand-made", version: "1.0.0" }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, () => ({
      tools: [{ name: "t", description: "t", inputSchema: { type: "object" } }],
    }));
    server.setRequestHandler(
      CallToolRequestSchema,
      () => ({ content: [{ type: "text", text: "x", annotations: { priority: 5 } }] }) as never,
    );
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: "from-mcp-content-test", version: "1.0.0" });
    await client.connect(clientSide);
    const result = await callOnce(client);
    expect(result).toMatchObject({
      isError: true,
      metadata: { error: "execution_failed", tool: "t", server: "hand-made" },
    });
    expect(result.output).toMatch(
      /^The MCP server "hand-made" answered the call of "t" with a result that does not follow the MCP schema, which the MCP SDK refuses: Invalid tools\/call result/,
    );
    await client.close();
    await server.close();
  });

  it("go from a toolnexus server to fromMcp and back unchanged, through the SDK on both ends", async () => {
    const remote = new Toolkit([
      defineTool({
        name: "chart",
        description: "A chart",
        execute: () => [
          { type: "text", text: "for you", annotations: { audience: ["user"] } },
          { ...image(PNG), annotations },
          resourceLink("https://example.com/data.csv", { name: "data.csv", annotations: { priority: 0 } }),
        ],
      }),
    ]);
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const server = createMcpServer(remote, { name: "charts" });
    await server.connect(serverSide);
    const client = new Client({ name: "from-mcp-content-test", version: "1.0.0" });
    await client.connect(clientSide);
    const [chart] = await fromMcp(client);
    expect((await chart!.execute({})).content).toEqual([
      { type: "text", text: "for you", annotations: { audience: ["user"] } },
      { ...image(PNG), annotations },
      { type: "resource_link", uri: "https://example.com/data.csv", name: "data.csv", annotations: { priority: 0 } },
    ]);
    await client.close();
    await server.close();
  });
});

describe("fromMcp: what a server sends is checked as a local tool's parts are", () => {
  it("refuses a resource link to a script or data: address, however it is written", async () => {
    const result = await callOnce(
      answering([
        { type: "text", text: "Open:" },
        { type: "resource_link", uri: " JavaScript:alert(1)", name: "report" },
        { type: "resource_link", uri: "Java\tScript:alert(1)", name: "report" },
        { type: "resource_link", uri: "data:text/html,<script>alert(1)</script>", name: "report" },
      ]),
    );
    expect(result.content!.slice(1)).toEqual([
      {
        type: "text",
        text: '[resource link not sent: its uri " JavaScript:alert(1)" has control characters or spaces around it]',
      },
      {
        type: "text",
        text: '[resource link not sent: its uri "Java\\tScript:alert(1)" has control characters or spaces around it]',
      },
      { type: "text", text: "[resource link not sent: a resource link's uri must not be a data: address]" },
    ]);
    expect(result.metadata?.unsentContent).toEqual(
      [1, 2, 3].map((index) => ({ index, type: "resource_link", reason: expect.any(String) })),
    );
    // The text form is made again from what is sent: providers that take text only read the notes too.
    expect(result.output).toBe(
      ["Open:", ...result.content!.slice(1).map((part) => (part.type === "text" ? part.text : ""))].join("\n"),
    );
  });

  it("refuses an image block that is not an image: HTML bytes, an HTML type, a type with a line break", async () => {
    const result = await callOnce(
      answering([
        { type: "image", data: b64(HTML), mimeType: "image/png" },
        { type: "image", data: b64(HTML), mimeType: "text/html" },
        { type: "image", data: b64(PNG), mimeType: "image/png\r\nX-Evil: 1" },
        {
          type: "resource",
          resource: {
            uri: "file:///srv/chart.svg",
            mimeType: "image/svg+xml",
            blob: b64(Buffer.from("<svg onload=alert(1)/>")),
          },
        },
      ]),
    );
    expect(
      (result.metadata?.unsentContent as Array<{ index: number; reason: string }>).map(({ index, reason }) => [
        index,
        reason,
      ]),
    ).toEqual([
      [0, "its bytes are text markup (HTML, XML or SVG), not image/png"],
      [1, '"text/html" is not an image type; use file() for documents'],
      [2, 'the mime type must look like "type/subtype", e.g. "image/png" (got "image/png\\r\\nX-Evil: 1")'],
      [3, "the SVG image has an onload attribute, which can run script; send the image as a PNG instead"],
    ]);
    expect(result.content!.every((part) => part.type === "text")).toBe(true);
  });

  it("names an embedded file only by a name a file may have (no control characters, not too long)", async () => {
    const blob = (uri: string) => ({
      type: "resource",
      resource: { uri, mimeType: "application/pdf", blob: b64(PDF) },
    });
    const result = await callOnce(
      answering([
        blob("file:///srv/a%00b.pdf"),
        blob(`file:///srv/${"n".repeat(300)}.pdf`),
        blob("file:///srv/%E2%80%AEfdp.exe"),
        blob("file:///srv/ok.pdf"),
      ]),
    );
    expect(result.content!.map((part) => (part.type === "file" ? (part.name ?? null) : part.type))).toEqual([
      null,
      null,
      null,
      "ok.pdf",
    ]);
    expect(result.metadata).toBeUndefined();
  });

  it("holds a result to MAX_RESULT_CONTENT_BYTES as a local one is", async () => {
    const eight = b64(Buffer.alloc(8 * 1024 * 1024, 1));
    const blob = {
      type: "resource",
      resource: { uri: "file:///srv/x.bin", mimeType: "application/octet-stream", blob: eight },
    };
    const result = await callOnce(answering([blob, blob, blob]));
    expect(result.metadata?.unsentContent).toEqual([
      {
        index: 2,
        type: "file",
        mimeType: "application/octet-stream",
        reason: "8.0 MB more would take the result's parts over the 20.0 MB a result may carry",
      },
    ]);
  });

  it("checks the parts of an error answer too", async () => {
    const result = await callOnce(
      answering(
        [
          { type: "text", text: "failed" },
          { type: "resource_link", uri: "vbscript:x", name: "x" },
        ],
        { isError: true },
      ),
    );
    expect(result).toMatchObject({
      isError: true,
      metadata: { error: "execution_failed", unsentContent: [{ index: 1, type: "resource_link" }] },
    });
  });
});
