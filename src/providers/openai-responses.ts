import { isObject, type JSONSchemaObject, type Tool, type ToolContext } from "../types";
import { dropStrictNulls, openAIFunctions, type OpenAIExportOptions } from "./openai";
import { runCalls, textForModel, type ExportReport, type ParsedCall, type ToolRunner } from "./shared";

// ---- Declarations (Responses API: flat) ------------------------------------------------

export type OpenAIResponsesFunctionTool = {
  type: "function";
  name: string;
  description: string;
  parameters: JSONSchemaObject;
  /** Always sent: the Responses API treats a missing `strict` as strict. */
  strict: boolean;
};

export function toOpenAIResponses(tools: readonly Tool[], options: OpenAIExportOptions = {}): OpenAIResponsesFunctionTool[] {
  return exportOpenAIResponses(tools, options).declarations;
}

/** Same dialect as Chat Completions' strict mode; `strict` is always sent, `false` unless asked. */
export function exportOpenAIResponses(tools: readonly Tool[], options: OpenAIExportOptions = {}): ExportReport<OpenAIResponsesFunctionTool[]> {
  const { declarations, changes } = openAIFunctions("openai-responses", tools, options);
  return { declarations: declarations.map((d) => ({ type: "function", ...d })), changes };
}

// ---- Calls in, results out -------------------------------------------------------------

/** Any output item; fields are `unknown` because other item kinds use these names differently. */
export type OpenAIResponsesItemLike = { type: string; call_id?: unknown; name?: unknown; arguments?: unknown };
export type OpenAIResponseLike = { output: OpenAIResponsesItemLike[] };

/** A Responses API response, or its `output` items. */
export type OpenAIResponsesCallsInput = OpenAIResponseLike | readonly OpenAIResponsesItemLike[];

export type OpenAIFunctionCallOutput = { type: "function_call_output"; call_id: string; output: string };

export function parseOpenAIResponsesCalls(input: OpenAIResponsesCallsInput): ParsedCall[] {
  const items = Array.isArray(input) ? input : isObject(input) && Array.isArray((input as OpenAIResponseLike).output) ? (input as OpenAIResponseLike).output : [];
  return items
    .filter((item) => item.type === "function_call")
    .map((item) => ({ id: stringOr(item.call_id), name: stringOr(item.name), arguments: item.arguments }));
}

/** One `function_call_output` item per call, to add to the next request's `input`. */
export async function runOpenAIResponses(
  runner: ToolRunner,
  input: OpenAIResponsesCallsInput,
  ctx?: ToolContext,
): Promise<OpenAIFunctionCallOutput[]> {
  const calls = parseOpenAIResponsesCalls(input);
  const results = await runCalls(runner, calls, "openai-responses", ctx, dropStrictNulls);
  return calls.map((call, i) => ({ type: "function_call_output", call_id: call.id ?? "", output: textForModel(results[i]!) }));
}

function stringOr(value: unknown): string {
  return typeof value === "string" ? value : "";
}
