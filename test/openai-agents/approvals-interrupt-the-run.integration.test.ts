import { Agent, run, RunContext, RunState } from "@openai/agents";
import { defineTool, Toolkit, type JSONSchemaObject, type ToolContext } from "toolnexus";
import { toAgentsTools, type AgentsToolsOptions } from "toolnexus/openai-agents";
import { startScriptedModel, type ModelRequest, type ModelTurn, type ScriptedModel } from "./support";

/**
 * A tool's `needsApproval` is the Agents SDK's own: the run stops with an interruption, a person
 * approves or rejects it on the run state, and `run(agent, state)` resumes. An approved call
 * runs as approved (`toolkit.execute(..., { approved: true })`); a rejected one never runs and
 * the model reads the SDK's rejection message.
 */

interface Session {
  user: string;
}

const refunded: Array<{ args: Record<string, unknown>; ctx: ToolContext }> = [];
const byPayment: JSONSchemaObject = {
  type: "object",
  properties: { paymentId: { type: "string" }, amountCents: { type: "integer", minimum: 1 } },
  required: ["paymentId", "amountCents"],
};
const policyCalls: Array<{ args: Record<string, unknown>; ctx: ToolContext }> = [];
const refund = defineTool<{ paymentId: string; amountCents: number }>({
  name: "refund_payment",
  description: "Refunds part or all of a payment",
  inputSchema: byPayment,
  validate: true,
  // Refunds over 100 EUR wait for a person.
  needsApproval: (args, ctx) => {
    policyCalls.push({ args, ctx });
    return !(typeof args.amountCents === "number" && args.amountCents <= 10_000);
  },
  execute: (args, ctx) => {
    refunded.push({ args, ctx });
    return `Refunded ${(args.amountCents / 100).toFixed(2)} EUR on ${args.paymentId}.`;
  },
});
const deleteAccount = defineTool({
  name: "delete_account",
  description: "Deletes the customer's account",
  needsApproval: true,
  execute: () => "Deleted.",
});

const refundCall = (amountCents: number) => ({
  calls: [{ name: "refund_payment", arguments: { paymentId: "pay_1", amountCents } }],
});
const quoting = (request: ModelRequest): ModelTurn => ({
  text: request.outputs.map((o) => `${o.name}: ${o.text}`).join("\n"),
});

let model: ScriptedModel | undefined;
afterEach(async () => {
  await model?.close();
  model = undefined;
  refunded.length = 0;
  policyCalls.length = 0;
});

async function agentWith(
  script: (request: ModelRequest) => ModelTurn,
  toolkit = new Toolkit([refund, deleteAccount]),
  options: AgentsToolsOptions<Session> = {},
) {
  model = model ?? (await startScriptedModel(script));
  return new Agent<Session>({
    name: "Billing",
    instructions: "Use the tools.",
    tools: toAgentsTools<Session>(toolkit, options),
    model: model.model,
  });
}

const session: Session = { user: "ada@example.com" };

describe("approval through the Agents SDK's interruptions", () => {
  it("stops the run before the call, and runs it once a person approved it", async () => {
    const agent = await agentWith((request) => (request.outputs.length === 0 ? refundCall(90_000) : quoting(request)));
    const first = await run(agent, "Refund 900 EUR on pay_1", { context: session });

    expect(first.interruptions).toHaveLength(1);
    const [interruption] = first.interruptions;
    expect(interruption!.name).toBe("refund_payment");
    expect(JSON.parse(interruption!.arguments!)).toEqual({ paymentId: "pay_1", amountCents: 90_000 });
    expect(refunded).toEqual([]);
    // The policy saw the arguments and the ctx of the call.
    expect(policyCalls[0]).toMatchObject({
      args: { paymentId: "pay_1", amountCents: 90_000 },
      ctx: { state: session, provider: "openai-agents" },
    });

    first.state.approve(interruption!);
    const resumed = await run(agent, first.state);

    expect(resumed.interruptions).toEqual([]);
    expect(resumed.finalOutput).toBe("refund_payment: Refunded 900.00 EUR on pay_1.");
    expect(refunded).toHaveLength(1);
    expect(refunded[0]!.ctx).toMatchObject({
      state: session,
      callId: (interruption!.rawItem as { callId: string }).callId,
    });
  });

  it("resumes from the stored run state, in another agent built from the same tools", async () => {
    const script = (request: ModelRequest) => (request.outputs.length === 0 ? refundCall(90_000) : quoting(request));
    const first = await run(await agentWith(script), "Refund 900 EUR on pay_1", { context: session });
    const stored = first.state.toString();
    expect(refunded).toEqual([]);

    // Another request: a new toolkit and agent, the state read back from storage.
    const agent = await agentWith(script);
    const state = await RunState.fromString(agent, stored);
    state.approve(state.getInterruptions()[0]!);
    const resumed = await run(agent, state);

    expect(resumed.finalOutput).toBe("refund_payment: Refunded 900.00 EUR on pay_1.");
    expect(refunded).toHaveLength(1);
    expect(refunded[0]!.ctx.state).toEqual(session);
  });

  it("answers a rejected call with the SDK's rejection message, and never runs it", async () => {
    const agent = await agentWith((request) => (request.outputs.length === 0 ? refundCall(90_000) : quoting(request)));
    const first = await run(agent, "Refund 900 EUR on pay_1", { context: session });
    first.state.reject(first.interruptions[0]!);
    const resumed = await run(agent, first.state);

    expect(resumed.finalOutput).toBe("refund_payment: Tool execution was not approved.");
    expect(refunded).toEqual([]);
  });

  it("answers a rejection with the reason given to the SDK", async () => {
    const agent = await agentWith((request) => (request.outputs.length === 0 ? refundCall(90_000) : quoting(request)));
    const first = await run(agent, "Refund 900 EUR on pay_1", { context: session });
    first.state.reject(first.interruptions[0]!, { message: "Refunds over 100 EUR need a manager." });
    const resumed = await run(agent, first.state);

    expect(resumed.finalOutput).toBe("refund_payment: Refunds over 100 EUR need a manager.");
    expect(refunded).toEqual([]);
  });

  it("runs a call the policy lets through without stopping", async () => {
    const agent = await agentWith((request) => (request.outputs.length === 0 ? refundCall(500) : quoting(request)));
    const result = await run(agent, "Refund 5 EUR on pay_1", { context: session });

    expect(result.interruptions).toEqual([]);
    expect(result.finalOutput).toBe("refund_payment: Refunded 5.00 EUR on pay_1.");
  });

  it("approves every later call of the tool when the person said always", async () => {
    const agent = await agentWith((request) =>
      request.outputs.length === 0
        ? refundCall(20_000)
        : request.outputs.length === 1
          ? refundCall(30_000)
          : quoting(request),
    );
    const first = await run(agent, "Refund twice", { context: session });
    first.state.approve(first.interruptions[0]!, { alwaysApprove: true });
    const resumed = await run(agent, first.state);

    expect(resumed.interruptions).toEqual([]);
    expect(refunded.map((r) => r.args.amountCents)).toEqual([20_000, 30_000]);
  });
});

describe("approval outside the SDK's flow", () => {
  it("answers a call that needs approval as denied when it is invoked without one (fails closed)", async () => {
    const [, adapted] = toAgentsTools(new Toolkit([refund, deleteAccount]));
    const output = await adapted!.invoke(new RunContext({}), "{}");
    expect(output).toBe(
      'Error: The call to tool "delete_account" did not run: it needs approval and nobody was asked (this caller runs no approval step). Tell the user it needs their approval.',
    );
  });

  it('lets the toolkit\'s approve function decide in process with approvals: "toolkit"', async () => {
    const asked: string[] = [];
    const toolkit = new Toolkit([refund], {
      approve: ({ tool, args }) => {
        asked.push(`${tool} ${JSON.stringify(args)}`);
        return { approved: false, reason: "Refunds over 100 EUR need a manager." };
      },
    });
    const agent = await agentWith(
      (request) => (request.outputs.length === 0 ? refundCall(90_000) : quoting(request)),
      toolkit,
      { approvals: "toolkit" },
    );
    const result = await run(agent, "Refund 900 EUR on pay_1", { context: session });

    expect(result.interruptions).toEqual([]);
    expect(asked).toEqual(['refund_payment {"paymentId":"pay_1","amountCents":90000}']);
    expect(result.finalOutput).toBe(
      'refund_payment: Error: The call to tool "refund_payment" was not approved, so it did not run. Reason: Refunds over 100 EUR need a manager. Do not retry it unchanged; ask the user how to proceed.',
    );
    expect(refunded).toEqual([]);
  });

  it("interrupts for destructive tools when the toolkit sets approveDestructive, and only then", async () => {
    const wipe = defineTool({
      name: "wipe_cache",
      description: "Empties the cache",
      annotations: { destructive: true },
      execute: () => "Wiped.",
    });
    const script = (request: Parameters<Parameters<typeof agentWith>[0]>[0]) =>
      request.outputs.length === 0 ? { calls: [{ name: "wipe_cache", arguments: {} }] } : quoting(request);
    const asking = await agentWith(script, new Toolkit([wipe], { approveDestructive: true }));
    const first = await run(asking, "Wipe the cache", { context: session });
    expect(first.interruptions.map((i) => i.name)).toEqual(["wipe_cache"]);
    first.state.approve(first.interruptions[0]!);
    expect((await run(asking, first.state)).finalOutput).toBe("wipe_cache: Wiped.");

    const trusting = await agentWith(script, new Toolkit([wipe]));
    const direct = await run(trusting, "Wipe the cache", { context: session });
    expect(direct.interruptions).toEqual([]);
    expect(direct.finalOutput).toBe("wipe_cache: Wiped.");
  });
});
