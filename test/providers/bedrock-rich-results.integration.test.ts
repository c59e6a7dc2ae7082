/**
 * Bedrock Converse `toolResult` content for results with parts: text, images and documents as
 * bytes, structured results as one `json` block, and parts Converse cannot take replaced by a
 * note the model reads and listed in `metadata.unsentContent`. Then the official
 * `BedrockRuntimeClient` sends a reply to a local Converse stand-in, which checks the request
 * as it arrives on the wire (bytes as base64 in JSON).
 */
import {
  BedrockRuntimeClient,
  ConverseCommand,
  ValidationException,
  type Message,
} from "@aws-sdk/client-bedrock-runtime";
import { createServer, type Http2Server, type Http2Session } from "node:http2";
import type { AddressInfo } from "node:net";
import {
  audio,
  defineTool,
  file,
  image,
  LIMITS,
  resourceLink,
  Toolkit,
  type PendingApprovals,
  type Tool,
  type ToolContent,
  type ToolResult,
} from "../../src";
import { fitResult } from "../../src/providers/adapter";
import { bedrock, bedrockDocumentName, type BedrockToolResultContentBlock } from "../../src/providers/bedrock";

const { MAX_CONTENT_BYTES } = LIMITS;

/** A 1×1 PNG. */
const PNG_BASE64 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
const PNG = Buffer.from(PNG_BASE64, "base64");
const PDF = Buffer.from("%PDF-1.4\n%toolnexus\n");
const CSV = Buffer.from("month,revenue\njan,10\n");
const WAV = Buffer.concat([Buffer.from("RIFF"), Buffer.alloc(4), Buffer.from("WAVEfmt ")]);
/** The first bytes of other image formats (enough to be recognized as them). */
const IMAGES: Record<string, Buffer> = {
  "image/jpeg": Buffer.from("ffd8ffe000104a464946", "hex"),
  "image/gif": Buffer.from("GIF89a"),
  "image/webp": Buffer.concat([Buffer.from("RIFF"), Buffer.alloc(4), Buffer.from("WEBPVP8 ")]),
};

const bytes = (buffer: Buffer) => new Uint8Array(buffer);

/** A tool answering with `parts`, whatever it is asked. */
function returning(name: string, parts: () => unknown, extra: Partial<Parameters<typeof defineTool>[0]> = {}): Tool {
  return defineTool({ name, description: `Returns ${name}`, execute: parts, ...extra });
}

/** The `toolResult` of the reply to one call of each tool, in order. */
async function toolResultsOf(...tools: Tool[]) {
  const reply = await new Toolkit(tools).runBedrock(
    tools.map((tool, i) => ({ toolUse: { toolUseId: `tu_${i + 1}`, name: tool.name, input: {} } })),
  );
  return reply!.content.map((block) => block.toolResult);
}

async function contentOf(tool: Tool): Promise<BedrockToolResultContentBlock[]> {
  return (await toolResultsOf(tool))[0]!.content;
}

describe("Bedrock toolResult content, part by part", () => {
  it("text and a PNG: a text block, then an image block with its format and bytes", async () => {
    const [result] = await toolResultsOf(
      returning("chart", () => [{ type: "text", text: "the chart" }, image(PNG, "image/png")]),
    );
    expect(result).toEqual({
      toolUseId: "tu_1",
      content: [{ text: "the chart" }, { image: { format: "png", source: { bytes: bytes(PNG) } } }],
      status: "success",
    });
    expect(result!.content[1]!.image!.source.bytes).toBeInstanceOf(Uint8Array);
  });

  it.each([
    ["image/jpeg", "jpeg"],
    ["image/gif", "gif"],
    ["image/webp", "webp"],
  ])("%s is format %s", async (mimeType, format) => {
    expect(await contentOf(returning("picture", () => image(IMAGES[mimeType]!, mimeType)))).toEqual([
      { image: { format, source: { bytes: bytes(IMAGES[mimeType]!) } } },
    ]);
  });

  it.each([
    ["application/pdf", "pdf"],
    ["text/csv", "csv"],
    ["application/msword", "doc"],
    ["application/vnd.openxmlformats-officedocument.wordprocessingml.document", "docx"],
    ["application/vnd.ms-excel", "xls"],
    ["application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", "xlsx"],
    ["text/html", "html"],
    ["text/plain", "txt"],
    ["text/markdown", "md"],
  ])("%s: document format %s", async (mimeType, format) => {
    expect(await contentOf(returning("doc", () => file(CSV, mimeType, "Q3 totals.bin")))).toEqual([
      { document: { format, name: "Q3 totals", source: { bytes: bytes(CSV) } } },
    ]);
  });

  it("documents are named from their file names as Bedrock allows, else document-<n>, each name once in the message", async () => {
    const results = await toolResultsOf(
      returning("reports", () => [
        file(PDF, "application/pdf", "q3_report.final.pdf"),
        file(PDF, "application/pdf"),
        file(PDF, "application/pdf", "q3 report.final.pdf"),
      ]),
      returning("sheet", () => file(CSV, "text/csv")),
    );
    const names = results.flatMap((result) => result!.content.map((block) => block.document?.name));
    expect(names).toEqual(["q3-report-final", "document-2", "q3 report-final", "document-4"]);
  });

  it("bedrockDocumentName keeps letters, digits, single spaces, hyphens, parentheses and brackets", () => {
    expect(bedrockDocumentName("Invoice (2024) [draft].pdf")).toBe("Invoice (2024) [draft]");
    expect(bedrockDocumentName("a   b\t\tc.csv")).toBe("a b c");
    expect(bedrockDocumentName("résumé_v2.docx")).toBe("r-sum-v2");
    expect(bedrockDocumentName("../../etc/passwd")).toBe("-etc-passwd");
    expect(bedrockDocumentName("***")).toBe("-");
    expect(bedrockDocumentName(".pdf")).toBe("");
  });

  it("a structured result is one json block, without its text again", async () => {
    const totals = returning("totals", () => ({ total: 3, lines: [{ sku: "A", qty: 1 }] }), {
      outputSchema: {
        type: "object",
        properties: { total: { type: "number" }, lines: { type: "array" } },
        required: ["total"],
      },
    });
    expect(await toolResultsOf(totals)).toEqual([
      { toolUseId: "tu_1", content: [{ json: { total: 3, lines: [{ sku: "A", qty: 1 }] } }], status: "success" },
    ]);
  });

  it("a structured result that fails its schema is an error in text", async () => {
    const totals = returning("totals", () => ({ total: "three" }), {
      outputSchema: { type: "object", properties: { total: { type: "number" } }, required: ["total"] },
    });
    const [result] = await toolResultsOf(totals);
    expect(result!.status).toBe("error");
    expect(result!.content).toEqual([{ text: expect.stringContaining("does not match its output schema") }]);
  });

  it("URL images and files, audio and resource links: text notes in their place, saying why", async () => {
    const content = await contentOf(
      returning("elsewhere", () => [
        image(new URL("https://example.com/a.png")),
        file(new URL("https://example.com/a.pdf"), "application/pdf"),
        audio(WAV, "audio/wav"),
        resourceLink("file:///reports/q3.pdf", { name: "q3" }),
      ]),
    );
    expect(content).toEqual([
      { text: "[image at https://example.com/a.png not sent: Bedrock tool results carry images as bytes, not URLs]" },
      {
        text: "[file (application/pdf) at https://example.com/a.pdf not sent: Bedrock tool results carry documents as bytes, not URLs]",
      },
      { text: expect.stringMatching(/^\[audio\/wav audio, .* not sent: Bedrock tool results carry no audio\]$/) },
      { text: "[resource q3 at file:///reports/q3.pdf not sent: Bedrock tool results carry no resource links]" },
    ]);
  });

  it("image and document types Converse does not read: notes", async () => {
    const content = await contentOf(
      returning("odd", () => [
        image(Buffer.from("<svg/>"), "image/svg+xml"),
        file(Buffer.from("{}"), "application/json", "a.json"),
      ]),
    );
    expect(content).toEqual([
      { text: expect.stringContaining("not sent: Bedrock reads PNG, JPEG, GIF and WebP images, not image/svg+xml]") },
      {
        text: expect.stringContaining(
          "not sent: Bedrock documents are PDF, CSV, DOC, DOCX, XLS, XLSX, HTML, TXT or MD, not application/json]",
        ),
      },
    ]);
  });

  it("an image over the size cap: the note the core made, no image block", async () => {
    const big = Buffer.alloc(MAX_CONTENT_BYTES + 1);
    PNG.copy(big);
    expect(await contentOf(returning("huge", () => image(big, "image/png")))).toEqual([
      { text: expect.stringMatching(/^\[image\/png image, 10\.0 MB not sent: .* is over the 10\.0 MB/) },
    ]);
  });

  it("text is never empty: empty text parts are left out, and nothing left is (no output)", async () => {
    expect(await contentOf(returning("sparse", () => [{ type: "text", text: "" }, image(PNG, "image/png")]))).toEqual([
      { image: { format: "png", source: { bytes: bytes(PNG) } } },
    ]);
    expect(await contentOf(returning("blank", () => [{ type: "text", text: "" }]))).toEqual([{ text: "(no output)" }]);
    expect(await contentOf(returning("nothing", () => undefined))).toEqual([{ text: "(no output)" }]);
  });

  it("an error result with parts has status error and sends its blocks", async () => {
    const failing = returning("screenshot", () => ({
      output: "the page failed",
      isError: true,
      content: [{ type: "text", text: "the page failed" }, image(PNG, "image/png")],
    }));
    expect(await toolResultsOf(failing)).toEqual([
      {
        toolUseId: "tu_1",
        content: [{ text: "the page failed" }, { image: { format: "png", source: { bytes: bytes(PNG) } } }],
        status: "error",
      },
    ]);
  });
});

describe("Bedrock carries", () => {
  const reasonFor = (part: Exclude<ToolContent, { type: "text" }>) => bedrock.carries!(part, {});

  it("takes PNG, JPEG, GIF and WebP images and the nine document formats, as bytes", () => {
    for (const mimeType of ["image/png", "image/jpeg", "image/gif", "image/webp"])
      expect(reasonFor({ type: "image", data: PNG_BASE64, mimeType })).toBeUndefined();
    for (const mimeType of [
      "application/pdf",
      "text/csv",
      "text/html",
      "text/plain",
      "text/markdown",
      "application/msword",
    ]) {
      expect(reasonFor({ type: "file", data: "YQ==", mimeType })).toBeUndefined();
    }
  });

  it("gives a reason for everything else", () => {
    expect(reasonFor({ type: "image", url: "https://example.com/a.png", mimeType: "image/png" })).toBe(
      "Bedrock tool results carry images as bytes, not URLs",
    );
    expect(reasonFor({ type: "file", url: "https://example.com/a.pdf", mimeType: "application/pdf" })).toBe(
      "Bedrock tool results carry documents as bytes, not URLs",
    );
    expect(reasonFor({ type: "audio", data: "AAAA", mimeType: "audio/mpeg" })).toBe(
      "Bedrock tool results carry no audio",
    );
    expect(reasonFor({ type: "resource_link", uri: "file:///a" })).toBe("Bedrock tool results carry no resource links");
    expect(reasonFor({ type: "image", data: "AAAA", mimeType: "image/bmp" })).toMatch(/not image\/bmp$/);
    expect(reasonFor({ type: "file", data: "AAAA", mimeType: "application/zip" })).toMatch(/not application\/zip$/);
  });
});

describe("metadata.unsentContent", () => {
  it("lists each part Converse cannot take, by its index in the result's content", () => {
    const result: ToolResult = {
      output: "x",
      isError: false,
      content: [
        { type: "text", text: "x" },
        image(new URL("https://example.com/a.png")),
        image(PNG, "image/png"),
        audio(WAV, "audio/wav"),
      ],
    };
    expect(fitResult(bedrock, result, {}).metadata?.unsentContent).toEqual([
      { index: 1, type: "image", reason: "Bedrock tool results carry images as bytes, not URLs" },
      { index: 3, type: "audio", mimeType: "audio/wav", reason: "Bedrock tool results carry no audio" },
    ]);
  });

  it("travels with pending approvals, and the resumed reply holds the notes and the image", async () => {
    const recorder = returning("recorder", () => [audio(WAV, "audio/wav"), image(PNG, "image/png")]);
    const wipe = returning("wipe", () => "wiped", { needsApproval: true });
    const kit = new Toolkit([recorder, wipe]);
    const reply = await kit.runBedrock([
      { toolUse: { toolUseId: "tu_a", name: "recorder", input: {} } },
      { toolUse: { toolUseId: "tu_b", name: "wipe", input: {} } },
    ]);
    const pending = JSON.parse(JSON.stringify(reply!.pendingApprovals)) as PendingApprovals<"bedrock">;
    expect(pending.results[0]!.metadata?.unsentContent).toEqual([
      { index: 0, type: "audio", mimeType: "audio/wav", reason: "Bedrock tool results carry no audio" },
    ]);
    const expected = [
      { text: expect.stringContaining("not sent: Bedrock tool results carry no audio") },
      { image: { format: "png", source: { bytes: bytes(PNG) } } },
    ];
    expect(reply!.content[0]!.toolResult.content).toEqual(expected);

    const resumed = await kit.resumeApprovals(pending, { tu_b: true });
    expect(resumed!.content.map((block) => block.toolResult.toolUseId)).toEqual(["tu_a", "tu_b"]);
    expect(resumed!.content[0]!.toolResult.content).toEqual(expected);
    expect(resumed!.content[1]!.toolResult.content).toEqual([{ text: "wiped" }]);
  });
});

// ---- The AWS SDK client against a local Converse stand-in -------------------------------------

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

interface ConverseRequest {
  path: string;
  body: Json;
  problems: string[];
}

const IMAGE_SIGNATURES: Record<string, number[]> = {
  png: [0x89, 0x50, 0x4e, 0x47],
  jpeg: [0xff, 0xd8, 0xff],
  gif: [0x47, 0x49, 0x46, 0x38],
  webp: [0x52, 0x49, 0x46, 0x46],
};
const DOCUMENT_FORMATS = ["pdf", "csv", "doc", "docx", "xls", "xlsx", "html", "txt", "md"];
const DOCUMENT_NAME = /^[A-Za-z0-9()[\]-]+(?:\s[A-Za-z0-9()[\]-]+)*$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** What Converse refuses in a toolResult content block, as it arrives: one member, text never empty, bytes as base64 of their format, document names it allows. */
function blockProblems(block: Json, at: string, documentNames: Set<string>): string[] {
  const members = Object.keys(block ?? {});
  if (members.length !== 1)
    return [
      `${at}: exactly one of text, json, image, document, searchResult, video must be set (got ${members.join(", ") || "none"})`,
    ];
  const [member] = members;
  if (member === "text")
    return typeof block.text === "string" && block.text !== ""
      ? []
      : [`${at}.text: The text field in the ContentBlock object is blank.`];
  if (member === "json") return [];
  if (member === "image") {
    const { format, source } = block.image;
    if (!(format in IMAGE_SIGNATURES)) return [`${at}.image.format: unsupported format ${format}`];
    if (typeof source?.bytes !== "string" || !BASE64.test(source.bytes))
      return [`${at}.image.source.bytes: not base64`];
    const head = Buffer.from(source.bytes.slice(0, 16), "base64");
    return IMAGE_SIGNATURES[format]!.every((byte, i) => head[i] === byte)
      ? []
      : [`${at}.image: The provided image does not match the format ${format}`];
  }
  if (member === "document") {
    const { format, name, source } = block.document;
    const problems: string[] = [];
    if (!DOCUMENT_FORMATS.includes(format)) problems.push(`${at}.document.format: unsupported format ${format}`);
    if (typeof name !== "string" || !DOCUMENT_NAME.test(name))
      problems.push(`${at}.document.name: ${JSON.stringify(name)} has characters a document name may not have`);
    if (documentNames.has(name)) problems.push(`${at}.document.name: two documents are named ${JSON.stringify(name)}`);
    documentNames.add(name);
    if (typeof source?.bytes !== "string" || source.bytes === "" || !BASE64.test(source.bytes))
      problems.push(`${at}.document.source.bytes: not base64`);
    return problems;
  }
  return [`${at}: ${member} is not a tool result block`];
}

function toolResultProblems(messages: Json[]): string[] {
  return messages.flatMap((message, m) => {
    const names = new Set<string>();
    return (message.content as Json[]).flatMap((block, b) =>
      block.toolResult === undefined
        ? []
        : (block.toolResult.content as Json[]).flatMap((inner, c) =>
            blockProblems(inner, `messages.${m}.content.${b}.toolResult.content.${c}`, names),
          ),
    );
  });
}

/**
 * A one-model Converse endpoint: turn 1 calls `toolName`; turn 2 describes every tool result
 * block it got. HTTP/2 without TLS, as BedrockRuntimeClient speaks by default.
 */
async function startConverse(
  toolName: string,
): Promise<{ endpoint: string; requests: ConverseRequest[]; close: () => Promise<void> }> {
  const requests: ConverseRequest[] = [];
  const sessions = new Set<Http2Session>();
  const server: Http2Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      const record: ConverseRequest = { path: req.url ?? "", body, problems: toolResultProblems(body.messages ?? []) };
      requests.push(record);
      if (record.problems.length > 0) {
        res.writeHead(400, {
          "content-type": "application/json",
          "x-amzn-errortype": "ValidationException:http://internal.amazon.com/coral/com.amazon.bedrock/",
        });
        return res.end(JSON.stringify({ message: record.problems.join("; ") }));
      }
      const last = body.messages[body.messages.length - 1];
      const results: Json[] = last.content
        .filter((block: Json) => block.toolResult !== undefined)
        .map((block: Json) => block.toolResult);
      const content =
        results.length === 0
          ? [{ toolUse: { toolUseId: "tooluse_1", name: toolName, input: { metric: "revenue" } } }]
          : [{ text: results.flatMap((result) => (result.content as Json[]).map(describeBlock)).join(" | ") }];
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          output: { message: { role: "assistant", content } },
          stopReason: results.length === 0 ? "tool_use" : "end_turn",
          usage: { inputTokens: 42, outputTokens: 17, totalTokens: 59 },
          metrics: { latencyMs: 5 },
        }),
      );
    });
  });
  server.on("session", (session: Http2Session) => {
    sessions.add(session);
    session.on("close", () => sessions.delete(session));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const close = () =>
    new Promise<void>((resolve) => {
      for (const session of sessions) session.destroy();
      server.close(() => resolve());
    });
  return { endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests, close };
}

function describeBlock(block: Json): string {
  if (block.text !== undefined) return block.text;
  if (block.json !== undefined) return `json ${JSON.stringify(block.json)}`;
  if (block.image !== undefined)
    return `image ${block.image.format}, ${Buffer.from(block.image.source.bytes, "base64").length} bytes`;
  return `document ${block.document.name} (${block.document.format}), ${Buffer.from(block.document.source.bytes, "base64").length} bytes`;
}

describe("BedrockRuntimeClient, against a local Converse endpoint", () => {
  let converse: Awaited<ReturnType<typeof startConverse>>;
  let client: BedrockRuntimeClient;
  const modelId = "anthropic.claude-sonnet-4-5-v1:0";

  beforeAll(async () => {
    converse = await startConverse("render_chart");
    client = new BedrockRuntimeClient({
      region: "us-east-1",
      endpoint: converse.endpoint,
      credentials: { accessKeyId: "AKIDTESTTEST", secretAccessKey: "test-secret" },
    });
  });

  afterAll(async () => {
    client.destroy();
    await converse.close();
  });

  it("serializes a reply with an image, a document and text, bytes as base64, through a two-turn conversation", async () => {
    const chart = defineTool({
      name: "render_chart",
      description: "Renders a chart of a metric",
      inputSchema: { type: "object", properties: { metric: { type: "string" } }, required: ["metric"] },
      execute: (args) => [
        { type: "text", text: `${String(args.metric)} by month` },
        image(PNG, "image/png"),
        file(CSV, "text/csv", "revenue.csv"),
      ],
    });
    const toolkit = new Toolkit([chart]);
    const messages: Message[] = [{ role: "user", content: [{ text: "Chart the revenue." }] }];
    const before = converse.requests.length;

    const first = await client.send(new ConverseCommand({ modelId, messages }));
    const reply = (await toolkit.runBedrock(first))!;
    const second = await client.send(
      new ConverseCommand({ modelId, messages: [...messages, first.output!.message!, reply] }),
    );

    expect(second.output?.message?.content).toEqual([
      { text: `revenue by month | image png, ${PNG.length} bytes | document revenue (csv), ${CSV.length} bytes` },
    ]);
    const requests = converse.requests.slice(before);
    expect(requests.map((request) => request.problems)).toEqual([[], []]);
    expect(requests[1]!.path).toBe(`/model/${encodeURIComponent(modelId)}/converse`);
    expect(requests[1]!.body.messages[2]).toEqual({
      role: "user",
      content: [
        {
          toolResult: {
            toolUseId: "tooluse_1",
            content: [
              { text: "revenue by month" },
              { image: { format: "png", source: { bytes: PNG_BASE64 } } },
              { document: { format: "csv", name: "revenue", source: { bytes: CSV.toString("base64") } } },
            ],
            status: "success",
          },
        },
      ],
    });
  });

  it("serializes a structured result as a json block", async () => {
    const chart = returning("render_chart", () => ({ months: ["jan"], revenue: [10] }), {
      outputSchema: { type: "object", properties: { months: { type: "array" }, revenue: { type: "array" } } },
    });
    const toolkit = new Toolkit([chart]);
    const messages: Message[] = [{ role: "user", content: [{ text: "Chart the revenue." }] }];
    const first = await client.send(new ConverseCommand({ modelId, messages }));
    const second = await client.send(
      new ConverseCommand({
        modelId,
        messages: [...messages, first.output!.message!, (await toolkit.runBedrock(first))!],
      }),
    );
    expect(second.output?.message?.content).toEqual([{ text: 'json {"months":["jan"],"revenue":[10]}' }]);
  });

  it("the endpoint refuses what Converse refuses, and the SDK raises it as a ValidationException", async () => {
    const messages: Message[] = [
      { role: "assistant", content: [{ toolUse: { toolUseId: "t1", name: "render_chart", input: {} } }] },
      {
        role: "user",
        content: [
          {
            toolResult: {
              toolUseId: "t1",
              content: [{ document: { format: "pdf", name: "a.pdf", source: { bytes: bytes(PDF) } } }, { text: "" }],
            },
          },
        ],
      },
    ];
    const refused = await client.send(new ConverseCommand({ modelId, messages })).then(
      () => new Error("accepted"),
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(ValidationException);
    expect((refused as Error).message).toMatch(
      /"a\.pdf" has characters a document name may not have.*The text field in the ContentBlock object is blank/,
    );
  });
});

describe("Bedrock results", () => {
  it("never sends an empty text block", async () => {
    const kit = new Toolkit([defineTool({ name: "quiet", description: "d", execute: () => undefined })]);
    const reply = await kit.runBedrock([{ toolUse: { toolUseId: "u1", name: "quiet", input: {} } }]);
    expect(reply!.content[0]!.toolResult.content).toEqual([{ text: "(no output)" }]);
  });
});
