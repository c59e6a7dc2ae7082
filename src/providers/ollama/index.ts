import { callFrom, field, readEntries, type ExportOptions, type Provider } from "../adapter";
import { OPENAI_NAMES } from "../openai";
import { ollamaAnswersIn } from "./answers";
import { lowerOllamaParameters } from "./parameters";
import { ollamaCarries, toolMessage } from "./results";
import type { OllamaCallsInput, OllamaParameters, OllamaTool, OllamaToolMessage } from "./wire";

export type {
  OllamaCallsInput,
  OllamaChatResponseLike,
  OllamaMessageLike,
  OllamaParameters,
  OllamaTool,
  OllamaToolCallLike,
  OllamaToolMessage,
  OllamaToolProperty,
} from "./wire";

/**
 * Ollama's native chat API (`/api/chat`, not its OpenAI-compatible endpoint): declarations in
 * `tools`, calls in the response's `message.tool_calls`, one `tool` message per call back.
 */
export const ollama: Provider<
  "ollama",
  "Ollama",
  { declarations: OllamaTool[]; options: ExportOptions; callsInput: OllamaCallsInput; reply: OllamaToolMessage[] }
> = {
  id: "ollama",
  name: "Ollama",
  answersCalls: true,
  // Ollama documents no rule for function names (its server takes any string): they are held to
  // the portable rule OpenAI's adapter uses, which every model's chat template can carry.
  names: OPENAI_NAMES,
  // Nothing is rewritten that needs a way back: every value valid for the tool passes the lowered schema as it is.
  lower: (schema, log) => ({ schema: lowerOllamaParameters(schema, log), codec: undefined }),
  loweringOptions: [],
  declare: (tools) =>
    tools.map(({ name, description, lowering }) => ({
      type: "function",
      function: { name, description, parameters: lowering.schema as OllamaParameters },
    })),
  readCalls(input) {
    let list: unknown = input;
    if (!Array.isArray(input)) {
      const message = field(input, "message");
      list = field(message !== undefined ? message : input, "tool_calls");
    }
    return readEntries(list, (entry) => {
      // `arguments` is an object on Ollama's wire; JSON text (from a client that wrote it so) is read too.
      const call = callFrom(field(entry, "function"), { name: "name", args: "arguments" });
      // Ollama 0.12.10 and later give each call an id; earlier ones none (replies are then matched by order and name).
      const id = field(entry, "id");
      if (typeof id === "string" && id !== "") call.id = id;
      return call;
    });
  },
  // One message per call, in call order: nothing to append for no calls.
  reply: (calls, results) => calls.map((call, i) => toolMessage(call, results[i]!)),
  answersIn: ollamaAnswersIn,
  carries: ollamaCarries,
};
