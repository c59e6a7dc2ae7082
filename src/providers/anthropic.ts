import type { NameRule } from "../names";
import { plainObjectRoot } from "../schema/lowering";
import type { JSONSchemaObject } from "../types";
import { callFrom, field, readEntries, type ExportOptions, type ProviderAdapter } from "./adapter";

// ---- Declarations ----------------------------------------------------------------------

export type AnthropicInputSchema = JSONSchemaObject & { type: "object" };
export type AnthropicTool = { name: string; description: string; input_schema: AnthropicInputSchema };

// ---- Calls in, results out: types ------------------------------------------------------

export type AnthropicBlockLike = { type: string; id?: string; name?: string; input?: unknown };
export type AnthropicMessageLike = { content: AnthropicBlockLike[] };

/** A Messages API response, or its `content` blocks. */
export type AnthropicCallsInput = AnthropicMessageLike | readonly AnthropicBlockLike[];

export type AnthropicToolResultBlock = { type: "tool_result"; tool_use_id: string; content: string; is_error?: boolean };

/** The one user turn that answers every `tool_use` block. */
export type AnthropicToolResultMessage = { role: "user"; content: AnthropicToolResultBlock[] };

// ---- The adapter -----------------------------------------------------------------------

const NAMES: NameRule = { max: 128, pattern: /^[a-zA-Z0-9_-]{1,128}$/, text: "1-128 characters from a-z A-Z 0-9 _ -" };

/** `input_schema` must be an object with no combinator at its root; nothing else is rewritten. */
export const anthropic: ProviderAdapter<AnthropicTool[], ExportOptions, AnthropicToolResultMessage | undefined> = {
  id: "anthropic",
  names: NAMES,
  lower: (schema, log) => ({ schema: plainObjectRoot(schema, log), codec: undefined }),
  declare: (tools) => tools.map(({ tool, name, lowering }) => ({ name, description: tool.description, input_schema: lowering.schema as AnthropicInputSchema })),
  readCalls(input) {
    const blocks = Array.isArray(input) ? input : field(input, "content");
    return readEntries(blocks, (block) => (field(block, "type") === "tool_use" ? callFrom(block, { name: "name", args: "input", id: "id" }) : undefined));
  },
  emptyReply() {
    return { role: "user", content: [] };
  },
  reply(calls, results) {
    // Anthropic rejects a user turn with no content: with no calls there is nothing to append.
    if (calls.length === 0) return undefined;
    return {
      role: "user",
      content: calls.map((call, i) => ({
        type: "tool_result",
        tool_use_id: call.id ?? "",
        content: results[i]!.output,
        ...(results[i]!.isError ? { is_error: true } : {}),
      })),
    };
  },
};
