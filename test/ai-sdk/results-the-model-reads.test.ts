/**
 * What the model reads for each kind of result, through the tool's `toModelOutput`: text as
 * text, errors as `error-text`, structured results as `json`, and images, audio and files as
 * the AI SDK's content parts (or their text form with `multimodalResults: false`). The app
 * reads the whole `ToolResult` as the call's output.
 */
import { convertToModelMessages, generateText, stepCountIs, type UIMessage } from "ai";
import { audio, defineTool, file, image, resourceLink, Toolkit, type ToolResult } from "toolnexus";
import { toAiSdkTools } from "toolnexus/ai-sdk";
import { scriptedModel, text, toolCall, toolResultsIn } from "./scripted-model";

// A 1×1 PNG.
const png = Buffer.from(
  "89504e470d0a1a0a0000000d4948445200000001000000010802000000907753de0000000c49444154789c63706afd020002c801bc96b789c40000000049454e44ae426082",
  "hex",
);
const chart = defineTool({
  name: "sales_chart",
  description: "Draws this year's sales",
  execute: () => [{ type: "text", text: "Sales 2025, by month" }, image(png)],
});

/** Runs one call of tool `name` in the AI SDK's loop and gives what the model read about it, and the call's output. */
async function oneCall(tools: ReturnType<typeof toAiSdkTools>, name: string, input: unknown = {}) {
  let read: unknown;
  const model = scriptedModel([toolCall(name, input)], (prompt) => {
    read = toolResultsIn(prompt)[0]?.output;
    return [text("ok")];
  });
  const result = await generateText({ model, tools, prompt: "go", stopWhen: stepCountIs(3) });
  return { read, output: result.steps[0]!.toolResults[0]!.output };
}

describe("toAiSdkTools: what the model reads", () => {
  it("sends an image result as the AI SDK's content parts, and gives the app the whole result", async () => {
    const { read, output } = await oneCall(toAiSdkTools(new Toolkit([chart])), "sales_chart");
    expect(read).toEqual({
      type: "content",
      value: [
        { type: "text", text: "Sales 2025, by month" },
        { type: "image-data", data: png.toString("base64"), mediaType: "image/png" },
      ],
    });
    expect(output).toEqual({
      output: "Sales 2025, by month\n[image/png image, 69 B]",
      isError: false,
      content: [
        { type: "text", text: "Sales 2025, by month" },
        { type: "image", data: png.toString("base64"), mimeType: "image/png" },
      ],
    });
  });

  it("sends the text form instead with multimodalResults: false", async () => {
    const { read } = await oneCall(toAiSdkTools(new Toolkit([chart]), { multimodalResults: false }), "sales_chart");
    expect(read).toEqual({ type: "text", value: "Sales 2025, by month\n[image/png image, 69 B]" });
  });

  it("maps every kind of part: audio and files as file parts, URLs as URL parts, a link as a line of text", async () => {
    const wav = Buffer.concat([Buffer.from("RIFF"), Buffer.alloc(4), Buffer.from("WAVEfmt ")]);
    const parts = defineTool({
      name: "parts",
      description: "Every kind of part",
      execute: () => [
        audio(wav),
        file(Buffer.from("a,b\n1,2\n"), "text/csv", "data.csv"),
        file(new URL("https://example.com/report.pdf"), "application/pdf"),
        image(new URL("https://example.com/chart.png")),
        resourceLink("https://example.com/orders/1001", { name: "Order 1001", mimeType: "application/json" }),
      ],
    });
    const tools = toAiSdkTools(new Toolkit([parts]));
    const output = await tools.parts!.execute!({}, { toolCallId: "call_1", messages: [] });
    const read = await tools.parts!.toModelOutput!({ toolCallId: "call_1", input: {}, output: output as ToolResult });
    expect(read).toEqual({
      type: "content",
      value: [
        { type: "file-data", data: wav.toString("base64"), mediaType: "audio/wav" },
        {
          type: "file-data",
          data: Buffer.from("a,b\n1,2\n").toString("base64"),
          mediaType: "text/csv",
          filename: "data.csv",
        },
        { type: "file-url", url: "https://example.com/report.pdf", mediaType: "application/pdf" },
        { type: "image-url", url: "https://example.com/chart.png" },
        { type: "text", text: "[resource Order 1001 at https://example.com/orders/1001 (application/json)]" },
      ],
    });
  });

  it("sends a structured result as json, and an error as error-text", async () => {
    const stock = defineTool({
      name: "stock",
      description: "Units in stock",
      inputSchema: { type: "object", properties: { sku: { type: "string" } }, required: ["sku"] },
      outputSchema: { type: "object", properties: { units: { type: "integer", minimum: 0 } }, required: ["units"] },
      execute: ({ sku }) => ({ units: sku === "TEA-01" ? 12 : -1 }),
    });
    const tools = toAiSdkTools(new Toolkit([stock]));
    expect((await oneCall(tools, "stock", { sku: "TEA-01" })).read).toEqual({ type: "json", value: { units: 12 } });
    const broken = await oneCall(tools, "stock", { sku: "X" });
    expect(broken.read).toEqual({ type: "error-text", value: expect.stringContaining("stock") });
    expect(broken.output).toMatchObject({ isError: true, metadata: { error: "invalid_output" } });
  });

  it("sends text as text, and an output that is not a ToolResult (stored by other code) the AI SDK's default way", async () => {
    const hello = defineTool({ name: "hello", description: "Says hello", execute: () => "hello" });
    const tools = toAiSdkTools(new Toolkit([hello]));
    expect((await oneCall(tools, "hello")).read).toEqual({ type: "text", value: "hello" });
    const toModelOutput = tools.hello!.toModelOutput!;
    expect(await toModelOutput({ toolCallId: "call_1", input: {}, output: "plain" as unknown as ToolResult })).toEqual({
      type: "text",
      value: "plain",
    });
    expect(await toModelOutput({ toolCallId: "call_1", input: {}, output: { n: 1 } as unknown as ToolResult })).toEqual(
      { type: "json", value: { n: 1 } },
    );
  });

  it("sends the same from a chat's UI messages: convertToModelMessages with the tool set uses its toModelOutput", async () => {
    const tools = toAiSdkTools(new Toolkit([chart]));
    const failed: ToolResult = {
      output: "the chart service is down",
      isError: true,
      metadata: { error: "execution_failed" },
    };
    const messages: UIMessage[] = [
      { id: "1", role: "user", parts: [{ type: "text", text: "chart?" }] },
      {
        id: "2",
        role: "assistant",
        parts: [
          { type: "tool-sales_chart", toolCallId: "call_1", state: "output-available", input: {}, output: failed },
        ],
      },
    ];
    const model = await convertToModelMessages(messages, { tools });
    const toolMessage = model.find((message) => message.role === "tool");
    expect(toolMessage?.content).toEqual([
      expect.objectContaining({
        type: "tool-result",
        toolCallId: "call_1",
        output: { type: "error-text", value: "the chart service is down" },
      }),
    ]);
  });
});
