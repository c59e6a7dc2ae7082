/**
 * Type fidelity: what toolnexus returns is accepted where the official SDKs' types expect
 * it, with no casts. This file is never run; `sdk-compat.test.ts` compiles it with tsc
 * against the built package (an ES module, as most SDK users write).
 */
import "reflect-metadata";
import type Anthropic from "@anthropic-ai/sdk";
import type { Content, GenerateContentParameters, GenerateContentResponse } from "@google/genai";
import type OpenAI from "openai";
import { Param, Tool, Toolkit } from "toolnexus";

class Weather {
  @Tool("Current weather for a city")
  getWeather(@Param() city: string) {
    return `sunny in ${city}`;
  }
}
const toolkit = new Toolkit([new Weather()]);

export async function gemini(response: GenerateContentResponse): Promise<GenerateContentParameters[]> {
  const contents: Content[] = [{ role: "user", parts: [{ text: "weather?" }] }];
  const first: GenerateContentParameters = {
    model: "gemini-2.5-flash",
    contents,
    config: { tools: toolkit.toGemini() },
  };
  const withJsonSchema: GenerateContentParameters = {
    model: "m",
    contents,
    config: { tools: toolkit.toGemini({ jsonSchema: true }) },
  };
  const modelTurn = response.candidates![0]!.content!;
  // With no calls in the response there is nothing to append.
  const reply = await toolkit.runGemini(response);
  const next: GenerateContentParameters = {
    model: "gemini-2.5-flash",
    contents: [...contents, modelTurn, ...(reply ? [reply] : [])],
    config: { tools: toolkit.toGemini() },
  };
  const fromParts: Content | undefined = await toolkit.runGemini(modelTurn.parts ?? []);
  return [first, withJsonSchema, next, { model: "m", contents: fromParts ? [fromParts] : [] }];
}

export async function openaiChat(
  completion: OpenAI.Chat.Completions.ChatCompletion,
): Promise<OpenAI.Chat.Completions.ChatCompletionCreateParams[]> {
  const messages: OpenAI.Chat.Completions.ChatCompletionMessageParam[] = [{ role: "user", content: "weather?" }];
  const strict: OpenAI.Chat.Completions.ChatCompletionTool[] = toolkit.toOpenAI({ strict: true });
  const message = completion.choices[0]!.message;
  return [
    { model: "gpt-4.1", messages, tools: toolkit.toOpenAI() },
    { model: "gpt-4.1", messages: [...messages, message, ...(await toolkit.runOpenAI(completion))], tools: strict },
    { model: "gpt-4.1", messages: [...messages, message, ...(await toolkit.runOpenAI(message.tool_calls ?? []))] },
  ];
}

export async function openaiResponses(
  response: OpenAI.Responses.Response,
): Promise<OpenAI.Responses.ResponseCreateParams[]> {
  const tools: OpenAI.Responses.Tool[] = toolkit.toOpenAIResponses({ strict: true });
  const input: OpenAI.Responses.ResponseInput = [{ role: "user", content: "weather?" }];
  const calls = response.output.filter((item) => item.type === "function_call");
  return [
    { model: "gpt-4.1", input, tools: toolkit.toOpenAIResponses() },
    { model: "gpt-4.1", input: [...input, ...calls, ...(await toolkit.runOpenAIResponses(response))], tools },
    { model: "gpt-4.1", input: await toolkit.runOpenAIResponses(response.output) },
  ];
}

export async function anthropic(message: Anthropic.Message): Promise<Anthropic.MessageCreateParams[]> {
  const tools: Anthropic.ToolUnion[] = toolkit.toAnthropic();
  const messages: Anthropic.MessageParam[] = [{ role: "user", content: "weather?" }];
  const reply = await toolkit.runAnthropic(message);
  const fromBlocks = await toolkit.runAnthropic(message.content);
  return [
    { model: "claude-sonnet-4-5", max_tokens: 1024, messages, tools },
    {
      model: "claude-sonnet-4-5",
      max_tokens: 1024,
      messages: [...messages, { role: "assistant", content: message.content }, ...(reply ? [reply] : [])],
      tools: toolkit.toAnthropic(),
    },
    { model: "m", max_tokens: 1, messages: fromBlocks ? [fromBlocks] : [] },
  ];
}
