/**
 * The loop LangChain documents for tool calling, with a toolkit's tools: bind them to a chat
 * model, invoke it, run each ToolCall of its answer through its tool (a ToolMessage each),
 * append the messages and invoke it again, until it answers without tool calls. A failed call
 * goes back to the model as an error ToolMessage it reads and corrects.
 */
import "reflect-metadata";
import { HumanMessage, ToolMessage, type AIMessage, type BaseMessage } from "@langchain/core/messages";
import type { RunnableConfig } from "@langchain/core/runnables";
import { Ctx, Param, Tool, Toolkit, type ToolContext } from "toolnexus";
import { toLangChainTools, type ToolnexusTool } from "toolnexus/langchain";
import { callsTools, says, ScriptedChatModel } from "./support/scripted-chat-model";

class TeaShop {
  readonly orders: Array<{ sku: string; units: number; placedBy: unknown }> = [];

  @Tool("Current temperature in a city, in celsius")
  temperature(@Param("city") city: string): { city: string; celsius: number } {
    return { city, celsius: city === "Chennai" ? 31 : 12 };
  }

  @Tool("Orders units of a tea for the signed-in customer")
  order(
    @Param("sku", { pattern: "^TEA-\\d{2}$", description: "Like TEA-01" }) sku: string,
    @Param("units", { minimum: 1 }) units: number,
    @Ctx() ctx: ToolContext,
  ): string {
    this.orders.push({ sku, units, placedBy: ctx.state?.user });
    return `Order ${this.orders.length} placed: ${units} × ${sku}`;
  }
}

/** LangChain's tool-calling loop: the model, then every tool call of its answer, until it answers in text. */
async function runAgent(
  model: ScriptedChatModel,
  tools: ToolnexusTool[],
  messages: BaseMessage[],
  config?: RunnableConfig,
): Promise<AIMessage> {
  const bound = model.bindTools(tools);
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  for (let turn = 0; turn < 6; turn++) {
    const answer = await bound.invoke(messages, config);
    messages.push(answer);
    if (!answer.tool_calls?.length) return answer;
    messages.push(...(await Promise.all(answer.tool_calls.map((call) => byName.get(call.name)!.invoke(call, config)))));
  }
  throw new Error("The model was still calling tools after 6 turns.");
}

const toolMessagesOf = (messages: BaseMessage[]) =>
  messages.filter((message): message is ToolMessage => ToolMessage.isInstance(message));

describe("LangChain's tool-calling loop with a toolkit's tools", () => {
  it("runs the model's calls, hands a failure back as data, and ends with the model's answer", async () => {
    const shop = new TeaShop();
    const tools = toLangChainTools(new Toolkit([shop]), { state: (config) => config.configurable });
    const model = new ScriptedChatModel([
      () => callsTools(["temperature", { city: "Chennai" }, "call_1"], ["order", { sku: "tea-1", units: 2 }, "call_2"]),
      (messages) => {
        // The model reads the error and corrects the call.
        const failed = toolMessagesOf(messages).find((message) => message.status === "error");
        expect(failed?.tool_call_id).toBe("call_2");
        return callsTools(["order", { sku: "TEA-01", units: 2 }, "call_3"]);
      },
      (messages) =>
        says(
          toolMessagesOf(messages)
            .map((message) => message.content)
            .join(" | "),
        ),
    ]);

    const messages: BaseMessage[] = [new HumanMessage("How warm is Chennai? And order 2 of TEA-01.")];
    const answer = await runAgent(model, tools, messages, { configurable: { user: "ada@example.com" } });

    expect(messages.map((message) => message.type)).toEqual(["human", "ai", "tool", "tool", "ai", "tool", "ai"]);
    const [weather, refused, placed] = toolMessagesOf(messages);
    expect(weather).toMatchObject({
      tool_call_id: "call_1",
      status: "success",
      content: '{"city":"Chennai","celsius":31}',
    });
    expect(refused).toMatchObject({
      tool_call_id: "call_2",
      status: "error",
      artifact: { metadata: { error: "invalid_arguments" } },
    });
    expect(refused!.content).toContain('"sku"');
    expect(placed).toMatchObject({ tool_call_id: "call_3", status: "success", content: "Order 1 placed: 2 × TEA-01" });
    expect(answer.content).toBe(`{"city":"Chennai","celsius":31} | ${refused!.content} | Order 1 placed: 2 × TEA-01`);
    // The refused call never ran; the corrected one ran once, for the user in the run's config.
    expect(shop.orders).toEqual([{ sku: "TEA-01", units: 2, placedBy: "ada@example.com" }]);
    // Every turn declared both tools with their JSON Schemas.
    expect(model.requests.map((request) => request.tools.map((tool) => tool.function.name))).toEqual([
      ["temperature", "order"],
      ["temperature", "order"],
      ["temperature", "order"],
    ]);
    expect(model.requests[0]!.tools[1]!.function.parameters).toMatchObject({
      properties: { sku: { type: "string", pattern: "^TEA-\\d{2}$" } },
      required: ["sku", "units"],
    });
  });
});
