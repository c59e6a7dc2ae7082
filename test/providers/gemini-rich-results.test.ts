/**
 * Gemini: results with parts. A function response keeps `response: { output | error }` (the
 * result's text form, or its structured content) and carries the media Gemini 3 takes in
 * `functionResponse.parts`: PNG, JPEG and WebP images and PDF and plain-text documents, inline
 * (`inlineData`) or by URI (`fileData`). Anything else, and everything under
 * `toGemini({ multimodalResults: false })`, becomes a note in the text and an entry of
 * `metadata.unsentContent`.
 */
import "reflect-metadata";
import type { Content } from "@google/genai" with { "resolution-mode": "import" };
import {
  audio,
  defineTool,
  file,
  image,
  resourceLink,
  Tool,
  Toolkit,
  type Tool as ToolShape,
  type ToolContent,
} from "toolnexus";
import { gemini } from "../../src/providers/gemini";

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46]);
const WEBP = Buffer.concat([Buffer.from("RIFF"), Buffer.from([26, 0, 0, 0]), Buffer.from("WEBPVP8 ")]);
const GIF = Buffer.from("GIF89a\u0001\u0000");
const WAV = Buffer.concat([Buffer.from("RIFF"), Buffer.from([36, 0, 0, 0]), Buffer.from("WAVEfmt ")]);
const PDF = Buffer.from("%PDF-1.7\n%EOF\n");
const NOTES = Buffer.from("first line\nsecond line\n");
const CSV = Buffer.from("month,sales\nJan,12\n");

const b64 = (bytes: Buffer) => bytes.toString("base64");
const TAKEN = "they take PNG, JPEG and WebP images, PDF and plain text";

const returning = (
  name: string,
  value: () => unknown,
  extra: Partial<Parameters<typeof defineTool>[0]> = {},
): ToolShape => defineTool({ name, description: `Returns ${name}`, execute: () => value(), ...extra });

class Reports {
  @Tool({
    description: "Quarterly figures",
    output: {
      type: "object",
      properties: { quarter: { type: "string" }, revenue: { type: "number" } },
      required: ["quarter", "revenue"],
    },
  })
  figures(quarter: string) {
    return quarter === "Q0" ? { quarter, revenue: "unknown" } : { quarter, revenue: 1250 };
  }
}

function richTools(): Array<ToolShape | Reports> {
  return [
    returning("chart", () => [{ type: "text", text: "Sales by month" }, image(PNG)]),
    returning("snapshot", () => image(JPEG)),
    returning("thumbnail", () => image(WEBP)),
    returning("animation", () => image(GIF)),
    returning("photo", () => image(new URL("https://example.com/cat.png"))),
    returning("render", () => image(new URL("https://cdn.example.com/render?id=7"), "image/webp")),
    returning("mystery", () => image(new URL("https://example.com/pictures/latest"))),
    returning("report", () => file(PDF, "application/pdf", "report.pdf")),
    returning("notes", () => file(NOTES, "text/plain", "notes.txt")),
    returning("remote_report", () => file(new URL("https://example.com/q3.pdf"), "application/pdf", "q3.pdf")),
    returning("table", () => file(CSV, "text/csv", "sales.csv")),
    returning("voice", () => audio(WAV)),
    returning("logs", () =>
      resourceLink("https://example.com/logs/today", { name: "today.log", mimeType: "text/plain" }),
    ),
    returning("broken_render", () => {
      const content: ToolContent[] = [{ type: "text", text: "render failed halfway" }, image(PNG)];
      return { output: "render failed halfway\n[image]", isError: true, content };
    }),
    returning("refund", () => "refunded", { needsApproval: true }),
    new Reports(),
  ];
}

/** The function responses of a turn with one call per name, ids call_1, call_2, ... */
async function responsesFor(toolkit: Toolkit, ...names: string[]) {
  const reply = await toolkit.runGemini(
    names.map((name, i) => ({
      functionCall: { id: `call_${i + 1}`, name, args: name === "figures" ? { quarter: "Q3" } : {} },
    })),
  );
  return reply!.parts.map((part) => part.functionResponse);
}

describe("Gemini function responses: each part kind", () => {
  const toolkit = new Toolkit(richTools());

  it("a base64 PNG goes inline in parts; the response keeps the text form", async () => {
    expect(await responsesFor(toolkit, "chart")).toEqual([
      {
        name: "chart",
        id: "call_1",
        response: { output: "Sales by month\n[image/png image, 16 B]" },
        parts: [{ inlineData: { mimeType: "image/png", data: b64(PNG) } }],
      },
    ]);
  });

  it("JPEG and WebP images go inline too", async () => {
    const [jpeg, webp] = await responsesFor(toolkit, "snapshot", "thumbnail");
    expect(jpeg!.parts).toEqual([{ inlineData: { mimeType: "image/jpeg", data: b64(JPEG) } }]);
    expect(webp!.parts).toEqual([{ inlineData: { mimeType: "image/webp", data: b64(WEBP) } }]);
  });

  it("an image by URL is fileData, its mime type declared or named by its extension", async () => {
    const [photo, render] = await responsesFor(toolkit, "photo", "render");
    expect(photo).toEqual({
      name: "photo",
      id: "call_1",
      response: { output: "[image at https://example.com/cat.png]" },
      parts: [{ fileData: { fileUri: "https://example.com/cat.png", mimeType: "image/png" } }],
    });
    expect(render!.parts).toEqual([
      { fileData: { fileUri: "https://cdn.example.com/render?id=7", mimeType: "image/webp" } },
    ]);
  });

  it("PDF and plain-text files go inline, a PDF by URL as fileData", async () => {
    const [report, notes, remote] = await responsesFor(toolkit, "report", "notes", "remote_report");
    expect(report).toEqual({
      name: "report",
      id: "call_1",
      response: { output: "[file report.pdf (application/pdf, 14 B)]" },
      parts: [{ inlineData: { mimeType: "application/pdf", data: b64(PDF) } }],
    });
    expect(notes!.parts).toEqual([{ inlineData: { mimeType: "text/plain", data: b64(NOTES) } }]);
    expect(remote!.parts).toEqual([
      { fileData: { fileUri: "https://example.com/q3.pdf", mimeType: "application/pdf" } },
    ]);
  });

  it("what Gemini does not take is a note in the response, and no part", async () => {
    const responses = await responsesFor(toolkit, "animation", "table", "voice", "logs", "mystery");
    expect(responses.map((response) => ("parts" in response ? response.parts : "no parts"))).toEqual(
      Array(5).fill("no parts"),
    );
    expect(responses.map((response) => response.response)).toEqual([
      { output: `[image/gif image, 8 B not sent: Gemini function responses take no image/gif (${TAKEN})]` },
      { output: `[file sales.csv (text/csv, 19 B) not sent: Gemini function responses take no text/csv (${TAKEN})]` },
      { output: `[audio/wav audio, 16 B not sent: Gemini function responses carry no audio (${TAKEN})]` },
      {
        output:
          "[resource today.log at https://example.com/logs/today (text/plain) not sent: Gemini function responses carry no resource links]",
      },
      {
        output: `[image at https://example.com/pictures/latest not sent: Gemini needs the mime type of media sent by URL (${TAKEN})]`,
      },
    ]);
  });

  it("metadata.unsentContent lists each part left out, with why (seen in a turn's stored results)", async () => {
    const reply = await toolkit.runGemini([
      { functionCall: { id: "call_1", name: "voice", args: {} } },
      { functionCall: { id: "call_2", name: "chart", args: {} } },
      { functionCall: { id: "call_3", name: "refund", args: {} } },
    ]);
    const [voice, chart] = reply!.pendingApprovals!.results;
    expect(voice!.metadata!.unsentContent).toEqual([
      { index: 0, type: "audio", mimeType: "audio/wav", reason: `Gemini function responses carry no audio (${TAKEN})` },
    ]);
    expect(chart!.metadata?.unsentContent).toBeUndefined();
  });

  it("structured results: response.output is the object itself, no parts", async () => {
    expect(await responsesFor(toolkit, "figures")).toEqual([
      { name: "figures", id: "call_1", response: { output: { quarter: "Q3", revenue: 1250 } } },
    ]);
  });

  it("a structured result that breaks its output schema is an error response", async () => {
    const reply = await toolkit.runGemini([{ functionCall: { name: "figures", args: { quarter: "Q0" } } }]);
    expect(reply!.parts[0]!.functionResponse).toEqual({
      name: "figures",
      response: {
        error: expect.stringContaining('Tool "figures" returned a result that does not match its output schema'),
      },
    });
  });

  it("an error result with parts: { error } with its text form, and the media in parts", async () => {
    expect(await responsesFor(toolkit, "broken_render")).toEqual([
      {
        name: "broken_render",
        id: "call_1",
        response: { error: "render failed halfway\n[image/png image, 16 B]" },
        parts: [{ inlineData: { mimeType: "image/png", data: b64(PNG) } }],
      },
    ]);
  });

  it("text results are as before: no parts key", async () => {
    const [response] = await responsesFor(new Toolkit([returning("greet", () => "hello")]), "greet");
    expect(response).toEqual({ name: "greet", id: "call_1", response: { output: "hello" } });
  });

  it("the reply is a Content the SDK accepts", async () => {
    const reply = await toolkit.runGemini([{ functionCall: { name: "chart", args: {} } }]);
    const contents: Content[] = [reply!];
    expect(contents[0]!.parts![0]!.functionResponse!.parts![0]!.inlineData!.mimeType).toBe("image/png");
  });
});

describe("toGemini({ multimodalResults: false }): models that take no media in function responses", () => {
  const NOT_TAKEN = "this model takes no media in function responses";

  it("every medium becomes a note; text parts stay", async () => {
    const toolkit = new Toolkit(richTools());
    toolkit.toGemini({ multimodalResults: false });
    const [chart, report, photo] = await responsesFor(toolkit, "chart", "report", "photo");
    expect(chart).toEqual({
      name: "chart",
      id: "call_1",
      response: { output: `Sales by month\n[image/png image, 16 B not sent: ${NOT_TAKEN}]` },
    });
    expect(report).toEqual({
      name: "report",
      id: "call_2",
      response: { output: `[file report.pdf (application/pdf, 14 B) not sent: ${NOT_TAKEN}]` },
    });
    expect(photo).toEqual({
      name: "photo",
      id: "call_3",
      response: { output: `[image at https://example.com/cat.png not sent: ${NOT_TAKEN}]` },
    });
  });

  it("lists them in metadata.unsentContent", async () => {
    const toolkit = new Toolkit(richTools());
    toolkit.toGemini({ multimodalResults: false });
    const reply = await toolkit.runGemini([
      { functionCall: { id: "call_1", name: "chart", args: {} } },
      { functionCall: { id: "call_2", name: "refund", args: {} } },
    ]);
    expect(reply!.pendingApprovals!.results[0]!.metadata!.unsentContent).toEqual([
      { index: 1, type: "image", mimeType: "image/png", reason: NOT_TAKEN },
    ]);
  });

  it("structured results are not media: still the object", async () => {
    const toolkit = new Toolkit(richTools());
    toolkit.toGemini({ multimodalResults: false });
    expect((await responsesFor(toolkit, "figures"))[0]!.response).toEqual({ output: { quarter: "Q3", revenue: 1250 } });
  });

  it("follows the latest export: exporting again without the option sends media again", async () => {
    const toolkit = new Toolkit(richTools());
    toolkit.toGemini({ multimodalResults: false });
    toolkit.toGemini();
    expect((await responsesFor(toolkit, "chart"))[0]!.parts).toEqual([
      { inlineData: { mimeType: "image/png", data: b64(PNG) } },
    ]);
  });

  it("is not a declaration field", () => {
    const toolkit = new Toolkit(richTools());
    expect(toolkit.toGemini({ multimodalResults: false })).toEqual(toolkit.toGemini());
  });
});

describe("gemini.carries", () => {
  const carries = (part: Exclude<ToolContent, { type: "text" }>, multimodalResults?: boolean) =>
    gemini.carries!(part, multimodalResults === undefined ? {} : { multimodalResults });

  it.each([
    ["image/png", image(PNG)],
    ["image/jpeg", image(JPEG)],
    ["image/webp", image(WEBP)],
    ["application/pdf", file(PDF, "application/pdf")],
    ["text/plain", file(NOTES, "text/plain")],
    ["a PNG by URL", image(new URL("https://example.com/a.PNG"))],
    ["a PDF by URL", file(new URL("https://example.com/a"), "application/pdf")],
  ])("takes %s", (_what, part) => {
    expect(carries(part)).toBeUndefined();
  });

  it.each([
    ["image/gif", image(GIF)],
    ["audio", audio(WAV)],
    ["text/csv", file(CSV, "text/csv")],
    ["a resource link", resourceLink("https://example.com/x")],
    ["an image by URL of no known type", image(new URL("https://example.com/x"))],
  ])("refuses %s, saying why", (_what, part) => {
    expect(carries(part)).toMatch(/^Gemini /);
  });

  it("refuses everything with multimodalResults: false", () => {
    expect(carries(image(PNG), false)).toBe("this model takes no media in function responses");
    expect(carries(image(PNG), true)).toBeUndefined();
  });
});
