import type {
  ChatCompletionMessageParam,
  ChatCompletionMessageToolCall,
  ChatCompletionTool,
} from "openai/resources/chat/completions";
import { ExportError, toOpenAI, Toolkit } from "../../src";
import type { OpenAIFunctionTool } from "../../src/providers";
import {
  assistantMessage,
  chatCompletion,
  parallelToolCalls,
  slowThenFast,
  textOnlyCompletion,
} from "./fixtures/openai";
import { byCallId, dottedTool, makeKit, threeTools, UNKNOWN_GET_WETHER, weatherTool } from "./fixtures/tools";

const INVALID_JSON =
  /^Error: Invalid arguments for tool "get_weather": arguments are not valid JSON \(.+\); send one JSON object$/;

describe("toOpenAI declarations (Chat Completions)", () => {
  it("wraps each tool as { type: function, function: { name, description, parameters } }", () => {
    expect(toOpenAI([weatherTool()])).toEqual([
      {
        type: "function",
        function: {
          name: "get_weather",
          description: "Current weather for a city",
          parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
        },
      },
    ]);
  });

  it("three tools in order, exact shapes, no strict key", () => {
    const tools = toOpenAI(threeTools());
    expect(tools).toEqual([
      {
        type: "function",
        function: {
          name: "search",
          description: "Search the docs",
          parameters: {
            type: "object",
            properties: {
              query: { type: "string", description: "What to look for" },
              limit: { type: "integer", minimum: 1 },
            },
            required: ["query"],
          },
        },
      },
      {
        type: "function",
        function: { name: "ping", description: "Health check", parameters: { type: "object", properties: {} } },
      },
      {
        type: "function",
        function: {
          name: "kv_get",
          description: "Read a key",
          parameters: { type: "object", properties: { key: { type: "string" } }, required: ["key"] },
        },
      },
    ]);
    for (const tool of tools) {
      expect(Object.keys(tool).sort()).toEqual(["function", "type"]);
      expect(Object.keys((tool as OpenAIFunctionTool).function).sort()).toEqual(["description", "name", "parameters"]);
    }
  });

  it("zero tools give an empty array", () => {
    expect(toOpenAI([])).toEqual([]);
  });

  it("is assignable to the SDK's ChatCompletionTool[]", () => {
    const tools: ChatCompletionTool[] = toOpenAI(threeTools());
    expect(tools.map((t) => (t.type === "function" ? t.function.name : t.custom.name))).toEqual([
      "search",
      "ping",
      "kv_get",
    ]);
  });

  it("refuses a name OpenAI rejects, with an ExportError naming it", () => {
    expect(() => toOpenAI([weatherTool(), dottedTool()])).toThrow(ExportError);
    expect(() => toOpenAI([weatherTool(), dottedTool()])).toThrow(/"billing\.refund"/);
    expect(() => new Toolkit([dottedTool()]).toOpenAI()).toThrow(ExportError);
  });

  it("Toolkit#toOpenAI gives the same output as the free function", () => {
    const tools = threeTools();
    expect(new Toolkit(tools).toOpenAI()).toEqual(toOpenAI(tools));
  });
});

describe("runOpenAI round trip", () => {
  const expectedBatch = [
    { role: "tool", tool_call_id: "call_a", content: "sunny in Paris" },
    { role: "tool", tool_call_id: "call_b", content: "Error: boom" },
    { role: "tool", tool_call_id: "call_c", content: `Error: ${UNKNOWN_GET_WETHER}` },
    { role: "tool", tool_call_id: "call_d", content: expect.stringMatching(INVALID_JSON) },
  ];

  it("whole ChatCompletion: one tool message per call, in call order", async () => {
    const { toolkit, calls } = makeKit();
    const messages = await toolkit.runOpenAI(chatCompletion);
    expect(messages).toEqual(expectedBatch);
    for (const message of messages) expect(Object.keys(message).sort()).toEqual(["content", "role", "tool_call_id"]);
    // the tool body never ran for the unknown tool nor for the invalid JSON
    expect(calls.map((c) => c.callId)).toEqual(["call_a", "call_b"]);
  });

  it("the assistant message alone, and its tool_calls array alone, give the same answer", async () => {
    expect(await makeKit().toolkit.runOpenAI(assistantMessage)).toEqual(expectedBatch);
    const toolCalls: ChatCompletionMessageToolCall[] = parallelToolCalls;
    expect(await makeKit().toolkit.runOpenAI(toolCalls)).toEqual(expectedBatch);
  });

  it("the result can be appended to the SDK's message list", async () => {
    const toolMessages = await makeKit().toolkit.runOpenAI(chatCompletion);
    const asParams: ChatCompletionMessageParam[] = toolMessages;
    const conversation: ChatCompletionMessageParam[] = [
      { role: "user", content: "weather?" },
      { role: "assistant", content: null, tool_calls: parallelToolCalls },
      ...toolMessages,
    ];
    expect(conversation).toHaveLength(2 + 4);
    expect(asParams.map((m) => (m.role === "tool" ? m.tool_call_id : m.role))).toEqual([
      "call_a",
      "call_b",
      "call_c",
      "call_d",
    ]);
    const direct: ChatCompletionMessageParam[] = await makeKit().toolkit.runOpenAI(chatCompletion);
    expect(direct).toHaveLength(4);
  });

  it("a completion without tool calls gives no messages", async () => {
    const { toolkit, calls } = makeKit();
    expect(await toolkit.runOpenAI(textOnlyCompletion)).toEqual([]);
    expect(calls).toEqual([]);
  });

  it("arguments that are valid JSON but not an object are refused without calling the tool", async () => {
    const { toolkit, calls } = makeKit();
    const messages = await toolkit.runOpenAI([
      { id: "x1", type: "function", function: { name: "get_weather", arguments: "[1,2]" } },
      { id: "x2", type: "function", function: { name: "get_weather", arguments: '"Paris"' } },
      { id: "x3", type: "function", function: { name: "get_weather", arguments: '{"city":"Rome"}' } },
    ]);
    expect(messages).toEqual([
      {
        role: "tool",
        tool_call_id: "x1",
        content: 'Error: Invalid arguments for tool "get_weather": arguments must be a JSON object, got an array of 2',
      },
      {
        role: "tool",
        tool_call_id: "x2",
        content: 'Error: Invalid arguments for tool "get_weather": arguments must be a JSON object, got string "Paris"',
      },
      { role: "tool", tool_call_id: "x3", content: "sunny in Rome" },
    ]);
    expect(calls.map((c) => c.callId)).toEqual(["x3"]);
  });

  it("a call of a kind toolnexus does not declare is answered with an error and never runs a tool of that name", async () => {
    const { toolkit, calls } = makeKit();
    const messages = await toolkit.runOpenAI([
      { id: "cu_1", type: "mystery", function: { name: "get_weather", arguments: '{"city":"Paris"}' } },
      { id: "fn_1", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } },
    ]);
    expect(messages).toEqual([
      {
        role: "tool",
        tool_call_id: "cu_1",
        content:
          'Error: Tool "get_weather" was called as a mystery tool, but only function and custom tools are declared; call it as a function with JSON arguments.',
      },
      { role: "tool", tool_call_id: "fn_1", content: "sunny in Paris" },
    ]);
    expect(calls.map((c) => c.callId)).toEqual(["fn_1"]);
  });

  it("runs calls concurrently and keeps call order (the first call finishes after the second)", async () => {
    const { toolkit, events } = makeKit();
    const messages = await toolkit.runOpenAI(slowThenFast);
    expect(events).toEqual(["slow:start", "fast:start", "fast:end", "slow:end"]);
    expect(messages).toEqual([
      { role: "tool", tool_call_id: "call_s", content: "slow done" },
      { role: "tool", tool_call_id: "call_f", content: '{"fast":true}' },
    ]);
  });

  it("each call sees its own ctx.callId, provider openai, and the caller's ctx.state", async () => {
    const { toolkit, calls } = makeKit();
    const state = { user: "grace" };
    await toolkit.runOpenAI(
      [
        { id: "call_2", type: "function", function: { name: "explode", arguments: "{}" } },
        { id: "call_1", type: "function", function: { name: "get_weather", arguments: '{"city":"Bern"}' } },
      ],
      { state },
    );
    expect(byCallId(calls)).toEqual([
      { tool: "get_weather", callId: "call_1", provider: "openai", state, args: { city: "Bern" } },
      { tool: "explode", callId: "call_2", provider: "openai", state, args: {} },
    ]);
    expect(calls.every((c) => c.state === state)).toBe(true);
  });
});
