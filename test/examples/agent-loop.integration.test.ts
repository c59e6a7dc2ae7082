import { Server } from "node:http";
import { main } from "../../examples/agent-loop";

// The example reads OPENAI_API_KEY; the test never sends a real key, even to the local mock.
const savedKey = process.env.OPENAI_API_KEY;
beforeAll(() => {
  delete process.env.OPENAI_API_KEY;
});
afterAll(() => {
  if (savedKey !== undefined) process.env.OPENAI_API_KEY = savedKey;
  jest.restoreAllMocks();
});

describe("examples/agent-loop.ts", () => {
  it("loops until the model stops calling tools, and closes its server", async () => {
    const close = jest.spyOn(Server.prototype, "close");
    const { text, messages } = await main();

    expect(text).toBe("It is 88°F in Chennai. Order 1000 is placed (2 units).");

    // system, user, then: 2 parallel calls → 2 tool messages, 1 retried call → 1 tool message, the answer.
    expect(messages.map((m) => m.role)).toEqual([
      "system",
      "user",
      "assistant",
      "tool",
      "tool",
      "assistant",
      "tool",
      "assistant",
    ]);
    const [round1, , , round2, , final] = messages.slice(2);
    const callsOf = (m: (typeof messages)[number] | undefined) =>
      m?.role === "assistant"
        ? (m.tool_calls ?? []).map((c) => (c.type === "function" ? c.function.name : c.type))
        : [];
    expect(callsOf(round1)).toEqual(["getWeather", "place_order"]);
    expect(callsOf(round2)).toEqual(["place_order"]);
    expect(final).toMatchObject({ role: "assistant", content: text });
    expect(callsOf(final)).toEqual([]);

    // Each tool message answers its call, in call order; the failed call is data the model corrected.
    const tools = messages.filter((m) => m.role === "tool");
    const callIds = [round1, round2].flatMap((m) =>
      m?.role === "assistant" ? (m.tool_calls ?? []).map((c) => c.id) : [],
    );
    expect(tools.map((m) => m.tool_call_id)).toEqual(callIds);
    expect(JSON.parse(String(tools[0]!.content))).toEqual({ city: "Chennai", temperature: 88, units: "fahrenheit" });
    expect(tools[1]!.content).toMatch(/^Error: Invalid arguments for tool "place_order"/);
    expect(tools[1]!.content).toContain('"customerEmail"');
    // ctx.state reached the tool; the strict-mode `note: null` reached it as absent (no validation error).
    expect(JSON.parse(String(tools[2]!.content))).toEqual({ orderId: 1000, units: 2, placedBy: "ada@example.com" });

    // Its server: stopped, not left listening.
    expect(close).toHaveBeenCalledTimes(1);
    expect((close.mock.contexts[0] as Server).listening).toBe(false);
  });
});
