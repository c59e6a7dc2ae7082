/**
 * A call whose result comes after its deadline is a timeout, whatever kept the event loop from
 * ending it sooner; its text says what is known. A tool that ran past its deadline before it
 * handed back its promise kept the process busy itself. A tool that handed back its promise in
 * time did not: in a batch, the other calls' synchronous work can hold the loop while it
 * waits, and its text then says only when its result came.
 */
import { Toolkit, defineTool } from "../../src";

/** Keeps the process busy for `ms` without yielding, as a CPU-bound tool does. */
function busy(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // spinning on purpose
  }
}

const DEADLINE_MS = 50;
const HOG_MS = 150;

const toolkit = new Toolkit([
  defineTool({
    name: "quick",
    description: "Answers at once, asynchronously",
    timeout: DEADLINE_MS,
    execute: async () => "ready",
  }),
  defineTool({
    name: "crunch",
    description: "Works before its first await",
    timeout: DEADLINE_MS,
    execute: async () => {
      busy(HOG_MS);
      return "crunched";
    },
  }),
  defineTool({
    name: "hog",
    description: "Keeps the process busy",
    timeout: false,
    execute: () => (busy(HOG_MS), "hogged"),
  }),
]);

const call = (id: string, name: string) => ({ id, type: "function", function: { name, arguments: "{}" } });

describe("a timeout whose result came late", () => {
  it("does not say the tool kept the process busy when another call of its batch did", async () => {
    const replies = await toolkit.runOpenAI([call("c1", "quick"), call("c2", "hog")]);
    expect(replies).toEqual([
      {
        role: "tool",
        tool_call_id: "c1",
        content: expect.stringMatching(
          new RegExp(
            `^Error: Tool "quick" timed out after ${DEADLINE_MS} ms \\(its result came after \\d+ ms, while the process was too busy to end the call sooner\\)$`,
          ),
        ),
      },
      { role: "tool", tool_call_id: "c2", content: "hogged" },
    ]);
  });

  it("keeps the timeout kind, the deadline and the time until its result in the metadata", async () => {
    const [quick] = await Promise.all([toolkit.execute("quick", {}), toolkit.execute("hog", {})]);
    expect(quick).toMatchObject({ isError: true, metadata: { error: "timeout", timeoutMs: DEADLINE_MS } });
    expect(quick!.output).not.toMatch(/kept the process busy/);
    expect(quick!.metadata?.tookMs).toBeGreaterThanOrEqual(HOG_MS);
  });

  it("says the tool kept the process busy when it ran past its deadline before handing back its promise", async () => {
    const replies = await toolkit.runOpenAI([call("c1", "crunch"), call("c2", "quick")]);
    expect(replies[0]).toEqual({
      role: "tool",
      tool_call_id: "c1",
      content: expect.stringMatching(
        new RegExp(
          `^Error: Tool "crunch" timed out after ${DEADLINE_MS} ms \\(it took \\d+ ms and kept the process busy, so it could not be stopped sooner\\)$`,
        ),
      ),
    });
    expect(replies[1]).toEqual({ role: "tool", tool_call_id: "c2", content: "ready" });
  });
});
