/**
 * A LangChain chat model that plays a script instead of calling a provider (the fakes in
 * @langchain/core/utils/testing answer text only, or the same tool calls on every turn). Each
 * turn reads the conversation it is sent and answers an AIMessage, tool calls included.
 * `bindTools` declares the tools as a provider integration does (`convertToOpenAITool`, which
 * reads each tool's schema), and every request is recorded with the declarations it carried.
 */
import {
  BaseChatModel,
  type BaseChatModelCallOptions,
  type BindToolsInput,
} from "@langchain/core/language_models/chat_models";
import { AIMessage, type AIMessageChunk, type BaseMessage, type ToolCall } from "@langchain/core/messages";
import type { ChatResult } from "@langchain/core/outputs";
import type { Runnable } from "@langchain/core/runnables";
import { convertToOpenAITool } from "@langchain/core/utils/function_calling";
import type { BaseLanguageModelInput } from "@langchain/core/language_models/base";

export type Turn = (messages: BaseMessage[]) => AIMessage;

interface ScriptedCallOptions extends BaseChatModelCallOptions {
  tools?: ReturnType<typeof convertToOpenAITool>[];
}

export interface Request {
  messages: BaseMessage[];
  tools: ReturnType<typeof convertToOpenAITool>[];
}

export class ScriptedChatModel extends BaseChatModel<ScriptedCallOptions> {
  readonly requests: Request[] = [];
  #next = 0;

  constructor(private readonly turns: Turn[]) {
    super({});
  }

  _llmType(): string {
    return "scripted";
  }

  override bindTools(tools: BindToolsInput[]): Runnable<BaseLanguageModelInput, AIMessageChunk, ScriptedCallOptions> {
    return this.withConfig({ tools: tools.map((tool) => convertToOpenAITool(tool)) });
  }

  async _generate(messages: BaseMessage[], options: this["ParsedCallOptions"]): Promise<ChatResult> {
    this.requests.push({ messages, tools: options.tools ?? [] });
    const turn = this.turns[this.#next++];
    if (turn === undefined)
      throw new Error(`The script has ${this.turns.length} turns; turn ${this.#next} was asked for.`);
    const message = turn(messages);
    return { generations: [{ message, text: typeof message.content === "string" ? message.content : "" }] };
  }
}

/** An AIMessage calling tools: `[name, args, id]` each. */
export function callsTools(...calls: Array<[name: string, args: Record<string, unknown>, id: string]>): AIMessage {
  return new AIMessage({
    content: "",
    tool_calls: calls.map(([name, args, id]): ToolCall => ({ type: "tool_call", name, args, id })),
  });
}

export function says(text: string): AIMessage {
  return new AIMessage(text);
}
