import { plainObjectRoot } from "../schema/lowering";
import { isObject, type JSONSchemaObject, type Tool, type ToolContext } from "../types";
import { lowerTools, runCalls, type ExportOptions, type ExportReport, type ParsedCall, type ToolRunner } from "./shared";

// ---- Declarations (Converse API) -------------------------------------------------------

export type BedrockToolConfig = {
  tools: Array<{ toolSpec: { name: string; description: string; inputSchema: { json: JSONSchemaObject } } }>;
};

/** The Converse `toolConfig`. */
export function toBedrock(tools: readonly Tool[], options: ExportOptions = {}): BedrockToolConfig {
  return exportBedrock(tools, options).declarations;
}

/** The schema goes under `inputSchema.json`, an object at the root with no combinators. */
export function exportBedrock(tools: readonly Tool[], options: ExportOptions = {}): ExportReport<BedrockToolConfig> {
  const { lowered, changes } = lowerTools("bedrock", tools, options, (tool, log) => plainObjectRoot(tool.inputSchema, log));
  return {
    declarations: { tools: lowered.map(({ tool, name, schema }) => ({ toolSpec: { name, description: tool.description, inputSchema: { json: schema } } })) },
    changes,
  };
}

// ---- Calls in, results out -------------------------------------------------------------

export type BedrockToolUse = { toolUseId?: string; name?: string; input?: unknown };
/**
 * Any Converse content block (text, reasoning, images ... are not calls and pass by);
 * `object` so every member of the SDK's block union is accepted as it is.
 */
export type BedrockContentBlockLike = { toolUse?: BedrockToolUse } | object;
export type BedrockMessageLike = { content?: BedrockContentBlockLike[] };
export type BedrockConverseResponseLike = { output?: { message?: BedrockMessageLike } };

/** A Converse response, the assistant message, or its content blocks. */
export type BedrockCallsInput = BedrockConverseResponseLike | BedrockMessageLike | readonly BedrockContentBlockLike[];

export type BedrockToolResultMessage = {
  role: "user";
  content: Array<{ toolResult: { toolUseId: string; content: Array<{ text: string }>; status: "success" | "error" } }>;
};

export function parseBedrockCalls(input: BedrockCallsInput): ParsedCall[] {
  let blocks: readonly BedrockContentBlockLike[] = [];
  if (Array.isArray(input)) blocks = input;
  else if (isObject(input) && isObject((input as BedrockConverseResponseLike).output)) {
    blocks = (input as BedrockConverseResponseLike).output?.message?.content ?? [];
  } else if (isObject(input)) blocks = (input as BedrockMessageLike).content ?? [];
  return blocks
    .map((block) => (block as { toolUse?: BedrockToolUse }).toolUse)
    .filter((toolUse): toolUse is BedrockToolUse => isObject(toolUse))
    .map((toolUse) => ({ id: toolUse.toolUseId ?? "", name: toolUse.name ?? "", arguments: toolUse.input }));
}

export async function runBedrock(runner: ToolRunner, input: BedrockCallsInput, ctx?: ToolContext): Promise<BedrockToolResultMessage> {
  const calls = parseBedrockCalls(input);
  const results = await runCalls(runner, calls, "bedrock", ctx);
  return {
    role: "user",
    content: calls.map((call, i) => ({
      toolResult: {
        toolUseId: call.id ?? "",
        // Converse refuses empty text blocks, which would wedge the conversation.
        content: [{ text: results[i]!.output === "" ? "(no output)" : results[i]!.output }],
        status: results[i]!.isError ? "error" : "success",
      },
    })),
  };
}
