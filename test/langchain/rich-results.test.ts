/**
 * Results beyond text in LangChain: a ToolMessage's content is a list of LangChain standard
 * content blocks (text, image, audio, file: what each chat model integration maps to its
 * provider), `multimodalResults: false` keeps every result to its text form, and a structured
 * result's object is the ToolMessage's `artifact.structuredContent` beside its JSON text.
 */
import { HumanMessage, ToolMessage, type BaseMessage, type ToolCall } from "@langchain/core/messages";
import { audio, defineTool, file, image, resourceLink, Toolkit } from "toolnexus";
import { contentBlockOf, toLangChainTools } from "toolnexus/langchain";
import { callsTools, says, ScriptedChatModel } from "./support/scripted-chat-model";

// A 1×1 PNG.
const PNG = Buffer.from(
  "89504e470d0a1a0a0000000d4948445200000001000000010802000000907753de0000000c49444154789c63706afd020002c801bc96b789c40000000049454e44ae426082",
  "hex",
);
const PNG_BASE64 = PNG.toString("base64");
const WAV = Buffer.concat([Buffer.from("RIFF\0\0\0\0WAVEfmt ", "latin1"), Buffer.alloc(16)]);
const PDF = Buffer.from("%PDF-1.4\n%%EOF\n", "latin1");

const chart = defineTool({
  name: "sales_chart",
  description: "Draws this year's sales",
  execute: () => [{ type: "text", text: "Sales 2025, by month" }, image(PNG)],
});
const summary = defineTool({
  name: "sales_summary",
  description: "This year's sales in figures",
  outputSchema: {
    type: "object",
    properties: { total: { type: "number" }, best: { type: "string" } },
    required: ["total", "best"],
  },
  execute: () => ({ total: 1250, best: "March" }),
});

const call = (name: string): ToolCall => ({ type: "tool_call", id: `call_${name}`, name, args: {} });

describe("results beyond text, in LangChain", () => {
  it("are ToolMessages whose content is standard content blocks: the text, then the image", async () => {
    const [tool] = toLangChainTools(new Toolkit([chart]));
    const message = await tool!.invoke(call("sales_chart"));
    expect(message.content).toEqual([
      { type: "text", text: "Sales 2025, by month" },
      { type: "image", data: PNG_BASE64, mimeType: "image/png" },
    ]);
    // LangChain reads them as its standard blocks (what provider integrations convert).
    expect(message.contentBlocks.map((block) => block.type)).toEqual(["text", "image"]);
    // The artifact keeps the result, without a second copy of the image.
    expect(message.artifact).toEqual({ output: "Sales 2025, by month\n[image/png image, 69 B]", isError: false });
  });

  it("map every kind of part: images by URL, audio, files with their name, links as the note the text form gives them", () => {
    expect(contentBlockOf(image(new URL("https://example.com/cat.png")))).toEqual({
      type: "image",
      url: "https://example.com/cat.png",
    });
    expect(contentBlockOf(audio(WAV))).toEqual({ type: "audio", data: WAV.toString("base64"), mimeType: "audio/wav" });
    expect(contentBlockOf(file(PDF, "application/pdf", "report.pdf"))).toEqual({
      type: "file",
      data: PDF.toString("base64"),
      mimeType: "application/pdf",
      metadata: { filename: "report.pdf" },
    });
    expect(contentBlockOf(file(new URL("https://example.com/r.pdf"), "application/pdf"))).toEqual({
      type: "file",
      url: "https://example.com/r.pdf",
      mimeType: "application/pdf",
    });
    expect(contentBlockOf(resourceLink("file:///reports/q1.csv", { name: "q1.csv", mimeType: "text/csv" }))).toEqual({
      type: "text",
      text: "[resource q1.csv at file:///reports/q1.csv (text/csv)]",
    });
  });

  it("reach the model in its next turn", async () => {
    const tools = toLangChainTools(new Toolkit([chart]));
    const model = new ScriptedChatModel([
      () => callsTools(["sales_chart", {}, "call_1"]),
      () => says("A rising line."),
    ]);
    const bound = model.bindTools(tools);
    const messages: BaseMessage[] = [new HumanMessage("Show me the sales")];
    const first = await bound.invoke(messages);
    messages.push(first, await tools[0]!.invoke(first.tool_calls![0]!));
    await bound.invoke(messages);
    const sent = model.requests[1]!.messages.at(-1)!;
    expect(ToolMessage.isInstance(sent) && sent.contentBlocks).toEqual([
      { type: "text", text: "Sales 2025, by month" },
      { type: "image", data: PNG_BASE64, mimeType: "image/png" },
    ]);
  });

  it("are their text form with multimodalResults: false, the parts kept in the artifact for the app", async () => {
    const [tool] = toLangChainTools(new Toolkit([chart]), { multimodalResults: false });
    const message = await tool!.invoke(call("sales_chart"));
    expect(message.content).toBe("Sales 2025, by month\n[image/png image, 69 B]");
    expect(message.artifact.content).toEqual([
      { type: "text", text: "Sales 2025, by month" },
      { type: "image", data: PNG_BASE64, mimeType: "image/png" },
    ]);
  });

  it("are a string when every part is text", async () => {
    const lines = defineTool({
      name: "lines",
      description: "Two lines",
      execute: () => [
        { type: "text", text: "one" },
        { type: "text", text: "two" },
      ],
    });
    const [tool] = toLangChainTools(new Toolkit([lines]));
    await expect(tool!.invoke(call("lines"))).resolves.toMatchObject({ content: "one\ntwo" });
  });

  it("carry a structured result as its JSON text, with the object in artifact.structuredContent", async () => {
    const [tool] = toLangChainTools(new Toolkit([summary]));
    const message = await tool!.invoke(call("sales_summary"));
    expect(message).toMatchObject({
      status: "success",
      content: '{"total":1250,"best":"March"}',
      artifact: { structuredContent: { total: 1250, best: "March" } },
    });
  });
});
