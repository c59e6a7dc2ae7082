/**
 * `resumeApprovals` runs each waiting call at most once per resume, whatever the stored JSON
 * holds: an approval listed twice, one id under two entries, two entries pointing to one call.
 * What it cannot read as a run* method's value is refused with a TypeError saying what is wrong.
 */
import {
  defineTool,
  Toolkit,
  type ApprovalDecision,
  type JSONSchemaObject,
  type PendingApprovals,
  type ToolContext,
} from "../../src";
import { everyTrapThrows } from "./hostile-values";
import { openai, pendingOf, throughJson, type ModelCall } from "./support";

const orderSchema: JSONSchemaObject = {
  type: "object",
  properties: { order: { type: "string" } },
  required: ["order"],
};

function wipeTools(ran: string[]) {
  return [
    defineTool({
      name: "wipe",
      description: "Wipes an order",
      inputSchema: orderSchema,
      needsApproval: true,
      // Asynchronous, as a real body is: a second run could start before the first ends.
      execute: async ({ order }) => {
        ran.push(`wipe ${String(order)}`);
        await new Promise((resolve) => setImmediate(resolve));
        return `wiped ${String(order)}`;
      },
    }),
  ];
}

async function pendingTurn(calls: ModelCall[]): Promise<PendingApprovals<"openai">> {
  const reply = await openai.run(new Toolkit(wipeTools([])), calls);
  return throughJson(pendingOf(reply)) as PendingApprovals<"openai">;
}

const twoCalls: ModelCall[] = [
  { id: "c1", name: "wipe", args: { order: "A" } },
  { id: "c2", name: "wipe", args: { order: "B" } },
];

describe("resuming a stored turn whose approvals were tampered with", () => {
  it("runs an approval listed twice once, and answers its call once", async () => {
    const pending = await pendingTurn(twoCalls);
    pending.approvals = [pending.approvals[0]!, pending.approvals[0]!, pending.approvals[1]!, pending.approvals[0]!];
    const ran: string[] = [];
    const reply = await new Toolkit(wipeTools(ran)).resumeApprovals(pending, { c1: true, c2: true });
    expect(ran.sort()).toEqual(["wipe A", "wipe B"]);
    expect(openai.answers(reply)).toEqual([
      { id: "c1", isError: false, text: "wiped A" },
      { id: "c2", isError: false, text: "wiped B" },
    ]);
    expect(pendingOf(reply)).toBeUndefined();
  });

  it("runs a call once when its id is under two entries that differ otherwise (other arguments shown, another tool named)", async () => {
    const pending = await pendingTurn(twoCalls);
    const first = pending.approvals[0]!;
    pending.approvals.push({ ...first, args: { order: "EVERYTHING" } }, { ...first, tool: "peek" });
    const ran: string[] = [];
    await new Toolkit(wipeTools(ran)).resumeApprovals(pending, { c1: true });
    expect(ran).toEqual(["wipe A"]);
  });

  it("runs a call once when two entries with different ids point to it", async () => {
    const pending = await pendingTurn(twoCalls);
    pending.approvals.push({ ...pending.approvals[1]!, index: 0 });
    const ran: string[] = [];
    await new Toolkit(wipeTools(ran)).resumeApprovals(pending, { c1: true, c2: true });
    expect(ran.sort()).toEqual(["wipe A", "wipe B"]);
  });

  it("lists a call that stays pending once, however many times the stored approvals list it", async () => {
    const pending = await pendingTurn(twoCalls);
    pending.approvals = [pending.approvals[0]!, pending.approvals[1]!, pending.approvals[1]!];
    const ran: string[] = [];
    const reply = await new Toolkit(wipeTools(ran)).resumeApprovals(pending, { c1: true });
    expect(ran).toEqual(["wipe A"]);
    expect(pendingOf(reply)?.approvals.map((approval) => approval.id)).toEqual(["c2"]);
  });

  it("runs a call once however many times one approval is listed", async () => {
    const pending = await pendingTurn([{ id: "c1", name: "wipe", args: { order: "A" } }]);
    pending.approvals = Array.from({ length: 50 }, () => pending.approvals[0]!);
    const ran: string[] = [];
    await new Toolkit(wipeTools(ran)).resumeApprovals(pending, { c1: true });
    expect(ran).toEqual(["wipe A"]);
  });

  it.each<[string, (pending: PendingApprovals<"openai">) => void, RegExp]>([
    [
      "an approval that is not an object",
      (pending) => void (pending.approvals as unknown[]).push(null),
      /approvals\[2\] is not \{ id, index, tool \}/,
    ],
    [
      "an approval whose index is not a whole number",
      (pending) => void (pending.approvals[0]!.index = "0" as never),
      /approvals\[0\] is not \{ id, index, tool \}/,
    ],
    [
      "an approval whose tool is not a string",
      (pending) => void (pending.approvals[0]!.tool = { name: "wipe" } as never),
      /approvals\[0\] is not \{ id, index, tool \}/,
    ],
    [
      "a call that is not an object",
      (pending) => void (pending.calls[0] = null as never),
      /calls\[0\] is not \{ name, arguments \}/,
    ],
    [
      "a call whose name is not a string",
      (pending) => void (pending.calls[1]!.name = 7 as never),
      /calls\[1\] is not \{ name, arguments \}/,
    ],
    [
      "a result that is no ToolResult",
      (pending) => void (pending.results.push("ok" as never), pending.calls.push({ name: "x", arguments: "{}" })),
      /results\[2\] is neither null nor a ToolResult/,
    ],
  ])("refuses %s with a TypeError saying so, running nothing", async (_label, tamper, problem) => {
    const pending = await pendingTurn(twoCalls);
    tamper(pending);
    const ran: string[] = [];
    await expect(new Toolkit(wipeTools(ran)).resumeApprovals(pending, { c1: true, c2: true })).rejects.toThrow(
      TypeError,
    );
    await expect(new Toolkit(wipeTools(ran)).resumeApprovals(pending, { c1: true, c2: true })).rejects.toThrow(problem);
    expect(ran).toEqual([]);
  });

  it("refuses a value that throws when read with a TypeError", async () => {
    await expect(new Toolkit(wipeTools([])).resumeApprovals(everyTrapThrows() as PendingApprovals, {})).rejects.toThrow(
      TypeError,
    );
  });
});

describe("resuming with decisions or a ctx that cannot be read", () => {
  it("leaves every call pending when the decisions throw when read", async () => {
    const pending = await pendingTurn(twoCalls);
    const ran: string[] = [];
    const reply = await new Toolkit(wipeTools(ran)).resumeApprovals(
      pending,
      everyTrapThrows() as Record<string, ApprovalDecision>,
    );
    expect(ran).toEqual([]);
    expect(pendingOf(reply)?.approvals.map((approval) => approval.id)).toEqual(["c1", "c2"]);
  });

  it("reads only a decision of the approval's own: an inherited one decides nothing", async () => {
    const pending = await pendingTurn(twoCalls);
    const ran: string[] = [];
    const reply = await new Toolkit(wipeTools(ran)).resumeApprovals(
      pending,
      Object.create({ c1: true, c2: true }) as Record<string, ApprovalDecision>,
    );
    expect(ran).toEqual([]);
    expect(pendingOf(reply)?.approvals).toHaveLength(2);
  });

  it("answers each approved call, never rejecting, when the ctx throws when read", async () => {
    const pending = await pendingTurn(twoCalls);
    const ran: string[] = [];
    const reply = await new Toolkit(wipeTools(ran)).resumeApprovals(
      pending,
      { c1: true, c2: false },
      everyTrapThrows() as ToolContext,
    );
    expect(openai.answers(reply).map((answer) => answer.isError)).toEqual([true, true]);
    expect(ran).toEqual([]);
  });
});
