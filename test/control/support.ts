/**
 * Shared by the control tests: each provider's model turn built from a list of calls (the
 * shapes its SDK returns), its reply read back as one answer per call, and an MCP client
 * (the official SDK) connected in memory to a toolkit's server.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { PendingApprovals, Toolkit, ToolContext, ToolSource } from "../../src";
import type {
  AnthropicCallsInput,
  BedrockCallsInput,
  GeminiCallsInput,
  OpenAICallsInput,
  OpenAIResponsesCallsInput,
} from "../../src/providers";
import { createMcpServer, type McpToolkit } from "../../src/mcp";

/** One call as the model sends it. */
export interface ModelCall {
  /** Gemini (Vertex) may leave it out; every other provider sends one. */
  id?: string;
  name: string;
  args: Record<string, unknown>;
}

/** One call's answer in a provider reply, read the same way for every provider. */
export interface Answer {
  id: string | undefined;
  isError: boolean;
  text: string;
}

export type ProviderId = "gemini" | "openai" | "openai-responses" | "anthropic" | "bedrock";

export interface ProviderCase {
  id: ProviderId;
  /** Whether an empty reply (no call answered) is a turn object (Gemini, Anthropic, Bedrock) rather than an array. */
  turnObject: boolean;
  /** The model's response holding `calls`, shaped as the provider's SDK returns it. */
  response(calls: readonly ModelCall[]): unknown;
  run(kit: Toolkit, calls: readonly ModelCall[], ctx?: ToolContext): Promise<unknown>;
  /** One entry per answered call, in reply order. */
  answers(reply: unknown): Answer[];
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Loose = any;

export const gemini: ProviderCase = {
  id: "gemini",
  turnObject: true,
  response: (calls) => ({
    candidates: [
      {
        index: 0,
        content: {
          role: "model",
          parts: [
            { text: "Working on it." },
            ...calls.map((call) => ({
              functionCall: { ...(call.id !== undefined ? { id: call.id } : {}), name: call.name, args: call.args },
            })),
          ],
        },
      },
    ],
  }),
  run: (kit, calls, ctx) => kit.runGemini(gemini.response(calls) as GeminiCallsInput, ctx),
  answers: (reply) =>
    ((reply as Loose)?.parts ?? []).map((part: Loose) => {
      const { id, response } = part.functionResponse;
      return { id, isError: "error" in response, text: response.error ?? response.output };
    }),
};

export const openai: ProviderCase = {
  id: "openai",
  turnObject: false,
  response: (calls) => ({
    id: "chatcmpl-1",
    object: "chat.completion",
    choices: [
      {
        index: 0,
        finish_reason: "tool_calls",
        message: {
          role: "assistant",
          content: null,
          tool_calls: calls.map((call) => ({
            id: call.id,
            type: "function",
            function: { name: call.name, arguments: JSON.stringify(call.args) },
          })),
        },
      },
    ],
  }),
  run: (kit, calls, ctx) => kit.runOpenAI(openai.response(calls) as OpenAICallsInput, ctx),
  answers: (reply) =>
    (reply as Loose[]).map((message) => ({
      id: message.tool_call_id,
      isError: message.content.startsWith("Error: "),
      text: message.content.replace(/^Error: /, ""),
    })),
};

export const openaiResponses: ProviderCase = {
  id: "openai-responses",
  turnObject: false,
  response: (calls) => ({
    id: "resp_1",
    object: "response",
    output: [
      { id: "rs_1", type: "reasoning", summary: [] },
      ...calls.map((call, i) => ({
        id: `fc_${i}`,
        type: "function_call",
        call_id: call.id,
        name: call.name,
        arguments: JSON.stringify(call.args),
        status: "completed",
      })),
    ],
  }),
  run: (kit, calls, ctx) => kit.runOpenAIResponses(openaiResponses.response(calls) as OpenAIResponsesCallsInput, ctx),
  answers: (reply) =>
    (reply as Loose[]).map((item) => ({
      id: item.call_id,
      isError: item.output.startsWith("Error: "),
      text: item.output.replace(/^Error: /, ""),
    })),
};

export const anthropic: ProviderCase = {
  id: "anthropic",
  turnObject: true,
  response: (calls) => ({
    id: "msg_1",
    type: "message",
    role: "assistant",
    stop_reason: "tool_use",
    content: [
      { type: "text", text: "Let me do that." },
      ...calls.map((call) => ({ type: "tool_use", id: call.id, name: call.name, input: call.args })),
    ],
  }),
  run: (kit, calls, ctx) => kit.runAnthropic(anthropic.response(calls) as AnthropicCallsInput, ctx),
  answers: (reply) =>
    ((reply as Loose)?.content ?? []).map((block: Loose) => ({
      id: block.tool_use_id,
      isError: block.is_error === true,
      text: block.content,
    })),
};

export const bedrock: ProviderCase = {
  id: "bedrock",
  turnObject: true,
  response: (calls) => ({
    output: {
      message: {
        role: "assistant",
        content: [
          { text: "On it." },
          ...calls.map((call) => ({ toolUse: { toolUseId: call.id, name: call.name, input: call.args } })),
        ],
      },
    },
    stopReason: "tool_use",
  }),
  run: (kit, calls, ctx) => kit.runBedrock(bedrock.response(calls) as BedrockCallsInput, ctx),
  answers: (reply) =>
    ((reply as Loose)?.content ?? []).map((block: Loose) => ({
      id: block.toolResult.toolUseId,
      isError: block.toolResult.status === "error",
      text: block.toolResult.content[0].text,
    })),
};

export const PROVIDERS: readonly ProviderCase[] = [gemini, openai, openaiResponses, anthropic, bedrock];

/** `[id, case]` rows for `it.each` / `describe.each`. */
export const providerRows: Array<[ProviderId, ProviderCase]> = PROVIDERS.map((provider) => [provider.id, provider]);

/** The `pendingApprovals` a run* reply carries, or undefined. */
export function pendingOf(reply: unknown): PendingApprovals<ProviderId> | undefined {
  return (reply as { pendingApprovals?: PendingApprovals<ProviderId> } | undefined)?.pendingApprovals;
}

/** What storing the value in a database and reading it back in another process gives. */
export function throughJson<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/** An SDK client connected in memory to `createMcpServer(toolkit, options)`. */
export async function connectMcp(
  toolkit: McpToolkit | readonly ToolSource[],
  options: { state?: Record<string, unknown> } = {},
): Promise<{ client: Client; close: () => Promise<void> }> {
  const server = createMcpServer(toolkit, options);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: "toolnexus-control-test", version: "1.0.0" });
  await server.connect(serverSide);
  await client.connect(clientSide);
  return {
    client,
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}

/** The text of a CallToolResult's first content block. */
export function mcpText(result: unknown): string {
  const content = (result as { content?: Array<{ type: string; text?: string }> }).content ?? [];
  return content[0]?.text ?? "";
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
