/**
 * OpenAI Chat Completions: results with parts. Tool messages carry text only, so each keeps
 * the result's text form, and the images, audio and PDFs of a turn go in ONE user message
 * after every tool message, each call's parts under a text naming the call. What Chat cannot
 * carry becomes a note in the tool message and an entry of `metadata.unsentContent`.
 */
import type {
  ChatCompletionMessageFunctionToolCall,
  ChatCompletionMessageParam,
} from "openai/resources/chat/completions";
import { Toolkit, type ToolContent } from "toolnexus";
import type { OpenAIReplyMessage } from "toolnexus/providers";
import { openai } from "../../src/providers/openai";
import {
  base64,
  dataUrlOf,
  MP3,
  PDF,
  PNG,
  richTools,
  WAV,
  type RichToolName,
} from "./fixtures/openai-rich-result-tools";

const ATTACHED = "attached in the user message after the tool results";

function call(id: string, name: RichToolName): ChatCompletionMessageFunctionToolCall {
  return { id, type: "function", function: { name, arguments: "{}" } };
}

/** The reply for one call per name, ids call_1, call_2, ... */
async function replyFor(...names: RichToolName[]) {
  return new Toolkit(richTools()).runOpenAI(names.map((name, i) => call(`call_${i + 1}`, name)));
}

const tool = (id: string, content: string) => ({ role: "tool", tool_call_id: id, content });
const heading = (id: string, name: string) => ({ type: "text", text: `Attachments of tool call ${id} (${name}):` });

describe("Chat Completions: each part kind", () => {
  it("text and a base64 image: the tool message keeps the text, the image goes in a user message as a data URL", async () => {
    expect(await replyFor("chart")).toEqual([
      tool("call_1", `Sales by month\n[image/png image, 16 B, ${ATTACHED}]`),
      {
        role: "user",
        content: [heading("call_1", "chart"), { type: "image_url", image_url: { url: dataUrlOf("image/png", PNG) } }],
      },
    ]);
  });

  it("an image by URL is sent as that URL", async () => {
    expect(await replyFor("photo")).toEqual([
      tool("call_1", `[image at https://example.com/cat.png, ${ATTACHED}]`),
      {
        role: "user",
        content: [heading("call_1", "photo"), { type: "image_url", image_url: { url: "https://example.com/cat.png" } }],
      },
    ]);
  });

  it("wav and mp3 audio become input_audio parts (format wav / mp3, base64 data)", async () => {
    const [, , user] = await replyFor("voice", "jingle");
    expect(user).toEqual({
      role: "user",
      content: [
        heading("call_1", "voice"),
        { type: "input_audio", input_audio: { data: base64(WAV), format: "wav" } },
        heading("call_2", "jingle"),
        { type: "input_audio", input_audio: { data: base64(MP3), format: "mp3" } },
      ],
    });
  });

  it("a base64 PDF becomes a file part with a data URL and its name (or one made from its type)", async () => {
    const [report, unnamed, user] = await replyFor("report", "unnamed_pdf");
    expect(report).toEqual(tool("call_1", `[file report.pdf (application/pdf, 14 B), ${ATTACHED}]`));
    expect(unnamed).toEqual(tool("call_2", `[file (application/pdf, 14 B), ${ATTACHED}]`));
    expect(user).toEqual({
      role: "user",
      content: [
        heading("call_1", "report"),
        { type: "file", file: { file_data: dataUrlOf("application/pdf", PDF), filename: "report.pdf" } },
        heading("call_2", "unnamed_pdf"),
        { type: "file", file: { file_data: dataUrlOf("application/pdf", PDF), filename: "file.pdf" } },
      ],
    });
  });

  it.each<[RichToolName, string]>([
    [
      "birdsong",
      "[audio/ogg audio, 6 B not sent: OpenAI Chat Completions takes wav and mp3 audio only (not audio/ogg)]",
    ],
    [
      "table",
      "[file sales.csv (text/csv, 19 B) not sent: OpenAI Chat Completions takes PDF files only (not text/csv)]",
    ],
    [
      "remote_report",
      "[file q3.pdf (application/pdf) at https://example.com/q3.pdf not sent: OpenAI Chat Completions takes files as inline data, not by URL]",
    ],
    [
      "logs",
      "[resource today.log at https://example.com/logs/today (text/plain) not sent: OpenAI Chat Completions messages carry no resource links]",
    ],
    [
      "diagram",
      "[image/svg+xml image, 41 B not sent: OpenAI takes PNG, JPEG, WebP and GIF images only (not image/svg+xml)]",
    ],
  ])("%s: what Chat cannot carry is a note in the tool message, and no user message follows", async (name, note) => {
    expect(await replyFor(name)).toEqual([tool("call_1", note)]);
  });

  it("a result without parts is the tool message it always was", async () => {
    expect(await replyFor("greet")).toEqual([tool("call_1", "hello")]);
  });

  it("a failure with parts: the tool message reads Error: first, and its image still goes in the user message", async () => {
    expect(await replyFor("broken_render", "broken_snapshot")).toEqual([
      tool("call_1", `Error: render failed halfway\n[image/png image, 16 B, ${ATTACHED}]`),
      tool("call_2", `Error: [image/png image, 16 B, ${ATTACHED}]`),
      {
        role: "user",
        content: [
          heading("call_1", "broken_render"),
          { type: "image_url", image_url: { url: dataUrlOf("image/png", PNG) } },
          heading("call_2", "broken_snapshot"),
          { type: "image_url", image_url: { url: dataUrlOf("image/png", PNG) } },
        ],
      },
    ]);
  });
});

describe("Chat Completions: the turn's order", () => {
  it("every tool message first, in call order, then ONE user message with each call's parts in call order", async () => {
    const reply = await replyFor("report", "greet", "chart", "birdsong", "voice");
    expect(reply.map((message) => message.role)).toEqual(["tool", "tool", "tool", "tool", "tool", "user"]);
    expect(reply.slice(0, 5).map((message) => (message.role === "tool" ? message.tool_call_id : ""))).toEqual([
      "call_1",
      "call_2",
      "call_3",
      "call_4",
      "call_5",
    ]);
    const user = reply[5]!;
    expect(user.role === "user" && user.content.map((part) => part.type)).toEqual([
      "text",
      "file",
      "text",
      "image_url",
      "text",
      "input_audio",
    ]);
    expect(
      user.role === "user" && user.content.filter((part) => part.type === "text").map((part) => part.text),
    ).toEqual([
      "Attachments of tool call call_1 (report):",
      "Attachments of tool call call_3 (chart):",
      "Attachments of tool call call_5 (voice):",
    ]);
  });

  it("appends to the SDK's message list as it is: every tool message right after the assistant message, the user message last", async () => {
    const reply: OpenAIReplyMessage[] = await replyFor("chart", "greet");
    const messages: ChatCompletionMessageParam[] = [{ role: "user", content: "Chart the sales, and greet me." }];
    messages.push({ role: "assistant", content: null, tool_calls: [call("call_1", "chart"), call("call_2", "greet")] });
    messages.push(...reply);
    expect(messages.map((message) => message.role)).toEqual(["user", "assistant", "tool", "tool", "user"]);
  });

  it("a call with no id is named by its tool", async () => {
    const reply = await new Toolkit(richTools()).runOpenAI([
      { type: "function", function: { name: "chart", arguments: "{}" } },
    ] as never);
    expect(reply[1]).toMatchObject({
      role: "user",
      content: [{ type: "text", text: "Attachments of the chart tool call:" }, { type: "image_url" }],
    });
  });
});

describe("Chat Completions: what is not carried is reported", () => {
  it("metadata.unsentContent lists each part left out, with why (seen in a turn's stored results)", async () => {
    const reply = await replyFor("birdsong", "table", "chart", "refund");
    expect(reply.pendingApprovals).toBeDefined();
    const [birdsong, table, chart] = reply.pendingApprovals!.results;
    expect(birdsong!.metadata!.unsentContent).toEqual([
      {
        index: 0,
        type: "audio",
        mimeType: "audio/ogg",
        reason: "OpenAI Chat Completions takes wav and mp3 audio only (not audio/ogg)",
      },
    ]);
    expect(table!.metadata!.unsentContent).toEqual([
      {
        index: 0,
        type: "file",
        mimeType: "text/csv",
        reason: "OpenAI Chat Completions takes PDF files only (not text/csv)",
      },
    ]);
    expect(chart!.metadata?.unsentContent).toBeUndefined();
    // The partial reply already follows the rule: its tool messages, then the attachments.
    expect(reply.map((message) => message.role)).toEqual(["tool", "tool", "tool", "user"]);
  });

  it("a resumed turn ends with the attachments message too", async () => {
    const toolkit = new Toolkit(richTools());
    const pending = await toolkit.runOpenAI([call("call_1", "refund"), call("call_2", "chart")]);
    const reply = await toolkit.resumeApprovals(JSON.parse(JSON.stringify(pending.pendingApprovals)), { call_1: true });
    expect(reply).toEqual([
      tool("call_1", "refunded"),
      tool("call_2", `Sales by month\n[image/png image, 16 B, ${ATTACHED}]`),
      {
        role: "user",
        content: [heading("call_2", "chart"), { type: "image_url", image_url: { url: dataUrlOf("image/png", PNG) } }],
      },
    ]);
  });

  it.each<[string, Exclude<ToolContent, { type: "text" }>, string | undefined]>([
    ["a PNG", { type: "image", data: base64(PNG), mimeType: "image/png" }, undefined],
    ["a JPEG", { type: "image", data: "AAAA", mimeType: "image/jpeg" }, undefined],
    ["a WebP", { type: "image", data: "AAAA", mimeType: "image/webp" }, undefined],
    ["a GIF", { type: "image", data: "AAAA", mimeType: "image/gif" }, undefined],
    ["an image by URL", { type: "image", url: "https://example.com/a.bmp" }, undefined],
    [
      "a BMP",
      { type: "image", data: "AAAA", mimeType: "image/bmp" },
      "OpenAI takes PNG, JPEG, WebP and GIF images only (not image/bmp)",
    ],
    ["wav", { type: "audio", data: "AAAA", mimeType: "audio/wav" }, undefined],
    ["mp3", { type: "audio", data: "AAAA", mimeType: "audio/mpeg" }, undefined],
    [
      "flac",
      { type: "audio", data: "AAAA", mimeType: "audio/flac" },
      "OpenAI Chat Completions takes wav and mp3 audio only (not audio/flac)",
    ],
    ["a PDF", { type: "file", data: "AAAA", mimeType: "application/pdf" }, undefined],
    [
      "plain text",
      { type: "file", data: "AAAA", mimeType: "text/plain" },
      "OpenAI Chat Completions takes PDF files only (not text/plain)",
    ],
    [
      "a PDF by URL",
      { type: "file", url: "https://example.com/a.pdf", mimeType: "application/pdf" },
      "OpenAI Chat Completions takes files as inline data, not by URL",
    ],
    [
      "a resource link",
      { type: "resource_link", uri: "https://example.com/r" },
      "OpenAI Chat Completions messages carry no resource links",
    ],
  ])("carries %s, or says why not", (_label, part, reason) => {
    expect(openai.carries!(part, {})).toBe(reason);
  });
});
