// toAgentsTools run by the Agents SDK's own runner: run(agent) with its OpenAI provider, pointed
// at the local OpenAI Responses stand-in, which calls get_weather and answers with its result.
import { Agent, OpenAIProvider, run, setTracingDisabled } from "@openai/agents";
import { toAgentsTools } from "toolnexus/openai-agents";
import { mockProvidersUrl, report, weatherToolkit } from "./weather-toolkit.mjs";

// Nothing leaves the machine: the SDK would otherwise export traces to OpenAI.
setTracingDisabled(true);
const provider = new OpenAIProvider({ apiKey: "test-key", baseURL: `${mockProvidersUrl()}/v1` });
const agent = new Agent({
  name: "Weather",
  instructions: "Answer questions about the weather.",
  model: await provider.getModel("gpt-4.1-mini"),
  tools: toAgentsTools(weatherToolkit()),
});
const result = await run(agent, "What is the weather in Chennai?");
report({ answer: result.finalOutput });
