// runAnthropic between two turns of the official @anthropic-ai/sdk client, pointed at the local Anthropic stand-in.
import Anthropic from "@anthropic-ai/sdk";
import { mockProvidersUrl, report, weatherToolkit } from "./weather-toolkit.mjs";

const toolkit = weatherToolkit();
const anthropic = new Anthropic({ apiKey: "test-key", baseURL: mockProvidersUrl() });
const model = "claude-sonnet-4-5";
const messages = [{ role: "user", content: "What is the weather in Chennai?" }];
const tools = toolkit.toAnthropic();

const first = await anthropic.messages.create({ model, max_tokens: 1024, messages, tools });
const reply = await toolkit.runAnthropic(first);
const second = await anthropic.messages.create({
  model,
  max_tokens: 1024,
  tools,
  messages: [...messages, { role: "assistant", content: first.content }, reply],
});
report({
  stopReason: first.stop_reason,
  answer: second.content.map((block) => (block.type === "text" ? block.text : "")).join(""),
});
