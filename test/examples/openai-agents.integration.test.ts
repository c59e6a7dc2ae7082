import { Server } from "node:http";
import { main } from "../../examples/openai-agents";

// The example reads OPENAI_API_KEY; the test never sends a real key, even to the local mock.
const savedKey = process.env.OPENAI_API_KEY;
beforeAll(() => {
  delete process.env.OPENAI_API_KEY;
});
afterAll(() => {
  if (savedKey !== undefined) process.env.OPENAI_API_KEY = savedKey;
  jest.restoreAllMocks();
});

describe("examples/openai-agents.ts", () => {
  it("runs the Agents SDK's loop over toolkit tools: an invalid call corrected, a refund approved across two requests", async () => {
    const close = jest.spyOn(Server.prototype, "close");
    const { text, toolOutputs, approvals, refunds } = await main();

    expect(text).toBe(
      "It is 88°F in Chennai. Order 1000 is placed (2 units). Refunded 900.00 EUR on pay_1002 (for ada@example.com).",
    );

    // Every call answered in order; the failed call is data the model read and corrected.
    expect(toolOutputs).toHaveLength(4);
    expect(JSON.parse(toolOutputs[0]!.replace(/^getWeather: /, ""))).toEqual({
      city: "Chennai",
      temperature: 88,
      units: "fahrenheit",
    });
    expect(toolOutputs[1]).toMatch(
      /^place_order: Error: Invalid arguments for tool "place_order": "customerEmail" must match format "email"/,
    );
    // The run's context reached the tool as ctx.state; the strict-mode `note: null` reached it as absent (no validation error).
    expect(JSON.parse(toolOutputs[2]!.replace(/^place_order: /, ""))).toEqual({
      orderId: 1000,
      units: 2,
      placedBy: "ada@example.com",
    });
    expect(toolOutputs[3]).toBe("refund_payment: Refunded 900.00 EUR on pay_1002 (for ada@example.com).");

    // The refund waited for approval in the first request, and ran once, after it.
    expect(approvals).toEqual([
      { tool: "refund_payment", arguments: JSON.stringify({ paymentId: "pay_1002", amountCents: 90_000 }) },
    ]);
    expect(refunds).toEqual(["Refunded 900.00 EUR on pay_1002 (for ada@example.com)."]);

    // Its server: stopped, not left listening.
    expect(close).toHaveBeenCalledTimes(1);
    expect((close.mock.contexts[0] as Server).listening).toBe(false);
  });
});
