// toAiSdkTools in the AI SDK's own loop: generateText with ai/test's mock language model, which
// calls get_weather on its first step and answers with the tool result it was sent on its second.
import { generateText, stepCountIs } from "ai";
import * as aiTest from "ai/test";
import { toAiSdkTools } from "toolnexus/ai-sdk";
import { report, weatherToolkit } from "./weather-toolkit.mjs";

// The newest mock the installed ai has (MockLanguageModelV4 in ai 7, V3 in ai 6).
const mockName = Object.keys(aiTest)
  .filter((name) => /^MockLanguageModelV\d+$/.test(name))
  .sort((a, b) => Number(a.slice(18)) - Number(b.slice(18)))
  .at(-1);
const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};
let step = 0;
const model = new aiTest[mockName]({
  doGenerate: async ({ prompt }) => {
    step++;
    if (step === 1)
      return {
        content: [{ type: "tool-call", toolCallId: "call_1", toolName: "get_weather", input: '{"city":"Chennai"}' }],
        finishReason: { unified: "tool-calls", raw: undefined },
        usage,
        warnings: [],
      };
    const results = prompt.filter((message) => message.role === "tool").flatMap((message) => message.content);
    return {
      content: [{ type: "text", text: JSON.stringify(results) }],
      finishReason: { unified: "stop", raw: undefined },
      usage,
      warnings: [],
    };
  },
});

const result = await generateText({
  model,
  tools: toAiSdkTools(weatherToolkit()),
  prompt: "What is the weather in Chennai?",
  stopWhen: stepCountIs(3),
});
report({ mock: mockName, steps: result.steps.length, toolResultsSent: JSON.parse(result.text) });
