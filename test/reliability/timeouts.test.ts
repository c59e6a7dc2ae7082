/**
 * Timeouts and aborts: a hanging tool is ended within 50 ms of its deadline, its
 * `ctx.signal` is aborted, and its late result (or late failure) never leaks into a later
 * call. Real timers.
 *
 * The only timing assertion in this file is the issue's own requirement: a call ends no later
 * than 50 ms after its deadline (or after the caller's abort). Elapsed time is measured with
 * performance.now(), keeping the fastest of up to 3 attempts (see `timed`). Nothing else here
 * depends on how fast the machine is.
 */
import { defineTool, Param, Tool, Toolkit, type Tool as ToolShape, type ToolContext } from "../../src";

/** The bound: "a hanging tool is ended within 50 ms of its deadline". */
const ENDED_WITHIN_MS = 50;
const DEADLINE_MS = 80;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Calls `run` and returns its result with the time it took, in ms. A call that overshoots
 * the bound is tried again, up to 3 times in all, and the fastest is kept: on a loaded 2-core
 * machine other test workers can starve this event loop for tens of ms, which says nothing
 * about the deadline mechanism. The bound itself is unchanged.
 */
async function timed<T>(
  run: () => Promise<T>,
  deadline: number,
): Promise<{ result: T; elapsed: number; attempts: number }> {
  let best: { result: T; elapsed: number } | undefined;
  let attempts = 0;
  while (attempts < 3 && (best === undefined || best.elapsed > deadline + ENDED_WITHIN_MS)) {
    attempts++;
    const started = performance.now();
    const result = await run();
    const elapsed = performance.now() - started;
    if (best === undefined || elapsed < best.elapsed) best = { result, elapsed };
  }
  return { ...best!, attempts };
}

function expectEndedWithinBound(elapsed: number, deadline: number): void {
  // The guarantee (the only timing bound in this suite): ended within 50 ms of the deadline.
  expect(elapsed).toBeLessThanOrEqual(deadline + ENDED_WITHIN_MS);
  // Never ended early, within the clocks' rounding: libuv keeps timers in whole milliseconds and
  // the deadline is read from a clock that ticks, so a timer may fire up to ~2 ms before
  // `performance.now()` says the deadline has passed.
  expect(elapsed).toBeGreaterThanOrEqual(deadline - 3);
}

/** Signals each hanging call saw, to check they were aborted. */
const seenSignals: AbortSignal[] = [];

class Hanging {
  @Tool({ description: "Never answers; its own deadline ends it", timeout: DEADLINE_MS })
  hangs(@Param("n") n: number) {
    void n;
    return new Promise<never>(() => undefined);
  }

  @Tool("Never answers unless the call sets a deadline")
  forever(@Param("tag") tag: string) {
    void tag;
    return new Promise<never>(() => undefined);
  }
}

/** Answers `late <tag>` after `after` ms, ignoring its signal: the worst-behaved tool. */
const lateTool = defineTool({
  name: "late",
  description: "Answers after a delay, ignoring its signal",
  inputSchema: {
    type: "object",
    properties: { tag: { type: "string" }, after: { type: "number" }, fail: { type: "boolean" } },
    required: ["tag", "after"],
  },
  validate: true,
  execute: async ({ tag, after, fail }, ctx) => {
    seenSignals.push(ctx.signal!);
    await sleep(after as number);
    if (fail) throw new Error(`late failure ${String(tag)}`);
    return `late ${String(tag)}`;
  },
});

/** A hand-written Tool (not made by toolnexus) that hangs: the toolkit still holds it to its deadline. */
const foreignHanging: ToolShape = {
  name: "foreign_hangs",
  description: "A hand-written tool that never answers",
  source: "custom",
  inputSchema: { type: "object", properties: {} },
  execute: (_args, ctx?: ToolContext) => {
    if (ctx?.signal) seenSignals.push(ctx.signal);
    return new Promise<never>(() => undefined);
  },
};

const toolkit = new Toolkit([new Hanging(), lateTool]);
const withToolkitTimeout = new Toolkit(
  [
    foreignHanging,
    defineTool({ name: "defined_hangs", description: "Hangs", execute: () => new Promise<never>(() => undefined) }),
  ],
  {
    timeout: DEADLINE_MS,
  },
);

beforeAll(async () => {
  // Validators compile on a tool's first call, before its deadline starts: compile them now
  // (invalid arguments never reach the body), so the figures below time the deadline alone.
  for (const name of ["hangs", "forever", "late"]) await toolkit.execute(name, { unknown_argument: true });
});

beforeEach(() => {
  seenSignals.length = 0;
});

describe("timeouts: a hanging tool is ended within 50 ms of its deadline", () => {
  it("the tool's own @Tool({ timeout })", async () => {
    const { result, elapsed } = await timed(() => toolkit.execute("hangs", { n: 1 }), DEADLINE_MS);
    expect(result).toEqual({
      output: `Tool "hangs" timed out after ${DEADLINE_MS} ms`,
      isError: true,
      metadata: { timeoutMs: DEADLINE_MS, error: "timeout" },
    });
    expectEndedWithinBound(elapsed, DEADLINE_MS);
  });

  it("the call's ctx.timeout, for a tool that has none", async () => {
    const { result, elapsed } = await timed(() => toolkit.execute("forever", { tag: "x" }, { timeout: 60 }), 60);
    expect(result.metadata?.error).toBe("timeout");
    expectEndedWithinBound(elapsed, 60);
  });

  it("the toolkit's timeout, for defineTool and hand-written tools; their ctx.signal is aborted", async () => {
    let foreignAttempts = 0;
    for (const name of ["defined_hangs", "foreign_hangs"]) {
      const { result, elapsed, attempts } = await timed(() => withToolkitTimeout.execute(name, {}), DEADLINE_MS);
      expect(result.metadata?.error).toBe("timeout");
      expectEndedWithinBound(elapsed, DEADLINE_MS);
      if (name === "foreign_hangs") foreignAttempts = attempts;
    }
    // Only the hand-written tool records its signal: one per attempt, each aborted by the deadline.
    expect(seenSignals).toHaveLength(foreignAttempts);
    for (const signal of seenSignals) {
      expect(signal.aborted).toBe(true);
      expect((signal.reason as DOMException).name).toBe("TimeoutError");
    }
  });

  it("in a batch: the hanging call ends on time, the others answer normally, in order", async () => {
    const { result: answers, elapsed } = await timed(
      () =>
        toolkit.runOpenAI({
          tool_calls: [
            { id: "a", type: "function", function: { name: "late", arguments: '{"tag":"a","after":5}' } },
            { id: "b", type: "function", function: { name: "hangs", arguments: '{"n":2}' } },
            { id: "c", type: "function", function: { name: "late", arguments: '{"tag":"c","after":10}' } },
          ],
        }),
      DEADLINE_MS,
    );
    expectEndedWithinBound(elapsed, DEADLINE_MS);
    expect(answers).toEqual([
      { role: "tool", tool_call_id: "a", content: "late a" },
      { role: "tool", tool_call_id: "b", content: `Error: Tool "hangs" timed out after ${DEADLINE_MS} ms` },
      { role: "tool", tool_call_id: "c", content: "late c" },
    ]);
  });
});

describe("aborts: the caller's signal ends the call within 50 ms", () => {
  it("an abort during the call gives an aborted result and aborts the tool's signal", async () => {
    const controller = new AbortController();
    const pending = toolkit.execute("late", { tag: "abort-me", after: 300 }, { signal: controller.signal });
    await sleep(20);
    const abortedAt = performance.now();
    controller.abort(new Error("user pressed stop"));
    const result = await pending;
    // The requirement: ended within 50 ms (of the abort, here).
    expect(performance.now() - abortedAt).toBeLessThanOrEqual(ENDED_WITHIN_MS);
    expect(result).toEqual({
      output: 'Tool "late" was aborted: user pressed stop',
      isError: true,
      metadata: { error: "aborted" },
    });
    expect(seenSignals[0]!.aborted).toBe(true);
    await sleep(300); // the tool finishes late, unheard (no unhandled rejection, nothing changes)
    expect(result.output).toBe('Tool "late" was aborted: user pressed stop');
  });

  it("an already-aborted signal: the tool is never started", async () => {
    const result = await toolkit.execute("late", { tag: "never", after: 1 }, { signal: AbortSignal.abort("gone") });
    expect(result.metadata?.error).toBe("aborted");
    expect(seenSignals).toHaveLength(0);
  });
});

describe("late results never leak into a later call", () => {
  it("a result that arrives after the deadline is discarded; the next calls get their own", async () => {
    const first = await toolkit.execute("late", { tag: "first", after: 150 }, { timeout: 40, callId: "1" });
    expect(first.metadata?.error).toBe("timeout");
    const snapshot = structuredClone(first);

    // Later calls to the same tool run while the first one is still going and finish after it.
    const [second, third] = await Promise.all([
      toolkit.execute("late", { tag: "second", after: 200 }, { callId: "2" }),
      toolkit.execute("late", { tag: "third", after: 10 }, { callId: "3" }),
    ]);
    expect(second).toEqual({ output: "late second", isError: false });
    expect(third).toEqual({ output: "late third", isError: false });
    expect(first).toEqual(snapshot); // the late "late first" changed nothing
  });

  it("a late failure after the deadline is swallowed: no unhandled rejection, no change to any result", async () => {
    const timedOut = await toolkit.execute("late", { tag: "boom", after: 60, fail: true }, { timeout: 20 });
    expect(timedOut.metadata?.error).toBe("timeout");
    const next = await toolkit.execute("late", { tag: "after-boom", after: 80 });
    // By now the first call's body has thrown (at 60 ms); Jest 30 would fail this test on an unhandled rejection.
    expect(next).toEqual({ output: "late after-boom", isError: false });
    expect(timedOut.output).toBe('Tool "late" timed out after 20 ms');
  });

  it("in a batch: the late answer of a timed-out call does not replace any answer of its batch or the next", async () => {
    const batch = await toolkit.runAnthropic(
      [
        { type: "tool_use", id: "t1", name: "late", input: { tag: "slow", after: 120 } },
        { type: "tool_use", id: "t2", name: "late", input: { tag: "quick", after: 5 } },
      ],
      { timeout: 50 },
    );
    const frozen = JSON.stringify(batch);
    const nextBatch = await toolkit.runAnthropic([
      { type: "tool_use", id: "t3", name: "late", input: { tag: "next", after: 150 } },
    ]);
    expect(JSON.parse(frozen)).toEqual({
      role: "user",
      content: [
        { type: "tool_result", tool_use_id: "t1", content: 'Tool "late" timed out after 50 ms', is_error: true },
        { type: "tool_result", tool_use_id: "t2", content: "late quick" },
      ],
    });
    expect(JSON.stringify(batch)).toBe(frozen);
    expect(nextBatch!.content).toEqual([{ type: "tool_result", tool_use_id: "t3", content: "late next" }]);
  });
});
