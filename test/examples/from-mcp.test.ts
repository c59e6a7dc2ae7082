/**
 * examples/from-mcp.ts, held to what it claims: the inventory server's tools join the local
 * one under their prefix (the destructive one left out), declared for OpenAI and Gemini; a
 * model turn calling remote and local tools is answered in order, the server's failure as
 * text; the server's photo reaches Gemini as inline PNG bytes.
 */
import { main } from "../../examples/from-mcp";

describe("examples/from-mcp.ts", () => {
  let result: Awaited<ReturnType<typeof main>>;

  beforeAll(async () => {
    result = await main();
  });

  it("declares the local tool and the server's, prefixed, without the destructive one", () => {
    const names = ["convert_currency", "inventory_stock_level", "inventory_product_photo"];
    expect(result.declared).toEqual({ openai: names, gemini: names });
  });

  it("answers the OpenAI turn: a remote structured result, the local result, the server's failure as data", () => {
    expect(result.openaiReply).toEqual([
      { role: "tool", tool_call_id: "call_1", content: '{"sku":"SKU-1","units":42,"priceEur":9.5}' },
      { role: "tool", tool_call_id: "call_2", content: "10.26 USD" },
      { role: "tool", tool_call_id: "call_3", content: "Error: No product SKU-9. Known SKUs: SKU-1, SKU-2." },
    ]);
  });

  it("answers the Gemini turn with the server's photo as inline PNG bytes", () => {
    const response = result.geminiReply!.parts[0]!.functionResponse;
    expect(response).toMatchObject({
      name: "inventory_product_photo",
      id: "photo_1",
      response: { output: expect.stringMatching(/^Moka pot \(SKU-2\)\n\[image\/png image, \d+ B\]$/) },
    });
    const [photo] = response.parts!;
    if (photo === undefined || !("inlineData" in photo)) throw new Error("the photo is not inline data");
    expect(photo.inlineData.mimeType).toBe("image/png");
    expect(Buffer.from(photo.inlineData.data, "base64").subarray(0, 8).toString("hex")).toBe("89504e470d0a1a0a");
  });
});
