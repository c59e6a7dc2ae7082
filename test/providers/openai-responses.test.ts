import type {
  FunctionTool,
  Response,
  ResponseInputItem,
  ResponseOutputItem,
  Tool,
} from "openai/resources/responses/responses";
import { ExportError, toOpenAIResponses, Toolkit } from "../../src";
import { outputItems, response, slowThenFast } from "./fixtures/openai-responses";
import { byCallId, dottedTool, makeKit, threeTools, UNKNOWN_GET_WETHER, weatherTool } from "./fixtures/tools";

const INVALID_JSON =
  /^Error: Invalid arguments for tool "get_weather": arguments are not valid JSON \(.+\); send one JSON object$/;

describe("toOpenAIResponses declarations (flat, strict: false sent)", () => {
  it("one flat function tool per tool, strict: false explicitly present", () => {
    const tools = toOpenAIResponses([weatherTool()]);
    expect(tools).toEqual([
      {
        type: "function",
        name: "get_weather",
        description: "Current weather for a city",
        parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
        strict: false,
      },
    ]);
    expect(Object.prototype.hasOwnProperty.call(tools[0], "strict")).toBe(true);
    expect(tools[0]).toMatchObject({ type: "function", strict: false });
  });

  it("three tools in order, exact key set, no nested function object", () => {
    const tools = toOpenAIResponses(threeTools());
    expect(tools.map((t) => (t.type === "function" ? t.name : t.type))).toEqual(["search", "ping", "kv_get"]);
    expect(tools[1]).toEqual({
      type: "function",
      name: "ping",
      description: "Health check",
      parameters: { type: "object", properties: {} },
      strict: false,
    });
    for (const tool of tools)
      expect(Object.keys(tool).sort()).toEqual(["description", "name", "parameters", "strict", "type"]);
  });

  it("zero tools give an empty array", () => {
    expect(toOpenAIResponses([])).toEqual([]);
  });

  it("is assignable to the SDK's Tool[], and its function tools to the SDK's FunctionTool[]", () => {
    const declared = toOpenAIResponses(threeTools());
    const all: Tool[] = declared;
    const tools: FunctionTool[] = declared.filter((t) => t.type === "function");
    expect(tools).toHaveLength(all.length);
    expect(tools.every((t) => t.strict === false)).toBe(true);
  });

  it("refuses a name OpenAI rejects, with an ExportError naming it", () => {
    expect(() => toOpenAIResponses([dottedTool()])).toThrow(ExportError);
    expect(() => toOpenAIResponses([dottedTool()])).toThrow(/"billing\.refund"/);
  });

  it("Toolkit#toOpenAIResponses gives the same output as the free function", () => {
    const tools = threeTools();
    expect(new Toolkit(tools).toOpenAIResponses()).toEqual(toOpenAIResponses(tools));
  });
});

describe("runOpenAIResponses round trip", () => {
  const expectedBatch = [
    { type: "function_call_output", call_id: "call_a", output: "sunny in Paris" },
    { type: "function_call_output", call_id: "call_b", output: "Error: boom" },
    { type: "function_call_output", call_id: "call_c", output: `Error: ${UNKNOWN_GET_WETHER}` },
    { type: "function_call_output", call_id: "call_d", output: expect.stringMatching(INVALID_JSON) },
  ];

  it("whole Response: one function_call_output per call, in order; reasoning and message items ignored", async () => {
    const { toolkit, calls } = makeKit();
    const items = await toolkit.runOpenAIResponses(response);
    expect(items).toEqual(expectedBatch);
    for (const item of items) expect(Object.keys(item).sort()).toEqual(["call_id", "output", "type"]);
    expect(calls.map((c) => c.callId)).toEqual(["call_a", "call_b"]);
  });

  it("the fixtures are a Response and ResponseOutputItem[] as the SDK types them", () => {
    const asResponse: Response = response;
    const asItems: ResponseOutputItem[] = outputItems;
    expect(asResponse.output).toBe(asItems);
    expect(asItems.filter((item) => item.type === "function_call")).toHaveLength(4);
  });

  it("the output items alone give the same answer", async () => {
    expect(await makeKit().toolkit.runOpenAIResponses(outputItems)).toEqual(expectedBatch);
  });

  it("a response with no function_call items gives no outputs", async () => {
    const { toolkit, calls } = makeKit();
    expect(await toolkit.runOpenAIResponses(outputItems.slice(0, 2))).toEqual([]);
    expect(calls).toEqual([]);
  });

  it("the result can be sent back as the next request's input", async () => {
    const outputs: ResponseInputItem[] = await makeKit().toolkit.runOpenAIResponses(response);
    const nextInput: ResponseInputItem[] = [{ role: "user", content: "weather?" }, ...outputs];
    expect(nextInput).toHaveLength(5);
  });

  it("runs calls concurrently and keeps call order (the first call finishes after the second)", async () => {
    const { toolkit, events } = makeKit();
    const items = await toolkit.runOpenAIResponses(slowThenFast);
    expect(events).toEqual(["slow:start", "fast:start", "fast:end", "slow:end"]);
    expect(items).toEqual([
      { type: "function_call_output", call_id: "call_s", output: "slow done" },
      { type: "function_call_output", call_id: "call_f", output: '{"fast":true}' },
    ]);
  });

  it("ctx.callId is the call_id (not the item id), provider is openai-responses, state reaches the tool", async () => {
    const { toolkit, calls } = makeKit();
    const state = { tenant: "acme" };
    await toolkit.runOpenAIResponses(response, { state });
    expect(byCallId(calls)).toEqual([
      { tool: "get_weather", callId: "call_a", provider: "openai-responses", state, args: { city: "Paris" } },
      { tool: "explode", callId: "call_b", provider: "openai-responses", state, args: {} },
    ]);
  });
});
