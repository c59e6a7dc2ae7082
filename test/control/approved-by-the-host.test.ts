/**
 * `execute(name, args, ctx, { approved })`: a host whose framework already asked a person about
 * a call (the AI SDK's and the Agents SDK's approvals) runs it without asking again, or denies
 * it without running it; every other seam still applies.
 */
import { defineTool, Toolkit } from "toolnexus";

describe("calls a person approved through the host's framework", () => {
  let runs = 0;
  const refund = defineTool({
    name: "refund",
    description: "Refund a payment",
    needsApproval: true,
    execute: () => `refund ${++runs}`,
  });
  const toolkit = new Toolkit([refund], { authorize: (ctx) => ctx.state?.role === "support" });
  const support = { state: { role: "support" } };

  beforeEach(() => (runs = 0));

  it("asks as usual without the option: nobody can be asked here, so the call is denied", async () => {
    expect((await toolkit.execute("refund", {}, support)).metadata?.error).toBe("denied");
    expect(runs).toBe(0);
  });

  it("runs an approved call without the approval step", async () => {
    expect(await toolkit.execute("refund", {}, support, { approved: true })).toEqual({
      output: "refund 1",
      isError: false,
    });
  });

  it("denies a refused call with the reason, without running it", async () => {
    const result = await toolkit.execute("refund", {}, support, { approved: false, reason: "Over the limit" });
    expect(result).toMatchObject({ isError: true, metadata: { error: "denied" } });
    expect(result.output).toContain("Reason: Over the limit.");
    expect(runs).toBe(0);
  });

  it("still applies authorization to an approved call", async () => {
    expect(
      (await toolkit.execute("refund", {}, { state: { role: "sales" } }, { approved: true })).metadata?.error,
    ).toBe("forbidden");
    expect(runs).toBe(0);
  });
});

describe("toolkit.needsApproval(name, args, ctx): whether execute would ask, for hosts with their own approval flow", () => {
  const refund = defineTool({
    name: "refund",
    description: "Refund a payment",
    needsApproval: (args) => Number(args.cents) > 10_000,
    execute: () => "refunded",
  });
  const wipe = defineTool({
    name: "wipe",
    description: "Wipes",
    annotations: { destructive: true },
    execute: () => "wiped",
  });
  const unsure = defineTool({
    name: "unsure",
    description: "Its rules fail",
    needsApproval: () => {
      throw new Error("rules unavailable");
    },
    execute: () => "ran",
  });

  it("answers the tool's needsApproval for these arguments, given as an object or as JSON text", async () => {
    const toolkit = new Toolkit([refund]);
    expect(await toolkit.needsApproval("refund", { cents: 50_000 })).toBe(true);
    expect(await toolkit.needsApproval("refund", '{"cents":500}')).toBe(false);
  });

  it("asks when the check throws (fails closed)", async () => {
    expect(await new Toolkit([unsure]).needsApproval("unsure", {})).toBe(true);
  });

  it("asks for a destructive tool only under approveDestructive", async () => {
    expect(await new Toolkit([wipe], { approveDestructive: true }).needsApproval("wipe", {})).toBe(true);
    expect(await new Toolkit([wipe]).needsApproval("wipe", {})).toBe(false);
  });

  it("is false for an unknown tool and for arguments that are no object: execute refuses those before approval", async () => {
    const toolkit = new Toolkit([refund], { approveDestructive: true });
    expect(await toolkit.needsApproval("nope", {})).toBe(false);
    expect(await toolkit.needsApproval("refund", "[1]")).toBe(false);
  });
});
