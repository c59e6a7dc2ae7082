import { ToolMessage, type AIMessage } from "@langchain/core/messages";
import { main } from "../../examples/langchain";

describe("examples/langchain.ts", () => {
  it("runs LangChain's tool-calling loop: a failed call corrected, an image result, a refund denied by the approver", async () => {
    const { text, messages, declared } = await main();

    expect(declared).toEqual(["getWeather", "place_order", "sales_chart", "sales_summary", "refund_payment"]);
    // human, 4 parallel calls → 4 tool messages, the corrected order → 1 tool message, the answer.
    expect(messages.map((message) => message.type)).toEqual([
      "human",
      "ai",
      "tool",
      "tool",
      "tool",
      "tool",
      "ai",
      "tool",
      "ai",
    ]);
    const answered = (messages[1] as AIMessage).tool_calls!.map((call) => call.id);
    const results = messages.filter((message): message is ToolMessage => ToolMessage.isInstance(message));
    expect(results.slice(0, 4).map((result) => result.tool_call_id)).toEqual(answered);

    const [weather, refusedOrder, chart, refund, order] = results;
    expect(JSON.parse(String(weather!.content))).toEqual({ city: "Chennai", temperature: 88, units: "fahrenheit" });
    expect(refusedOrder).toMatchObject({ status: "error", artifact: { metadata: { error: "invalid_arguments" } } });
    expect(refusedOrder!.content).toContain('"customerEmail" must match format "email"');
    expect(chart!.status).toBe("success");
    expect(chart!.contentBlocks.map((block) => [block.type, "mimeType" in block ? block.mimeType : undefined])).toEqual(
      [
        ["text", undefined],
        ["image", "image/png"],
      ],
    );
    expect(refund).toMatchObject({ status: "error", artifact: { metadata: { error: "denied" } } });
    expect(refund!.content).toContain("Reason: only support staff approve refunds.");
    // The user from the run's configurable reached the tool as ctx.state.
    expect(JSON.parse(String(order!.content))).toEqual({ orderId: 1000, units: 2, placedBy: "ada@example.com" });

    expect(text).toBe(
      "It is 88°F in Chennai. Order 1000 is placed (2 units). I have the 2025 sales chart for you. The refund needs a support agent: I could not make it.",
    );
  });
});
