/**
 * `needsApproval` on a toolkit tool is the AI SDK tool's own `needsApproval`: the AI SDK stops
 * with a `tool-approval-request`, the host appends a `tool-approval-response`, and the next
 * `generateText`/`streamText` runs an approved call with `toolkit.execute(..., { approved: true })`
 * (the toolkit has no `approve` function here: a call that was not approved through the AI
 * SDK is denied, never run). A denied call never reaches the tool.
 */
import { generateText, stepCountIs, streamText, type ModelMessage } from "ai";
import { defineTool, Toolkit, type JSONSchemaObject, type ToolResult } from "toolnexus";
import { toAiSdkTools } from "toolnexus/ai-sdk";
import { scriptedModel, scriptedStreamModel, text, toolCall, toolResultsIn } from "./scripted-model";

const paymentId: JSONSchemaObject = {
  type: "object",
  properties: { paymentId: { type: "string" }, amountCents: { type: "integer", minimum: 1 } },
  required: ["paymentId"],
};

function refundToolkit() {
  const runs: string[] = [];
  const getPayment = defineTool({
    name: "get_payment",
    description: "Looks up a payment",
    inputSchema: paymentId,
    execute: ({ paymentId }) => `${String(paymentId)}: 42.00 EUR`,
  });
  const refund = defineTool<{ paymentId: string; amountCents?: number }>({
    name: "refund_payment",
    description: "Refunds a payment",
    inputSchema: paymentId,
    validate: true,
    needsApproval: true,
    authorize: (ctx) => ctx.state?.role === "support",
    execute: ({ paymentId }, ctx) => {
      runs.push(paymentId);
      return `Refunded ${paymentId} (by ${String(ctx.state?.user)}).`;
    },
  });
  return { toolkit: new Toolkit([getPayment, refund]), runs };
}

const support = { role: "support", user: "ada@example.com" };

/** What the model read about the refund call (the prompt's tool message also holds the lookup's result). */
const refundResultIn = (prompt: Parameters<typeof toolResultsIn>[0]) =>
  toolResultsIn(prompt).find((result) => result.toolCallId === "call_refund")?.output;

/** The first request: the model looks up a payment and asks for a refund; the AI SDK stops for approval. */
async function firstRequest(tools: ReturnType<typeof toAiSdkTools>, model: ReturnType<typeof scriptedModel>) {
  const prompt: ModelMessage[] = [{ role: "user", content: "Refund pay_1" }];
  const result = await generateText({
    model,
    tools,
    messages: prompt,
    experimental_context: support,
    stopWhen: stepCountIs(5),
  });
  const request = result.content.find((part) => part.type === "tool-approval-request");
  if (request?.type !== "tool-approval-request") throw new Error("the AI SDK asked for no approval");
  return { result, request, history: [...prompt, ...result.response.messages] };
}

describe("toAiSdkTools: the AI SDK's approval flow", () => {
  const turns = () =>
    [
      [
        toolCall("get_payment", { paymentId: "pay_1" }, "call_get"),
        toolCall("refund_payment", { paymentId: "pay_1" }, "call_refund"),
      ],
      (prompt) => [text(JSON.stringify(refundResultIn(prompt)))],
    ] satisfies Parameters<typeof scriptedModel>;

  it("marks the tool as needing approval, runs the other calls of the turn, and stops with an approval request", async () => {
    const { toolkit, runs } = refundToolkit();
    const tools = toAiSdkTools(toolkit);
    expect(tools.refund_payment!.needsApproval).toEqual(expect.any(Function));
    expect(tools.get_payment!.needsApproval).toBeUndefined();

    const { result, request } = await firstRequest(tools, scriptedModel(...turns()));
    expect(result.finishReason).toBe("tool-calls");
    expect(request.toolCall).toMatchObject({
      toolCallId: "call_refund",
      toolName: "refund_payment",
      input: { paymentId: "pay_1" },
    });
    expect(result.toolResults.map((part) => [part.toolCallId, (part.output as ToolResult).output])).toEqual([
      ["call_get", "pay_1: 42.00 EUR"],
    ]);
    expect(runs).toEqual([]);
  });

  it("runs the call once a person approved it, and the model reads its result", async () => {
    const { toolkit, runs } = refundToolkit();
    const tools = toAiSdkTools(toolkit);
    const model = scriptedModel(...turns());
    const { request, history } = await firstRequest(tools, model);

    const approved: ModelMessage = {
      role: "tool",
      content: [{ type: "tool-approval-response", approvalId: request.approvalId, approved: true }],
    };
    const second = await generateText({
      model,
      tools,
      messages: [...history, approved],
      experimental_context: support,
      stopWhen: stepCountIs(5),
    });

    expect(runs).toEqual(["pay_1"]);
    expect(JSON.parse(second.text)).toEqual({ type: "text", value: "Refunded pay_1 (by ada@example.com)." });
  });

  it("runs an approved call through streamText as well", async () => {
    const { toolkit, runs } = refundToolkit();
    const tools = toAiSdkTools(toolkit);
    const { request, history } = await firstRequest(tools, scriptedModel(turns()[0]));

    const approved: ModelMessage = {
      role: "tool",
      content: [{ type: "tool-approval-response", approvalId: request.approvalId, approved: true }],
    };
    const stream = streamText({
      model: scriptedStreamModel((prompt) => [text(JSON.stringify(refundResultIn(prompt)))]),
      tools,
      messages: [...history, approved],
      experimental_context: support,
      stopWhen: stepCountIs(5),
    });
    expect(JSON.parse(await stream.text)).toEqual({ type: "text", value: "Refunded pay_1 (by ada@example.com)." });
    expect(runs).toEqual(["pay_1"]);
  });

  it("never runs a denied call: the AI SDK answers it with the reason", async () => {
    const { toolkit, runs } = refundToolkit();
    const tools = toAiSdkTools(toolkit);
    const model = scriptedModel(...turns());
    const { request, history } = await firstRequest(tools, model);

    const denied: ModelMessage = {
      role: "tool",
      content: [
        { type: "tool-approval-response", approvalId: request.approvalId, approved: false, reason: "over the limit" },
      ],
    };
    const second = await generateText({
      model,
      tools,
      messages: [...history, denied],
      experimental_context: support,
      stopWhen: stepCountIs(5),
    });

    expect(runs).toEqual([]);
    expect(JSON.parse(second.text)).toEqual({ type: "execution-denied", reason: "over the limit" });
  });

  it("still applies authorization to an approved call", async () => {
    const { toolkit, runs } = refundToolkit();
    const tools = toAiSdkTools(toolkit);
    const model = scriptedModel(...turns());
    const { request, history } = await firstRequest(tools, model);

    const approved: ModelMessage = {
      role: "tool",
      content: [{ type: "tool-approval-response", approvalId: request.approvalId, approved: true }],
    };
    const second = await generateText({
      model,
      tools,
      messages: [...history, approved],
      experimental_context: { role: "sales" },
      stopWhen: stepCountIs(5),
    });

    expect(runs).toEqual([]);
    expect(JSON.parse(second.text)).toEqual({
      type: "error-text",
      value: expect.stringMatching(/^The call to tool "refund_payment" is not allowed for this user/),
    });
  });

  it("denies a call that reaches execute without an approval of its own (fails closed)", async () => {
    const { toolkit, runs } = refundToolkit();
    const tools = toAiSdkTools(toolkit);
    const execute = tools.refund_payment!.execute!;
    const other: ModelMessage[] = [
      {
        role: "assistant",
        content: [{ type: "tool-approval-request", approvalId: "approval_other", toolCallId: "call_other" }],
      },
      { role: "tool", content: [{ type: "tool-approval-response", approvalId: "approval_other", approved: true }] },
    ];
    const direct = (await execute(
      { paymentId: "pay_1" },
      { toolCallId: "call_refund", messages: other, experimental_context: support },
    )) as ToolResult;
    expect(direct).toMatchObject({ isError: true, metadata: { error: "denied" } });
    expect(runs).toEqual([]);
  });

  it("asks only when a needsApproval function says so, given the arguments and the call's ctx", async () => {
    const runs: number[] = [];
    const asked: unknown[] = [];
    const refund = defineTool<{ amountCents: number }>({
      name: "refund",
      description: "Refunds an amount",
      inputSchema: { type: "object", properties: { amountCents: { type: "integer" } }, required: ["amountCents"] },
      needsApproval: ({ amountCents }, ctx) => {
        asked.push([amountCents, ctx.state?.role, ctx.callId]);
        return Number(amountCents) > 10_000;
      },
      execute: ({ amountCents }) => void runs.push(amountCents),
    });
    const tools = toAiSdkTools(new Toolkit([refund]));
    const model = scriptedModel(
      [
        toolCall("refund", { amountCents: 500 }, "call_small"),
        toolCall("refund", { amountCents: 50_000 }, "call_large"),
      ],
      [text("done")],
    );
    const result = await generateText({
      model,
      tools,
      prompt: "refund",
      experimental_context: { role: "support" },
      stopWhen: stepCountIs(5),
    });

    expect(runs).toEqual([500]);
    expect(
      result.content.filter((part) => part.type === "tool-approval-request").map((part) => part.toolCall.toolCallId),
    ).toEqual(["call_large"]);
    // Asked by the AI SDK before each call, and by the toolkit again for the call that ran unapproved.
    expect(asked).toEqual([
      [500, "support", "call_small"],
      [50_000, "support", "call_large"],
      [500, "support", "call_small"],
    ]);
  });

  it("asks when a needsApproval function throws (fails closed)", async () => {
    const tool = defineTool({
      name: "wipe",
      description: "Wipes",
      needsApproval: () => {
        throw new Error("rules unavailable");
      },
      execute: () => "wiped",
    });
    const needsApproval = toAiSdkTools(new Toolkit([tool])).wipe!.needsApproval as (
      input: unknown,
      options: { toolCallId: string; messages: ModelMessage[] },
    ) => Promise<boolean>;
    await expect(needsApproval({}, { toolCallId: "call_1", messages: [] })).resolves.toBe(true);
  });

  it("asks for destructive tools when the toolkit sets approveDestructive, and only then", async () => {
    const wipe = defineTool({
      name: "wipe",
      description: "Wipes",
      annotations: { destructive: true },
      execute: () => "wiped",
    });
    const askOf = (toolkit: Toolkit) =>
      toAiSdkTools(toolkit).wipe!.needsApproval as (
        input: unknown,
        options: { toolCallId: string; messages: ModelMessage[] },
      ) => Promise<boolean>;
    await expect(
      askOf(new Toolkit([wipe], { approveDestructive: true }))({}, { toolCallId: "call_1", messages: [] }),
    ).resolves.toBe(true);
    await expect(askOf(new Toolkit([wipe]))({}, { toolCallId: "call_1", messages: [] })).resolves.toBe(false);
  });
});
