/**
 * examples/chart.ts, held to what it claims: the PNG it draws reaches every provider's result
 * message where that API takes images, and the structured summary reaches the official MCP
 * client as structuredContent matching the listed outputSchema.
 */
import { inflateSync } from "node:zlib";
import { main } from "../../examples/chart";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe("examples/chart.ts", () => {
  let replies: Json;
  let mcp: Json;
  let png: Buffer;

  beforeAll(async () => {
    ({ replies, mcp } = (await main()) as unknown as { replies: Json; mcp: Json });
    png = Buffer.from(replies.anthropic.content[0].content[1].source.data, "base64");
  });

  it("draws a real PNG: a 250×110 RGB image whose pixel rows inflate to the right size", () => {
    expect(png.subarray(0, 8).toString("hex")).toBe("89504e470d0a1a0a");
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([250, 110]);
    const idatLength = png.readUInt32BE(33);
    expect(png.subarray(37, 41).toString("latin1")).toBe("IDAT");
    expect(inflateSync(png.subarray(41, 41 + idatLength)).length).toBe((250 * 3 + 1) * 110);
  });

  it("puts the image where each provider's API takes it", () => {
    const base64 = png.toString("base64");
    expect(replies.anthropic.content[0].content).toEqual([
      { type: "text", text: expect.stringMatching(/^Monthly sales 2025/) },
      { type: "image", source: { type: "base64", media_type: "image/png", data: base64 } },
    ]);
    expect(replies.gemini.parts[0].functionResponse.parts).toEqual([
      { inlineData: { mimeType: "image/png", data: base64 } },
    ]);
    expect(replies["openai-responses"][0].output).toContainEqual(
      expect.objectContaining({ type: "input_image", image_url: `data:image/png;base64,${base64}` }),
    );
    const openai = replies.openai as Json[];
    expect(openai.map((message) => message.role)).toEqual(["tool", "tool", "user"]);
    expect(openai[2]!.content).toContainEqual({
      type: "image_url",
      image_url: { url: `data:image/png;base64,${base64}` },
    });
    expect(Buffer.from(replies.bedrock.content[0].toolResult.content[1].image.source.bytes).equals(png)).toBe(true);
  });

  it("gives the structured summary as JSON where a provider has a place for it, and as text elsewhere", () => {
    const summary = { year: 2025, total: 734, bestMonth: "Dec" };
    expect(replies.bedrock.content[1].toolResult.content).toEqual([{ json: summary }]);
    expect(JSON.parse(replies.anthropic.content[1].content)).toEqual(summary);
    expect(replies.gemini.parts[1].functionResponse.response).toEqual({ output: summary });
  });

  it("answers the official MCP client with image content, and structuredContent matching the outputSchema", () => {
    expect(mcp.outputSchema).toMatchObject({
      type: "object",
      properties: {
        year: { type: "integer" },
        total: { type: "integer", minimum: 0 },
        bestMonth: { enum: expect.any(Array) },
      },
    });
    expect(mcp.chart.content).toContainEqual({ type: "image", data: png.toString("base64"), mimeType: "image/png" });
    expect(mcp.summary.structuredContent).toEqual({ year: 2025, total: 734, bestMonth: "Dec" });
    expect(mcp.summary.isError).toBe(false);
  });
});
