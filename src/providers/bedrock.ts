import type { JSONSchemaObject, Tool, ToolContext } from "../types";
import { assertNamesAccepted, isObject, runCalls, type ParsedCall, type ToolRunner } from "./shared";

// ---- Declarations (Converse API) -------------------------------------------------------

export type BedrockToolConfig = {
  tools: Array<{ toolSpec: { name: string; description: string; inputSchema: { json: JSONSchemaObject } } }>;
};

/** The Converse `toolConfig`. */
export function toBedrock(tools: readonly Tool[]): BedrockToolConfig {
  assertNamesAccepted("bedrock", tools);
  return {
    tools: tools.map((tool) => ({
      toolSpec: { name: tool.name, description: tool.description, inputSchema: { json: tool.inputSchema } },
    })),
  };
}

// ---- Calls in, results out -------------------------------------------------------------

export type BedrockContentBlockLike = { toolUse?: { toolUseId?: string; name?: string; input?: unknown } };
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
    .filter((block) => isObject(block.toolUse))
    .map(({ toolUse }) => ({ id: toolUse!.toolUseId ?? "", name: toolUse!.name ?? "", arguments: toolUse!.input }));
}

export async function runBedrock(runner: ToolRunner, input: BedrockCallsInput, ctx?: ToolContext): Promise<BedrockToolResultMessage> {
  const calls = parseBedrockCalls(input);
  const results = await runCalls(runner, calls, "bedrock", ctx);
  return {
    role: "user",
    content: calls.map((call, i) => ({
      toolResult: {
        toolUseId: call.id ?? "",
        content: [{ text: results[i]!.output }],
        status: results[i]!.isError ? "error" : "success",
      },
    })),
  };
}
