import {
  Adapters,
  describeExport,
  toAnthropic,
  toBedrock,
  toGemini,
  toMcp,
  toOllama,
  toOpenAI,
  toOpenAIResponses,
  Toolkit,
  type Tool,
} from "../../src";
import { ADAPTERS } from "../../src/providers/registry";
import { threeTools, weatherTool } from "./fixtures/tools";

describe("Adapters", () => {
  it("each Adapters.toX is the very same function as the free toX", () => {
    expect(Adapters.toGemini).toBe(toGemini);
    expect(Adapters.toOpenAI).toBe(toOpenAI);
    expect(Adapters.toOpenAIResponses).toBe(toOpenAIResponses);
    expect(Adapters.toAnthropic).toBe(toAnthropic);
    expect(Adapters.toMcp).toBe(toMcp);
    expect(Adapters.toBedrock).toBe(toBedrock);
    expect(Adapters.toOllama).toBe(toOllama);
  });

  it("has exactly the seven exporters and cannot be reassigned", () => {
    expect(Object.keys(Adapters).sort()).toEqual(
      ["toAnthropic", "toBedrock", "toGemini", "toMcp", "toOllama", "toOpenAI", "toOpenAIResponses"].sort(),
    );
    expect(Object.isFrozen(Adapters)).toBe(true);
  });

  it("ADAPTERS has exactly the seven formats, and describeExport by format name gives the same declarations as the free functions", () => {
    const tools = [weatherTool(), ...threeTools()];
    expect(Object.keys(ADAPTERS).sort()).toEqual([
      "anthropic",
      "bedrock",
      "gemini",
      "mcp",
      "ollama",
      "openai",
      "openai-responses",
    ]);
    expect(describeExport("gemini", tools).declarations).toEqual(toGemini(tools));
    expect(describeExport("openai", tools).declarations).toEqual(toOpenAI(tools));
    expect(describeExport("openai-responses", tools).declarations).toEqual(toOpenAIResponses(tools));
    expect(describeExport("anthropic", tools).declarations).toEqual(toAnthropic(tools));
    expect(describeExport("mcp", tools).declarations).toEqual(toMcp(tools));
    expect(describeExport("bedrock", tools).declarations).toEqual(toBedrock(tools));
    expect(describeExport("ollama", tools).declarations).toEqual(toOllama(tools));
  });
});

describe("Toolkit exporters give the same output as the free functions", () => {
  const tools = [weatherTool(), ...threeTools()];
  const toolkit = new Toolkit(tools);

  it.each([
    ["toGemini", () => toolkit.toGemini(), () => toGemini(tools)],
    ["toOpenAI", () => toolkit.toOpenAI(), () => toOpenAI(tools)],
    ["toOpenAIResponses", () => toolkit.toOpenAIResponses(), () => toOpenAIResponses(tools)],
    ["toAnthropic", () => toolkit.toAnthropic(), () => toAnthropic(tools)],
    ["toMcp", () => toolkit.toMcp(), () => toMcp(tools)],
    ["toBedrock", () => toolkit.toBedrock(), () => toBedrock(tools)],
    ["toOllama", () => toolkit.toOllama(), () => toOllama(tools)],
  ])("%s", (_name, fromToolkit, free) => {
    expect(fromToolkit()).toEqual(free());
    // and the output is deterministic (byte-stable) across calls
    expect(JSON.stringify(fromToolkit())).toBe(JSON.stringify(free()));
  });

  it("every exporter keeps registration order", () => {
    const names = ["get_weather", "search", "ping", "kv_get"];
    expect(toolkit.toGemini()[0].functionDeclarations.map((d) => d.name)).toEqual(names);
    expect(toolkit.toOpenAI().map((t) => (t.type === "function" ? t.function.name : t.type))).toEqual(names);
    expect(toolkit.toOpenAIResponses().map((t) => (t.type === "function" ? t.name : t.type))).toEqual(names);
    expect(toolkit.toAnthropic().map((t) => t.name)).toEqual(names);
    expect(toolkit.toMcp().map((t) => t.name)).toEqual(names);
    expect(toolkit.toBedrock().tools.map((t) => t.toolSpec.name)).toEqual(names);
    expect(toolkit.toOllama().map((t) => t.function.name)).toEqual(names);
  });

  it("exporting does not mutate the tools' schemas", () => {
    const before = JSON.stringify(tools.map((t) => t.inputSchema));
    for (const exporter of Object.values<(tools: readonly Tool[]) => unknown>(Adapters)) exporter(tools);
    expect(JSON.stringify(tools.map((t) => t.inputSchema))).toBe(before);
  });
});
