/**
 * Type fidelity of the declaration options on Anthropic and Bedrock: deferred tools with tool search,
 * examples and strict tools are accepted where @anthropic-ai/sdk and @aws-sdk/client-bedrock-runtime
 * expect them, with no casts. Never run: compiled with tsc against the built package.
 */
import type Anthropic from "@anthropic-ai/sdk";
import type { ConverseCommandInput, ToolConfiguration } from "@aws-sdk/client-bedrock-runtime";
import { defineTool, Toolkit, type Tool } from "toolnexus";

const refund: Tool = {
  ...defineTool({ name: "refund_order", description: "Refunds an order", execute: () => "refunded" }),
  defer: true,
  strict: true,
  examples: [{ order: "A-1" }],
};
const weather = defineTool({ name: "get_weather", description: "Weather", execute: () => "sunny" });
const toolkit = new Toolkit([weather, refund]);

export async function anthropic(message: Anthropic.Message): Promise<Anthropic.MessageCreateParams> {
  const tools: Anthropic.Messages.ToolUnion[] = toolkit.toAnthropic({ strict: true, toolSearch: "regex" });
  const params: Anthropic.MessageCreateParams["tools"] = toolkit.toAnthropic();
  const reply = await toolkit.runAnthropic(message);
  return {
    model: "claude-sonnet-4-5",
    max_tokens: 1024,
    messages: [{ role: "assistant", content: message.content }, ...(reply ? [reply] : [])],
    tools: params ?? tools,
  };
}

export function bedrock(conversation: ConverseCommandInput["messages"]): ConverseCommandInput[] {
  const plain: ToolConfiguration = toolkit.toBedrock();
  const strict: ToolConfiguration = toolkit.toBedrock({ strict: true, conversation });
  return [
    { modelId: "m", messages: conversation, toolConfig: plain },
    { modelId: "m", messages: conversation, toolConfig: strict },
  ];
}
