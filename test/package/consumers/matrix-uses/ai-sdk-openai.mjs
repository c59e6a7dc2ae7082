// toAiSdkTools with a real AI SDK provider: @ai-sdk/openai's model, pointed at the local OpenAI
// stand-in, driving generateText's two steps (the call, then the answer quoting its result).
import { createOpenAI } from "@ai-sdk/openai";
import { generateText, stepCountIs } from "ai";
import { toAiSdkTools } from "toolnexus/ai-sdk";
import { mockProvidersUrl, report, weatherToolkit } from "./weather-toolkit.mjs";

const openai = createOpenAI({ apiKey: "test-key", baseURL: `${mockProvidersUrl()}/v1` });
const result = await generateText({
  model: openai("gpt-4.1-mini"),
  tools: toAiSdkTools(weatherToolkit()),
  prompt: "What is the weather in Chennai?",
  stopWhen: stepCountIs(3),
});
report({ steps: result.steps.length, answer: result.text });
