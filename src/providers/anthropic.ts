import { plainObjectRoot } from "../schema/lowering";
import { isObject, type JSONSchemaObject, type Tool, type ToolContext } from "../types";
import { lowerTools, runCalls, type ExportOptions, type ExportReport, type ParsedCall, type ToolRunner } from "./shared";

// ---- Declarations ----------------------------------------------------------------------

export type AnthropicInputSchema = JSONSchemaObject & { type: "object" };
export type AnthropicTool = { name: string; description: string; input_schema: AnthropicInputSchema };

export function toAnthropic(tools: readonly Tool[], options: ExportOptions = {}): AnthropicTool[] {
  return exportAnthropic(tools, options).declarations;
}

/** `input_schema` must be an object with no combinator at its root. */
export function exportAnthropic(tools: readonly Tool[], options: ExportOptions = {}): ExportReport<AnthropicTool[]> {
  const { lowered, changes } = lowerTools("anthropic", tools, options, (tool, log) => plainObjectRoot(tool.inputSchema, log));
  return { declarations: lowered.map(({ tool, name, schema }) => ({ name, description: tool.description, input_schema: schema })), changes };
}

// ---- Calls in, results out -------------------------------------------------------------

export type AnthropicBlockLike = { type: string; id?: string; name?: string; input?: unknown };
export type AnthropicMessageLike = { content: AnthropicBlockLike[] };

/** A Messages API response, or its `content` blocks. */
export type AnthropicCallsInput = AnthropicMessageLike | readonly AnthropicBlockLike[];

export type AnthropicToolResultBlock = { type: "tool_result"; tool_use_id: string; content: string; is_error?: boolean };

/** The one user turn that answers every `tool_use` block. */
export type AnthropicToolResultMessage = { role: "user"; content: AnthropicToolResultBlock[] };

export function parseAnthropicCalls(input: AnthropicCallsInput): ParsedCall[] {
  const blocks = Array.isArray(input) ? input : isObject(input) && Array.isArray((input as AnthropicMessageLike).content) ? (input as AnthropicMessageLike).content : [];
  return blocks
    .filter((block) => block.type === "tool_use")
    .map((block) => ({ id: block.id ?? "", name: block.name ?? "", arguments: block.input }));
}

export async function runAnthropic(runner: ToolRunner, input: AnthropicCallsInput, ctx?: ToolContext): Promise<AnthropicToolResultMessage> {
  const calls = parseAnthropicCalls(input);
  const results = await runCalls(runner, calls, "anthropic", ctx);
  return {
    role: "user",
    content: calls.map((call, i) => ({
      type: "tool_result",
      tool_use_id: call.id ?? "",
      content: results[i]!.output,
      ...(results[i]!.isError ? { is_error: true } : {}),
    })),
  };
}
