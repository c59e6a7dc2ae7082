/**
 * Anthropic `tool_result` blocks for results with parts: each part kind as the Messages API
 * documents it (text, image and document blocks), parts Anthropic cannot take replaced by a
 * note the model reads and listed in `metadata.unsentContent`, and a two-turn conversation
 * with the official SDK client against the local mock, which checks the blocks as Anthropic does.
 */
import Anthropic from "@anthropic-ai/sdk";
import type { MessageParam, ToolResultBlockParam } from "@anthropic-ai/sdk/resources/messages";
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
import { anthropic, type AnthropicToolResultMessage } from "../../src/providers/anthropic";
import { startMockProviders, type MockProviders } from "../support/mock-providers";

const { MAX_CONTENT_BYTES } = LIMITS;

/** A 1×1 PNG. */
const PNG_BASE64 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
const PNG = Buffer.from(PNG_BASE64, "base64");
const PDF = Buffer.from("%PDF-1.4\n%toolnexus\n");
const WAV = Buffer.concat([Buffer.from("RIFF"), Buffer.alloc(4), Buffer.from("WAVEfmt ")]);
/** The first bytes of other image formats (enough to be recognized as them). */
const IMAGES: Record<string, Buffer> = {
  "image/jpeg": Buffer.from("ffd8ffe000104a464946", "hex"),
  "image/gif": Buffer.from("GIF89a"),
  "image/webp": Buffer.concat([Buffer.from("RIFF"), Buffer.alloc(4), Buffer.from("WEBPVP8 ")]),
};

/** A tool answering with `parts`, whatever it is asked. */
function returning(name: string, parts: () => unknown, extra: Partial<Parameters<typeof defineTool>[0]> = {}): Tool {
  return defineTool({ name, description: `Returns ${name}`, execute: parts, ...extra });
}

/** The one `tool_result` block the reply to a single call of `tool` holds. */
async function resultBlockOf(tool: Tool): Promise<ToolResultBlockParam> {
  const reply = await new Toolkit([tool]).runAnthropic([
    { type: "tool_use", id: "toolu_1", name: tool.name, input: {} },
  ]);
  expect(reply?.content).toHaveLength(1);
  return reply!.content[0]!;
}

describe("Anthropic tool_result content, part by part", () => {
  it("text and a base64 image: a text block, then an image block with its media type", async () => {
    const block = await resultBlockOf(
      returning("chart", () => [{ type: "text", text: "the chart" }, image(PNG, "image/png")]),
    );
    expect(block).toEqual({
      type: "tool_result",
      tool_use_id: "toolu_1",
      content: [
        { type: "text", text: "the chart" },
        { type: "image", source: { type: "base64", media_type: "image/png", data: PNG_BASE64 } },
      ],
    });
  });

  it.each(["image/jpeg", "image/gif", "image/webp"])("%s goes with its media type", async (mimeType) => {
    const block = await resultBlockOf(returning("picture", () => image(IMAGES[mimeType]!, mimeType)));
    expect(block.content).toEqual([
      { type: "image", source: { type: "base64", media_type: mimeType, data: IMAGES[mimeType]!.toString("base64") } },
    ]);
  });

  it("an image by URL: an image block with a url source", async () => {
    const block = await resultBlockOf(returning("linked", () => image(new URL("https://example.com/chart.png"))));
    expect(block.content).toEqual([{ type: "image", source: { type: "url", url: "https://example.com/chart.png" } }]);
  });

  it("a PDF: a document block with a base64 source, titled by the file's name", async () => {
    const block = await resultBlockOf(returning("report", () => file(PDF, "application/pdf", "q3-report.pdf")));
    expect(block.content).toEqual([
      {
        type: "document",
        source: { type: "base64", media_type: "application/pdf", data: PDF.toString("base64") },
        title: "q3-report.pdf",
      },
    ]);
  });

  it("a PDF by URL: a document block with a url source", async () => {
    const block = await resultBlockOf(
      returning("report_link", () => file(new URL("https://example.com/q3.pdf"), "application/pdf")),
    );
    expect(block.content).toEqual([{ type: "document", source: { type: "url", url: "https://example.com/q3.pdf" } }]);
  });

  it("a plain-text file: a document block with a text source holding the decoded text", async () => {
    const block = await resultBlockOf(
      returning("notes", () => file(Buffer.from("line one\nligne deux é"), "text/plain", "notes.txt")),
    );
    expect(block.content).toEqual([
      {
        type: "document",
        source: { type: "text", media_type: "text/plain", data: "line one\nligne deux é" },
        title: "notes.txt",
      },
    ]);
  });

  it("audio: a text note in its place, saying why", async () => {
    const block = await resultBlockOf(
      returning("recording", () => [{ type: "text", text: "the recording" }, audio(WAV, "audio/wav")]),
    );
    expect(block.content).toEqual([
      { type: "text", text: "the recording" },
      {
        type: "text",
        text: expect.stringMatching(/^\[audio\/wav audio, .* not sent: Anthropic tool results carry no audio\]$/),
      },
    ]);
  });

  it("a resource link: a text note in its place", async () => {
    const block = await resultBlockOf(
      returning("pointer", () => resourceLink("file:///reports/q3.pdf", { name: "q3" })),
    );
    expect(block.content).toEqual([
      {
        type: "text",
        text: "[resource q3 at file:///reports/q3.pdf not sent: Anthropic tool results carry no resource links]",
      },
    ]);
  });

  it("image and document types Anthropic does not read, and non-PDF documents by URL: notes", async () => {
    const block = await resultBlockOf(
      returning("odd", () => [
        image(Buffer.from("<svg/>"), "image/svg+xml"),
        file(Buffer.from("a,b"), "text/csv", "t.csv"),
        file(new URL("https://example.com/t.txt"), "text/plain"),
      ]),
    );
    expect(block.content).toEqual([
      {
        type: "text",
        text: expect.stringContaining("not sent: Anthropic reads JPEG, PNG, GIF and WebP images, not image/svg+xml]"),
      },
      {
        type: "text",
        text: expect.stringContaining(
          "not sent: Anthropic documents are PDFs (inline or by URL) and inline plain text, not text/csv]",
        ),
      },
      {
        type: "text",
        text: expect.stringContaining(
          "not sent: Anthropic documents are PDFs (inline or by URL) and inline plain text, not text/plain by URL]",
        ),
      },
    ]);
  });

  it("an image over the size cap: the note the core made, no image block", async () => {
    const big = Buffer.alloc(MAX_CONTENT_BYTES + 1);
    PNG.copy(big);
    const block = await resultBlockOf(returning("huge", () => image(big, "image/png")));
    expect(block.content).toEqual([
      {
        type: "text",
        text: expect.stringMatching(
          /^\[image\/png image, 10\.0 MB not sent: .* is over the 10\.0 MB a part may have\]$/,
        ),
      },
    ]);
  });

  it("empty text parts are left out (Anthropic refuses empty text blocks)", async () => {
    const block = await resultBlockOf(returning("sparse", () => [{ type: "text", text: "" }, image(PNG, "image/png")]));
    expect(block.content).toEqual([
      { type: "image", source: { type: "base64", media_type: "image/png", data: PNG_BASE64 } },
    ]);
  });

  it("an error result with parts keeps is_error and sends its blocks", async () => {
    const failing = returning("screenshot", () => ({
      output: "the page failed",
      isError: true,
      content: [{ type: "text", text: "the page failed" }, image(PNG, "image/png")],
    }));
    const block = await resultBlockOf(failing);
    expect(block.is_error).toBe(true);
    expect(block.content).toEqual([
      { type: "text", text: "the page failed" },
      { type: "image", source: { type: "base64", media_type: "image/png", data: PNG_BASE64 } },
    ]);
  });

  it("results without parts keep the string content; a structured result is its JSON text", async () => {
    expect((await resultBlockOf(returning("plain", () => "just text"))).content).toBe("just text");
    const totals = returning("totals", () => ({ total: 3, currency: "EUR" }), {
      outputSchema: {
        type: "object",
        properties: { total: { type: "number" }, currency: { type: "string" } },
        required: ["total"],
      },
    });
    expect(await resultBlockOf(totals)).toEqual({
      type: "tool_result",
      tool_use_id: "toolu_1",
      content: '{"total":3,"currency":"EUR"}',
    });
  });
});

describe("Anthropic carries", () => {
  const reasonFor = (part: Exclude<ToolContent, { type: "text" }>) => anthropic.carries!(part, {});

  it("takes JPEG, PNG, GIF and WebP images, inline or by URL (typed or not), PDFs inline or by URL, and inline plain text", () => {
    for (const mimeType of ["image/jpeg", "image/png", "image/gif", "image/webp"])
      expect(reasonFor({ type: "image", data: PNG_BASE64, mimeType })).toBeUndefined();
    expect(reasonFor({ type: "image", url: "https://example.com/a" })).toBeUndefined();
    expect(reasonFor({ type: "image", url: "https://example.com/a.webp", mimeType: "image/webp" })).toBeUndefined();
    expect(reasonFor({ type: "file", data: "JVBERi0=", mimeType: "application/pdf" })).toBeUndefined();
    expect(reasonFor({ type: "file", url: "https://example.com/a.pdf", mimeType: "application/pdf" })).toBeUndefined();
    expect(reasonFor({ type: "file", data: "aGk=", mimeType: "text/plain" })).toBeUndefined();
  });

  it("gives a reason for everything else", () => {
    expect(reasonFor({ type: "audio", data: "AAAA", mimeType: "audio/mpeg" })).toBe(
      "Anthropic tool results carry no audio",
    );
    expect(reasonFor({ type: "resource_link", uri: "file:///a" })).toBe(
      "Anthropic tool results carry no resource links",
    );
    expect(reasonFor({ type: "image", data: "AAAA", mimeType: "image/tiff" })).toBe(
      "Anthropic reads JPEG, PNG, GIF and WebP images, not image/tiff",
    );
    expect(reasonFor({ type: "image", url: "https://example.com/a.svg", mimeType: "image/svg+xml" })).toMatch(
      /not image\/svg\+xml$/,
    );
    expect(reasonFor({ type: "file", data: "AAAA", mimeType: "application/msword" })).toMatch(
      /not application\/msword$/,
    );
    expect(reasonFor({ type: "file", url: "https://example.com/a.txt", mimeType: "text/plain" })).toMatch(
      /not text\/plain by URL$/,
    );
  });
});

describe("metadata.unsentContent", () => {
  it("lists each part Anthropic cannot take, by its index in the result's content", () => {
    const result: ToolResult = {
      output: "x",
      isError: false,
      content: [
        { type: "text", text: "x" },
        image(PNG, "image/png"),
        audio(WAV, "audio/wav"),
        resourceLink("https://example.com/r"),
      ],
    };
    const fitted = fitResult(anthropic, result, {});
    expect(fitted.metadata?.unsentContent).toEqual([
      { index: 2, type: "audio", mimeType: "audio/wav", reason: "Anthropic tool results carry no audio" },
      { index: 3, type: "resource_link", reason: "Anthropic tool results carry no resource links" },
    ]);
    expect(fitted.content![1]).toEqual(image(PNG, "image/png"));
  });

  it("travels with pending approvals, and the resumed reply holds the notes and the image", async () => {
    const recorder = returning("recorder", () => [audio(WAV, "audio/wav"), image(PNG, "image/png")]);
    const wipe = returning("wipe", () => "wiped", { needsApproval: true });
    const kit = new Toolkit([recorder, wipe]);
    const reply = await kit.runAnthropic([
      { type: "tool_use", id: "toolu_a", name: "recorder", input: {} },
      { type: "tool_use", id: "toolu_b", name: "wipe", input: {} },
    ]);
    const pending = JSON.parse(JSON.stringify(reply!.pendingApprovals)) as PendingApprovals<"anthropic">;
    expect(pending.results[0]!.metadata?.unsentContent).toEqual([
      { index: 0, type: "audio", mimeType: "audio/wav", reason: "Anthropic tool results carry no audio" },
    ]);
    expect(reply!.content[0]!.content).toEqual([
      { type: "text", text: expect.stringContaining("not sent: Anthropic tool results carry no audio") },
      { type: "image", source: { type: "base64", media_type: "image/png", data: PNG_BASE64 } },
    ]);

    const resumed = await kit.resumeApprovals(pending, { toolu_b: true });
    expect(resumed!.content.map((block) => block.tool_use_id)).toEqual(["toolu_a", "toolu_b"]);
    expect(resumed!.content[0]!.content).toEqual(reply!.content[0]!.content);
    expect(resumed!.content[1]!.content).toBe("wiped");
  });
});

describe("the official SDK client, against the local mock", () => {
  let mock: MockProviders;
  const client = () => new Anthropic({ apiKey: "test-key", baseURL: mock.baseUrl });
  const model = "claude-sonnet-4-5";

  beforeAll(async () => {
    mock = await startMockProviders({ calls: [{ name: "render_chart", args: { metric: "revenue" } }] });
  });

  afterAll(async () => {
    await mock.close();
  });

  it("an image result goes through a two-turn conversation, checked as Anthropic checks it", async () => {
    const chart = defineTool({
      name: "render_chart",
      description: "Renders a chart of a metric",
      inputSchema: { type: "object", properties: { metric: { type: "string" } }, required: ["metric"] },
      execute: (args) => [
        { type: "text", text: `${String(args.metric)} by month` },
        image(PNG, "image/png"),
        file(PDF, "application/pdf", "data.pdf"),
      ],
    });
    const toolkit = new Toolkit([chart]);
    const anthropicClient = client();
    const before = mock.requests.length;
    const messages: MessageParam[] = [{ role: "user", content: "Chart the revenue." }];

    const first = await anthropicClient.messages.create({
      model,
      max_tokens: 1024,
      messages,
      tools: toolkit.toAnthropic(),
    });
    const reply: AnthropicToolResultMessage = (await toolkit.runAnthropic(first))!;
    const second = await anthropicClient.messages.create({
      model,
      max_tokens: 1024,
      tools: toolkit.toAnthropic(),
      messages: [...messages, { role: "assistant", content: first.content }, reply],
    });

    expect(second.content[0]).toMatchObject({
      type: "text",
      text: "The tools returned:\n- render_chart: revenue by month[image image/png][document data.pdf]",
    });
    const requests = mock.requests.slice(before);
    expect(requests.map((r) => ({ status: r.status, turn: r.turn, violations: r.violations }))).toEqual([
      { status: 200, turn: 1, violations: [] },
      { status: 200, turn: 2, violations: [] },
    ]);
    // As it went over the wire.
    expect(requests[1]!.body.messages[2].content[0].content).toEqual([
      { type: "text", text: "revenue by month" },
      { type: "image", source: { type: "base64", media_type: "image/png", data: PNG_BASE64 } },
      {
        type: "document",
        source: { type: "base64", media_type: "application/pdf", data: PDF.toString("base64") },
        title: "data.pdf",
      },
    ]);
  });

  /** Turn 2 with a hand-written tool_result, answering the scripted call of turn 1. */
  async function secondTurnWith(content: ToolResultBlockParam["content"] | Array<Record<string, unknown>>) {
    const tools = new Toolkit([
      defineTool({ name: "render_chart", description: "Renders a chart", execute: () => "" }),
    ]).toAnthropic();
    const first = await client().messages.create({
      model,
      max_tokens: 64,
      messages: [{ role: "user", content: "Chart it." }],
      tools,
    });
    const toolUse = first.content.find((block) => block.type === "tool_use")!;
    const result = { type: "tool_result", tool_use_id: toolUse.id, content } as ToolResultBlockParam;
    return client().messages.create({
      model,
      max_tokens: 64,
      tools,
      messages: [
        { role: "user", content: "Chart it." },
        { role: "assistant", content: first.content },
        { role: "user", content: [result] },
      ],
    });
  }

  it("the mock refuses what Anthropic refuses in tool_result content, with its 400", async () => {
    const refusals: Array<[string, Array<Record<string, unknown>>, RegExp]> = [
      [
        "an audio block",
        [{ type: "audio", source: { type: "base64", media_type: "audio/wav", data: WAV.toString("base64") } }],
        /Input tag 'audio' found/,
      ],
      [
        "an image type it does not read",
        [{ type: "image", source: { type: "base64", media_type: "image/tiff", data: PNG_BASE64 } }],
        /media_type: Input should be 'image\/jpeg'/,
      ],
      [
        "bytes that are not of the media type",
        [{ type: "image", source: { type: "base64", media_type: "image/jpeg", data: PNG_BASE64 } }],
        /Image does not match the provided media type image\/jpeg/,
      ],
      [
        "a base64 document that is not a PDF",
        [{ type: "document", source: { type: "base64", media_type: "text/csv", data: "YSxi" } }],
        /media_type: Input should be 'application\/pdf'/,
      ],
      ["an empty text block", [{ type: "text", text: "" }], /text content blocks must be non-empty/],
    ];
    for (const [what, content, message] of refusals) {
      const refused = await secondTurnWith(content).then(
        () => new Error(`${what} was accepted`),
        (error: unknown) => error,
      );
      expect(refused).toBeInstanceOf(Anthropic.BadRequestError);
      expect((refused as InstanceType<typeof Anthropic.BadRequestError>).message).toMatch(message);
    }
  });
});
