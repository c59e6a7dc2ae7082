// runOpenAI and runOpenAIResponses between two turns of the official openai client, pointed at the local OpenAI stand-in.
import OpenAI from "openai";
import { mockProvidersUrl, report, weatherToolkit } from "./weather-toolkit.mjs";

const toolkit = weatherToolkit();
const openai = new OpenAI({ apiKey: "test-key", baseURL: `${mockProvidersUrl()}/v1` });
const model = "gpt-4.1-mini";

const messages = [{ role: "user", content: "What is the weather in Chennai?" }];
const tools = toolkit.toOpenAI({ strict: true });
const completion = await openai.chat.completions.create({ model, messages, tools });
const final = await openai.chat.completions.create({
  model,
  tools,
  messages: [...messages, completion.choices[0].message, ...(await toolkit.runOpenAI(completion))],
});

const input = [{ role: "user", content: "What is the weather in Chennai?" }];
const responsesTools = toolkit.toOpenAIResponses({ strict: true });
const response = await openai.responses.create({ model, input, tools: responsesTools });
const finalResponse = await openai.responses.create({
  model,
  tools: responsesTools,
  input: [...input, ...response.output, ...(await toolkit.runOpenAIResponses(response))],
});

report({ chat: final.choices[0].message.content, responses: finalResponse.output_text });
