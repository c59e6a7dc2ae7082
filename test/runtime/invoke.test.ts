import { defineTool, type ToolContext, type ToolResult } from "../../src";
import { invokeWithLimits } from "../../src/runtime/invoke";

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The calls below are about limits, not arguments: each body takes only the ctx. */
const invoke = (
  toolName: string,
  body: (ctx: ToolContext) => unknown,
  ctx: ToolContext | undefined,
  defaultTimeout?: number,
) => invokeWithLimits(toolName, (_args: Record<string, never>, callCtx) => body(callCtx), {}, ctx, defaultTimeout);

/** A body that never settles on its own and records the ctx it was given. */
function hangingBody() {
  const seen: { ctx?: ToolContext } = {};
  const body = jest.fn((ctx: ToolContext) => {
    seen.ctx = ctx;
    return new Promise<never>(() => undefined);
  });
  return { body, seen };
}

/** A body that resolves with `value` after `ms`, and records the ctx it was given. */
function slowBody(ms: number, value: unknown) {
  const seen: { ctx?: ToolContext; settled: boolean } = { settled: false };
  const body = jest.fn(async (ctx: ToolContext) => {
    seen.ctx = ctx;
    await sleep(ms);
    seen.settled = true;
    return value;
  });
  return { body, seen };
}

/** The rejections left unhandled until `stop()`. */
function collectUnhandled(): { reasons: unknown[]; stop: () => void } {
  const reasons: unknown[] = [];
  const onUnhandled = (reason: unknown) => reasons.push(reason);
  process.on("unhandledRejection", onUnhandled);
  return { reasons, stop: () => process.off("unhandledRejection", onUnhandled) };
}

describe("invokeWithLimits: timeouts", () => {
  it('ends a call that outlives ctx.timeout with a "timeout" result', async () => {
    const { body } = hangingBody();
    expect(await invoke("slow", body, { timeout: 20 })).toEqual({
      output: 'Tool "slow" timed out after 20 ms',
      isError: true,
      metadata: { timeoutMs: 20, error: "timeout" },
    });
  });

  it("aborts the tool's ctx.signal with a TimeoutError when the deadline passes", async () => {
    const { body, seen } = hangingBody();
    await invoke("slow", body, { timeout: 20 });
    expect(seen.ctx?.signal).toBeInstanceOf(AbortSignal);
    expect(seen.ctx?.signal?.aborted).toBe(true);
    expect((seen.ctx?.signal?.reason as DOMException).name).toBe("TimeoutError");
    expect((seen.ctx?.signal?.reason as DOMException).message).toBe('Tool "slow" timed out after 20 ms');
  });

  it("uses the tool's own timeout when the call sets none", async () => {
    const { body, seen } = hangingBody();
    expect(await invoke("slow", body, undefined, 25)).toEqual({
      output: 'Tool "slow" timed out after 25 ms',
      isError: true,
      metadata: { timeoutMs: 25, error: "timeout" },
    });
    expect(seen.ctx?.signal?.aborted).toBe(true);
  });

  it("lets ctx.timeout win over the tool's own timeout", async () => {
    const { body } = hangingBody();
    expect((await invoke("slow", body, { timeout: 20 }, 10_000)).output).toBe('Tool "slow" timed out after 20 ms');
    const quick = slowBody(40, "finished");
    expect(await invoke("slow", quick.body, { timeout: 10_000 }, 10)).toEqual({ output: "finished", isError: false });
  });

  it("returns the body's result when it finishes first, and never aborts its signal afterwards", async () => {
    const { body, seen } = slowBody(0, { ok: true });
    // A deadline far above the body's time: a loaded machine must not make it late.
    expect(await invoke("fast", body, { timeout: 500 })).toEqual({ output: '{"ok":true}', isError: false });
    await sleep(550); // past the deadline: the timer was cleared
    expect(seen.ctx?.signal?.aborted).toBe(false);
  });

  it("discards a result that arrives after the deadline (the call resolves once, with the timeout)", async () => {
    const { body, seen } = slowBody(50, "late value");
    const results: ToolResult[] = [];
    const call = invoke("slow", body, { timeout: 20 });
    void call.then((result) => results.push(result));
    const result = await call;
    expect(result.metadata?.error).toBe("timeout");
    await sleep(60);
    expect(seen.settled).toBe(true);
    expect(results).toEqual([result]);
    expect(await call).toBe(result);
    expect(JSON.stringify(result)).not.toContain("late value");
  });

  it("swallows a rejection that arrives after the deadline (no unhandled rejection)", async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", onUnhandled);
    try {
      const result = await invoke(
        "slow",
        async () => {
          await sleep(40);
          throw new Error("too late to matter");
        },
        { timeout: 10 },
      );
      expect(result.metadata?.error).toBe("timeout");
      await sleep(60);
      expect(unhandled).toEqual([]);
    } finally {
      process.off("unhandledRejection", onUnhandled);
    }
  });
});

describe("invokeWithLimits: ctx.signal", () => {
  it('answers an already-aborted signal with "aborted" without calling the body', async () => {
    const controller = new AbortController();
    controller.abort("user cancelled");
    const body = jest.fn(() => "should not run");
    expect(await invoke("search", body, { signal: controller.signal })).toEqual({
      output: 'Tool "search" was aborted: user cancelled',
      isError: true,
      metadata: { error: "aborted" },
    });
    expect(body).not.toHaveBeenCalled();
  });

  it("gives the abort reason's message when the reason is an Error", async () => {
    const controller = new AbortController();
    controller.abort(new Error("client went away"));
    expect((await invoke("search", () => "x", { signal: controller.signal })).output).toBe(
      'Tool "search" was aborted: client went away',
    );
  });

  it('answers an abort in the middle of the call with "aborted" and aborts the tool\'s own signal', async () => {
    const controller = new AbortController();
    const { body, seen } = hangingBody();
    const call = invoke("search", body, { signal: controller.signal, timeout: 10_000 });
    await sleep(5);
    expect(body).toHaveBeenCalledTimes(1);
    expect(seen.ctx?.signal?.aborted).toBe(false);
    controller.abort("stop");
    expect(await call).toEqual({
      output: 'Tool "search" was aborted: stop',
      isError: true,
      metadata: { error: "aborted" },
    });
    expect(seen.ctx?.signal?.aborted).toBe(true);
    expect(seen.ctx?.signal?.reason).toBe("stop");
  });

  it("discards the body's later result after an abort", async () => {
    const controller = new AbortController();
    const { body, seen } = slowBody(30, "late");
    const call = invoke("search", body, { signal: controller.signal });
    await sleep(5);
    controller.abort("stop");
    const result = await call;
    await sleep(40);
    expect(seen.settled).toBe(true);
    expect(result).toEqual({
      output: 'Tool "search" was aborted: stop',
      isError: true,
      metadata: { error: "aborted" },
    });
  });

  it("does not pass an abort that happens after the call finished on to the tool", async () => {
    const controller = new AbortController();
    const { body, seen } = slowBody(0, "done");
    expect(await invoke("search", body, { signal: controller.signal })).toEqual({ output: "done", isError: false });
    controller.abort("later");
    expect(seen.ctx?.signal?.aborted).toBe(false);
  });

  /** How a call's signal comes: new to toolnexus, or one a call listened to before (a call then listens once its body returns a promise). */
  const SIGNALS: Array<[string, () => AbortController]> = [
    ["a signal new to it", () => new AbortController()],
    [
      "a signal a call used before",
      () => {
        const controller = new AbortController();
        void invoke("warm", () => "ok", { signal: controller.signal });
        return controller;
      },
    ],
  ];
  const RETURNS: Array<[string, (abort: () => void) => unknown]> = [
    ["returns a value", (abort) => (abort(), "unused")],
    [
      "throws",
      (abort) => {
        abort();
        throw new Error("unused");
      },
    ],
    [
      "returns a promise that rejects later",
      (abort) => (abort(), sleep(5).then(() => Promise.reject(new Error("unused")))),
    ],
  ];

  describe.each(SIGNALS)("with %s", (_signal, makeController) => {
    it.each(RETURNS)(
      "answers aborted, and aborts the tool's own signal, when the body aborts the caller's signal itself and %s",
      async (_returns, body) => {
        const controller = makeController();
        const unhandled = collectUnhandled();
        try {
          let own: AbortSignal | undefined;
          const result = await invoke(
            "stops",
            (ctx) =>
              body(() => {
                own = ctx.signal;
                controller.abort("the body stopped the run");
              }),
            { signal: controller.signal },
          );
          expect(result).toEqual({
            output: 'Tool "stops" was aborted: the body stopped the run',
            isError: true,
            metadata: { error: "aborted" },
          });
          expect(own?.aborted).toBe(true);
          expect(own?.reason).toBe("the body stopped the run");
          await sleep(20);
          expect(unhandled.reasons).toEqual([]);
        } finally {
          unhandled.stop();
        }
      },
    );
  });

  it("ends a call whose signal-like object let an earlier call listen but refuses this one, its body's outcome discarded", async () => {
    let adds = 0;
    const signal = {
      aborted: false,
      addEventListener: () => {
        if (++adds > 1) throw new Error("no more listeners");
      },
      removeEventListener: () => {},
    } as unknown as AbortSignal;
    expect(await invoke("t", () => "first", { signal })).toEqual({ output: "first", isError: false });

    const unhandled = collectUnhandled();
    try {
      let own: AbortSignal | undefined;
      const result = await invoke(
        "t",
        (ctx) => {
          own = ctx.signal;
          return sleep(5).then(() => Promise.reject(new Error("unused")));
        },
        { signal },
      );
      expect(result).toMatchObject({
        output: 'Tool "t" was stopped: its signal cannot be listened to: no more listeners',
        isError: true,
        metadata: { error: "execution_failed" },
      });
      expect(own?.aborted).toBe(true);
      await sleep(20);
      expect(unhandled.reasons).toEqual([]);
    } finally {
      unhandled.stop();
    }
  });

  it("gives the tool its own signal, not the caller's, and keeps the rest of ctx", async () => {
    const controller = new AbortController();
    const { body, seen } = slowBody(0, "ok");
    await invoke("t", body, { signal: controller.signal, callId: "call_1", provider: "openai", state: { user: "u1" } });
    expect(seen.ctx?.signal).toBeInstanceOf(AbortSignal);
    expect(seen.ctx?.signal).not.toBe(controller.signal);
    expect(seen.ctx).toMatchObject({ callId: "call_1", provider: "openai", state: { user: "u1" } });
  });
});

describe("invokeWithLimits: arguments and hostile contexts", () => {
  it("hands the body the arguments it was given, and the ctx", async () => {
    const body = jest.fn((args: { city: string }, ctx: ToolContext) => `${args.city} ${ctx.callId}`);
    expect(await invokeWithLimits("t", body, { city: "Oslo" }, { callId: "c1" })).toEqual({
      output: "Oslo c1",
      isError: false,
    });
    expect(await invokeWithLimits("t", body, { city: "Oslo" }, { callId: "c2", timeout: 1000 })).toEqual({
      output: "Oslo c2",
      isError: false,
    });
  });

  it("answers a ctx.signal that is not an AbortSignal with a result, without running the body", async () => {
    const body = jest.fn(() => "should not run");
    const notASignal = { aborted: false } as unknown as AbortSignal;
    const result = await invoke("t", body, { signal: notASignal });
    expect(result.isError).toBe(true);
    expect(result.metadata?.error).toBe("execution_failed");
    expect(result.output).toMatch(/^Tool "t" was not run: /);
    expect(body).not.toHaveBeenCalled();
  });

  it("answers a ctx whose getter throws with a result, and clears its timer", async () => {
    const body = jest.fn(() => "should not run");
    const ctx = {
      timeout: 10_000,
      get state(): never {
        throw new Error("state is not readable");
      },
    };
    Object.defineProperty(ctx, "state", { enumerable: true });
    const started = Date.now();
    const result = await invoke("t", body, ctx as ToolContext);
    expect(result).toEqual({
      output: 'Tool "t" was not run: state is not readable',
      isError: true,
      metadata: { error: "execution_failed" },
    });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(body).not.toHaveBeenCalled();
  });
});

describe("invokeWithLimits: throws and returns", () => {
  it("turns a synchronous throw into an execution_failed result (with and without limits)", async () => {
    const body = () => {
      throw new Error("sync boom");
    };
    const expected = { output: "sync boom", isError: true, metadata: { error: "execution_failed" } };
    expect(await invoke("t", body, undefined)).toEqual(expected);
    expect(await invoke("t", body, { timeout: 1000 })).toEqual(expected);
    expect(await invoke("t", body, { signal: new AbortController().signal })).toEqual(expected);
  });

  it("turns an asynchronous throw into an execution_failed result (with and without limits)", async () => {
    const body = async () => {
      await sleep(1);
      throw new Error("async boom");
    };
    const expected = { output: "async boom", isError: true, metadata: { error: "execution_failed" } };
    expect(await invoke("t", body, undefined)).toEqual(expected);
    expect(await invoke("t", body, { timeout: 1000 })).toEqual(expected);
  });

  it("gives the body an object ctx even when the caller passed none", async () => {
    const body = jest.fn((ctx: ToolContext) => typeof ctx);
    expect(await invoke("t", body, undefined)).toEqual({ output: "object", isError: false });
    expect(body.mock.calls[0]![0]).toEqual({});
  });

  it("normalizes what the body returns", async () => {
    expect(await invoke("t", () => undefined, undefined)).toEqual({ output: "", isError: false });
    expect(await invoke("t", async () => [1, 2], { timeout: 1000 })).toEqual({ output: "[1,2]", isError: false });
    expect(await invoke("t", () => ({ output: "custom", isError: true }), undefined)).toEqual({
      output: "custom",
      isError: true,
    });
  });
});

describe("timeouts and aborts through defineTool", () => {
  it("ends a tool that outlives its own timeout and aborts its ctx.signal", async () => {
    let signal: AbortSignal | undefined;
    const tool = defineTool({
      name: "slow_tool",
      description: "Never finishes.",
      timeout: 20,
      execute: (_args, ctx) => {
        signal = ctx.signal;
        return new Promise(() => undefined);
      },
    });
    expect(await tool.execute({})).toEqual({
      output: 'Tool "slow_tool" timed out after 20 ms',
      isError: true,
      metadata: { timeoutMs: 20, error: "timeout" },
    });
    expect(signal?.aborted).toBe(true);
  });

  it("ends a tool that outlives ctx.timeout", async () => {
    const tool = defineTool({
      name: "slow_tool",
      description: "Never finishes.",
      execute: () => new Promise(() => undefined),
    });
    expect(await tool.execute({}, { timeout: 20 })).toEqual({
      output: 'Tool "slow_tool" timed out after 20 ms',
      isError: true,
      metadata: { timeoutMs: 20, error: "timeout" },
    });
  });

  it("does not call a tool whose signal is already aborted", async () => {
    const body = jest.fn(() => "ran");
    const tool = defineTool({ name: "t", description: "d", execute: body });
    const controller = new AbortController();
    controller.abort("nope");
    expect(await tool.execute({}, { signal: controller.signal })).toEqual({
      output: 'Tool "t" was aborted: nope',
      isError: true,
      metadata: { error: "aborted" },
    });
    expect(body).not.toHaveBeenCalled();
  });
});
