import {
  defineTool,
  Toolkit,
  ToolDefinitionError,
  type JSONSchemaObject,
  type PendingApprovals,
  type Tool,
} from "../../src";
import { connectMcp, gemini, mcpText, openai, pendingOf, throughJson, type ModelCall } from "./support";

/**
 * A stored pendingApprovals value comes back from outside the process: resuming it never runs
 * a body its decision denied, never runs another tool than the call named, and loses no call.
 * Hidden tools stay hidden whatever name a call uses; hand-written tools are held to the same
 * policy checks as defined ones.
 */
const orderSchema: JSONSchemaObject = {
  type: "object",
  properties: { order: { type: "string" } },
  required: ["order"],
};

function recordingTools(ran: string[], needsApproval = true): Tool[] {
  return [
    defineTool({
      name: "wipe",
      description: "Wipes an order",
      inputSchema: orderSchema,
      needsApproval,
      execute: ({ order }) => void ran.push(`wipe ${String(order)}`),
    }),
    defineTool({
      name: "peek",
      description: "Reads an order",
      inputSchema: orderSchema,
      execute: ({ order }) => void ran.push(`peek ${String(order)}`),
    }),
  ];
}

async function pendingTurn(calls: ModelCall[]): Promise<PendingApprovals<"openai">> {
  const reply = await openai.run(new Toolkit(recordingTools([])), calls);
  return throughJson(pendingOf(reply)) as PendingApprovals<"openai">;
}

describe("resuming a stored turn", () => {
  it("a denied call does not run, even where the resuming toolkit's tool no longer asks for approval", async () => {
    const pending = await pendingTurn([{ id: "c1", name: "wipe", args: { order: "A" } }]);
    const ran: string[] = [];
    const reply = await new Toolkit(recordingTools(ran, false)).resumeApprovals(pending, {
      c1: { approved: false, reason: "Not today" },
    });
    expect(ran).toEqual([]);
    expect(openai.answers(reply)).toEqual([
      { id: "c1", isError: true, text: expect.stringContaining("was not approved") },
    ]);
  });

  it("an approval edited to name another tool runs nothing and says the stored approval does not match the call", async () => {
    const pending = await pendingTurn([{ id: "c1", name: "wipe", args: { order: "A" } }]);
    pending.approvals[0]!.tool = "peek";
    const ran: string[] = [];
    const reply = await new Toolkit(recordingTools(ran)).resumeApprovals(pending, { c1: true });
    expect(ran).toEqual([]);
    expect(openai.answers(reply)[0]).toMatchObject({
      isError: true,
      text: expect.stringContaining('names tool "peek", but the call was to "wipe"'),
    });
  });

  it("runs the arguments the model sent, not arguments edited in the stored approval", async () => {
    const pending = await pendingTurn([{ id: "c1", name: "wipe", args: { order: "A" } }]);
    pending.approvals[0]!.args = { order: "EVERYTHING" };
    const ran: string[] = [];
    await new Toolkit(recordingTools(ran)).resumeApprovals(pending, { c1: true });
    expect(ran).toEqual(["wipe A"]);
  });

  it("two calls with one id get approval ids of their own, and both are answered", async () => {
    const pending = await pendingTurn([
      { id: "dup", name: "wipe", args: { order: "A" } },
      { id: "dup", name: "wipe", args: { order: "B" } },
    ]);
    expect(pending.approvals.map((approval) => approval.id)).toEqual(["call-0", "call-1"]);
    const ran: string[] = [];
    const reply = await new Toolkit(recordingTools(ran)).resumeApprovals(pending, { "call-0": true, "call-1": false });
    expect(ran).toEqual(["wipe A"]);
    expect(openai.answers(reply).map((answer) => answer.isError)).toEqual([false, true]);
  });

  it("an approval that matches no waiting call stays pending instead of being dropped", async () => {
    const pending = await pendingTurn([{ id: "c1", name: "wipe", args: { order: "A" } }]);
    pending.approvals[0]!.index = 7;
    const reply = await new Toolkit(recordingTools([])).resumeApprovals(pending, { c1: true });
    expect(pendingOf(reply)?.approvals).toEqual(pending.approvals);
  });

  it("what the model sent is stored as JSON even when it is not (a BigInt from a host's parser)", async () => {
    const reply = await gemini.run(new Toolkit(recordingTools([])), [
      { id: "g1", name: "wipe", args: { order: "A", big: 10n } as never },
    ]);
    const pending = pendingOf(reply)!;
    expect(() => JSON.stringify(pending)).not.toThrow();
    expect(throughJson(pending)).toEqual(pending);
  });
});

describe("hidden tools under a provider's mapped names", () => {
  it("a call by the sanitized name of a hidden tool is answered with the name as sent, like any unknown name", async () => {
    const hidden = defineTool({
      name: "billing.refund",
      description: "Refunds",
      visible: () => false,
      execute: () => "refunded",
    });
    const kit = new Toolkit([hidden, ...recordingTools([])]);
    kit.toOpenAI({ names: "sanitize" });
    const [answer] = openai.answers(await openai.run(kit, [{ id: "c1", name: "billing_refund", args: {} }]));
    expect(answer!.text).toMatch(/^Unknown tool "billing_refund"\./);
    expect(answer!.text).not.toContain("billing.refund");
  });
});

describe("hand-written tools", () => {
  const base = {
    description: "Hand-written",
    inputSchema: { type: "object", properties: {} } as JSONSchemaObject,
    source: "custom",
    execute: async () => ({ output: "ran", isError: false }),
  };

  it("are refused at registration when a policy option is not what it must be", () => {
    expect(() => new Toolkit([{ ...base, name: "a", needsApproval: "yes" as never }])).toThrow(ToolDefinitionError);
    expect(() => new Toolkit([{ ...base, name: "b", retry: true as never }])).toThrow(
      /Tool "b": retry takes a number of attempts/,
    );
    expect(() => new Toolkit([{ ...base, name: "c", timeout: -1 }])).toThrow(
      /Tool "c": timeout must be a positive number/,
    );
  });

  it("need approval when they say so, as defined tools do", async () => {
    const kit = new Toolkit([{ ...base, name: "gated", needsApproval: true }]);
    expect(await kit.execute("gated", {})).toMatchObject({ isError: true, metadata: { error: "denied" } });
  });
});

describe("MCP", () => {
  it("a tool that itself answers with an unknown_tool kind is a tool result, not a protocol error", async () => {
    const relay = defineTool({
      name: "relay",
      description: "Relays",
      execute: () => ({ output: "upstream: no such tool", isError: true, metadata: { error: "unknown_tool" } }),
    });
    const { client, close } = await connectMcp([relay]);
    try {
      const result = await client.callTool({ name: "relay", arguments: {} });
      expect(result.isError).toBe(true);
      expect(mcpText(result)).toBe("upstream: no such tool");
    } finally {
      await close();
    }
  });
});
