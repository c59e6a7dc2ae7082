/**
 * examples/ai-sdk.ts, held to what it claims: in the AI SDK's own loop, the invalid order goes
 * back to the model as an error result and the corrected one runs; the refund waits for an
 * approval request, runs only after the approval is appended, with the user from
 * experimental_context; and the model's answer is built from what the tools returned.
 */
import type { ToolResult } from "toolnexus";
import { main } from "../../examples/ai-sdk";

describe("examples/ai-sdk.ts", () => {
  let run: Awaited<ReturnType<typeof main>>;
  beforeAll(async () => {
    jest.spyOn(console, "log").mockImplementation(() => {});
    run = await main();
  });
  afterAll(() => jest.restoreAllMocks());

  it("sends the invalid order back as an error result, and runs the corrected one with the user from experimental_context", () => {
    const results = run.first.steps.flatMap((step) =>
      step.toolResults.map((result) => [result.toolCallId, result.output as ToolResult]),
    );
    expect(results).toEqual([
      ["call_1", { output: '{"city":"Chennai","temperature":88,"units":"fahrenheit"}', isError: false }],
      [
        "call_2",
        expect.objectContaining({ isError: true, metadata: expect.objectContaining({ error: "invalid_arguments" }) }),
      ],
      ["call_3", { output: '{"orderId":1000,"units":2,"placedBy":"ada@example.com"}', isError: false }],
    ]);
    const toolMessages = run.first.response.messages.filter((message) => message.role === "tool");
    expect(toolMessages[0]!.content[1]).toMatchObject({
      toolCallId: "call_2",
      output: { type: "error-text", value: expect.stringContaining('"customerEmail" must match format "email"') },
    });
  });

  it("stops for the refund's approval, and runs it only once the approval is appended", () => {
    expect(run.first.finishReason).toBe("tool-calls");
    expect(run.approvals.map((request) => request.toolCall)).toEqual([
      expect.objectContaining({ toolCallId: "call_4", toolName: "refund_order", input: { orderId: 999 } }),
    ]);
    expect(run.first.steps.flatMap((step) => step.toolResults).some((result) => result.toolCallId === "call_4")).toBe(
      false,
    );
    expect(run.approvedRuns).toEqual([
      { tool: "refund_order", result: { output: "Order 999 refunded for ada@example.com.", isError: false } },
    ]);
  });

  it("answers from what the tools returned, and the conversation holds every call's answer", () => {
    expect(run.second.text).toBe(
      "It is 88°F in Chennai. Order 1000 is placed (2 units). Order 999 refunded for ada@example.com.",
    );
    const calls = run.messages.flatMap((message) =>
      message.role === "assistant" && Array.isArray(message.content)
        ? message.content.filter((part) => part.type === "tool-call")
        : [],
    );
    const answered = run.messages.flatMap((message) =>
      message.role === "tool" ? message.content.filter((part) => part.type === "tool-result") : [],
    );
    expect(answered.map((part) => part.toolCallId).sort()).toEqual(calls.map((part) => part.toolCallId).sort());
  });
});
