/**
 * Type specification: a model response as the official SDKs type it, and a response written by
 * hand in the SDK's own shape, is accepted by the matching run method as it is, with no cast.
 * Compiled by `npm run typecheck`; never run.
 */
import type Anthropic from "@anthropic-ai/sdk";
import type { Content, GenerateContentResponse, Part } from "@google/genai" with { "resolution-mode": "import" };
import type OpenAI from "openai";
import type { Toolkit } from "toolnexus";

declare const kit: Toolkit;

// ---- OpenAI Chat Completions ----------------------------------------------------------------

declare const sdkCompletion: OpenAI.Chat.Completions.ChatCompletion;
void kit.runOpenAI(sdkCompletion);
void kit.runOpenAI(sdkCompletion.choices[0]!.message);
void kit.runOpenAI(sdkCompletion.choices[0]!.message.tool_calls ?? []);

const completion: OpenAI.Chat.Completions.ChatCompletion = {
  id: "chatcmpl-1",
  object: "chat.completion",
  created: 1_700_000_000,
  model: "gpt-4.1",
  choices: [
    {
      index: 0,
      finish_reason: "tool_calls",
      logprobs: null,
      message: {
        role: "assistant",
        content: null,
        refusal: null,
        tool_calls: [
          { id: "call_1", type: "function", function: { name: "echo", arguments: '{"text":"hi"}' } },
          { id: "call_2", type: "custom", custom: { name: "grammar", input: "free text" } },
        ],
      },
    },
  ],
  usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
};
void kit.runOpenAI(completion);

void kit.runOpenAI({
  role: "assistant",
  content: null,
  refusal: null,
  tool_calls: [{ id: "call_1", type: "function", function: { name: "echo", arguments: '{"text":"hi"}' } }],
});

void kit.runOpenAI({ role: "assistant", content: "No tool needed.", refusal: null });

void kit.runOpenAI({
  id: "chatcmpl-2",
  object: "chat.completion",
  created: 1_700_000_000,
  model: "gpt-4.1",
  choices: [
    {
      index: 0,
      finish_reason: "stop",
      logprobs: null,
      message: { role: "assistant", content: "Done.", refusal: null },
    },
  ],
});

// ---- OpenAI Responses -----------------------------------------------------------------------

declare const sdkResponse: OpenAI.Responses.Response;
void kit.runOpenAIResponses(sdkResponse);
void kit.runOpenAIResponses(sdkResponse.output);

void kit.runOpenAIResponses({
  output: [
    { type: "reasoning", id: "rs_1", summary: [] },
    {
      type: "function_call",
      id: "fc_1",
      call_id: "call_1",
      name: "echo",
      arguments: '{"text":"hi"}',
      status: "completed",
    },
    {
      type: "message",
      id: "msg_1",
      role: "assistant",
      status: "completed",
      content: [{ type: "output_text", text: "Checking.", annotations: [] }],
    },
  ],
});

// ---- Gemini ---------------------------------------------------------------------------------

declare const sdkGeminiResponse: GenerateContentResponse;
declare const sdkContent: Content;
declare const sdkParts: Part[];
void kit.runGemini(sdkGeminiResponse);
void kit.runGemini(sdkContent);
void kit.runGemini(sdkParts);
void kit.runGemini(sdkGeminiResponse.candidates![0]!.content!);

void kit.runGemini({ candidates: [{ content: { role: "model", parts: [{ text: "hi" }] } }] });
void kit.runGemini({ role: "model", parts: [{ text: "hi" }] });
void kit.runGemini([{ text: "hi" }]);

void kit.runGemini({
  candidates: [
    {
      content: {
        role: "model",
        parts: [
          { text: "Let me check.", thought: true },
          { functionCall: { id: "call_1", name: "echo", args: { text: "hi" } } },
        ],
      },
      index: 0,
    },
  ],
  modelVersion: "gemini-2.5-flash",
  responseId: "resp-1",
});

// ---- Anthropic ------------------------------------------------------------------------------

declare const sdkMessage: Anthropic.Message;
void kit.runAnthropic(sdkMessage);
void kit.runAnthropic(sdkMessage.content);

void kit.runAnthropic({
  role: "assistant",
  content: [
    { type: "text", text: "Let me check." },
    { type: "tool_use", id: "toolu_1", name: "echo", input: { text: "hi" } },
  ],
});

void kit.runAnthropic({ role: "assistant", content: [{ type: "text", text: "hi" }] });

// ---- Bedrock Converse -----------------------------------------------------------------------

void kit.runBedrock({
  output: {
    message: {
      role: "assistant",
      content: [
        { text: "Let me check." },
        { toolUse: { toolUseId: "tooluse_1", name: "echo", input: { text: "hi" } } },
      ],
    },
  },
  stopReason: "tool_use",
  usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15 },
  metrics: { latencyMs: 120 },
});

void kit.runBedrock({ role: "assistant", content: [{ text: "hi" }] });
void kit.runBedrock([{ text: "hi" }]);
