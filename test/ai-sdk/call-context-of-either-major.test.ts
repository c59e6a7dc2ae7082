/**
 * AI SDK 7 renamed the call options' `experimental_context` to `context` (filled from the call's
 * `toolsContext[toolName]`): the tools `toAiSdkTools` builds read whichever of the two the AI SDK
 * running them passes, in `execute` and in `needsApproval` alike. The options are written out
 * here in each major's shape (this repository runs AI SDK 6; the integration test
 * `runs-on-ai-sdk-6-and-7` runs both).
 */
import type { ModelMessage } from "ai";
import { defineTool, Toolkit, type ToolResult } from "toolnexus";
import { toAiSdkTools, type AiSdkCall } from "toolnexus/ai-sdk";

const session = { user: "ada@example.com", role: "support" };

/** The options each major passes a tool's `execute` and `needsApproval` for one call. */
const optionsOf = {
  "AI SDK 6": (messages: ModelMessage[] = []) => ({ toolCallId: "call_1", messages, experimental_context: session }),
  "AI SDK 7": (messages: ModelMessage[] = []) => ({ toolCallId: "call_1", messages, context: session }),
};

/** A person's approval of call_1 in the AI SDK's flow, as the messages the AI SDK then passes the tool. */
const approvedCall: ModelMessage[] = [
  { role: "assistant", content: [{ type: "tool-approval-request", approvalId: "approval_1", toolCallId: "call_1" }] },
  { role: "tool", content: [{ type: "tool-approval-response", approvalId: "approval_1", approved: true }] },
];

function refundToolkit() {
  const runs: unknown[] = [];
  const asked: unknown[] = [];
  const refund = defineTool({
    name: "refund_payment",
    description: "Refunds a payment",
    needsApproval: (_args, ctx) => {
      asked.push(ctx.state?.role);
      return ctx.state?.role !== "admin";
    },
    execute: (_args, ctx) => {
      runs.push(ctx.state?.user);
      return `refunded by ${String(ctx.state?.user)}`;
    },
  });
  return { tools: toAiSdkTools(new Toolkit([refund])), runs, asked };
}

describe.each(Object.entries(optionsOf))("toAiSdkTools: the call's context as %s passes it", (_major, options) => {
  it("is the state of the call's ctx by default", async () => {
    const seen: unknown[] = [];
    const whoami = defineTool({
      name: "whoami",
      description: "Who is asking",
      execute: (_args, ctx) => void seen.push(ctx.state),
    });
    const execute = toAiSdkTools(new Toolkit([whoami])).whoami!.execute!;
    await execute({}, options());
    expect(seen).toEqual([session]);
  });

  it("reaches a state function as `context`, and as `experimental_context` for functions written for AI SDK 6", async () => {
    const calls: AiSdkCall[] = [];
    const whoami = defineTool({ name: "whoami", description: "Who is asking", execute: () => "ok" });
    const execute = toAiSdkTools(new Toolkit([whoami]), {
      state: (call) => {
        calls.push(call);
        return {};
      },
    }).whoami!.execute!;
    await execute({}, options());
    expect(calls).toEqual([{ toolCallId: "call_1", messages: [], context: session, experimental_context: session }]);
  });

  it("is what the tool's needsApproval function reads when the AI SDK asks whether to stop for a person", async () => {
    const { tools, asked } = refundToolkit();
    const needsApproval = tools.refund_payment!.needsApproval as (
      input: unknown,
      options: { toolCallId: string; messages: ModelMessage[] },
    ) => Promise<boolean>;
    await expect(needsApproval({}, options())).resolves.toBe(true);
    expect(asked).toEqual(["support"]);
  });

  it("is the state of a call a person approved in the AI SDK's flow, which runs without being asked again", async () => {
    const { tools, runs, asked } = refundToolkit();
    const result = (await tools.refund_payment!.execute!({}, options(approvedCall))) as ToolResult;
    expect(result).toMatchObject({ isError: false, output: "refunded by ada@example.com" });
    expect(runs).toEqual(["ada@example.com"]);
    expect(asked).toEqual([]);
  });
});
