/**
 * A 2025-era call asks its client with requests on the session: a person may take their time,
 * so the question waits as long as the call does (the call's signal), never the SDK's 60 s.
 */
import { MAX_TIMER_MS } from "../../src/core/timers";
import { sessionInput } from "../../src/mcp/session-input";

describe("sessionInput", () => {
  const signal = new AbortController().signal;
  const capabilities = { elicitation: {}, sampling: {} };

  it("sends an elicitation and a sampling request with the call's signal and no SDK timeout", async () => {
    const sent: Array<{ method: string; options: unknown }> = [];
    const input = sessionInput(
      capabilities,
      async (request, _schema, options) => {
        sent.push({ method: request.method, options });
        return request.method === "elicitation/create"
          ? { action: "accept", content: { ok: true } }
          : { role: "assistant", content: { type: "text", text: "hi" }, model: "m" };
      },
      signal,
    );
    await input.elicit({ message: "OK?", schema: { type: "object", properties: { ok: { type: "boolean" } } } });
    await input.sample({ messages: "hi", maxTokens: 5 });
    expect(sent).toEqual([
      { method: "elicitation/create", options: { signal, timeout: MAX_TIMER_MS } },
      { method: "sampling/createMessage", options: { signal, timeout: MAX_TIMER_MS } },
    ]);
  });
});
