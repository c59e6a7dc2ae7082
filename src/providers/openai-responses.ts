import type { JSONSchemaObject } from "../types";
import { callFrom, field, readEntries, textForModel, type ProviderAdapter } from "./adapter";
import { lowerOpenAI, OPENAI_NAMES, type OpenAIExportOptions } from "./openai";

// ---- Declarations (Responses API: flat) ------------------------------------------------

export type OpenAIResponsesFunctionTool = {
  type: "function";
  name: string;
  description: string;
  parameters: JSONSchemaObject;
  /** Always sent: the Responses API treats a missing `strict` as strict. */
  strict: boolean;
};

// ---- Calls in, results out: types ------------------------------------------------------

/** Any output item; fields are `unknown` because other item kinds use these names differently. */
export type OpenAIResponsesItemLike = { type: string; call_id?: unknown; name?: unknown; arguments?: unknown };
export type OpenAIResponseLike = { output: OpenAIResponsesItemLike[] };

/** A Responses API response, or its `output` items. */
export type OpenAIResponsesCallsInput = OpenAIResponseLike | readonly OpenAIResponsesItemLike[];

export type OpenAIFunctionCallOutput = { type: "function_call_output"; call_id: string; output: string };

// ---- The adapter: Chat Completions' dialect, flat declarations, `strict` always sent ----------

export const openaiResponses: ProviderAdapter<OpenAIResponsesFunctionTool[], OpenAIExportOptions, OpenAIFunctionCallOutput[]> = {
  id: "openai-responses",
  names: OPENAI_NAMES,
  lower: lowerOpenAI,
  declare: (tools) =>
    tools.map(({ tool, name, lowering }) => ({ type: "function", name, description: tool.description, parameters: lowering.schema, strict: lowering.strict === true })),
  readCalls(input) {
    const items = Array.isArray(input) ? input : field(input, "output");
    return readEntries(items, (item) => (field(item, "type") === "function_call" ? callFrom(item, { name: "name", args: "arguments", id: "call_id" }) : undefined));
  },
  reply: (calls, results) => calls.map((call, i) => ({ type: "function_call_output", call_id: call.id ?? "", output: textForModel(results[i]!) })),
};
