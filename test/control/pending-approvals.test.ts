/**
 * run* without an `approve` function: calls that need approval are not run but handed back as
 * `pendingApprovals` (plain JSON), stored, and finished later, possibly by another process,
 * with `resumeApprovals`.
 */
import "reflect-metadata";
import { defineTool, Tool, Toolkit, type PendingApprovals, type ToolContext, type ToolFailure } from "../../src";
import {
  gemini,
  openai,
  pendingOf,
  PROVIDERS,
  providerRows,
  throughJson,
  type ModelCall,
  type ProviderCase,
} from "./support";

/** The tools of one "process": fresh instances, counting their own runs. */
function processTools() {
  const ran: Array<{ tool: string; args: Record<string, unknown>; ctx: ToolContext }> = [];
  const lookup = defineTool({
    name: "lookup_order",
    description: "Looks up an order",
    inputSchema: { type: "object", properties: { order: { type: "string" } }, required: ["order"] },
    execute: (args, ctx) => {
      ran.push({ tool: "lookup_order", args, ctx: ctx! });
      return `order ${String(args.order)} is shipped`;
    },
  });
  const refund = defineTool({
    name: "refund",
    description: "Refunds an order",
    inputSchema: {
      type: "object",
      properties: { order: { type: "string" }, amount: { type: "number" } },
      required: ["order", "amount"],
    },
    needsApproval: true,
    execute: (args, ctx) => {
      ran.push({ tool: "refund", args, ctx: ctx! });
      return `refunded ${String(args.amount)} on ${String(args.order)}`;
    },
  });
  const cancel = defineTool({
    name: "cancel_order",
    description: "Cancels an order",
    inputSchema: { type: "object", properties: { order: { type: "string" } }, required: ["order"] },
    needsApproval: (args) => args.order !== "draft",
    execute: (args, ctx) => {
      ran.push({ tool: "cancel_order", args, ctx: ctx! });
      return `cancelled ${String(args.order)}`;
    },
  });
  return { tools: [lookup, refund, cancel], ran };
}

const idsOf = (provider: ProviderCase, base: string) =>
  provider.id === "gemini" ? `${base}` : `${provider.id}_${base}`;

function turn(provider: ProviderCase): ModelCall[] {
  return [
    { id: idsOf(provider, "c1"), name: "lookup_order", args: { order: "A-1" } },
    { id: idsOf(provider, "c2"), name: "refund", args: { order: "A-1", amount: 30 } },
    { id: idsOf(provider, "c3"), name: "cancel_order", args: { order: "B-2" } },
  ];
}

describe.each(providerRows)("pending approvals through %s", (_id, provider) => {
  it("runs the calls that need no approval, hands back the others as plain JSON, and runs none of them", async () => {
    const { tools, ran } = processTools();
    const kit = new Toolkit(tools);
    const calls = turn(provider);
    const reply = await provider.run(kit, calls, { state: { user: "u1" } });

    expect(ran.map((entry) => entry.tool)).toEqual(["lookup_order"]);
    expect(provider.answers(reply)).toEqual([{ id: calls[0]!.id, isError: false, text: "order A-1 is shipped" }]);

    const pending = pendingOf(reply)!;
    expect(pending).toEqual({
      pendingApprovalsVersion: 1,
      provider: provider.id,
      approvals: [
        { id: calls[1]!.id, index: 1, tool: "refund", args: { order: "A-1", amount: 30 }, callId: calls[1]!.id },
        { id: calls[2]!.id, index: 2, tool: "cancel_order", args: { order: "B-2" }, callId: calls[2]!.id },
      ],
      calls: calls.map((call) => ({ id: call.id, name: call.name, arguments: expect.anything() })),
      results: [{ output: "order A-1 is shipped", isError: false }, null, null],
    });
    // Plain JSON: what a store gives back is the same value.
    expect(throughJson(pending)).toEqual(pending);
  });

  it("is resumed by a new Toolkit (another process) from the stored JSON: the complete reply, every call in order", async () => {
    const first = processTools();
    const reply = await provider.run(new Toolkit(first.tools), turn(provider));
    const stored = JSON.stringify(pendingOf(reply));

    const second = processTools();
    const later = new Toolkit(second.tools);
    const calls = turn(provider);
    const pending = JSON.parse(stored) as PendingApprovals<typeof provider.id>;
    const resumed = await later.resumeApprovals(
      pending,
      { [calls[1]!.id!]: true, [calls[2]!.id!]: { approved: true } },
      { state: { user: "u1" } },
    );

    expect(pendingOf(resumed)).toBeUndefined();
    expect(provider.answers(resumed)).toEqual([
      { id: calls[0]!.id, isError: false, text: "order A-1 is shipped" },
      { id: calls[1]!.id, isError: false, text: "refunded 30 on A-1" },
      { id: calls[2]!.id, isError: false, text: "cancelled B-2" },
    ]);
    // The first call ran once, in the first process; the approved ones once, in the second.
    expect(first.ran.map((entry) => entry.tool)).toEqual(["lookup_order"]);
    expect(second.ran.map((entry) => entry.tool).sort()).toEqual(["cancel_order", "refund"]);
    // The resumed call sees the resume's ctx, its provider call id and the provider.
    const refundCtx = second.ran.find((entry) => entry.tool === "refund")!.ctx;
    expect(refundCtx.state).toEqual({ user: "u1" });
    expect(refundCtx.callId).toBe(calls[1]!.id);
    expect(refundCtx.provider).toBe(provider.id);
  });

  it("answers a denial with a reason as a denied call, the reason in its text, and does not run it", async () => {
    const { tools } = processTools();
    const reply = await provider.run(new Toolkit(tools), turn(provider));
    const pending = throughJson(pendingOf(reply)!);
    const second = processTools();
    const calls = turn(provider);
    const resumed = await new Toolkit(second.tools).resumeApprovals(pending, {
      [calls[1]!.id!]: { approved: false, reason: "refunds over 20 need a manager" },
      [calls[2]!.id!]: false,
    });
    const answers = provider.answers(resumed);
    expect(answers.map((answer) => [answer.id, answer.isError])).toEqual([
      [calls[0]!.id, false],
      [calls[1]!.id, true],
      [calls[2]!.id, true],
    ]);
    expect(answers[1]!.text).toMatch(/"refund" was not approved/);
    expect(answers[1]!.text).toContain("refunds over 20 need a manager");
    expect(answers[2]!.text).toMatch(/"cancel_order" was not approved/);
    expect(second.ran).toEqual([]);
  });

  it("keeps calls without a decision pending: a partial decision gives pendingApprovals again, then the rest finishes the turn", async () => {
    const { tools } = processTools();
    const calls = turn(provider);
    const stored = throughJson(pendingOf(await provider.run(new Toolkit(tools), calls))!);

    const second = processTools();
    const partly = await new Toolkit(second.tools).resumeApprovals(stored, { [calls[1]!.id!]: true });
    const still = pendingOf(partly)!;
    expect(still.provider).toBe(provider.id);
    expect(still.approvals).toEqual([
      { id: calls[2]!.id, index: 2, tool: "cancel_order", args: { order: "B-2" }, callId: calls[2]!.id },
    ]);
    expect(still.results).toEqual([
      { output: "order A-1 is shipped", isError: false },
      { output: "refunded 30 on A-1", isError: false },
      null,
    ]);
    expect(provider.answers(partly).map((answer) => answer.text)).toEqual([
      "order A-1 is shipped",
      "refunded 30 on A-1",
    ]);
    expect(second.ran.map((entry) => entry.tool)).toEqual(["refund"]);

    const third = processTools();
    const done = await new Toolkit(third.tools).resumeApprovals(throughJson(still), { [calls[2]!.id!]: true });
    expect(pendingOf(done)).toBeUndefined();
    expect(provider.answers(done).map((answer) => answer.text)).toEqual([
      "order A-1 is shipped",
      "refunded 30 on A-1",
      "cancelled B-2",
    ]);
    // The refund approved in the second step did not run again in the third.
    expect(third.ran.map((entry) => entry.tool)).toEqual(["cancel_order"]);
  });

  it("attaches pendingApprovals to an empty reply when no call ran", async () => {
    const { tools, ran } = processTools();
    const calls: ModelCall[] = [{ id: idsOf(provider, "only"), name: "refund", args: { order: "Z", amount: 1 } }];
    const reply = await provider.run(new Toolkit(tools), calls);
    expect(ran).toEqual([]);
    expect(provider.answers(reply)).toEqual([]);
    expect(pendingOf(reply)!.approvals.map((approval) => approval.id)).toEqual([calls[0]!.id]);
    if (provider.turnObject) {
      expect(reply).toMatchObject({ role: "user" });
      expect(Object.keys(reply as object).sort()).toEqual(
        ["pendingApprovals", "role", provider.id === "gemini" ? "parts" : "content"].sort(),
      );
    } else {
      expect(Array.isArray(reply)).toBe(true);
      expect((reply as unknown[]).length).toBe(0);
    }
  });

  it("hands nothing back when a needsApproval function says no for these arguments", async () => {
    const { tools, ran } = processTools();
    const calls: ModelCall[] = [{ id: idsOf(provider, "d"), name: "cancel_order", args: { order: "draft" } }];
    const reply = await provider.run(new Toolkit(tools), calls);
    expect(pendingOf(reply)).toBeUndefined();
    expect(provider.answers(reply)).toEqual([{ id: calls[0]!.id, isError: false, text: "cancelled draft" }]);
    expect(ran.map((entry) => entry.tool)).toEqual(["cancel_order"]);
  });

  it("still checks authorization when an approved call is resumed", async () => {
    const { tools } = processTools();
    const calls = turn(provider);
    const stored = throughJson(pendingOf(await provider.run(new Toolkit(tools), calls))!);
    const second = processTools();
    const resumed = await new Toolkit(second.tools, {
      authorize: (ctx) => ctx.state?.role === "agent",
    }).resumeApprovals(stored, { [calls[1]!.id!]: true, [calls[2]!.id!]: true }, { state: { role: "guest" } });
    const answers = provider.answers(resumed);
    expect(answers.slice(1).every((answer) => answer.isError && /not allowed/.test(answer.text))).toBe(true);
    expect(second.ran).toEqual([]);
  });
});

describe("pending approvals: details", () => {
  it("keys calls without an id (Gemini on Vertex) by their place in the turn, call-<n>, with no callId", async () => {
    const { tools, ran } = processTools();
    const calls: ModelCall[] = [
      { name: "lookup_order", args: { order: "A" } },
      { name: "refund", args: { order: "A", amount: 5 } },
    ];
    const reply = await gemini.run(new Toolkit(tools), calls);
    const pending = pendingOf(reply)!;
    expect(pending.approvals).toEqual([{ id: "call-1", index: 1, tool: "refund", args: { order: "A", amount: 5 } }]);
    expect(pending.calls).toEqual([
      { name: "lookup_order", arguments: { order: "A" } },
      { name: "refund", arguments: { order: "A", amount: 5 } },
    ]);
    const resumed = await new Toolkit(processTools().tools).resumeApprovals(throughJson(pending), { "call-1": true });
    expect(gemini.answers(resumed)).toEqual([
      { id: undefined, isError: false, text: "order A is shipped" },
      { id: undefined, isError: false, text: "refunded 5 on A" },
    ]);
    expect(ran).toHaveLength(1);
  });

  it("ignores decisions for ids it does not hold, and values that are not decisions (the call stays pending)", async () => {
    const { tools } = processTools();
    const calls = turn(openai);
    const stored = throughJson(pendingOf(await openai.run(new Toolkit(tools), calls))!);
    const second = processTools();
    const resumed = await new Toolkit(second.tools).resumeApprovals(stored, {
      nobody: true,
      [calls[1]!.id!]: "yes" as unknown as boolean,
      [calls[2]!.id!]: { approved: "true" } as unknown as boolean,
    });
    expect(pendingOf(resumed)!.approvals.map((approval) => approval.id)).toEqual([calls[1]!.id, calls[2]!.id]);
    expect(second.ran).toEqual([]);
  });

  it("refuses a value that is not a pendingApprovals object, or names no provider it answers, with a TypeError", async () => {
    const kit = new Toolkit(processTools().tools);
    await expect(kit.resumeApprovals({ approvals: [] } as unknown as PendingApprovals<"openai">, {})).rejects.toThrow(
      TypeError,
    );
    await expect(
      kit.resumeApprovals(
        {
          pendingApprovalsVersion: 1,
          provider: "mcp",
          approvals: [],
          calls: [],
          results: [],
        } as unknown as PendingApprovals<"openai">,
        {},
      ),
    ).rejects.toThrow(/"mcp" is not a provider/);
  });

  it("keeps what a failing call threw out of the stored JSON (only output, isError, metadata)", async () => {
    const boom = defineTool({
      name: "boom",
      description: "Throws",
      execute: () => {
        throw new Error("kaput");
      },
    });
    const gated = defineTool({
      name: "gated",
      description: "Needs approval",
      needsApproval: true,
      execute: () => "ok",
    });
    const reply = await openai.run(new Toolkit([boom, gated]), [
      { id: "a", name: "boom", args: {} },
      { id: "b", name: "gated", args: {} },
    ]);
    const pending = pendingOf(reply)!;
    expect(pending.results[0]).toEqual({
      output: expect.stringContaining("kaput"),
      isError: true,
      metadata: expect.objectContaining({ error: "execution_failed" }),
    });
    expect(throughJson(pending)).toEqual(pending);
  });

  it("never tells onError about a call handed back as pending; it is told about a denial when the turn is resumed", async () => {
    const failures: ToolFailure[] = [];
    const onError = (failure: ToolFailure) => void failures.push(failure);
    const { tools } = processTools();
    const calls = turn(openai);
    const reply = await openai.run(new Toolkit(tools, { onError }), calls);
    expect(failures).toEqual([]);
    await new Toolkit(processTools().tools, { onError }).resumeApprovals(throughJson(pendingOf(reply)!), {
      [calls[1]!.id!]: false,
      [calls[2]!.id!]: true,
    });
    expect(failures.map((failure) => [failure.tool, failure.kind])).toEqual([["refund", "denied"]]);
  });

  it("works for tools decorated with @Tool({ needsApproval: true }), resumed with a new instance", async () => {
    const runs: string[] = [];
    class Billing {
      @Tool({ description: "Charges a card", needsApproval: true })
      charge(customer: string, cents: number) {
        runs.push(`charge ${customer} ${cents}`);
        return { charged: cents };
      }

      @Tool("Reads a balance")
      balance(customer: string) {
        runs.push(`balance ${customer}`);
        return { balance: 100 };
      }
    }
    for (const provider of PROVIDERS) {
      runs.length = 0;
      const calls: ModelCall[] = [
        { id: `${provider.id}-1`, name: "balance", args: { customer: "c1" } },
        { id: `${provider.id}-2`, name: "charge", args: { customer: "c1", cents: 250 } },
      ];
      const reply = await provider.run(new Toolkit([new Billing()]), calls);
      expect(runs).toEqual(["balance c1"]);
      const stored = JSON.stringify(pendingOf(reply));
      const resumed = await new Toolkit([new Billing()]).resumeApprovals(
        JSON.parse(stored) as PendingApprovals<ProviderCase["id"]>,
        { [`${provider.id}-2`]: true },
      );
      expect(provider.answers(resumed).map((answer) => answer.text)).toEqual(['{"balance":100}', '{"charged":250}']);
      expect(runs).toEqual(["balance c1", "charge c1 250"]);
    }
  });

  it("with approveDestructive, hands back calls of tools annotated destructive", async () => {
    const drop = defineTool({
      name: "drop_table",
      description: "Drops a table",
      annotations: { destructive: true },
      execute: () => "dropped",
    });
    const read = defineTool({
      name: "read_table",
      description: "Reads a table",
      annotations: { destructive: false },
      execute: () => "rows",
    });
    const calls: ModelCall[] = [
      { id: "t1", name: "read_table", args: {} },
      { id: "t2", name: "drop_table", args: {} },
    ];
    const reply = await openai.run(new Toolkit([drop, read], { approveDestructive: true }), calls);
    expect(openai.answers(reply).map((answer) => answer.text)).toEqual(["rows"]);
    expect(pendingOf(reply)!.approvals.map((approval) => approval.tool)).toEqual(["drop_table"]);
    // Without the option, a destructive annotation alone asks nothing.
    expect(pendingOf(await openai.run(new Toolkit([drop, read]), calls))).toBeUndefined();
  });
});
