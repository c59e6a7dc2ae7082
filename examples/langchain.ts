/**
 * LangChain: a toolkit's tools as LangChain structured tools (`toolnexus/langchain`), bound to
 * a chat model with `bindTools` and run in LangChain's tool-calling loop: invoke the model,
 * invoke each ToolCall of its answer on its tool (each answers a ToolMessage), append them,
 * and invoke the model again until it answers in text.
 *
 * The model asks for the weather, an order (with a mistyped e-mail), a sales chart and a
 * refund. The failed order comes back as an error ToolMessage the model reads and corrects;
 * the chart is a ToolMessage with a text block and an image block; the refund needs approval,
 * and the `approve` option decides it from the run's config: this user is a customer, so it is
 * denied, and the model is told why. The user comes from the run's `configurable` and reaches
 * the tools as `ctx.state`.
 *
 * The model is a stand-in that reads the conversation (./support/stand-in-chat-model.ts), so
 * this runs offline; in an application it is `new ChatOpenAI(...)`, `new ChatAnthropic(...)`, ...
 */
import "reflect-metadata";
import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import type { RunnableConfig } from "@langchain/core/runnables";
import { defineTool, Toolkit } from "toolnexus";
import { toLangChainTools } from "toolnexus/langchain";
import { SalesService } from "./chart";
import { OrdersService, WeatherService } from "./services";
import { StandInChatModel } from "./support/stand-in-chat-model";

/** A guard against a model that never stops calling tools. */
const MAX_TURNS = 6;

const refund = defineTool({
  name: "refund_payment",
  description: "Refunds a payment",
  inputSchema: {
    type: "object",
    properties: { paymentId: { type: "string", description: "Like pay_1001" } },
    required: ["paymentId"],
  },
  validate: true,
  needsApproval: true,
  execute: ({ paymentId }) => `Refunded ${String(paymentId)}`,
});

export async function main(): Promise<{ text: string; messages: BaseMessage[]; declared: string[] }> {
  const toolkit = new Toolkit([new WeatherService(), new OrdersService(), new SalesService(), refund]);
  const tools = toLangChainTools(toolkit, {
    // Host data for the tools (never shown to the model): @Ctx() reads it as ctx.state.
    state: (config) => config.configurable,
    // LangChain has no approval step for a plain tool: this one asks the run's config.
    approve: ({ config }) =>
      config.configurable?.role === "support" || { approved: false, reason: "only support staff approve refunds" },
  });
  const model = new StandInChatModel(standInReply);
  const withTools = model.bindTools(tools);
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const config: RunnableConfig = { configurable: { user: "ada@example.com", role: "customer" } };

  const messages: BaseMessage[] = [
    new HumanMessage(
      "How warm is Chennai, in fahrenheit? Order 2 × TEA-01 for me, show me 2025's sales, and refund pay_1001.",
    ),
  ];
  for (let turn = 0; turn < MAX_TURNS; turn++) {
    const answer = await withTools.invoke(messages, config);
    messages.push(answer);
    if (!answer.tool_calls?.length)
      return { text: String(answer.content), messages, declared: model.declared.map((tool) => tool.function.name) };
    // Each call answers a ToolMessage, failures included (status "error"): nothing here throws for a failed call.
    messages.push(...(await Promise.all(answer.tool_calls.map((call) => byName.get(call.name)!.invoke(call, config)))));
  }
  throw new Error(`The model was still calling tools after ${MAX_TURNS} turns.`);
}

/**
 * The stand-in model: first every call the question asks for (the order with a mistyped
 * e-mail), then the order again if it came back as an error, then an answer from the results.
 */
function standInReply(messages: BaseMessage[]): AIMessage {
  const results = messages.filter((message): message is ToolMessage => ToolMessage.isInstance(message));
  const line = [{ sku: "TEA-01", quantity: 2 }];
  if (results.length === 0) {
    return calls(
      ["getWeather", { city: "Chennai", units: "fahrenheit" }],
      ["place_order", { customerEmail: "ada(at)example.com", lines: line }],
      ["sales_chart", { year: 2025 }],
      ["refund_payment", { paymentId: "pay_1001" }],
    );
  }
  const orders = results.filter((result) => result.name === "place_order");
  if (orders.every((order) => order.status === "error"))
    return calls(["place_order", { customerEmail: "ada@example.com", lines: line }]);

  const weather = JSON.parse(String(results.find((result) => result.name === "getWeather")?.content)) as {
    temperature: number;
  };
  const order = JSON.parse(String(orders.at(-1)?.content)) as { orderId: number; units: number };
  const chart = results.find((result) => result.name === "sales_chart");
  const sawChart = chart?.contentBlocks.some((block) => block.type === "image") === true;
  const refunded = results.find((result) => result.name === "refund_payment");
  return new AIMessage(
    [
      `It is ${weather.temperature}°F in Chennai.`,
      `Order ${order.orderId} is placed (${order.units} units).`,
      sawChart ? "I have the 2025 sales chart for you." : "The chart did not come through.",
      refunded?.status === "error" ? "The refund needs a support agent: I could not make it." : "pay_1001 is refunded.",
    ].join(" "),
  );
}

function calls(...wanted: Array<[name: string, args: Record<string, unknown>]>): AIMessage {
  return new AIMessage({
    content: "",
    tool_calls: wanted.map(([name, args], index) => ({ type: "tool_call", id: `call_${name}_${index}`, name, args })),
  });
}

/** Prints the conversation, one line per message (base64 payloads as their size). */
export function printConversation({
  text,
  messages,
  declared,
}: {
  text: string;
  messages: BaseMessage[];
  declared: string[];
}): void {
  console.log(`tools declared to the model: ${declared.join(", ")}`);
  for (const message of messages) {
    if (AIMessage.isInstance(message) && message.tool_calls?.length) {
      console.log(
        `ai        calls ${message.tool_calls.map((call) => `${call.name}(${JSON.stringify(call.args)})`).join(", ")}`,
      );
    } else if (ToolMessage.isInstance(message)) {
      const blocks = message.contentBlocks.map((block) =>
        block.type === "text"
          ? block.text
          : `[${block.type} block${"mimeType" in block ? ` ${String(block.mimeType)}` : ""}]`,
      );
      console.log(`tool      ${message.name} (${message.status}): ${blocks.join(" ")}`);
    } else {
      console.log(`${message.type.padEnd(9)} ${String(message.content)}`);
    }
  }
  console.log(`final: ${text}`);
}

if (require.main === module) {
  main().then(printConversation, (error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
