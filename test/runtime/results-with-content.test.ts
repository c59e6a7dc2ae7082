/**
 * Results beyond text: parts a tool returns (`image(...)`, `audio(...)`, `file(...)`,
 * `resourceLink(...)`, plain part objects, lists of them, bytes) become `content`, with their
 * text form in `output`; what cannot be read is a clear error, never a silent pass.
 */
import fc from "fast-check";
import {
  audio,
  defineTool,
  file,
  image,
  isToolContent,
  LIMITS,
  resourceLink,
  toToolResult,
  Toolkit,
  type ToolContent,
} from "toolnexus";

const { MAX_CONTENT_BYTES } = LIMITS;

const PNG = Buffer.from("89504e470d0a1a0a0000000d4948445200000001", "hex");
const JPEG = Buffer.from("ffd8ffe000104a464946", "hex");
const PDF = Buffer.from("%PDF-1.7\n", "latin1");
const WAV = Buffer.concat([Buffer.from("RIFF"), Buffer.alloc(4), Buffer.from("WAVEfmt ")]);

describe("the part helpers", () => {
  it("image() takes bytes, base64 or a URL, and recognizes common formats from the bytes", () => {
    expect(image(PNG)).toEqual({ type: "image", data: PNG.toString("base64"), mimeType: "image/png" });
    expect(image(new Uint8Array(JPEG))).toEqual({
      type: "image",
      data: JPEG.toString("base64"),
      mimeType: "image/jpeg",
    });
    expect(image(PNG.toString("base64"), "image/png")).toEqual(image(PNG));
    expect(image(new URL("https://example.com/chart.png"))).toEqual({
      type: "image",
      url: "https://example.com/chart.png",
    });
    expect(image(PNG.buffer.slice(PNG.byteOffset, PNG.byteOffset + PNG.byteLength), "image/png").data).toBe(
      PNG.toString("base64"),
    );
  });

  it("refuses what it cannot make a part of, saying what to pass", () => {
    expect(() => image(Buffer.from("not an image"))).toThrow(
      'image(): the format of these bytes is not recognized; pass the mime type, e.g. image(bytes, "image/png").',
    );
    expect(() => image("not base64!", "image/png")).toThrow("a string is read as base64, and this one is not base64");
    expect(() => image(PNG, "application/pdf")).toThrow(
      '"application/pdf" is not an image type; use file() for documents.',
    );
    expect(() => image(PNG, "png")).toThrow('the mime type must look like "type/subtype"');
    expect(() => audio(PNG, "image/png")).toThrow('"image/png" is not an audio type');
    expect(() => file(PDF, "application/pdf", "")).toThrow("the name must be a non-empty string");
    expect(() => image(42 as unknown as Buffer)).toThrow(
      "takes bytes (a Buffer, Uint8Array or ArrayBuffer) or a base64 string, or a URL",
    );
  });

  it("audio(), file() and resourceLink() make the other kinds", () => {
    expect(audio(WAV)).toEqual({ type: "audio", data: WAV.toString("base64"), mimeType: "audio/wav" });
    expect(file(PDF, "application/pdf", "report.pdf")).toEqual({
      type: "file",
      data: PDF.toString("base64"),
      mimeType: "application/pdf",
      name: "report.pdf",
    });
    expect(file(new URL("https://example.com/r.pdf"), "application/pdf")).toEqual({
      type: "file",
      url: "https://example.com/r.pdf",
      mimeType: "application/pdf",
    });
    expect(resourceLink("file:///reports/q3.csv", { name: "q3.csv", mimeType: "text/csv" })).toEqual({
      type: "resource_link",
      uri: "file:///reports/q3.csv",
      name: "q3.csv",
      mimeType: "text/csv",
    });
  });

  it("keeps any bytes exactly (base64 round trip)", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 512 }), (bytes) => {
        const part = file(bytes, "application/octet-stream");
        expect(Buffer.from("data" in part ? part.data : "", "base64").equals(Buffer.from(bytes))).toBe(true);
        expect(isToolContent(part)).toBe(true);
      }),
    );
  });
});

describe("what a tool returns, as a result", () => {
  it("a part, or a list of parts, is content with its text form as output", () => {
    expect(toToolResult(image(PNG))).toEqual({
      output: "[image/png image, 20 B]",
      isError: false,
      content: [image(PNG)],
    });
    const parts: ToolContent[] = [
      { type: "text", text: "Sales by month:" },
      image(PNG),
      file(PDF, "application/pdf", "sales.pdf"),
      resourceLink("https://example.com/sales"),
    ];
    expect(toToolResult(parts)).toEqual({
      output:
        "Sales by month:\n[image/png image, 20 B]\n[file sales.pdf (application/pdf, 9 B)]\n[resource https://example.com/sales]",
      isError: false,
      content: parts,
    });
  });

  it("bytes are a part of the kind their format says, or of the tool's declared mime type", async () => {
    expect(toToolResult(PNG).content).toEqual([image(PNG)]);
    expect(toToolResult(PDF).content).toEqual([
      { type: "file", data: PDF.toString("base64"), mimeType: "application/pdf" },
    ]);
    const tool = defineTool({
      name: "export_csv",
      description: "Sales as CSV",
      mimeType: "text/csv",
      execute: () => Buffer.from("month,total\n"),
    });
    expect((await tool.execute({})).content).toEqual([
      { type: "file", data: Buffer.from("month,total\n").toString("base64"), mimeType: "text/csv" },
    ]);
  });

  it("unrecognized bytes without a declared mime type are an error that says how to declare one", () => {
    const result = toToolResult(Buffer.from("plain bytes"));
    expect(result).toMatchObject({ isError: true, metadata: { error: "execution_failed" } });
    expect(result.output).toContain("Declare what they are with @Tool({ mimeType }) or defineTool({ mimeType })");
  });

  it("a ToolResult with content keeps its own text form (or gets one), and its text leads the parts when they have none", () => {
    expect(toToolResult({ output: "The chart", isError: false, content: [image(PNG)] })).toEqual({
      output: "The chart",
      isError: false,
      content: [{ type: "text", text: "The chart" }, image(PNG)],
    });
    expect(toToolResult({ output: "", isError: false, content: [image(PNG)] }).output).toBe("[image/png image, 20 B]");
  });

  it("a ToolResult whose content is not a list of parts is an error, not a silent pass", () => {
    for (const content of [[{ type: "image" }], [{ type: "video", data: "AA==" }], "text", [image(PNG), 3]]) {
      const result = toToolResult({ output: "x", isError: false, content });
      expect(result).toMatchObject({ isError: true, metadata: { error: "execution_failed" } });
      expect(result.output).toContain("content is not a list of parts");
    }
    expect(toToolResult({ output: "x", isError: false, content: [] })).toEqual({ output: "x", isError: false });
  });

  it("objects that only look like a part stay JSON", () => {
    expect(toToolResult({ type: "image", caption: "no data" })).toEqual({
      output: '{"type":"image","caption":"no data"}',
      isError: false,
    });
    expect(toToolResult([])).toEqual({ output: "[]", isError: false });
  });

  it("replaces a binary part over the size cap by a note, and says so in metadata", () => {
    const huge = image(Buffer.alloc(MAX_CONTENT_BYTES + 1, 1), "image/png");
    const result = toToolResult([{ type: "text", text: "Big:" }, huge]);
    expect(result.content).toEqual([
      { type: "text", text: "Big:" },
      { type: "text", text: "[image/png image, 10.0 MB not sent: 10.0 MB is over the 10.0 MB a part may have]" },
    ]);
    expect(result.metadata).toEqual({
      unsentContent: [
        { index: 1, type: "image", mimeType: "image/png", reason: "10.0 MB is over the 10.0 MB a part may have" },
      ],
    });
  });

  it("reads a returned part once (a getter cannot answer one thing to the check and another to the copy)", () => {
    let reads = 0;
    const part = {
      type: "text",
      get text() {
        reads++;
        return reads === 1 ? "first" : 42;
      },
    };
    expect(toToolResult(part)).toEqual({ output: "first", isError: false, content: [{ type: "text", text: "first" }] });
  });

  it("works through a toolkit, for decorated and defined tools alike", async () => {
    const chart = defineTool({
      name: "chart",
      description: "Draws the chart",
      execute: async () => [{ type: "text", text: "Here it is" }, image(PNG)],
    });
    expect(await new Toolkit([chart]).execute("chart", {})).toEqual({
      output: "Here it is\n[image/png image, 20 B]",
      isError: false,
      content: [{ type: "text", text: "Here it is" }, image(PNG)],
    });
  });
});
