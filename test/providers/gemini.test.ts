import type { Content, FunctionCall, GenerateContentConfig, Part, Tool as GeminiSdkTool } from "@google/genai" with {
  "resolution-mode": "import",
};
import { defineTool, ExportError, toGemini, Toolkit } from "../../src";
import {
  bareCalls,
  callsWithoutIds,
  modelTurn,
  parallelCallParts,
  parallelCallResponse,
  slowThenFast,
} from "./fixtures/gemini";
import { byCallId, dottedTool, makeKit, threeTools, UNKNOWN_GET_WETHER, weatherTool } from "./fixtures/tools";

// The runtime class the SDK returns (with its getters), loaded the way a CommonJS user would.
type GenAI = typeof import("@google/genai", { with: { "resolution-mode": "import" } });
const genai: GenAI = require("@google/genai");

describe("toGemini declarations", () => {
  it("reference scenario: get_weather in one wrapper, required kept", () => {
    const tools = toGemini([weatherTool()]);
    expect(tools).toEqual([
      {
        functionDeclarations: [
          {
            name: "get_weather",
            description: "Current weather for a city",
            parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
          },
        ],
      },
    ]);
    const [declaration] = tools[0].functionDeclarations;
    expect(
      declaration !== undefined && "parameters" in declaration ? declaration.parameters.required : undefined,
    ).toEqual(["city"]);
  });

  it("zero tools still give exactly one (empty) wrapper", () => {
    expect(toGemini([])).toEqual([{ functionDeclarations: [] }]);
    expect(toGemini([])).toHaveLength(1);
  });

  it("three tools: one wrapper, order kept, exact declarations", () => {
    const tools = toGemini(threeTools());
    expect(tools).toHaveLength(1);
    expect(Object.keys(tools[0])).toEqual(["functionDeclarations"]);
    expect(tools[0].functionDeclarations.map((d) => d.name)).toEqual(["search", "ping", "kv_get"]);
    expect(tools).toEqual([
      {
        functionDeclarations: [
          {
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
          // Gemini rejects an empty `properties` map on an OBJECT: the lowering drops it.
          { name: "ping", description: "Health check", parameters: { type: "object" } },
          {
            name: "kv_get",
            description: "Read a key",
            parameters: { type: "object", properties: { key: { type: "string" } }, required: ["key"] },
          },
        ],
      },
    ]);
  });

  it("each declaration has exactly description, name, parameters", () => {
    for (const declaration of toGemini(threeTools())[0].functionDeclarations) {
      expect(Object.keys(declaration).sort()).toEqual(["description", "name", "parameters"]);
    }
  });

  it("accepts names Gemini allows (dots) and refuses one starting with a digit, naming it", () => {
    expect(toGemini([dottedTool()])[0].functionDeclarations[0]!.name).toBe("billing.refund");
    const digitFirst = defineTool({ name: "1password_lookup", description: "Look up a secret", execute: () => "" });
    expect(() => toGemini([weatherTool(), digitFirst])).toThrow(ExportError);
    expect(() => toGemini([weatherTool(), digitFirst])).toThrow(/"1password_lookup"/);
    expect(() => toGemini([weatherTool(), digitFirst])).not.toThrow(/"get_weather"/);
  });

  it("is accepted as a GenerateContentConfig's tools", () => {
    const config: GenerateContentConfig = { tools: toGemini([weatherTool(), ...threeTools()]) };
    const tools: GeminiSdkTool[] = new Toolkit([weatherTool()]).toGemini();
    expect(config.tools).toHaveLength(1);
    expect(tools[0]!.functionDeclarations!.map((d) => d.name)).toEqual(["get_weather"]);
  });

  it("Toolkit#toGemini gives the same output as the free function", () => {
    const tools = threeTools();
    expect(new Toolkit(tools).toGemini()).toEqual(toGemini(tools));
    expect(new Toolkit().toGemini()).toEqual([{ functionDeclarations: [] }]);
  });
});

describe("runGemini round trip", () => {
  it("whole GenerateContentResponse: three parallel calls, results in call order, ids echoed", async () => {
    const { toolkit } = makeKit();
    const reply = await toolkit.runGemini(parallelCallResponse);
    expect(reply).toEqual({
      role: "user",
      parts: [
        { functionResponse: { name: "get_weather", response: { output: "sunny in Chennai" }, id: "call-1" } },
        { functionResponse: { name: "explode", response: { error: "boom" }, id: "call-2" } },
        { functionResponse: { name: "get_wether", response: { error: UNKNOWN_GET_WETHER }, id: "call-3" } },
      ],
    });
  });

  it("the result is a Content the SDK accepts", async () => {
    const { toolkit } = makeKit();
    // A response with calls always has a reply to append.
    const reply: Content = (await toolkit.runGemini(parallelCallResponse))!;
    const history: Content[] = [
      { role: "user", parts: [{ text: "weather?" }] },
      parallelCallResponse.candidates![0]!.content!,
      reply,
    ];
    expect(history).toHaveLength(3);
    expect(reply.parts).toHaveLength(3);
  });

  it("parts as input give the same answer as the whole response; text parts are ignored", async () => {
    const fromParts = (await makeKit().toolkit.runGemini(parallelCallParts))!;
    const fromResponse = await makeKit().toolkit.runGemini(parallelCallResponse);
    expect(fromParts).toEqual(fromResponse);
    expect(fromParts.parts.map((p) => p.functionResponse.name)).toEqual(["get_weather", "explode", "get_wether"]);
  });

  it("the model's Content turn as input; thought parts are ignored", async () => {
    const { toolkit, calls } = makeKit();
    expect(await toolkit.runGemini(modelTurn)).toEqual({
      role: "user",
      parts: [{ functionResponse: { name: "get_weather", response: { output: "sunny in Oslo" } } }],
    });
    expect(calls).toHaveLength(1);
  });

  it("a real SDK GenerateContentResponse instance (class with getters) is read the same way", async () => {
    const response = new genai.GenerateContentResponse();
    response.candidates = [{ content: { role: "model", parts: parallelCallParts } }];
    const reply = await makeKit().toolkit.runGemini(response);
    expect(reply).toEqual(await makeKit().toolkit.runGemini(parallelCallResponse));
    // What the SDK's own getter yields (bare FunctionCalls) is accepted too.
    const fromGetter = await makeKit().toolkit.runGemini(response.functionCalls ?? []);
    expect(fromGetter).toEqual(reply);
  });

  it("bare FunctionCall objects: id echoed only where the call had one", async () => {
    const calls: FunctionCall[] = bareCalls;
    const reply = (await makeKit().toolkit.runGemini(calls))!;
    expect(reply).toEqual({
      role: "user",
      parts: [
        { functionResponse: { name: "get_weather", response: { output: "sunny in Rome" }, id: "b-1" } },
        { functionResponse: { name: "get_weather", response: { output: "sunny in Kyiv" } } },
      ],
    });
    expect("id" in reply.parts[1]!.functionResponse).toBe(false);
  });

  it("calls without ids (Vertex): the id key is absent, not undefined", async () => {
    const reply = (await makeKit().toolkit.runGemini(callsWithoutIds))!;
    expect(reply).toEqual({
      role: "user",
      parts: [
        { functionResponse: { name: "get_weather", response: { output: "sunny in Lima" } } },
        { functionResponse: { name: "explode", response: { error: "boom" } } },
      ],
    });
    for (const part of reply.parts) {
      expect(Object.keys(part)).toEqual(["functionResponse"]);
      expect(Object.keys(part.functionResponse).sort()).toEqual(["name", "response"]);
    }
    // success carries only `output`, failure only `error`
    expect(Object.keys(reply.parts[0]!.functionResponse.response)).toEqual(["output"]);
    expect(Object.keys(reply.parts[1]!.functionResponse.response)).toEqual(["error"]);
  });

  it("runs calls concurrently and keeps call order (the first call finishes after the second)", async () => {
    const { toolkit, events } = makeKit();
    const reply = (await toolkit.runGemini(slowThenFast))!;
    expect(events).toEqual(["slow:start", "fast:start", "fast:end", "slow:end"]);
    expect(reply.parts).toEqual([
      { functionResponse: { name: "slow_lookup", response: { output: "slow done" }, id: "s" } },
      { functionResponse: { name: "fast_lookup", response: { output: '{"fast":true}' }, id: "f" } },
    ]);
  });

  it("one failing call does not affect the others", async () => {
    const parts: Part[] = [
      { functionCall: { id: "1", name: "explode", args: {} } },
      { functionCall: { id: "2", name: "slow_lookup", args: {} } },
      { functionCall: { id: "3", name: "fast_lookup", args: {} } },
    ];
    const reply = (await makeKit().toolkit.runGemini(parts))!;
    expect(reply.parts.map((p) => p.functionResponse.response)).toEqual([
      { error: "boom" },
      { output: "slow done" },
      { output: '{"fast":true}' },
    ]);
  });

  it("each call sees its own ctx.callId and provider, and the caller's ctx.state", async () => {
    const { toolkit, calls } = makeKit();
    const state = { user: "ada", tenant: "t-1" };
    await toolkit.runGemini(
      [
        { functionCall: { id: "g-1", name: "get_weather", args: { city: "Pune" } } },
        { functionCall: { id: "g-2", name: "explode", args: { why: "test" } } },
      ],
      { state },
    );
    expect(byCallId(calls)).toEqual([
      { tool: "get_weather", callId: "g-1", provider: "gemini", state, args: { city: "Pune" } },
      { tool: "explode", callId: "g-2", provider: "gemini", state, args: { why: "test" } },
    ]);
    expect(calls[0]!.state).toBe(state);
  });

  it("a call without id gives ctx.callId undefined and provider gemini", async () => {
    const { toolkit, calls } = makeKit();
    await toolkit.runGemini(callsWithoutIds);
    expect(calls.map((c) => [c.tool, c.callId, c.provider])).toEqual([
      ["get_weather", undefined, "gemini"],
      ["explode", undefined, "gemini"],
    ]);
  });

  it("a response without calls runs nothing and has nothing to append (Gemini rejects a turn with no parts)", async () => {
    const { toolkit, calls } = makeKit();
    expect(
      await toolkit.runGemini({ candidates: [{ content: { role: "model", parts: [{ text: "It is sunny." }] } }] }),
    ).toBeUndefined();
    expect(await toolkit.runGemini({ role: "model", parts: [{ text: "It is sunny." }] })).toBeUndefined();
    expect(await toolkit.runGemini([])).toBeUndefined();
    expect(calls).toEqual([]);
  });
});
