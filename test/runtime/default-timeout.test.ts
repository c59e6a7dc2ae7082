/**
 * Every call has a deadline unless one is turned off explicitly: a tool that never settles
 * never hangs `execute`, a tool's own `execute` or a provider round trip, and a tool that
 * keeps the event loop busy past its deadline is reported as a timeout with the time it
 * took, never as a success (a synchronous body cannot be pre-empted, only judged).
 */
import { LIMITS, Param, Tool, Toolkit, defineTool, type ToolResult } from "../../src";
import { COARSE_FROM_MS, TICK_MS, coarseNow, preciseNow } from "../../src/runtime/call-clock";

const { DEFAULT_TIMEOUT_MS } = LIMITS;

const never = () => new Promise<never>(() => undefined);

/** Keeps the process busy for `ms` without yielding, as a CPU-bound tool would. */
function busy(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // spinning on purpose
  }
}

class Stuck {
  @Tool("Waits for an answer that never comes")
  wait(@Param("topic") topic: string) {
    return never().then(() => topic);
  }
}

describe(`the default deadline (${DEFAULT_TIMEOUT_MS} ms)`, () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  async function settledAfterDefault(pending: Promise<unknown>): Promise<unknown> {
    let settled: unknown = "pending";
    void pending.then((value) => (settled = value));
    await jest.advanceTimersByTimeAsync(DEFAULT_TIMEOUT_MS - 1);
    expect(settled).toBe("pending");
    await jest.advanceTimersByTimeAsync(1);
    return settled;
  }

  it("ends a call that never settles, through Toolkit.execute, a tool's own execute and a round trip", async () => {
    const hanging = defineTool({ name: "hang", description: "Hangs", execute: never });
    const toolkit = new Toolkit([hanging, new Stuck()]);
    const timedOut = {
      output: `Tool "hang" timed out after ${DEFAULT_TIMEOUT_MS} ms`,
      isError: true,
      metadata: { error: "timeout", timeoutMs: DEFAULT_TIMEOUT_MS },
    };
    expect(await settledAfterDefault(toolkit.execute("hang", {}))).toEqual(timedOut);
    expect(await settledAfterDefault(hanging.execute({}))).toEqual(timedOut);
    expect(
      await settledAfterDefault(
        toolkit.runOpenAI([{ id: "c1", type: "function", function: { name: "wait", arguments: '{"topic":"x"}' } }]),
      ),
    ).toEqual([
      { role: "tool", tool_call_id: "c1", content: `Error: Tool "wait" timed out after ${DEFAULT_TIMEOUT_MS} ms` },
    ]);
  });

  it("aborts the tool's signal at the deadline", async () => {
    let seen: AbortSignal | undefined;
    const toolkit = new Toolkit([
      defineTool({ name: "hang", description: "Hangs", execute: (_args, ctx) => ((seen = ctx.signal), never()) }),
    ]);
    await settledAfterDefault(toolkit.execute("hang", {}));
    expect(seen?.aborted).toBe(true);
    expect((seen?.reason as DOMException).name).toBe("TimeoutError");
  });

  it("is replaced by the toolkit's, the tool's or the call's own timeout", async () => {
    const toolkit = new Toolkit(
      [
        defineTool({ name: "hang", description: "Hangs", execute: never }),
        defineTool({ name: "own", description: "Own", timeout: 30, execute: never }),
      ],
      { timeout: 20 },
    );
    const results: ToolResult[] = [];
    void toolkit.execute("hang", {}).then((r) => results.push(r));
    void toolkit.execute("own", {}).then((r) => results.push(r));
    void toolkit.execute("hang", {}, { timeout: 40 }).then((r) => results.push(r));
    await jest.advanceTimersByTimeAsync(40);
    expect(results.map((r) => r.output)).toEqual([
      'Tool "hang" timed out after 20 ms',
      'Tool "own" timed out after 30 ms',
      'Tool "hang" timed out after 40 ms',
    ]);
  });

  it("is turned off only explicitly: timeout false on the toolkit, the tool or the call", async () => {
    const unlimited = new Toolkit([defineTool({ name: "hang", description: "Hangs", execute: never })], {
      timeout: false,
    });
    const ownNone = new Toolkit([defineTool({ name: "hang", description: "Hangs", timeout: false, execute: never })]);
    const callNone = new Toolkit([defineTool({ name: "hang", description: "Hangs", execute: never })]);
    const pending = [
      unlimited.execute("hang", {}),
      ownNone.execute("hang", {}),
      callNone.execute("hang", {}, { timeout: false }),
    ];
    let settled = 0;
    for (const call of pending) void call.then(() => settled++);
    await jest.advanceTimersByTimeAsync(10 * DEFAULT_TIMEOUT_MS);
    expect(settled).toBe(0);
  });
});

describe("a tool that keeps the process busy past its deadline", () => {
  it("is a timeout with the time it took, not a success (synchronous body)", async () => {
    const toolkit = new Toolkit([
      defineTool({ name: "crunch", description: "Crunches", timeout: 30, execute: () => (busy(120), "done") }),
    ]);
    const result = await toolkit.execute("crunch", {});
    expect(result.isError).toBe(true);
    expect(result.metadata).toMatchObject({ error: "timeout", timeoutMs: 30 });
    expect(result.metadata?.tookMs).toBeGreaterThanOrEqual(120);
    expect(result.output).toMatch(
      /^Tool "crunch" timed out after 30 ms \(it took \d+ ms and kept the process busy, so it could not be stopped sooner\)$/,
    );
  });

  it("is a timeout too when the busy body is async and resolves before any timer could fire", async () => {
    let seen: AbortSignal | undefined;
    const crunch = defineTool({
      name: "crunch",
      description: "Crunches",
      timeout: 30,
      execute: async (_args, ctx) => {
        seen = ctx.signal;
        busy(120);
        return "done";
      },
    });
    const result = await new Toolkit([crunch]).runAnthropic({
      content: [{ type: "tool_use", id: "t1", name: "crunch", input: {} }],
    });
    expect(result?.content[0]).toMatchObject({
      type: "tool_result",
      tool_use_id: "t1",
      is_error: true,
      content: expect.stringMatching(/^Tool "crunch" timed out after 30 ms \(it took/),
    });
    expect(seen?.aborted).toBe(true);
  });

  it("is a timeout when it throws late, too: the deadline passed first", async () => {
    const result = await defineTool({
      name: "crunch",
      description: "Crunches",
      timeout: 30,
      execute: () => {
        busy(120);
        throw new Error("gave up");
      },
    }).execute({});
    expect(result.metadata?.error).toBe("timeout");
  });

  it("is judged the same on the shared clock that times deadlines of a second or more", async () => {
    const crunch = defineTool({
      name: "crunch",
      description: "Crunches",
      timeout: COARSE_FROM_MS,
      execute: () => (busy(COARSE_FROM_MS + 100), "done"),
    });
    const result = await crunch.execute({});
    expect(result.metadata).toMatchObject({ error: "timeout", timeoutMs: COARSE_FROM_MS });
    expect(result.metadata?.tookMs).toBeGreaterThanOrEqual(COARSE_FROM_MS + 100 - TICK_MS);
  });

  it("is a success when it finishes within its deadline", async () => {
    const result = await defineTool({
      name: "quick",
      description: "Quick",
      timeout: 1_000,
      execute: () => (busy(5), "done"),
    }).execute({});
    expect(result).toEqual({ output: "done", isError: false });
  });
});

describe("ctx.signal", () => {
  it("is made when the tool first reads it, and carried by a spread after that", async () => {
    const seen: unknown[] = [];
    const tool = defineTool({
      name: "look",
      description: "Looks",
      execute: (_args, ctx) => {
        const { signal } = ctx;
        seen.push(signal instanceof AbortSignal, { ...ctx }.signal === signal);
        return "ok";
      },
    });
    await tool.execute({});
    expect(seen).toEqual([true, true]);
  });

  it("is born aborted when read after the call ended", async () => {
    let ctxSeen: { signal?: AbortSignal } | undefined;
    const result = await defineTool({
      name: "late",
      description: "Reads its signal late",
      timeout: 20,
      execute: (_args, ctx) => {
        ctxSeen = ctx;
        return never();
      },
    }).execute({});
    expect(result.metadata?.error).toBe("timeout");
    expect(ctxSeen?.signal?.aborted).toBe(true);
  });
});

describe("the shared clock", () => {
  it("reads the time once it ticks: never ahead of the system clock, and close behind it (a tick, more on a busy machine)", async () => {
    coarseNow();
    await new Promise((resolve) => setTimeout(resolve, 200));
    for (let i = 0; i < 5; i++) {
      const coarse = coarseNow();
      const precise = preciseNow();
      expect(precise - coarse).toBeGreaterThanOrEqual(0);
      expect(precise - coarse).toBeLessThan(250);
      await new Promise((resolve) => setTimeout(resolve, 7));
    }
  });
});
