/**
 * What the README says of `toolnexus/langchain` in LangChain's own machinery, with no network:
 * `createAgent` runs the tools (a failed call goes back to the model as an error ToolMessage it
 * corrects; `ctx.state` comes from the run's `context` or `configurable`), LangGraph's `ToolNode`
 * runs them on an AIMessage's tool calls, `approve: ({ tool, args }) => interrupt({ tool, args })`
 * pauses a checkpointed graph until `new Command({ resume })` answers, and under
 * `humanInTheLoopMiddleware` `approve: ({ tool }) => Boolean(interruptOn[tool])` runs what the
 * middleware let through.
 */
import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import {
  Command,
  END,
  interrupt,
  MemorySaver,
  MessagesAnnotation,
  START,
  StateGraph,
  type Interrupt,
} from "@langchain/langgraph";
import { ToolNode } from "@langchain/langgraph/prebuilt";
import { createAgent, humanInTheLoopMiddleware, type HITLRequest, type HITLResponse } from "langchain";
import { defineTool, Toolkit, type ApprovalDecision } from "toolnexus";
import { toLangChainTools } from "toolnexus/langchain";
import { callsTools, says, ScriptedChatModel } from "./support/scripted-chat-model";

/** A tea shop: `temperature` for anyone, `order` for the signed-in customer, `refund` only with a person's approval. */
function teaShop() {
  const orders: Array<{ sku: string; units: number; placedBy: unknown }> = [];
  const refunds: Array<{ orderId: unknown; by: unknown }> = [];
  const toolkit = new Toolkit([
    defineTool({
      name: "temperature",
      description: "Current temperature in a city, in celsius",
      inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
      validate: true,
      execute: ({ city }) => ({ city, celsius: city === "Chennai" ? 31 : 12 }),
    }),
    defineTool({
      name: "order",
      description: "Orders units of a tea for the signed-in customer",
      inputSchema: {
        type: "object",
        properties: {
          sku: { type: "string", pattern: "^TEA-\\d{2}$", description: "Like TEA-01" },
          units: { type: "integer", minimum: 1 },
        },
        required: ["sku", "units"],
      },
      validate: true,
      execute: ({ sku, units }, ctx) => {
        orders.push({ sku: String(sku), units: Number(units), placedBy: ctx.state?.user });
        return `Order ${orders.length} placed: ${String(units)} × ${String(sku)}`;
      },
    }),
    defineTool({
      name: "refund",
      description: "Refunds an order",
      inputSchema: { type: "object", properties: { orderId: { type: "integer" } }, required: ["orderId"] },
      validate: true,
      needsApproval: true,
      execute: ({ orderId }, ctx) => {
        refunds.push({ orderId, by: ctx.state?.user });
        return `Refunded order ${String(orderId)}`;
      },
    }),
  ]);
  return { toolkit, orders, refunds };
}

const toolMessagesOf = (messages: BaseMessage[]) =>
  messages.filter((message): message is ToolMessage => ToolMessage.isInstance(message));
const lastOf = (messages: BaseMessage[]) => messages[messages.length - 1]!;

describe("createAgent with a toolkit's tools", () => {
  it("hands a call with invalid arguments back as an error ToolMessage, runs the model's corrected call, and ends with its answer", async () => {
    const { toolkit, orders } = teaShop();
    const model = new ScriptedChatModel([
      () => callsTools(["temperature", { city: "Chennai" }, "call_1"], ["order", { sku: "tea-1", units: 2 }, "call_2"]),
      (messages) => {
        const failed = toolMessagesOf(messages).find((message) => message.status === "error");
        expect(failed?.tool_call_id).toBe("call_2");
        return callsTools(["order", { sku: "TEA-01", units: 2 }, "call_3"]);
      },
      () => says("It is 31 °C in Chennai, and your order of 2 × TEA-01 is placed."),
    ]);
    const agent = createAgent({
      model,
      tools: toLangChainTools(toolkit, { state: (config) => config.context as Record<string, unknown> | undefined }),
    });

    const { messages } = await agent.invoke(
      { messages: [new HumanMessage("How warm is Chennai? And order 2 of TEA-01.")] },
      { context: { user: "ada@example.com" } },
    );

    expect(messages.map((message) => message.type)).toEqual(["human", "ai", "tool", "tool", "ai", "tool", "ai"]);
    const [weather, refused, placed] = toolMessagesOf(messages);
    expect(weather).toMatchObject({
      tool_call_id: "call_1",
      name: "temperature",
      status: "success",
      content: '{"city":"Chennai","celsius":31}',
    });
    expect(refused).toMatchObject({
      tool_call_id: "call_2",
      name: "order",
      status: "error",
      artifact: { metadata: { error: "invalid_arguments" } },
    });
    expect(refused!.content).toContain('"sku"');
    expect(placed).toMatchObject({ tool_call_id: "call_3", status: "success", content: "Order 1 placed: 2 × TEA-01" });
    expect(lastOf(messages).content).toBe("It is 31 °C in Chennai, and your order of 2 × TEA-01 is placed.");
    // The refused call never ran; the corrected one ran once, for the user in the run's context.
    expect(orders).toEqual([{ sku: "TEA-01", units: 2, placedBy: "ada@example.com" }]);
    // The agent declared every tool to the model, with its JSON Schema.
    expect(model.requests[0]!.tools.map((tool) => tool.function.name)).toEqual(["temperature", "order", "refund"]);
    expect(model.requests[0]!.tools[1]!.function.parameters).toMatchObject({
      properties: { sku: { type: "string", pattern: "^TEA-\\d{2}$" } },
      required: ["sku", "units"],
    });
  });

  it("gives the tools ctx.state from the run's configurable as well", async () => {
    const { toolkit, orders } = teaShop();
    const model = new ScriptedChatModel([
      () => callsTools(["order", { sku: "TEA-02", units: 1 }, "call_1"]),
      () => says("Done."),
    ]);
    const agent = createAgent({ model, tools: toLangChainTools(toolkit, { state: (config) => config.configurable }) });

    await agent.invoke(
      { messages: [new HumanMessage("One TEA-02, please.")] },
      { configurable: { user: "grace@example.com" } },
    );

    expect(orders).toEqual([{ sku: "TEA-02", units: 1, placedBy: "grace@example.com" }]);
  });
});

describe("LangGraph's ToolNode with a toolkit's tools", () => {
  it("runs every tool call of the last AIMessage and answers a ToolMessage for each, failures included", async () => {
    const { toolkit, orders } = teaShop();
    const node = new ToolNode(toLangChainTools(toolkit, { state: (config) => config.configurable }));
    const call = callsTools(
      ["temperature", { city: "Oslo" }, "call_1"],
      ["order", { sku: "TEA-07", units: 0 }, "call_2"],
      ["order", { sku: "TEA-07", units: 3 }, "call_3"],
    );

    const { messages } = (await node.invoke(
      { messages: [new HumanMessage("Weather in Oslo, and 3 of TEA-07"), call] },
      { configurable: { user: "ada@example.com" } },
    )) as {
      messages: ToolMessage[];
    };

    expect(messages).toHaveLength(3);
    expect(messages[0]).toMatchObject({
      tool_call_id: "call_1",
      name: "temperature",
      status: "success",
      content: '{"city":"Oslo","celsius":12}',
    });
    expect(messages[1]).toMatchObject({
      tool_call_id: "call_2",
      name: "order",
      status: "error",
      artifact: { metadata: { error: "invalid_arguments" } },
    });
    expect(messages[1]!.content).toContain('"units"');
    expect(messages[2]).toMatchObject({
      tool_call_id: "call_3",
      status: "success",
      content: "Order 1 placed: 3 × TEA-07",
    });
    expect(orders).toEqual([{ sku: "TEA-07", units: 3, placedBy: "ada@example.com" }]);
  });
});

describe("approval with LangGraph's interrupt() in approve", () => {
  /** The README's graph: the model, then a ToolNode whose approver asks a person with interrupt(), on a checkpointer. */
  function approvalGraph() {
    const shop = teaShop();
    const asked: unknown[] = [];
    const tools = toLangChainTools(shop.toolkit, {
      state: (config) => config.configurable,
      approve: ({ tool, args }) => {
        asked.push({ tool, args });
        return interrupt<{ tool: string; args: Record<string, unknown> }, ApprovalDecision>({ tool, args });
      },
    });
    const model = new ScriptedChatModel([
      () => callsTools(["refund", { orderId: 7 }, "call_1"]),
      (messages) => says(`Refund: ${String(lastOf(messages).content)}`),
    ]);
    const bound = model.bindTools(tools);
    const graph = new StateGraph(MessagesAnnotation)
      .addNode("model", async (state) => ({ messages: [await bound.invoke(state.messages)] }))
      .addNode("tools", new ToolNode(tools))
      .addEdge(START, "model")
      .addConditionalEdges(
        "model",
        (state) => ((lastOf(state.messages) as AIMessage).tool_calls?.length ? "tools" : END),
        ["tools", END],
      )
      .addEdge("tools", "model")
      .compile({ checkpointer: new MemorySaver() });
    return { ...shop, graph, asked };
  }

  const thread = (id: string) => ({ configurable: { thread_id: id, user: "ada@example.com" } });

  it("pauses the run with the interrupt before the tool runs, and runs the call once when a person approves", async () => {
    const { graph, refunds, asked } = approvalGraph();
    const config = thread("approved");

    const paused = await graph.invoke({ messages: [new HumanMessage("Refund order 7")] }, config);

    const interrupts = (paused as { __interrupt__?: Interrupt[] }).__interrupt__;
    expect(interrupts).toHaveLength(1);
    expect(interrupts![0]!.value).toEqual({ tool: "refund", args: { orderId: 7 } });
    expect(refunds).toEqual([]);
    const snapshot = await graph.getState(config);
    expect(snapshot.next).toEqual(["tools"]);

    const resumed = await graph.invoke(new Command({ resume: true }), config);

    expect(refunds).toEqual([{ orderId: 7, by: "ada@example.com" }]);
    const [refunded] = toolMessagesOf(resumed.messages);
    expect(refunded).toMatchObject({
      tool_call_id: "call_1",
      name: "refund",
      status: "success",
      content: "Refunded order 7",
    });
    expect(lastOf(resumed.messages).content).toBe("Refund: Refunded order 7");
    expect((resumed as { __interrupt__?: Interrupt[] }).__interrupt__).toBeUndefined();
    // Asked once before the pause, and again on resuming, where interrupt() returned the decision.
    expect(asked).toHaveLength(2);
  });

  it("answers a call a person denies with an error ToolMessage carrying the reason, and never runs it", async () => {
    const { graph, refunds } = approvalGraph();
    const config = thread("denied");

    await graph.invoke({ messages: [new HumanMessage("Refund order 7")] }, config);
    const resumed = await graph.invoke(
      new Command({ resume: { approved: false, reason: "Order 7 was already refunded" } }),
      config,
    );

    const [denied] = toolMessagesOf(resumed.messages);
    expect(denied).toMatchObject({
      tool_call_id: "call_1",
      name: "refund",
      status: "error",
      artifact: { metadata: { error: "denied" } },
    });
    expect(denied!.content).toContain("Reason: Order 7 was already refunded.");
    expect(lastOf(resumed.messages).content).toBe(`Refund: ${String(denied!.content)}`);
    expect(refunds).toEqual([]);
  });

  it("pauses and resumes a createAgent run with a checkpointer the same way", async () => {
    const { toolkit, refunds } = teaShop();
    const model = new ScriptedChatModel([
      () => callsTools(["refund", { orderId: 7 }, "call_1"]),
      (messages) => says(`Refund: ${String(lastOf(messages).content)}`),
    ]);
    const agent = createAgent({
      model,
      tools: toLangChainTools(toolkit, {
        state: (config) => config.context as Record<string, unknown> | undefined,
        approve: ({ tool, args }) =>
          interrupt<{ tool: string; args: Record<string, unknown> }, ApprovalDecision>({ tool, args }),
      }),
      checkpointer: new MemorySaver(),
    });
    const config = { configurable: { thread_id: "agent-approved" }, context: { user: "ada@example.com" } };

    const paused = await agent.invoke({ messages: [new HumanMessage("Refund order 7")] }, config);
    expect((paused.__interrupt__ as Interrupt[] | undefined)?.map((pause) => pause.value)).toEqual([
      { tool: "refund", args: { orderId: 7 } },
    ]);
    expect(refunds).toEqual([]);

    const resumed = await agent.invoke(new Command({ resume: { approved: true } }), config);

    expect(refunds).toEqual([{ orderId: 7, by: "ada@example.com" }]);
    expect(toolMessagesOf(resumed.messages)).toMatchObject([
      { tool_call_id: "call_1", status: "success", content: "Refunded order 7" },
    ]);
    expect(lastOf(resumed.messages).content).toBe("Refund: Refunded order 7");
  });
});

describe("approval under createAgent's humanInTheLoopMiddleware", () => {
  const interruptOn = { refund: true } as const;

  function hitlAgent() {
    const shop = teaShop();
    const model = new ScriptedChatModel([
      () => callsTools(["refund", { orderId: 7 }, "call_1"]),
      (messages) => says(`Refund: ${String(lastOf(messages).content)}`),
    ]);
    const agent = createAgent({
      model,
      tools: toLangChainTools(shop.toolkit, {
        state: (config) => config.configurable,
        approve: ({ tool }) => Boolean(interruptOn[tool as keyof typeof interruptOn]),
      }),
      middleware: [humanInTheLoopMiddleware({ interruptOn })],
      checkpointer: new MemorySaver(),
    });
    return { ...shop, agent };
  }

  it("runs a call the middleware's reviewer approved, once, after the pause", async () => {
    const { agent, refunds } = hitlAgent();
    const config = { configurable: { thread_id: "hitl-approved", user: "ada@example.com" } };

    const paused = await agent.invoke({ messages: [new HumanMessage("Refund order 7")] }, config);

    const request = (paused.__interrupt__ as Interrupt<HITLRequest>[] | undefined)?.[0]?.value;
    expect(request?.actionRequests).toMatchObject([{ name: "refund", args: { orderId: 7 } }]);
    expect(refunds).toEqual([]);

    const resume: HITLResponse = { decisions: [{ type: "approve" }] };
    const resumed = await agent.invoke(new Command({ resume }), config);

    expect(refunds).toEqual([{ orderId: 7, by: "ada@example.com" }]);
    expect(toolMessagesOf(resumed.messages)).toMatchObject([
      { tool_call_id: "call_1", status: "success", content: "Refunded order 7" },
    ]);
  });

  it("never runs a call the middleware's reviewer rejected: the model reads the rejection", async () => {
    const { agent, refunds } = hitlAgent();
    const config = { configurable: { thread_id: "hitl-rejected", user: "ada@example.com" } };

    await agent.invoke({ messages: [new HumanMessage("Refund order 7")] }, config);
    const resume: HITLResponse = { decisions: [{ type: "reject", message: "Order 7 was already refunded" }] };
    const resumed = await agent.invoke(new Command({ resume }), config);

    expect(refunds).toEqual([]);
    const [rejected] = toolMessagesOf(resumed.messages);
    expect(rejected).toMatchObject({ tool_call_id: "call_1", status: "error" });
    expect(rejected!.content).toContain("Order 7 was already refunded");
  });

  it("denies a tool that needs approval but that the middleware does not ask about", async () => {
    const shop = teaShop();
    const model = new ScriptedChatModel([
      () => callsTools(["refund", { orderId: 7 }, "call_1"]),
      () => says("Could not refund."),
    ]);
    const noneAsked: Record<string, boolean> = {};
    const agent = createAgent({
      model,
      tools: toLangChainTools(shop.toolkit, { approve: ({ tool }) => Boolean(noneAsked[tool]) }),
      middleware: [humanInTheLoopMiddleware({ interruptOn: noneAsked })],
      checkpointer: new MemorySaver(),
    });

    const result = await agent.invoke(
      { messages: [new HumanMessage("Refund order 7")] },
      { configurable: { thread_id: "hitl-not-asked" } },
    );

    expect(result.__interrupt__).toBeUndefined();
    expect(toolMessagesOf(result.messages)).toMatchObject([
      { tool_call_id: "call_1", status: "error", artifact: { metadata: { error: "denied" } } },
    ]);
    expect(shop.refunds).toEqual([]);
  });
});
