import type { NameRule } from "../../core/names";
import { callFrom, field, readEntries, type Provider } from "../adapter";
import { geminiAnswersIn } from "./answers";
import { lowerGeminiJsonSchema } from "./json-schema";
import { lowerGeminiParameters } from "./parameters";
import { lowerGeminiResponse } from "./response";
import { functionResponsePart, refusedMedia } from "./results";
import type {
  GeminiCallsInput,
  GeminiExportOptions,
  GeminiJsonSchemaTools,
  GeminiSchema,
  GeminiToolResponseContent,
  GeminiTools,
} from "./wire";

export type {
  GeminiCallsInput,
  GeminiContentLike,
  GeminiConversation,
  GeminiExportOptions,
  GeminiFunctionCallLike,
  GeminiFunctionDeclaration,
  GeminiFunctionResponseMedia,
  GeminiFunctionResponsePart,
  GeminiJsonSchemaFunctionDeclaration,
  GeminiJsonSchemaTools,
  GeminiPartLike,
  GeminiResponseLike,
  GeminiSchema,
  GeminiToolResponseContent,
  GeminiTools,
} from "./wire";

const NAMES: NameRule = {
  max: 128,
  pattern: /^[a-zA-Z_][a-zA-Z0-9_.:-]{0,127}$/,
  text: "starts with a letter or _, then a-z A-Z 0-9 _ . : -, at most 128 characters",
};

/**
 * Gemini's `generateContent` API: every declaration in one `tools` entry, calls in the response's
 * `functionCall` parts, one user turn of `functionResponse` parts back.
 */
export const gemini: Provider<
  "gemini",
  "Gemini",
  {
    declarations: GeminiTools;
    options: GeminiExportOptions;
    variant: { when: { jsonSchema: true }; declarations: GeminiJsonSchemaTools };
    callsInput: GeminiCallsInput;
    reply: GeminiToolResponseContent | undefined;
  }
> = {
  id: "gemini",
  name: "Gemini",
  answersCalls: true,
  names: NAMES,
  loweringOptions: ["jsonSchema"],
  lower: (schema, log, options) =>
    options.jsonSchema
      ? { schema: lowerGeminiJsonSchema(schema, log), codec: undefined }
      : lowerGeminiParameters(schema, log),
  lowerOutput: (schema, log, options) => lowerGeminiResponse(schema, log, options.jsonSchema === true),
  declare(tools, options) {
    if (options.jsonSchema) {
      return [
        {
          functionDeclarations: tools.map(({ name, description, lowering }) => ({
            name,
            description,
            parametersJsonSchema: lowering.schema,
            ...(lowering.output !== undefined ? { responseJsonSchema: lowering.output } : {}),
          })),
        },
      ];
    }
    return [
      {
        functionDeclarations: tools.map(({ name, description, lowering }) => ({
          name,
          description,
          parameters: lowering.schema as GeminiSchema,
          ...(lowering.output !== undefined ? { response: lowering.output as GeminiSchema } : {}),
        })),
      },
    ];
  },
  readCalls(input) {
    let items: unknown = input;
    if (!Array.isArray(input)) {
      const candidates = field(input, "candidates");
      items = Array.isArray(candidates) ? field(field(candidates[0], "content"), "parts") : field(input, "parts");
    }
    return readEntries(items, (item) => {
      const part = field(item, "functionCall");
      const call =
        part !== undefined
          ? part
          : typeof field(item, "name") === "string" && field(item, "text") === undefined
            ? item
            : undefined;
      // Text, thoughts and other parts are not calls.
      if (call === undefined) return undefined;
      return callFrom(call, { name: "name", args: "args", id: "id" });
    });
  },
  answersIn: geminiAnswersIn,
  emptyReply() {
    return { role: "user", parts: [] };
  },
  reply(calls, results) {
    // Gemini rejects a turn with no parts: with no calls there is nothing to append.
    if (calls.length === 0) return undefined;
    return { role: "user", parts: calls.map((call, i) => functionResponsePart(call, results[i]!)) };
  },
  carries: (part, options) =>
    options.multimodalResults === false ? "this model takes no media in function responses" : refusedMedia(part),
};
