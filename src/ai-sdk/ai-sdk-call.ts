import type { ModelMessage } from "ai";

/**
 * What the AI SDK tells a tool about the call it serves, the same for AI SDK 6 and 7: the
 * options of a tool's `execute` and `needsApproval`, without the abort signal.
 */
export interface AiSdkCall {
  /** The AI SDK's id of the tool call (also the ctx's `callId`). */
  toolCallId: string;
  /** The messages the model was sent, without the system prompt and the tool call's own message. */
  messages: ModelMessage[];
  /**
   * The call's context: AI SDK 7's tool `context` (the tool's entry in `toolsContext`), or
   * AI SDK 6's `experimental_context` (that option of `generateText`, `streamText` or the agent).
   */
  context: unknown;
  /**
   * The same value as `context`, under AI SDK 6's name for it.
   * @deprecated Read `context`: this name stays for state functions written against AI SDK 6.
   */
  experimental_context: unknown;
}

/**
 * The options either major passes a tool: AI SDK 7 renamed `experimental_context` to `context`
 * (and fills it from `toolsContext[toolName]`), so each passes one of the two.
 */
interface OptionsOfEitherMajor {
  toolCallId: string;
  messages: ModelMessage[];
  context?: unknown;
  experimental_context?: unknown;
}

/** The call as toolnexus reads it, from the options of whichever AI SDK major runs the tool. */
export function aiSdkCallOf({ toolCallId, messages, context, experimental_context }: OptionsOfEitherMajor): AiSdkCall {
  const callContext = context !== undefined ? context : experimental_context;
  return { toolCallId, messages, context: callContext, experimental_context: callContext };
}
