import type {
  ContentBlock,
  MessageParam,
  ToolUnion as AnthropicSdkTool,
  ToolResultBlockParam,
} from "@anthropic-ai/sdk/resources/messages";
import { defineTool, ExportError, toAnthropic, Toolkit } from "../../src";
import { message, parallelBlocks, slowThenFast, textOnly } from "./fixtures/anthropic";
import { byCallId, dottedTool, makeKit, threeTools, UNKNOWN_GET_WETHER, weatherTool } from "./fixtures/tools";

describe("toAnthropic declarations", () => {
  it("{ name, description, input_schema } per tool", () => {
    expect(toAnthropic([weatherTool()])).toEqual([
      {
        name: "get_weather",
        description: "Current weather for a city",
        input_schema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
      },
    ]);
  });

  it("three tools in order, exactly three keys each, input_schema.type is object", () => {
    const tools = toAnthropic(threeTools());
    expect(tools.map((t) => t.name)).toEqual(["search", "ping", "kv_get"]);
    expect(tools[1]).toEqual({
      name: "ping",
      description: "Health check",
      input_schema: { type: "object", properties: {} },
    });
    expect(tools[2]).toEqual({
      name: "kv_get",
      description: "Read a key",
      input_schema: { type: "object", properties: { key: { type: "string" } }, required: ["key"] },
    });
    for (const tool of tools) {
      expect(Object.keys(tool).sort()).toEqual(["description", "input_schema", "name"]);
      expect(tool).toMatchObject({ input_schema: { type: "object" } });
    }
  });

  it("zero tools give an empty array", () => {
    expect(toAnthropic([])).toEqual([]);
  });

  it("is assignable to the SDK's ToolUnion[]", () => {
    const tools: AnthropicSdkTool[] = toAnthropic(threeTools());
    expect(tools).toHaveLength(3);
  });

  it("refuses a name Anthropic rejects, with an ExportError naming every such tool", () => {
    const other = defineTool({ name: "crm:lookup", description: "Look up a contact", execute: () => "" });
    expect(() => toAnthropic([dottedTool()])).toThrow(ExportError);
    expect(() => toAnthropic([weatherTool(), dottedTool(), other])).toThrow(/"billing\.refund".*"crm:lookup"/);
  });

  it("accepts names up to 128 characters", () => {
    const long = defineTool({ name: `t${"x".repeat(99)}`, description: "A long name", execute: () => "" });
    expect(toAnthropic([long])[0]!.name).toHaveLength(100);
  });

  it("Toolkit#toAnthropic gives the same output as the free function", () => {
    const tools = threeTools();
    expect(new Toolkit(tools).toAnthropic()).toEqual(toAnthropic(tools));
  });
});

describe("runAnthropic round trip", () => {
  const expectedReply = {
    role: "user",
    content: [
      { type: "tool_result", tool_use_id: "toolu_01", content: "sunny in Paris" },
      { type: "tool_result", tool_use_id: "toolu_02", content: "boom", is_error: true },
      { type: "tool_result", tool_use_id: "toolu_03", content: UNKNOWN_GET_WETHER, is_error: true },
      {
        type: "tool_result",
        tool_use_id: "toolu_04",
        content: 'Invalid arguments for tool "get_weather": arguments must be a JSON object, got number 42',
        is_error: true,
      },
    ],
  };

  it("whole Message: ONE user message with one tool_result per tool_use, in order; text ignored", async () => {
    const { toolkit, calls } = makeKit();
    const reply = await toolkit.runAnthropic(message);
    expect(reply).toEqual(expectedReply);
    // is_error appears only on failures: the key is absent on success
    expect(Object.keys(reply!.content[0]!).sort()).toEqual(["content", "tool_use_id", "type"]);
    expect(calls.map((c) => c.callId)).toEqual(["toolu_01", "toolu_02"]);
  });

  it("the content blocks alone give the same answer", async () => {
    const blocks: ContentBlock[] = parallelBlocks;
    expect(await makeKit().toolkit.runAnthropic(blocks)).toEqual(expectedReply);
  });

  it("the reply is a MessageParam the SDK accepts, after the assistant turn", async () => {
    // A response with tool_use blocks always has a reply to append.
    const reply: MessageParam = (await makeKit().toolkit.runAnthropic(message))!;
    const blocks: ToolResultBlockParam[] = (await makeKit().toolkit.runAnthropic(message))!.content;
    const conversation: MessageParam[] = [
      { role: "user", content: "weather in Paris?" },
      { role: "assistant", content: message.content },
      reply,
    ];
    expect(conversation[2]).toEqual(expectedReply);
    expect(blocks.map((b) => b.is_error ?? false)).toEqual([false, true, true, true]);
  });

  it("a message without tool_use blocks runs nothing and has nothing to append (Anthropic rejects an empty user turn)", async () => {
    const { toolkit, calls } = makeKit();
    const reply = await toolkit.runAnthropic(textOnly);
    expect(reply).toBeUndefined();
    expect(calls).toEqual([]);
  });

  it("runs calls concurrently and keeps call order (the first call finishes after the second)", async () => {
    const { toolkit, events } = makeKit();
    const reply = await toolkit.runAnthropic(slowThenFast);
    expect(events).toEqual(["slow:start", "fast:start", "fast:end", "slow:end"]);
    expect(reply).toEqual({
      role: "user",
      content: [
        { type: "tool_result", tool_use_id: "toolu_s", content: "slow done" },
        { type: "tool_result", tool_use_id: "toolu_f", content: '{"fast":true}' },
      ],
    });
  });

  it("each call sees its own ctx.callId, provider anthropic, and the caller's ctx.state", async () => {
    const { toolkit, calls } = makeKit();
    const state = { user: "linus", requestId: "r-9" };
    await toolkit.runAnthropic(message, { state });
    expect(byCallId(calls)).toEqual([
      { tool: "get_weather", callId: "toolu_01", provider: "anthropic", state, args: { city: "Paris" } },
      { tool: "explode", callId: "toolu_02", provider: "anthropic", state, args: {} },
    ]);
    expect(calls.every((c) => c.state === state)).toBe(true);
  });
});
