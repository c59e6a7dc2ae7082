import type { NameRule } from "../names";
import { plainObjectRoot } from "../schema/lowering";
import type { JSONSchemaObject } from "../types";
import { callFrom, field, readEntries, type ExportOptions, type ProviderAdapter } from "./adapter";

// ---- Declarations (Converse API) -------------------------------------------------------

export type BedrockToolConfig = {
  tools: Array<{ toolSpec: { name: string; description: string; inputSchema: { json: JSONSchemaObject } } }>;
};

// ---- Calls in, results out: types ------------------------------------------------------

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

// ---- The adapter -----------------------------------------------------------------------

const NAMES: NameRule = { max: 64, pattern: /^[a-zA-Z0-9_-]{1,64}$/, text: "1-64 characters from a-z A-Z 0-9 _ -" };

/** The schema goes under `inputSchema.json`, an object at the root with no combinators. */
export const bedrock: ProviderAdapter<BedrockToolConfig, ExportOptions, BedrockToolResultMessage | undefined> = {
  id: "bedrock",
  names: NAMES,
  lower: (schema, log) => ({ schema: plainObjectRoot(schema, log), codec: undefined }),
  declare: (tools) => ({ tools: tools.map(({ tool, name, lowering }) => ({ toolSpec: { name, description: tool.description, inputSchema: { json: lowering.schema } } })) }),
  readCalls(input) {
    let blocks: unknown = input;
    if (!Array.isArray(input)) {
      const output = field(input, "output");
      blocks = field(output !== undefined ? field(output, "message") : input, "content");
    }
    return readEntries(blocks, (block) => {
      const toolUse = field(block, "toolUse");
      return toolUse === undefined ? undefined : callFrom(toolUse, { name: "name", args: "input", id: "toolUseId" });
    });
  },
  emptyReply() {
    return { role: "user", content: [] };
  },
  reply(calls, results) {
    // Converse rejects a user turn with no content: with no calls there is nothing to append.
    if (calls.length === 0) return undefined;
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
  },
};
