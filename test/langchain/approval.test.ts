/**
 * `needsApproval` in LangChain, which has no approval step for a plain tool: without an
 * approver a call is denied (nobody was asked) or decided by the toolkit's own `approve`;
 * `toLangChainTools(toolkit, { approve })` asks the host, with the call's LangChain config. A
 * denial is an error ToolMessage the model reads. LangGraph's `interrupt()` thrown from
 * `approve` reaches the graph (it pauses the run until a person answers); any other throw
 * denies the call.
 */
import type { ToolCall } from "@langchain/core/messages";
import { defineTool, Toolkit } from "toolnexus";
import { toLangChainTools, type LangChainApprovalRequest } from "toolnexus/langchain";

const refundCall: ToolCall = { type: "tool_call", id: "call_1", name: "refund", args: { orderId: 7 } };

function shop(options: { needsApproval?: boolean | ((args: Record<string, unknown>) => boolean) } = {}) {
  const refunds: unknown[] = [];
  const refund = defineTool({
    name: "refund",
    description: "Refunds an order",
    inputSchema: { type: "object", properties: { orderId: { type: "integer" } }, required: ["orderId"] },
    validate: true,
    needsApproval: options.needsApproval ?? true,
    execute: ({ orderId }) => (refunds.push(orderId), `Refunded order ${String(orderId)}`),
  });
  return { refund, refunds };
}

/** Thrown the way LangGraph's interrupt() throws (GraphInterrupt extends GraphBubbleUp). */
class GraphInterruptLike extends Error {
  get is_bubble_up(): boolean {
    return true;
  }
}

describe("tools that need approval, in LangChain", () => {
  it("are denied without an approver: nobody was asked, and the model is told to ask the user", async () => {
    const { refund, refunds } = shop();
    const [tool] = toLangChainTools(new Toolkit([refund]));
    const message = await tool!.invoke(refundCall);
    expect(message).toMatchObject({ status: "error", artifact: { metadata: { error: "denied" } } });
    expect(message.content).toMatch(/nobody was asked/);
    expect(refunds).toEqual([]);
  });

  it("are decided by the toolkit's own approve when no approver is given here", async () => {
    const { refund, refunds } = shop();
    const [tool] = toLangChainTools(new Toolkit([refund], { approve: ({ args }) => args.orderId === 7 }));
    await expect(tool!.invoke(refundCall)).resolves.toMatchObject({ status: "success", content: "Refunded order 7" });
    expect(refunds).toEqual([7]);
  });

  it("ask the approver, with the call, its ctx and the LangChain config, and run the call it approves", async () => {
    const { refund, refunds } = shop();
    const asked: LangChainApprovalRequest[] = [];
    const [tool] = toLangChainTools(new Toolkit([refund]), {
      state: (config) => config.configurable,
      approve: (request) => (asked.push(request), request.config.configurable?.role === "support"),
    });
    await expect(tool!.invoke(refundCall, { configurable: { role: "support" } })).resolves.toMatchObject({
      status: "success",
      content: "Refunded order 7",
    });
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({
      tool: "refund",
      args: { orderId: 7 },
      callId: "call_1",
      ctx: { callId: "call_1", state: { role: "support" } },
    });
    expect(asked[0]!.config.toolCall?.id).toBe("call_1");
    expect(refunds).toEqual([7]);
  });

  it("answer a denied call with the approver's reason, without running it", async () => {
    const { refund, refunds } = shop();
    const [tool] = toLangChainTools(new Toolkit([refund]), {
      approve: () => ({ approved: false, reason: "Refunds over 100 € need a manager" }),
    });
    const message = await tool!.invoke(refundCall);
    expect(message).toMatchObject({ status: "error", artifact: { metadata: { error: "denied" } } });
    expect(message.content).toContain("Reason: Refunds over 100 € need a manager.");
    expect(refunds).toEqual([]);
  });

  it("only ask about calls the tool says need approval", async () => {
    const { refund, refunds } = shop({ needsApproval: (args) => Number(args.orderId) > 100 });
    const approve = jest.fn(() => false);
    const [tool] = toLangChainTools(new Toolkit([refund]), { approve });
    await expect(tool!.invoke(refundCall)).resolves.toMatchObject({ status: "success" });
    await expect(tool!.invoke({ ...refundCall, args: { orderId: 500 } })).resolves.toMatchObject({
      status: "error",
      artifact: { metadata: { error: "denied" } },
    });
    expect(approve).toHaveBeenCalledTimes(1);
    expect(refunds).toEqual([7]);
  });

  it("ask about destructive tools when the toolkit sets approveDestructive, and only then", async () => {
    const wipe = defineTool({
      name: "wipe",
      description: "Wipes the cache",
      annotations: { destructive: true },
      execute: () => "wiped",
    });
    const call: ToolCall = { type: "tool_call", id: "call_w", name: "wipe", args: {} };
    const approve = jest.fn(() => ({ approved: false, reason: "not today" }));
    const [guarded] = toLangChainTools(new Toolkit([wipe], { approveDestructive: true }), { approve });
    await expect(guarded!.invoke(call)).resolves.toMatchObject({
      status: "error",
      artifact: { metadata: { error: "denied" } },
    });
    expect(approve).toHaveBeenCalledTimes(1);
    const [trusted] = toLangChainTools(new Toolkit([wipe]), { approve });
    await expect(trusted!.invoke(call)).resolves.toMatchObject({ status: "success", content: "wiped" });
    expect(approve).toHaveBeenCalledTimes(1);
  });

  it("never ask about a call of a tool hidden from the call's state: it is answered as an unknown tool", async () => {
    const refunds: unknown[] = [];
    const refund = defineTool({
      name: "refund",
      description: "Refunds an order",
      visible: (ctx) => ctx.state?.role === "support",
      needsApproval: true,
      execute: ({ orderId }) => (refunds.push(orderId), "refunded"),
    });
    const approve = jest.fn(() => true);
    const [tool] = toLangChainTools(new Toolkit([refund]), { state: (config) => config.configurable, approve });
    const message = await tool!.invoke(refundCall, { configurable: { role: "customer" } });
    expect(message).toMatchObject({ status: "error", artifact: { metadata: { error: "unknown_tool" } } });
    expect(approve).not.toHaveBeenCalled();
    expect(refunds).toEqual([]);
  });

  it("deny the call when the approver throws or answers nonsense", async () => {
    const { refund, refunds } = shop();
    const warn = jest.spyOn(process, "emitWarning").mockImplementation(() => {});
    const failing = toLangChainTools(new Toolkit([refund]), {
      approve: () => {
        throw new Error("approval service unreachable at 10.0.0.7");
      },
    });
    const failed = await failing[0]!.invoke(refundCall);
    expect(failed).toMatchObject({ status: "error", artifact: { metadata: { error: "denied" } } });
    // The model reads a fixed sentence with an error id; the host's warning carries what was thrown.
    expect(failed.content).toMatch(/the approval step failed \(error id [0-9a-f-]{36}\)/);
    expect(failed.content).not.toContain("10.0.0.7");
    expect(String(warn.mock.calls[0]![0])).toContain("approval service unreachable at 10.0.0.7");
    warn.mockRestore();
    const confused = toLangChainTools(new Toolkit([refund]), { approve: () => "yes" as never });
    await expect(confused[0]!.invoke(refundCall)).resolves.toMatchObject({
      status: "error",
      artifact: { metadata: { error: "denied" } },
    });
    expect(refunds).toEqual([]);
  });

  it("let LangGraph's interrupt() through, so the graph pauses until a person answers", async () => {
    const { refund, refunds } = shop();
    const interrupt = new GraphInterruptLike("refund needs a person");
    const [tool] = toLangChainTools(new Toolkit([refund]), {
      approve: () => {
        throw interrupt;
      },
    });
    await expect(tool!.invoke(refundCall)).rejects.toBe(interrupt);
    expect(refunds).toEqual([]);
  });
});
