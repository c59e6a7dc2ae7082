import type { JSONSchemaObject, Tool, ToolContext } from "../types";
import { assertNamesAccepted, isObject, runCalls, textForModel, type ParsedCall, type ToolRunner } from "./shared";

// ---- Declarations (Responses API: flat) ------------------------------------------------

export type OpenAIResponsesFunctionTool = {
  type: "function";
  name: string;
  description: string;
  parameters: JSONSchemaObject;
  /** Always sent: the Responses API treats a missing `strict` as strict. */
  strict: boolean;
};

export function toOpenAIResponses(tools: readonly Tool[]): OpenAIResponsesFunctionTool[] {
  assertNamesAccepted("openai-responses", tools);
  return tools.map((tool) => ({
    type: "function",
    name: tool.name,
    description: tool.description,
    parameters: tool.inputSchema,
    strict: false,
  }));
}

// ---- Calls in, results out -------------------------------------------------------------

export type OpenAIResponsesItemLike = { type: string; call_id?: string; name?: string; arguments?: string };
export type OpenAIResponseLike = { output: OpenAIResponsesItemLike[] };

/** A Responses API response, or its `output` items. */
export type OpenAIResponsesCallsInput = OpenAIResponseLike | readonly OpenAIResponsesItemLike[];

export type OpenAIFunctionCallOutput = { type: "function_call_output"; call_id: string; output: string };

export function parseOpenAIResponsesCalls(input: OpenAIResponsesCallsInput): ParsedCall[] {
  const items = Array.isArray(input) ? input : isObject(input) && Array.isArray((input as OpenAIResponseLike).output) ? (input as OpenAIResponseLike).output : [];
  return items
    .filter((item) => item.type === "function_call")
    .map((item) => ({ id: item.call_id ?? "", name: item.name ?? "", arguments: item.arguments }));
}

/** One `function_call_output` item per call, to add to the next request's `input`. */
export async function runOpenAIResponses(
  runner: ToolRunner,
  input: OpenAIResponsesCallsInput,
  ctx?: ToolContext,
): Promise<OpenAIFunctionCallOutput[]> {
  const calls = parseOpenAIResponsesCalls(input);
  const results = await runCalls(runner, calls, "openai-responses", ctx);
  return calls.map((call, i) => ({ type: "function_call_output", call_id: call.id ?? "", output: textForModel(results[i]!) }));
}
