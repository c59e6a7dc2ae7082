import type { Provider } from "../adapter";
import { lowerOpenAI, OPENAI_NAMES } from "../openai";
import { readResponsesCalls, responsesReply } from "./calls";
import { declareResponsesTools } from "./declarations";
import { carriedByFunctionOutput } from "./results";
import type {
  OpenAIResponsesCallsInput,
  OpenAIResponsesExportOptions,
  OpenAIResponsesReplyItem,
  OpenAIResponsesTool,
} from "./wire";

export type * from "./wire";

/**
 * The Responses API: Chat Completions' dialect, flat declarations with `strict` always sent,
 * namespaces, free-text (custom) tools, and OpenAI's own search for deferred tools.
 */
export const openaiResponses: Provider<
  "openai-responses",
  "OpenAIResponses",
  {
    declarations: OpenAIResponsesTool[];
    options: OpenAIResponsesExportOptions;
    callsInput: OpenAIResponsesCallsInput;
    reply: OpenAIResponsesReplyItem[];
  }
> = {
  id: "openai-responses",
  name: "OpenAIResponses",
  answersCalls: true,
  names: OPENAI_NAMES,
  lower: lowerOpenAI,
  loweringOptions: ["strict"],
  searchesNatively: true,
  declare: declareResponsesTools,
  readCalls: readResponsesCalls,
  reply: responsesReply,
  carries: carriedByFunctionOutput,
};
