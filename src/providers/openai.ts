import type { JSONSchemaObject, Tool, ToolContext } from "../types";
import { assertNamesAccepted, isObject, runCalls, textForModel, type ParsedCall, type ToolRunner } from "./shared";

// ---- Declarations (Chat Completions) ---------------------------------------------------

export type OpenAIFunctionTool = {
  type: "function";
  function: { name: string; description: string; parameters: JSONSchemaObject; strict?: boolean };
};

export function toOpenAI(tools: readonly Tool[]): OpenAIFunctionTool[] {
  assertNamesAccepted("openai", tools);
  return tools.map((tool) => ({
    type: "function",
    function: { name: tool.name, description: tool.description, parameters: tool.inputSchema },
  }));
}

// ---- Calls in, results out -------------------------------------------------------------

export type OpenAIToolCallLike = {
  id: string;
  type: string;
  function?: { name: string; arguments: string };
  custom?: { name: string; input: string };
};
export type OpenAIMessageLike = { tool_calls?: OpenAIToolCallLike[] | null };
export type OpenAICompletionLike = { choices: Array<{ message: OpenAIMessageLike }> };

/** A chat completion (its first choice), an assistant message, or its `tool_calls`. */
export type OpenAICallsInput = OpenAICompletionLike | OpenAIMessageLike | readonly OpenAIToolCallLike[];

/** One per call, to append right after the assistant message. */
export type OpenAIToolMessage = { role: "tool"; tool_call_id: string; content: string };

export function parseOpenAICalls(input: OpenAICallsInput): ParsedCall[] {
  let toolCalls: readonly OpenAIToolCallLike[] = [];
  if (Array.isArray(input)) toolCalls = input;
  else if (isObject(input) && Array.isArray((input as OpenAICompletionLike).choices)) {
    toolCalls = (input as OpenAICompletionLike).choices[0]?.message?.tool_calls ?? [];
  } else if (isObject(input)) toolCalls = (input as OpenAIMessageLike).tool_calls ?? [];
  return toolCalls.map((call) =>
    call.type === "function" && call.function !== undefined
      ? { id: call.id, name: call.function.name, arguments: call.function.arguments }
      : // A custom (free-text) tool call: toolnexus declares function tools only, so the
        // toolkit answers it as an unknown tool rather than dropping it.
        { id: call.id, name: call.custom?.name ?? call.function?.name ?? "", arguments: undefined },
  );
}

export async function runOpenAI(runner: ToolRunner, input: OpenAICallsInput, ctx?: ToolContext): Promise<OpenAIToolMessage[]> {
  const calls = parseOpenAICalls(input);
  const results = await runCalls(runner, calls, "openai", ctx);
  return calls.map((call, i) => ({ role: "tool", tool_call_id: call.id ?? "", content: textForModel(results[i]!) }));
}
