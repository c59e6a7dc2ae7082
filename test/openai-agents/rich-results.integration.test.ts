import { Agent, run, RunContext } from "@openai/agents";
import { audio, defineTool, errorResult, file, image, Toolkit } from "toolnexus";
import { agentsOutputOf, toAgentsTools } from "toolnexus/openai-agents";
import { startScriptedModel, type ScriptedModel } from "./support";

/**
 * Results beyond text through the Agents SDK: images and files reach the model as the
 * Responses API's input_image and input_file items; what it cannot carry (audio, links) is a
 * text note; a structured result is its JSON text.
 */

const PNG = Buffer.from(
  "89504e470d0a1a0a0000000d4948445200000001000000010802000000907753de0000000c49444154789c63706afd020002c801bc96b789c40000000049454e44ae426082",
  "hex",
);
const WAV = Buffer.from(
  "524946462400000057415645666d7420100000000100010044ac000088580100020010006461746100000000",
  "hex",
);

const chart = defineTool({
  name: "sales_chart",
  description: "Draws this year's sales",
  execute: () => [
    { type: "text", text: "Sales 2025" },
    image(PNG),
    file(Buffer.from("month,units\nJan,3\n"), "text/csv", "sales.csv"),
    audio(WAV),
  ],
});
const summary = defineTool({
  name: "sales_summary",
  description: "This year's sales in figures",
  outputSchema: { type: "object", properties: { units: { type: "integer" } }, required: ["units"] },
  execute: () => ({ units: 42 }),
});

let model: ScriptedModel | undefined;
afterEach(async () => {
  await model?.close();
  model = undefined;
});

describe("rich results through the Agents SDK", () => {
  it("sends images and files as the Responses API's items, and notes what it cannot carry", async () => {
    model = await startScriptedModel((request) =>
      request.outputs.length === 0
        ? {
            calls: [
              { name: "sales_chart", arguments: {} },
              { name: "sales_summary", arguments: {} },
            ],
          }
        : { text: request.outputs.map((o) => o.text).join("\n---\n") },
    );
    const agent = new Agent({
      name: "Analyst",
      tools: toAgentsTools(new Toolkit([chart, summary])),
      model: model.model,
    });
    const result = await run(agent, "How did we sell?");

    const outputs = model.requests[1].input.filter((item: { type: string }) => item.type === "function_call_output");
    expect(outputs[0].output).toEqual([
      { type: "input_text", text: "Sales 2025" },
      expect.objectContaining({ type: "input_image", image_url: `data:image/png;base64,${PNG.toString("base64")}` }),
      expect.objectContaining({
        type: "input_file",
        file_data: `data:text/csv;base64,${Buffer.from("month,units\nJan,3\n").toString("base64")}`,
        filename: "sales.csv",
      }),
      {
        type: "input_text",
        text: "[audio/wav audio, 44 B not sent: OpenAI Responses function outputs carry text, images and files, not audio]",
      },
    ]);
    expect(outputs[1].output).toBe('{"units":42}');
    expect(result.finalOutput).toContain("[image data:image/png;base");
  });
});

describe("agentsOutputOf", () => {
  it("gives text results as text, a failure's with Error: first", () => {
    expect(agentsOutputOf({ output: "ok", isError: false })).toBe("ok");
    expect(agentsOutputOf(errorResult("execution_failed", "boom"))).toBe("Error: boom");
  });

  it("starts a failure with parts with Error:, as its text form does", () => {
    const failed = { output: "", isError: true, content: [image(new URL("https://example.com/a.png"))] };
    expect(agentsOutputOf(failed)).toEqual([
      { type: "text", text: "Error:" },
      { type: "image", image: { url: "https://example.com/a.png" } },
    ]);
    const explained = {
      output: "",
      isError: true,
      content: [
        { type: "text" as const, text: "render failed" },
        file(new URL("https://example.com/log.txt"), "text/plain"),
      ],
    };
    expect(agentsOutputOf(explained)).toEqual([
      { type: "text", text: "Error: render failed" },
      { type: "file", file: { url: "https://example.com/log.txt" } },
    ]);
  });

  it("is what an adapted tool gives when invoked directly", async () => {
    const [adapted] = toAgentsTools(new Toolkit([chart]));
    const output = (await adapted!.invoke(new RunContext({}), "{}")) as Array<{ type: string }>;
    expect(output.map((part) => part.type)).toEqual(["text", "image", "file", "text"]);
  });
});
