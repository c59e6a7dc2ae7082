/**
 * A LangChain chat model that answers without a provider, so examples/langchain.ts runs
 * offline: `reply` reads the conversation and returns the next AIMessage (tool calls
 * included). `bindTools` declares the tools the way provider integrations do
 * (`convertToOpenAITool` reads each tool's name, description and schema); the declarations
 * reach each call as `options.tools`, and `declared` keeps the latest. In an application this
 * is `new ChatOpenAI(...)`, `new ChatAnthropic(...)`, ...
 */
import {
  BaseChatModel,
  type BaseChatModelCallOptions,
  type BindToolsInput,
} from "@langchain/core/language_models/chat_models";
import type { BaseLanguageModelInput } from "@langchain/core/language_models/base";
import type { AIMessage, AIMessageChunk, BaseMessage } from "@langchain/core/messages";
import type { ChatResult } from "@langchain/core/outputs";
import type { Runnable } from "@langchain/core/runnables";
import { convertToOpenAITool } from "@langchain/core/utils/function_calling";

type Declaration = ReturnType<typeof convertToOpenAITool>;

interface StandInCallOptions extends BaseChatModelCallOptions {
  tools?: Declaration[];
}

export class StandInChatModel extends BaseChatModel<StandInCallOptions> {
  /** The tools the latest request declared. */
  declared: Declaration[] = [];

  constructor(private readonly reply: (messages: BaseMessage[]) => AIMessage) {
    super({});
  }

  _llmType(): string {
    return "stand-in";
  }

  override bindTools(tools: BindToolsInput[]): Runnable<BaseLanguageModelInput, AIMessageChunk, StandInCallOptions> {
    return this.withConfig({ tools: tools.map((tool) => convertToOpenAITool(tool)) });
  }

  async _generate(messages: BaseMessage[], options: this["ParsedCallOptions"]): Promise<ChatResult> {
    this.declared = options.tools ?? [];
    const message = this.reply(messages);
    return { generations: [{ message, text: typeof message.content === "string" ? message.content : "" }] };
  }
}
