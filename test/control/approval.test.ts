/**
 * Calls that need approval (`needsApproval`, or `approveDestructive` with a destructive tool),
 * decided in process by the toolkit's `approve` function; without one, `execute` and MCP
 * answer them `denied` ("nobody was asked").
 */
import "reflect-metadata";
import {
  defineTool,
  ScanError,
  scanTools,
  Tool,
  ToolDefinitionError,
  Toolkit,
  type ApprovalDecision,
  type ApprovalRequest,
  type ToolContext,
  type ToolFailure,
} from "../../src";
import { scanErrorThrownBy } from "../support/scan-error";
import { connectMcp, mcpText, pendingOf, providerRows } from "./support";

function tools() {
  const ran: string[] = [];
  const transfer = defineTool({
    name: "transfer",
    description: "Moves money",
    inputSchema: {
      type: "object",
      properties: { to: { type: "string" }, amount: { type: "number" } },
      required: ["to", "amount"],
    },
    needsApproval: true,
    execute: ({ to, amount }) => {
      ran.push(`transfer ${String(to)} ${String(amount)}`);
      return `sent ${String(amount)} to ${String(to)}`;
    },
  });
  const balance = defineTool({
    name: "balance",
    description: "Reads the balance",
    execute: () => {
      ran.push("balance");
      return "100";
    },
  });
  return { list: [transfer, balance], ran };
}

describe("approval in process: execute", () => {
  it("asks approve with the tool, the arguments, the call id and the ctx, and runs the call when approved", async () => {
    const { list, ran } = tools();
    const requests: ApprovalRequest[] = [];
    const kit = new Toolkit(list, {
      approve: (request) => {
        requests.push(request);
        return true;
      },
    });
    const result = await kit.execute("transfer", { to: "bob", amount: 5 }, { callId: "c-1", state: { user: "ann" } });
    expect(result).toEqual({ output: "sent 5 to bob", isError: false });
    expect(requests).toEqual([
      {
        tool: "transfer",
        args: { to: "bob", amount: 5 },
        callId: "c-1",
        ctx: expect.objectContaining({ callId: "c-1", state: { user: "ann" } }),
      },
    ]);
    expect(ran).toEqual(["transfer bob 5"]);
  });

  it("accepts { approved: true } and an async approve", async () => {
    const { list } = tools();
    const kit = new Toolkit(list, { approve: async () => ({ approved: true }) });
    expect((await kit.execute("transfer", { to: "bob", amount: 1 })).isError).toBe(false);
  });

  it("answers a denial denied, saying it was not approved, with the reason when one is given, and does not run the tool", async () => {
    const { list, ran } = tools();
    const decisions: ApprovalDecision[] = [false, { approved: false }, { approved: false, reason: "limit exceeded" }];
    for (const decision of decisions) {
      const kit = new Toolkit(list, { approve: () => decision });
      const result = await kit.execute("transfer", { to: "bob", amount: 5 });
      expect(result).toMatchObject({ isError: true, metadata: { error: "denied" } });
      expect(result.output).toMatch(/"transfer" was not approved/);
      if (typeof decision === "object" && decision.reason !== undefined)
        expect(result.output).toContain("Reason: limit exceeded");
      else expect(result.output).not.toContain("Reason:");
    }
    expect(ran).toEqual([]);
  });

  it("asks nothing for tools that need no approval", async () => {
    const { list } = tools();
    const approve = jest.fn(() => true);
    const kit = new Toolkit(list, { approve });
    expect(await kit.execute("balance", {})).toEqual({ output: "100", isError: false });
    expect(approve).not.toHaveBeenCalled();
  });

  it("without approve, answers denied: nobody was asked; the tool does not run", async () => {
    const { list, ran } = tools();
    const result = await new Toolkit(list).execute("transfer", { to: "bob", amount: 5 });
    expect(result).toMatchObject({ isError: true, metadata: { error: "denied" } });
    expect(result.output).toContain("nobody was asked");
    expect(ran).toEqual([]);
  });

  it("answers denied, never rejecting, when approve throws, rejects, or returns something that is not a decision", async () => {
    const { list, ran } = tools();
    const approvers: Array<() => unknown> = [
      () => {
        throw new Error("approval service down");
      },
      () => Promise.reject(new Error("approval service down")),
      () => "yes",
      () => ({ approved: "yes" }),
      () => undefined,
    ];
    for (const approve of approvers) {
      const kit = new Toolkit(list, { approve: approve as () => ApprovalDecision });
      const result = await kit.execute("transfer", { to: "bob", amount: 5 });
      expect(result).toMatchObject({ isError: true, metadata: { error: "denied" } });
      expect(result.output).toMatch(
        /^The call to tool "transfer" did not run: its approval step (failed|answered neither true, false nor \{ approved \}) \(error id [0-9a-f-]{36}\)\./,
      );
      expect(result.output).not.toContain("approval service down");
    }
    expect(ran).toEqual([]);
  });

  it("reads needsApproval functions with the arguments and ctx: false runs without asking; true or a throw asks", async () => {
    const seen: Array<[Record<string, unknown>, ToolContext]> = [];
    const pay = defineTool({
      name: "pay",
      description: "Pays",
      inputSchema: { type: "object", properties: { amount: { type: "number" } }, required: ["amount"] },
      needsApproval: async (args, ctx) => {
        seen.push([args, ctx]);
        if (args.amount === 13) throw new Error("unlucky");
        return (args.amount as number) > 100;
      },
      execute: ({ amount }) => `paid ${String(amount)}`,
    });
    const approve = jest.fn(() => ({ approved: false, reason: "no" }));
    const kit = new Toolkit([pay], { approve });
    expect(await kit.execute("pay", { amount: 10 }, { state: { who: "x" } })).toEqual({
      output: "paid 10",
      isError: false,
    });
    expect(approve).not.toHaveBeenCalled();
    expect(seen[0]).toEqual([{ amount: 10 }, expect.objectContaining({ state: { who: "x" } })]);
    expect((await kit.execute("pay", { amount: 500 })).metadata?.error).toBe("denied");
    expect((await kit.execute("pay", { amount: 13 })).metadata?.error).toBe("denied");
    expect(approve).toHaveBeenCalledTimes(2);
  });

  it("approveDestructive: tools annotated destructive need approval; others, and destructive ones without the option, do not", async () => {
    const wipe = defineTool({
      name: "wipe",
      description: "Wipes a disk",
      annotations: { destructive: true },
      execute: () => "wiped",
    });
    const look = defineTool({
      name: "look",
      description: "Looks",
      annotations: { readOnly: true },
      execute: () => "seen",
    });
    const asked: string[] = [];
    const approve = (request: ApprovalRequest) => {
      asked.push(request.tool);
      return false;
    };
    const guarded = new Toolkit([wipe, look], { approveDestructive: true, approve });
    expect((await guarded.execute("wipe", {})).metadata?.error).toBe("denied");
    expect(await guarded.execute("look", {})).toEqual({ output: "seen", isError: false });
    expect(asked).toEqual(["wipe"]);
    expect(await new Toolkit([wipe, look], { approve }).execute("wipe", {})).toEqual({
      output: "wiped",
      isError: false,
    });
    expect((await new Toolkit([wipe], { approveDestructive: true }).execute("wipe", {})).output).toContain(
      "nobody was asked",
    );
  });

  it("tells onError about denials (kind denied)", async () => {
    const failures: ToolFailure[] = [];
    const { list } = tools();
    const kit = new Toolkit(list, { approve: () => false, onError: (failure) => void failures.push(failure) });
    const result = await kit.execute("transfer", { to: "bob", amount: 5 }, { callId: "c-9" });
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatchObject({ tool: "transfer", kind: "denied", callId: "c-9" });
    expect(result.metadata?.errorId).toBe(failures[0]!.errorId);
  });

  it("works for @Tool({ needsApproval }) methods, a function of the arguments included", async () => {
    const ran: string[] = [];
    class Admin {
      @Tool({ description: "Deletes a user", needsApproval: true })
      deleteUser(id: string) {
        ran.push(`delete ${id}`);
        return "deleted";
      }

      @Tool({ description: "Renames a user", needsApproval: (args) => args.name === "root" })
      renameUser(id: string, name: string) {
        ran.push(`rename ${id} ${name}`);
        return "renamed";
      }
    }
    const asked: ApprovalRequest[] = [];
    const kit = new Toolkit([new Admin()], {
      approve: (request) => {
        asked.push(request);
        return request.tool !== "deleteUser";
      },
    });
    expect((await kit.execute("deleteUser", { id: "u1" })).metadata?.error).toBe("denied");
    expect(await kit.execute("renameUser", { id: "u1", name: "root" })).toEqual({ output: "renamed", isError: false });
    expect(await kit.execute("renameUser", { id: "u1", name: "ann" })).toEqual({ output: "renamed", isError: false });
    expect(asked.map((request) => [request.tool, request.args])).toEqual([
      ["deleteUser", { id: "u1" }],
      ["renameUser", { id: "u1", name: "root" }],
    ]);
    expect(ran).toEqual(["rename u1 root", "rename u1 ann"]);
    expect(kit.get("deleteUser")!.needsApproval).toBe(true);
  });
});

describe.each(providerRows)("approval in process through %s", (_id, provider) => {
  it("asks approve for each call that needs it, with the provider's call id; approved calls run, denied ones carry the reason; nothing is pending", async () => {
    const { list, ran } = tools();
    const requests: ApprovalRequest[] = [];
    const kit = new Toolkit(list, {
      approve: (request) => {
        requests.push(request);
        return request.args.to === "bob" ? true : { approved: false, reason: "unknown payee" };
      },
    });
    const reply = await provider.run(kit, [
      { id: "k1", name: "transfer", args: { to: "bob", amount: 1 } },
      { id: "k2", name: "balance", args: {} },
      { id: "k3", name: "transfer", args: { to: "mallory", amount: 999 } },
    ]);
    expect(pendingOf(reply)).toBeUndefined();
    const answers = provider.answers(reply);
    expect(answers.map((answer) => [answer.id, answer.isError])).toEqual([
      ["k1", false],
      ["k2", false],
      ["k3", true],
    ]);
    expect(answers[2]!.text).toMatch(/"transfer" was not approved.*unknown payee/);
    expect(requests.map((request) => [request.callId, request.ctx.provider])).toEqual(
      expect.arrayContaining([
        ["k1", provider.id],
        ["k3", provider.id],
      ]),
    );
    expect(requests).toHaveLength(2);
    expect(ran.sort()).toEqual(["balance", "transfer bob 1"]);
  });
});

describe("approval over MCP (official SDK client)", () => {
  it("asks approve: an approved call runs, a denied one is an error result with the reason", async () => {
    const { list, ran } = tools();
    const requests: ApprovalRequest[] = [];
    const kit = new Toolkit(list, {
      approve: (request) => {
        requests.push(request);
        return request.args.amount === 1 ? true : { approved: false, reason: "too much" };
      },
    });
    const { client, close } = await connectMcp(kit, { state: { user: "ann" } });
    try {
      const ok = await client.callTool({ name: "transfer", arguments: { to: "bob", amount: 1 } });
      expect(ok.isError).toBe(false);
      expect(mcpText(ok)).toBe("sent 1 to bob");
      const no = await client.callTool({ name: "transfer", arguments: { to: "bob", amount: 2 } });
      expect(no.isError).toBe(true);
      expect(mcpText(no)).toMatch(/was not approved.*too much/);
      expect(requests.map((request) => [request.ctx.provider, request.ctx.state])).toEqual([
        ["mcp", { user: "ann" }],
        ["mcp", { user: "ann" }],
      ]);
      expect(typeof requests[0]!.callId).toBe("string");
      expect(ran).toEqual(["transfer bob 1"]);
    } finally {
      await close();
    }
  });

  it("without approve, answers a call that needs approval with an error result: nobody was asked", async () => {
    const { list, ran } = tools();
    const { client, close } = await connectMcp(new Toolkit(list));
    try {
      const result = await client.callTool({ name: "transfer", arguments: { to: "bob", amount: 1 } });
      expect(result.isError).toBe(true);
      expect(mcpText(result)).toContain("nobody was asked");
      expect(ran).toEqual([]);
    } finally {
      await close();
    }
  });
});

describe("approval options are checked where they are written", () => {
  it.each([["yes"], [1], [{}], [null]])(
    "defineTool refuses needsApproval %p with a ToolDefinitionError naming the tool",
    (value) => {
      expect(() =>
        defineTool({
          name: "bad_tool",
          description: "Bad",
          needsApproval: value as unknown as boolean,
          execute: () => "",
        }),
      ).toThrow(ToolDefinitionError);
      expect(() =>
        defineTool({
          name: "bad_tool",
          description: "Bad",
          needsApproval: value as unknown as boolean,
          execute: () => "",
        }),
      ).toThrow(/"bad_tool".*needsApproval/);
    },
  );

  it("@Tool refuses needsApproval that is not a boolean or function with a ScanError naming the tool", () => {
    class Bad {
      @Tool({ description: "Bad", needsApproval: "always" as unknown as boolean })
      risky() {
        return "";
      }
    }
    const error = scanErrorThrownBy(() => scanTools(new Bad()));
    expect(error).toBeInstanceOf(ScanError);
    expect(error.message).toMatch(/risky/);
    expect(error.message).toMatch(/needsApproval/);
    expect(() => new Toolkit([new Bad()])).toThrow(ScanError);
  });

  it("the toolkit refuses an approve that is not a function, and an approveDestructive that is not a boolean", () => {
    expect(() => new Toolkit([], { approve: true as unknown as () => boolean })).toThrow(ToolDefinitionError);
    expect(() => new Toolkit([], { approve: true as unknown as () => boolean })).toThrow(/approve must be a function/);
    expect(() => new Toolkit([], { approveDestructive: "yes" as unknown as boolean })).toThrow(
      /approveDestructive must be true or false/,
    );
  });
});
