/**
 * Authorization: a tool's `authorize(ctx, args)` and the toolkit's `authorize(ctx, args, tool)`
 * decide whether this call may run. Anything but `true`, or a throw, gives `forbidden`.
 */
import "reflect-metadata";
import {
  defineTool,
  scanTools,
  Tool,
  ToolDefinitionError,
  Toolkit,
  type Tool as ToolShape,
  type ToolContext,
  type ToolFailure,
} from "../../src";
import { scanErrorThrownBy } from "../support/scan-error";
import { connectMcp, mcpText, pendingOf, providerRows } from "./support";

function tools() {
  const ran: string[] = [];
  const seen: Array<[ToolContext, Record<string, unknown>]> = [];
  const refund = defineTool({
    name: "refund",
    description: "Refunds an amount",
    inputSchema: { type: "object", properties: { amount: { type: "number" } }, required: ["amount"] },
    authorize: (ctx, args) => {
      seen.push([ctx, args]);
      const limit = ctx.state?.role === "manager" ? 1000 : 50;
      return (args.amount as number) <= limit;
    },
    execute: ({ amount }) => {
      ran.push(`refund ${String(amount)}`);
      return `refunded ${String(amount)}`;
    },
  });
  const ping = defineTool({
    name: "ping",
    description: "Ping",
    execute: () => {
      ran.push("ping");
      return "pong";
    },
  });
  return { list: [refund, ping], ran, seen };
}

const clerk: ToolContext = { state: { role: "clerk" } };
const manager: ToolContext = { state: { role: "manager" } };

describe("authorization: execute", () => {
  it("runs an authorized call; answers a refused one forbidden without running it", async () => {
    const { list, ran, seen } = tools();
    const kit = new Toolkit(list);
    expect(await kit.execute("refund", { amount: 20 }, clerk)).toEqual({ output: "refunded 20", isError: false });
    const refused = await kit.execute("refund", { amount: 200 }, clerk);
    expect(refused).toMatchObject({ isError: true, metadata: { error: "forbidden", tool: "refund" } });
    expect(refused.output).toMatch(/"refund" is not allowed for this user/);
    expect(await kit.execute("refund", { amount: 200 }, manager)).toEqual({ output: "refunded 200", isError: false });
    expect(ran).toEqual(["refund 20", "refund 200"]);
    expect(seen[1]).toEqual([expect.objectContaining({ state: { role: "clerk" } }), { amount: 200 }]);
  });

  it("fails closed: a throw, a rejection, or anything but true is forbidden", async () => {
    const answers: Array<() => unknown> = [
      () => {
        throw new Error("policy service down");
      },
      () => Promise.reject(new Error("down")),
      () => "yes",
      () => 1,
      () => undefined,
      async () => false,
    ];
    for (const answer of answers) {
      const ran = jest.fn(() => "ran");
      const tool = defineTool({
        name: "guarded",
        description: "Guarded",
        authorize: answer as () => boolean,
        execute: ran,
      });
      const result = await new Toolkit([tool]).execute("guarded", {});
      expect(result.metadata?.error).toBe("forbidden");
      expect(ran).not.toHaveBeenCalled();
    }
    const failing = defineTool({
      name: "guarded",
      description: "Guarded",
      authorize: () => {
        throw new Error("down");
      },
      execute: () => "",
    });
    expect((await new Toolkit([failing]).execute("guarded", {})).output).toContain("the permission check failed");
  });

  it("the toolkit's authorize sees the ctx, the arguments and the tool, for every call; both checks must pass", async () => {
    const { list, ran } = tools();
    const calls: Array<[ToolContext, Record<string, unknown>, string]> = [];
    const kit = new Toolkit(list, {
      authorize: (ctx, args, tool: ToolShape) => {
        calls.push([ctx, args, tool.name]);
        return ctx.state?.suspended !== true;
      },
    });
    expect(await kit.execute("ping", {}, { state: { suspended: false } })).toEqual({ output: "pong", isError: false });
    expect((await kit.execute("ping", {}, { state: { suspended: true } })).metadata?.error).toBe("forbidden");
    // The tool's own check still applies (it is asked first: a refusal there ends the call).
    expect((await kit.execute("refund", { amount: 500 }, { state: { role: "clerk" } })).metadata?.error).toBe(
      "forbidden",
    );
    expect(
      (await kit.execute("refund", { amount: 5 }, { state: { role: "clerk", suspended: true } })).metadata?.error,
    ).toBe("forbidden");
    expect(calls.map(([, args, name]) => [name, args])).toEqual([
      ["ping", {}],
      ["ping", {}],
      ["refund", { amount: 5 }],
    ]);
    expect(ran).toEqual(["ping"]);
  });

  it("is checked before approval: a forbidden call is never put to approve, nor handed back as pending", async () => {
    const approve = jest.fn(() => true);
    const wire = defineTool({
      name: "wire",
      description: "Wires money",
      needsApproval: true,
      authorize: (ctx) => ctx.state?.role === "manager",
      execute: () => "wired",
    });
    const kit = new Toolkit([wire], { approve });
    expect((await kit.execute("wire", {}, clerk)).metadata?.error).toBe("forbidden");
    expect(approve).not.toHaveBeenCalled();
    expect(await kit.execute("wire", {}, manager)).toEqual({ output: "wired", isError: false });
    expect(approve).toHaveBeenCalledTimes(1);

    const deferring = new Toolkit([wire]);
    const reply = await deferring.runOpenAI(
      [{ id: "w", type: "function", function: { name: "wire", arguments: "{}" } }],
      clerk,
    );
    expect(pendingOf(reply)).toBeUndefined();
    expect(reply).toEqual([
      { role: "tool", tool_call_id: "w", content: expect.stringMatching(/^Error: .*not allowed/) },
    ]);
  });

  it("tells onError about forbidden calls (kind forbidden), with what a failing check threw", async () => {
    const failures: ToolFailure[] = [];
    const thrown = new Error("policy service down");
    const tool = defineTool({
      name: "guarded",
      description: "Guarded",
      authorize: (ctx) => {
        if (ctx.state?.broken === true) throw thrown;
        return false;
      },
      execute: () => "",
    });
    const kit = new Toolkit([tool], { onError: (failure) => void failures.push(failure) });
    await kit.execute("guarded", {});
    await kit.execute("guarded", {}, { state: { broken: true } });
    expect(failures.map((failure) => failure.kind)).toEqual(["forbidden", "forbidden"]);
    expect(failures[0]!.error).toBeUndefined();
    expect(failures[1]!.error).toBe(thrown);
  });

  it("works for @Tool({ authorize }) methods", async () => {
    class Accounts {
      @Tool({ description: "Closes an account", authorize: (ctx, args) => ctx.state?.owner === args.account })
      close(account: string) {
        return `closed ${account}`;
      }
    }
    const kit = new Toolkit([new Accounts()]);
    expect(await kit.execute("close", { account: "a1" }, { state: { owner: "a1" } })).toEqual({
      output: "closed a1",
      isError: false,
    });
    expect((await kit.execute("close", { account: "a2" }, { state: { owner: "a1" } })).metadata?.error).toBe(
      "forbidden",
    );
  });
});

describe.each(providerRows)("authorization through %s", (_id, provider) => {
  it("answers refused calls forbidden with the provider's call id, and runs the others", async () => {
    const { list, ran, seen } = tools();
    const kit = new Toolkit(list);
    const answers = provider.answers(
      await provider.run(
        kit,
        [
          { id: "a1", name: "refund", args: { amount: 10 } },
          { id: "a2", name: "refund", args: { amount: 10_000 } },
          { id: "a3", name: "ping", args: {} },
        ],
        clerk,
      ),
    );
    expect(answers.map((answer) => [answer.id, answer.isError])).toEqual([
      ["a1", false],
      ["a2", true],
      ["a3", false],
    ]);
    expect(answers[1]!.text).toMatch(/"refund" is not allowed/);
    expect(ran.sort()).toEqual(["ping", "refund 10"]);
    expect(seen.map(([ctx]) => ctx.provider)).toEqual([provider.id, provider.id]);
  });
});

describe("authorization over MCP (official SDK client)", () => {
  it("checks the call against the server's state", async () => {
    const { list } = tools();
    const kit = new Toolkit(list);
    const asClerk = await connectMcp(kit, { state: { role: "clerk" } });
    const asManager = await connectMcp(kit, { state: { role: "manager" } });
    try {
      const refused = await asClerk.client.callTool({ name: "refund", arguments: { amount: 500 } });
      expect(refused.isError).toBe(true);
      expect(mcpText(refused)).toMatch(/not allowed for this user/);
      const allowed = await asManager.client.callTool({ name: "refund", arguments: { amount: 500 } });
      expect(allowed.isError).toBe(false);
      expect(mcpText(allowed)).toBe("refunded 500");
    } finally {
      await asClerk.close();
      await asManager.close();
    }
  });
});

describe("authorization options are checked where they are written", () => {
  it("defineTool refuses an authorize that is not a function, naming the tool", () => {
    expect(() =>
      defineTool({
        name: "locked",
        description: "Locked",
        authorize: false as unknown as () => boolean,
        execute: () => "",
      }),
    ).toThrow(ToolDefinitionError);
    expect(() =>
      defineTool({
        name: "locked",
        description: "Locked",
        authorize: false as unknown as () => boolean,
        execute: () => "",
      }),
    ).toThrow(/"locked".*authorize must be a function/);
  });

  it("@Tool refuses it with a ScanError naming the tool", () => {
    class Bad {
      @Tool({ description: "Locked", authorize: "admins" as unknown as () => boolean })
      lockedMethod() {
        return "";
      }
    }
    const error = scanErrorThrownBy(() => scanTools(new Bad()));
    expect(error.message).toMatch(/lockedMethod/);
    expect(error.message).toMatch(/authorize must be a function/);
  });

  it("the toolkit refuses an authorize option that is not a function", () => {
    expect(() => new Toolkit([], { authorize: {} as unknown as () => boolean })).toThrow(
      /authorize must be a function/,
    );
  });
});
