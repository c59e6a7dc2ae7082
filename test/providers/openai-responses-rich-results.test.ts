/**
 * OpenAI Responses: results with parts. A `function_call_output`'s `output` is the list of
 * them (input_text, input_image, input_file) when the result has parts, the text as before
 * when it has none. Audio and resource links are not carried: each becomes a text note, and an
 * entry of `metadata.unsentContent`.
 */
import type { ResponseInput, ResponseInputItem } from "openai/resources/responses/responses";
import { Toolkit, type ToolContent } from "toolnexus";
import type { OpenAIFunctionCallOutput } from "toolnexus/providers";
import { openaiResponses } from "../../src/providers/openai-responses";
import { base64, CSV, dataUrlOf, PDF, PNG, richTools, type RichToolName } from "./fixtures/openai-rich-result-tools";

function functionCall(callId: string, name: RichToolName) {
  return { type: "function_call", call_id: callId, name, arguments: "{}" } as const;
}

/** The reply for one call per name, ids call_1, call_2, ... */
async function replyFor(...names: RichToolName[]) {
  return new Toolkit(richTools()).runOpenAIResponses(names.map((name, i) => functionCall(`call_${i + 1}`, name)));
}

const answer = (callId: string, output: OpenAIFunctionCallOutput["output"]) => ({
  type: "function_call_output",
  call_id: callId,
  output,
});
type OutputPart = Exclude<OpenAIFunctionCallOutput["output"], string>[number];
const PNG_ITEM: OutputPart = { type: "input_image", image_url: dataUrlOf("image/png", PNG), detail: "auto" };

describe("Responses: each part kind", () => {
  it("text and a base64 image: input_text, then input_image with a data URL", async () => {
    expect(await replyFor("chart")).toEqual([
      answer("call_1", [{ type: "input_text", text: "Sales by month" }, PNG_ITEM]),
    ]);
  });

  it("an image by URL is sent as that URL", async () => {
    expect(await replyFor("photo")).toEqual([
      answer("call_1", [{ type: "input_image", image_url: "https://example.com/cat.png", detail: "auto" }]),
    ]);
  });

  it("a base64 file becomes input_file with a data URL and its name (or one made from its type), whatever the document type", async () => {
    expect(await replyFor("report", "unnamed_pdf", "table")).toEqual([
      answer("call_1", [{ type: "input_file", file_data: dataUrlOf("application/pdf", PDF), filename: "report.pdf" }]),
      answer("call_2", [{ type: "input_file", file_data: dataUrlOf("application/pdf", PDF), filename: "file.pdf" }]),
      answer("call_3", [{ type: "input_file", file_data: dataUrlOf("text/csv", CSV), filename: "sales.csv" }]),
    ]);
  });

  it("a file by URL becomes input_file with file_url", async () => {
    expect(await replyFor("remote_report")).toEqual([
      answer("call_1", [{ type: "input_file", file_url: "https://example.com/q3.pdf" }]),
    ]);
  });

  it.each<[RichToolName, string]>([
    [
      "voice",
      "[audio/wav audio, 16 B not sent: OpenAI Responses function outputs carry text, images and files, not audio]",
    ],
    [
      "birdsong",
      "[audio/ogg audio, 6 B not sent: OpenAI Responses function outputs carry text, images and files, not audio]",
    ],
    [
      "logs",
      "[resource today.log at https://example.com/logs/today (text/plain) not sent: OpenAI Responses function outputs carry no resource links]",
    ],
    [
      "diagram",
      "[image/svg+xml image, 41 B not sent: OpenAI takes PNG, JPEG, WebP and GIF images only (not image/svg+xml)]",
    ],
  ])("%s: what a function output cannot carry is an input_text note", async (name, note) => {
    expect(await replyFor(name)).toEqual([answer("call_1", [{ type: "input_text", text: note }])]);
  });

  it("a result without parts keeps its text output", async () => {
    expect(await replyFor("greet")).toEqual([answer("call_1", "hello")]);
  });

  it("a failure with parts: the first text says Error:, or an Error: text comes first", async () => {
    expect(await replyFor("broken_render", "broken_snapshot")).toEqual([
      answer("call_1", [{ type: "input_text", text: "Error: render failed halfway" }, PNG_ITEM]),
      answer("call_2", [{ type: "input_text", text: "Error:" }, PNG_ITEM]),
    ]);
  });

  it("a failure without parts keeps the Error: text", async () => {
    const [output] = await new Toolkit(richTools()).runOpenAIResponses([
      { type: "function_call", call_id: "call_1", name: "nope", arguments: "{}" },
    ]);
    expect(output!.output).toEqual(expect.stringMatching(/^Error: /));
  });
});

describe("Responses: in the SDK's input", () => {
  it("one output per call, in call order, each assignable to the SDK's input item", async () => {
    const reply = await replyFor("chart", "greet", "report");
    expect(reply.map((item) => item.call_id)).toEqual(["call_1", "call_2", "call_3"]);
    const items: ResponseInputItem.FunctionCallOutput[] = reply.filter((item) => item.type === "function_call_output");
    expect(items).toHaveLength(reply.length);
    const input: ResponseInput = [
      { role: "user", content: "Chart, greet, report." },
      ...reply.map((item) => functionCall(item.call_id, "chart")),
      ...items,
    ];
    expect(input).toHaveLength(7);
  });
});

describe("Responses: what is not carried is reported", () => {
  it("metadata.unsentContent lists each part left out, with why (seen in a turn's stored results)", async () => {
    const reply = await replyFor("voice", "logs", "chart", "refund");
    const [voice, logs, chart] = reply.pendingApprovals!.results;
    expect(voice!.metadata!.unsentContent).toEqual([
      {
        index: 0,
        type: "audio",
        mimeType: "audio/wav",
        reason: "OpenAI Responses function outputs carry text, images and files, not audio",
      },
    ]);
    expect(logs!.metadata!.unsentContent).toEqual([
      {
        index: 0,
        type: "resource_link",
        mimeType: "text/plain",
        reason: "OpenAI Responses function outputs carry no resource links",
      },
    ]);
    expect(chart!.metadata?.unsentContent).toBeUndefined();
  });

  it.each<[string, Exclude<ToolContent, { type: "text" }>, string | undefined]>([
    ["a PNG", { type: "image", data: base64(PNG), mimeType: "image/png" }, undefined],
    ["an image by URL", { type: "image", url: "https://example.com/a.bmp" }, undefined],
    [
      "a BMP",
      { type: "image", data: "AAAA", mimeType: "image/bmp" },
      "OpenAI takes PNG, JPEG, WebP and GIF images only (not image/bmp)",
    ],
    ["a PDF", { type: "file", data: "AAAA", mimeType: "application/pdf" }, undefined],
    ["a spreadsheet", { type: "file", data: "AAAA", mimeType: "text/csv" }, undefined],
    ["a PDF by URL", { type: "file", url: "https://example.com/a.pdf", mimeType: "application/pdf" }, undefined],
    [
      "audio",
      { type: "audio", data: "AAAA", mimeType: "audio/mpeg" },
      "OpenAI Responses function outputs carry text, images and files, not audio",
    ],
    [
      "a resource link",
      { type: "resource_link", uri: "https://example.com/r" },
      "OpenAI Responses function outputs carry no resource links",
    ],
  ])("carries %s, or says why not", (_label, part, reason) => {
    expect(openaiResponses.carries!(part, {})).toBe(reason);
  });
});
