/**
 * MCP: results with parts as `CallToolResult` content blocks, structured results as
 * `structuredContent` with their JSON text beside them, and `outputSchema` in the declarations.
 * MCP carries every kind of part.
 */
import "reflect-metadata";
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
  type ToolContent,
  type ToolResult,
} from "toolnexus";
import { toMcpResult } from "toolnexus/mcp";
import { mcp } from "../../src/providers/mcp";

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
const WAV = Buffer.concat([Buffer.from("RIFF"), Buffer.from([36, 0, 0, 0]), Buffer.from("WAVEfmt ")]);
const PDF = Buffer.from("%PDF-1.7\n%EOF\n");
const CSV = Buffer.from("month,sales\nJan,12\n");
const LATIN1 = Buffer.from([0x63, 0x61, 0x66, 0xe9]); // "café" in Latin-1: not UTF-8

const b64 = (bytes: Buffer) => bytes.toString("base64");

/** A success whose content is `parts`, as toToolResult makes it. */
const withParts = (...content: ToolContent[]): ToolResult => ({ output: "(text form)", isError: false, content });

describe("toMcpResult: each part kind", () => {
  it("text parts are text blocks, in order", () => {
    expect(toMcpResult(withParts({ type: "text", text: "one" }, { type: "text", text: "two" })).content).toEqual([
      { type: "text", text: "one" },
      { type: "text", text: "two" },
    ]);
  });

  it("a base64 image is an image block", () => {
    expect(toMcpResult(withParts({ type: "text", text: "Sales by month" }, image(PNG)))).toEqual({
      content: [
        { type: "text", text: "Sales by month" },
        { type: "image", data: b64(PNG), mimeType: "image/png" },
      ],
      isError: false,
    });
  });

  it("an image by URL is a resource_link named by its last path segment", () => {
    expect(toMcpResult(withParts(image(new URL("https://example.com/pets/cat.png")))).content).toEqual([
      { type: "resource_link", uri: "https://example.com/pets/cat.png", name: "cat.png" },
    ]);
    expect(toMcpResult(withParts(image(new URL("https://example.com/render?id=7"), "image/webp"))).content).toEqual([
      { type: "resource_link", uri: "https://example.com/render?id=7", name: "render", mimeType: "image/webp" },
    ]);
  });

  it("audio is an audio block", () => {
    expect(toMcpResult(withParts(audio(WAV))).content).toEqual([
      { type: "audio", data: b64(WAV), mimeType: "audio/wav" },
    ]);
  });

  it("a base64 file is an embedded resource under toolnexus://result/<name>, its bytes as blob", () => {
    expect(toMcpResult(withParts(file(PDF, "application/pdf", "Q3 report.pdf"))).content).toEqual([
      {
        type: "resource",
        resource: { uri: "toolnexus://result/Q3%20report.pdf", mimeType: "application/pdf", blob: b64(PDF) },
      },
    ]);
  });

  it("an unnamed file is addressed by its position", () => {
    expect(
      toMcpResult(withParts({ type: "text", text: "attached:" }, file(PDF, "application/pdf"))).content[1],
    ).toEqual({
      type: "resource",
      resource: { uri: "toolnexus://result/1", mimeType: "application/pdf", blob: b64(PDF) },
    });
  });

  it("a text file is embedded as text when its bytes are UTF-8, else as blob", () => {
    expect(toMcpResult(withParts(file(CSV, "text/csv", "sales.csv"))).content).toEqual([
      {
        type: "resource",
        resource: { uri: "toolnexus://result/sales.csv", mimeType: "text/csv", text: "month,sales\nJan,12\n" },
      },
    ]);
    expect(toMcpResult(withParts(file(LATIN1, "text/plain", "menu.txt"))).content).toEqual([
      { type: "resource", resource: { uri: "toolnexus://result/menu.txt", mimeType: "text/plain", blob: b64(LATIN1) } },
    ]);
  });

  it("a file by URL is a resource_link with its name and type", () => {
    expect(
      toMcpResult(withParts(file(new URL("https://example.com/q3.pdf"), "application/pdf", "Q3 report"))).content,
    ).toEqual([
      { type: "resource_link", uri: "https://example.com/q3.pdf", name: "Q3 report", mimeType: "application/pdf" },
    ]);
  });

  it("a resource link stays one; MCP requires a name, so one is made from the URI when it has none", () => {
    expect(
      toMcpResult(
        withParts(
          resourceLink("https://example.com/logs/today", {
            name: "today.log",
            mimeType: "text/plain",
            description: "Today's log",
          }),
        ),
      ).content,
    ).toEqual([
      {
        type: "resource_link",
        uri: "https://example.com/logs/today",
        name: "today.log",
        mimeType: "text/plain",
        description: "Today's log",
      },
    ]);
    expect(
      toMcpResult(withParts(resourceLink("file:///var/log/app/"), resourceLink("urn:isbn:0451450523"))).content,
    ).toEqual([
      { type: "resource_link", uri: "file:///var/log/app/", name: "app" },
      { type: "resource_link", uri: "urn:isbn:0451450523", name: "urn:isbn:0451450523" },
    ]);
  });

  it("every block carries its part's annotations (audience, priority, lastModified), whatever the kind", () => {
    const annotations = { audience: ["user" as const], priority: 0.8, lastModified: "2025-01-12T15:00:58Z" };
    const parts: ToolContent[] = [
      { type: "text", text: "Sales" },
      image(PNG),
      image(new URL("https://example.com/cat.png")),
      audio(WAV),
      file(PDF, "application/pdf", "q3.pdf"),
      file(new URL("https://example.com/q3.pdf"), "application/pdf"),
      resourceLink("https://example.com/logs/today", { name: "today.log" }),
    ];
    const blocks = toMcpResult(withParts(...parts.map((part) => ({ ...part, annotations })))).content;
    expect(blocks.map((block) => [block.type, block.annotations])).toEqual([
      ["text", annotations],
      ["image", annotations],
      ["resource_link", annotations],
      ["audio", annotations],
      ["resource", annotations],
      ["resource_link", annotations],
      ["resource_link", annotations],
    ]);
    expect(toMcpResult(withParts(image(PNG))).content[0]).not.toHaveProperty("annotations");
  });

  it("an error result with parts keeps them, with isError", () => {
    const failed: ToolResult = {
      output: "render failed halfway\n[image]",
      isError: true,
      content: [{ type: "text", text: "render failed halfway" }, image(PNG)],
    };
    expect(toMcpResult(failed)).toEqual({
      content: [
        { type: "text", text: "render failed halfway" },
        { type: "image", data: b64(PNG), mimeType: "image/png" },
      ],
      isError: true,
    });
  });
});

describe("toMcpResult: structured results", () => {
  it("structuredContent is sent, with its JSON text as the text block", () => {
    const result: ToolResult = {
      output: '{"quarter":"Q3","revenue":1250}',
      isError: false,
      structuredContent: { quarter: "Q3", revenue: 1250 },
    };
    expect(toMcpResult(result)).toEqual({
      content: [{ type: "text", text: '{"quarter":"Q3","revenue":1250}' }],
      structuredContent: { quarter: "Q3", revenue: 1250 },
      isError: false,
    });
  });

  it("a hand-written text beside structuredContent is kept, and the JSON text added after it", () => {
    const result: ToolResult = {
      output: "Q3: 1250 EUR",
      isError: false,
      structuredContent: { quarter: "Q3", revenue: 1250 },
    };
    expect(toMcpResult(result).content).toEqual([
      { type: "text", text: "Q3: 1250 EUR" },
      { type: "text", text: '{"quarter":"Q3","revenue":1250}' },
    ]);
  });

  it("an error result sends no structuredContent (clients check it against the output schema)", () => {
    const result: ToolResult = { output: "No such quarter", isError: true, structuredContent: { quarter: 5 } };
    expect(toMcpResult(result)).toEqual({ content: [{ type: "text", text: "No such quarter" }], isError: true });
  });
});

describe("toMcp declarations: outputSchema", () => {
  const FIGURES: JSONSchemaObject = {
    type: "object",
    properties: { quarter: { type: "string" }, revenue: { type: "number" } },
    required: ["quarter", "revenue"],
  };

  class Reports {
    @Tool({ description: "Quarterly figures", output: FIGURES })
    figures(quarter: string) {
      return { quarter, revenue: 1250 };
    }
  }

  it("declares a tool's output schema (defineTool and @Tool({ output }))", () => {
    const quote = defineTool({
      name: "quote",
      description: "Quote a price",
      outputSchema: { type: "object", properties: { price: { type: "number" } } },
      execute: () => ({ price: 1 }),
    });
    const [declared, figures] = new Toolkit([quote, new Reports()]).toMcp();
    expect(declared).toEqual({
      name: "quote",
      description: "Quote a price",
      inputSchema: { type: "object", properties: {} },
      outputSchema: { type: "object", properties: { price: { type: "number" } } },
    });
    expect(figures!.outputSchema).toEqual(FIGURES);
  });

  it("leaves the key out for tools without one", () => {
    expect("outputSchema" in toMcp([defineTool({ name: "plain", description: "Plain", execute: () => "" })])[0]!).toBe(
      false,
    );
  });

  it("states type object at the root of a schema that describes objects through combinators, and writes boolean subschemas as schemas", () => {
    const outputSchema: JSONSchemaObject = {
      anyOf: [
        { type: "object", properties: { ok: { const: true }, anything: true }, required: ["ok"] },
        { type: "object", properties: { ok: { const: false }, never: false } },
      ],
    };
    const [tool] = toMcp([
      defineTool({ name: "probe", description: "Probe", outputSchema, execute: () => ({ ok: true }) }),
    ]);
    expect(tool!.outputSchema).toEqual({
      type: "object",
      anyOf: [
        { type: "object", properties: { ok: { const: true }, anything: {} }, required: ["ok"] },
        { type: "object", properties: { ok: { const: false }, never: { not: {} } } },
      ],
    });
  });

  it("reports no schema change for output schemas", () => {
    const outputSchema: JSONSchemaObject = { type: "object", anyOf: [{ type: "object", properties: { any: true } }] };
    const toolkit = new Toolkit([
      defineTool({ name: "probe", description: "Probe", outputSchema, execute: () => ({}) }),
    ]);
    expect(toolkit.describeExport("mcp").changes).toEqual([]);
  });
});

describe("mcp.carries", () => {
  it.each([
    image(PNG),
    image(new URL("https://example.com/a.gif")),
    audio(WAV),
    file(PDF, "application/pdf"),
    resourceLink("https://example.com/x"),
  ])("carries %o", (part) => {
    expect(mcp.carries!(part, {})).toBeUndefined();
  });
});
