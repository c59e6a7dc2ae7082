/**
 * `execute(name, args, ctx, { approved })`: only `true` approves and only `false` denies.
 * Any other value, or options that cannot be read, refuse the call (`denied`, saying why): the
 * body never runs on an approval the host did not clearly give.
 */
import { defineTool, Toolkit, type ApprovalDecision, type ExecuteOptions, type ToolFailure } from "toolnexus";

describe("execute's approved option", () => {
  let runs = 0;
  const refund = defineTool({
    name: "refund",
    description: "Refunds a payment",
    needsApproval: true,
    execute: () => `refund ${++runs}`,
  });
  const lookup = defineTool({ name: "lookup", description: "Looks a payment up", execute: () => `lookup ${++runs}` });
  const failures: ToolFailure[] = [];
  const toolkit = new Toolkit([refund, lookup], { onError: (failure) => void failures.push(failure) });

  beforeEach(() => {
    runs = 0;
    failures.length = 0;
  });

  it("runs the call when it is true, and denies it when it is false", async () => {
    expect(await toolkit.execute("refund", {}, {}, { approved: true })).toMatchObject({
      output: "refund 1",
      isError: false,
    });
    expect((await toolkit.execute("refund", {}, {}, { approved: false })).metadata?.error).toBe("denied");
    expect(runs).toBe(1);
  });

  it("asks as usual when the options leave it out, or when there are no options (undefined or null)", async () => {
    for (const options of [undefined, null, {}, { reason: "unused" }, { approved: undefined }]) {
      const result = await toolkit.execute("refund", {}, {}, options as ExecuteOptions);
      expect(result.metadata?.error).toBe("denied");
      expect(result.output).toContain("nobody was asked");
    }
    expect(runs).toBe(0);
  });

  const notBooleans: Array<[string, unknown, string]> = [
    ['the string "false"', "false", "a string"],
    ['the string "true"', "true", "a string"],
    ["1", 1, "a number"],
    ["0", 0, "a number"],
    ["an empty object", {}, "an object"],
    ["an array", [], "an object"],
    ["null", null, "null"],
    ["a function", () => true, "a function"],
    ["a boxed true", Object(true), "an object"],
  ];

  it.each(notBooleans)(
    "refuses the call when it is %s, saying only true approves and only false denies, and the body does not run",
    async (_label, approved, got) => {
      for (const name of ["refund", "lookup"]) {
        const result = await toolkit.execute(name, {}, {}, { approved } as unknown as ExecuteOptions);
        expect(result).toMatchObject({ isError: true, metadata: { error: "denied", tool: name } });
        expect(result.output).toBe(
          `The call to tool "${name}" did not run: the host's approval is neither true nor false (got ${got}); only true approves it and only false denies it. Tell the user it needs their approval.`,
        );
      }
      expect(runs).toBe(0);
    },
  );

  it("refuses the call, and the body does not run, when the options cannot be read (a getter or a Proxy that throws)", async () => {
    const thrown = new Error("options exploded");
    const getter = Object.defineProperty({}, "approved", {
      get() {
        throw thrown;
      },
    });
    const proxy = new Proxy(
      {},
      {
        get() {
          throw thrown;
        },
      },
    );
    for (const options of [getter, proxy]) {
      const result = await toolkit.execute("refund", {}, {}, options as ExecuteOptions);
      expect(result).toMatchObject({ isError: true, metadata: { error: "denied", errorId: expect.any(String) } });
      expect(result.output).toMatch(
        /^The call to tool "refund" did not run: the host's approval could not be read \(error id [0-9a-f-]{36}\)\. Tell the user it needs their approval\.$/,
      );
      expect(result.output).not.toContain("exploded");
    }
    expect(runs).toBe(0);
    expect(failures.map((failure) => [failure.kind, failure.error])).toEqual([
      ["denied", thrown],
      ["denied", thrown],
    ]);
  });

  it("refuses the call when the options are not an object", async () => {
    for (const [options, got] of [
      ["yes", "a string"],
      [true, "a boolean"],
      [1, "a number"],
    ] as const) {
      const result = await toolkit.execute("refund", {}, {}, options as unknown as ExecuteOptions);
      expect(result.metadata?.error).toBe("denied");
      expect(result.output).toContain(`execute's options are not an object (got ${got})`);
    }
    expect(runs).toBe(0);
  });

  it("reads the options once: a getter cannot approve the check and deny the run, or the other way round", async () => {
    let reads = 0;
    const flipping = {
      get approved() {
        reads++;
        return reads === 1;
      },
    };
    expect((await toolkit.execute("refund", {}, {}, flipping as ExecuteOptions)).output).toBe("refund 1");
    expect(reads).toBe(1);
  });

  it("tells the model the reason of a denial only when it is a non-empty string", async () => {
    expect((await toolkit.execute("refund", {}, {}, { approved: false, reason: "Over the limit" })).output).toContain(
      "Reason: Over the limit.",
    );
    for (const reason of [42, {}, "", "   "]) {
      const result = await toolkit.execute("refund", {}, {}, { approved: false, reason } as unknown as ExecuteOptions);
      expect(result.metadata?.error).toBe("denied");
      expect(result.output).not.toContain("Reason:");
    }
    expect(runs).toBe(0);
  });

  it("answers a hidden or unknown tool as such, and an unauthorized call as forbidden, before looking at the approval", async () => {
    const kit = new Toolkit([refund], {
      visible: (_tool, ctx) => ctx.state?.hidden !== true,
      authorize: (ctx) => ctx.state?.allowed === true,
    });
    const bad = { approved: "yes" } as unknown as ExecuteOptions;
    expect((await kit.execute("refund", {}, { state: { hidden: true } }, bad)).metadata?.error).toBe("unknown_tool");
    expect((await kit.execute("nope", {}, {}, bad)).metadata?.error).toBe("unknown_tool");
    expect((await kit.execute("refund", {}, { state: { allowed: false } }, bad)).metadata?.error).toBe("forbidden");
    expect(runs).toBe(0);
  });
});

describe("decisions given as { approved, reason } objects (approve's answers, resume's decisions)", () => {
  /** `{ approved }` whose getter answers `false` to its first read and `"yes"` (truthy) after. */
  const flipping = () => {
    let reads = 0;
    return {
      get approved() {
        return reads++ === 0 ? false : "yes";
      },
    };
  };

  it("are read once: a getter that shows a boolean to the check and then something else does not approve the call", async () => {
    let runs = 0;
    const refund = defineTool({
      name: "refund",
      description: "Refunds",
      needsApproval: true,
      execute: () => `refund ${++runs}`,
    });
    const result = await new Toolkit([refund], { approve: () => flipping() as unknown as ApprovalDecision }).execute(
      "refund",
      {},
    );
    expect(result.metadata?.error).toBe("denied");
    expect(runs).toBe(0);
  });

  it("are read once by resumeApprovals too", async () => {
    let runs = 0;
    const refund = defineTool({
      name: "refund",
      description: "Refunds",
      needsApproval: true,
      execute: () => `refund ${++runs}`,
    });
    const reply = await new Toolkit([refund]).runAnthropic({
      content: [{ type: "tool_use", id: "toolu_1", name: "refund", input: {} }],
    });
    const resumed = await new Toolkit([refund]).resumeApprovals(reply!.pendingApprovals!, {
      toolu_1: flipping() as unknown as ApprovalDecision,
    });
    expect(resumed?.content[0]).toMatchObject({ is_error: true });
    expect(runs).toBe(0);
  });
});
