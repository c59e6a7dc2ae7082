// toLangChainTools in LangChain's machinery: a tool invoked with a tool call, LangGraph's
// ToolNode running an AIMessage's call, and createAgent's loop with a chat model that calls
// get_weather, then answers with what it returned.
import { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage, ToolMessage } from "@langchain/core/messages";
import { ToolNode } from "@langchain/langgraph/prebuilt";
import { createAgent } from "langchain";
import { toLangChainTools } from "toolnexus/langchain";
import { report, weatherToolkit } from "./weather-toolkit.mjs";

const tools = toLangChainTools(weatherToolkit());
const call = { type: "tool_call", id: "call_1", name: "get_weather", args: { city: "Chennai" } };

class ScriptedChatModel extends BaseChatModel {
  _llmType() {
    return "scripted";
  }

  bindTools() {
    return this;
  }

  async _generate(messages) {
    const results = messages.filter((message) => ToolMessage.isInstance(message));
    const message =
      results.length === 0
        ? new AIMessage({ content: "", tool_calls: [call] })
        : new AIMessage(`The tool said: ${results.map((result) => result.content).join("; ")}`);
    return { generations: [{ message, text: typeof message.content === "string" ? message.content : "" }] };
  }
}

const invoked = await tools[0].invoke(call);
const graph = await new ToolNode(tools).invoke({ messages: [new AIMessage({ content: "", tool_calls: [call] })] });
const agent = createAgent({ model: new ScriptedChatModel({}), tools });
const run = await agent.invoke({ messages: [{ role: "user", content: "What is the weather in Chennai?" }] });
report({
  invoked: {
    isToolMessage: ToolMessage.isInstance(invoked),
    toolCallId: invoked.tool_call_id,
    content: invoked.content,
  },
  toolNode: graph.messages.map((message) => message.content),
  agent: run.messages.at(-1).content,
});
