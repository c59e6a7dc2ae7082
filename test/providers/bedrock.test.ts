import { ExportError, toBedrock, Toolkit } from "../../src";
import { assistantMessage, converseResponse, parallelBlocks, slowThenFast, type Message } from "./fixtures/bedrock";
import { byCallId, dottedTool, makeKit, threeTools, UNKNOWN_GET_WETHER, weatherTool } from "./fixtures/tools";

describe("toBedrock declarations (Converse toolConfig)", () => {
  it("{ tools: [{ toolSpec: { name, description, inputSchema: { json } } }] }", () => {
    expect(toBedrock([weatherTool()])).toEqual({
      tools: [
        {
          toolSpec: {
            name: "get_weather",
            description: "Current weather for a city",
            inputSchema: { json: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } },
          },
        },
      ],
    });
  });

  it("three tools in order, exact keys", () => {
    const config = toBedrock(threeTools());
    expect(Object.keys(config)).toEqual(["tools"]);
    expect(config.tools.map((t) => t.toolSpec.name)).toEqual(["search", "ping", "kv_get"]);
    expect(config.tools[1]).toEqual({
      toolSpec: {
        name: "ping",
        description: "Health check",
        inputSchema: { json: { type: "object", properties: {} } },
      },
    });
    for (const tool of config.tools) {
      expect(Object.keys(tool)).toEqual(["toolSpec"]);
      expect(Object.keys(tool.toolSpec).sort()).toEqual(["description", "inputSchema", "name"]);
      expect(Object.keys(tool.toolSpec.inputSchema)).toEqual(["json"]);
    }
  });

  it("zero tools give an empty tools list", () => {
    expect(toBedrock([])).toEqual({ tools: [] });
  });

  it("refuses a name Bedrock rejects, with an ExportError naming it", () => {
    expect(() => toBedrock([dottedTool()])).toThrow(ExportError);
    expect(() => toBedrock([dottedTool()])).toThrow(/"billing\.refund"/);
  });

  it("Toolkit#toBedrock gives the same output as the free function", () => {
    const tools = threeTools();
    expect(new Toolkit(tools).toBedrock()).toEqual(toBedrock(tools));
  });
});

describe("runBedrock round trip", () => {
  const expectedReply = {
    role: "user",
    content: [
      { toolResult: { toolUseId: "tooluse_1", content: [{ text: "sunny in Paris" }], status: "success" } },
      { toolResult: { toolUseId: "tooluse_2", content: [{ text: "boom" }], status: "error" } },
      { toolResult: { toolUseId: "tooluse_3", content: [{ text: UNKNOWN_GET_WETHER }], status: "error" } },
      {
        toolResult: {
          toolUseId: "tooluse_4",
          content: [
            { text: 'Invalid arguments for tool "get_weather": arguments must be a JSON object, got an array of 2' },
          ],
          status: "error",
        },
      },
    ],
  };

  it("whole ConverseResponse: ONE user message, one toolResult per toolUse in order; text/reasoning ignored", async () => {
    const { toolkit, calls } = makeKit();
    expect(await toolkit.runBedrock(converseResponse)).toEqual(expectedReply);
    expect(calls.map((c) => c.callId)).toEqual(["tooluse_1", "tooluse_2"]);
  });

  it("the assistant message alone, and its content blocks alone, give the same answer", async () => {
    expect(await makeKit().toolkit.runBedrock(assistantMessage)).toEqual(expectedReply);
    expect(await makeKit().toolkit.runBedrock(parallelBlocks)).toEqual(expectedReply);
  });

  it("the reply can be appended to the Converse messages list", async () => {
    // A response with toolUse blocks always has a reply to append.
    const reply = (await makeKit().toolkit.runBedrock(converseResponse))!;
    const typed: Message = reply;
    const messages: Message[] = [{ role: "user", content: [{ text: "weather?" }] }, assistantMessage, typed];
    expect(messages.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
    const next = [...messages, reply];
    expect(next.map((m) => m.role)).toEqual(["user", "assistant", "user", "user"]);
  });

  it("runs calls concurrently and keeps call order (the first call finishes after the second)", async () => {
    const { toolkit, events } = makeKit();
    const reply = await toolkit.runBedrock(slowThenFast);
    expect(events).toEqual(["slow:start", "fast:start", "fast:end", "slow:end"]);
    expect(reply).toEqual({
      role: "user",
      content: [
        { toolResult: { toolUseId: "tooluse_s", content: [{ text: "slow done" }], status: "success" } },
        { toolResult: { toolUseId: "tooluse_f", content: [{ text: '{"fast":true}' }], status: "success" } },
      ],
    });
  });

  it("each call sees its own ctx.callId, provider bedrock, and the caller's ctx.state", async () => {
    const { toolkit, calls } = makeKit();
    const state = { tenant: "eu-1" };
    await toolkit.runBedrock(converseResponse, { state });
    expect(byCallId(calls)).toEqual([
      { tool: "get_weather", callId: "tooluse_1", provider: "bedrock", state, args: { city: "Paris" } },
      { tool: "explode", callId: "tooluse_2", provider: "bedrock", state, args: {} },
    ]);
  });

  it("a response without toolUse blocks runs nothing and has nothing to append (Converse rejects an empty user turn)", async () => {
    const { toolkit, calls } = makeKit();
    const textOnly: Message = { role: "assistant", content: [{ text: "It is sunny." }] };
    expect(await toolkit.runBedrock({ output: { message: textOnly } })).toBeUndefined();
    expect(await toolkit.runBedrock(textOnly)).toBeUndefined();
    expect(await toolkit.runBedrock([])).toBeUndefined();
    expect(calls).toEqual([]);
  });
});
