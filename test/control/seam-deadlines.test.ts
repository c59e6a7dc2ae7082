/**
 * Nothing around a call holds it forever: `authorize`, a tool's `needsApproval` and middleware
 * each wait at most the call's deadline (`ctx.timeout`, the tool's, the toolkit's, or the
 * default), `approve` at most the toolkit's `approvalTimeout` (the call's deadline when left
 * out), and an aborted `ctx.signal` ends any of those waits. The timers this takes are made
 * only for a seam that answers with a promise, and are gone when the call settles.
 */
import { defineTool, Toolkit, ToolDefinitionError, type ToolMiddleware, type ToolResult } from "../../src";

/** A promise that never settles: a seam that never answers. */
const never = <T>(): Promise<T> => new Promise<T>(() => {});

/** A promise and the way to settle it. */
function gate<T = void>(): { promise: Promise<T>; open: (value: T) => void } {
  let open!: (value: T) => void;
  const promise = new Promise<T>((resolve) => (open = resolve));
  return { promise, open };
}

const ticks = async (count = 5) => {
  for (let i = 0; i < count; i++) await new Promise((resolve) => setImmediate(resolve));
};

function counted(options: Parameters<typeof defineTool>[0] extends infer O ? Partial<O> : never = {}) {
  const state = { runs: 0 };
  const tool = defineTool({
    name: "refund",
    description: "Refunds a payment",
    ...options,
    execute: () => `refunded ${++state.runs}`,
  } as Parameters<typeof defineTool>[0]);
  return { tool, state };
}

// Each call below would wait forever without a deadline: a test that hangs fails on Jest's own timeout.
const HANGS = 5_000;

describe("authorize", () => {
  it(
    "that never answers ends the call with a timeout result at the call's deadline, and the tool does not run",
    async () => {
      const { tool, state } = counted();
      const result = await new Toolkit([tool], { authorize: () => never() }).execute("refund", {}, { timeout: 20 });
      expect(result).toEqual({
        output: 'Tool "refund" timed out after 20 ms: its permission check did not answer in time.',
        isError: true,
        metadata: { tool: "refund", timeoutMs: 20, error: "timeout" },
      });
      expect(state.runs).toBe(0);
    },
    HANGS,
  );

  it(
    "of the tool itself is held to the deadline too, the tool's own timeout when the call sets none",
    async () => {
      const { tool, state } = counted({ authorize: () => never(), timeout: 20 });
      expect((await new Toolkit([tool]).execute("refund", {})).metadata).toMatchObject({
        error: "timeout",
        timeoutMs: 20,
      });
      expect(state.runs).toBe(0);
    },
    HANGS,
  );

  it(
    "is held to the toolkit's timeout when neither the call nor the tool sets one",
    async () => {
      const { tool } = counted();
      expect(
        (await new Toolkit([tool], { timeout: 20, authorize: () => never() }).execute("refund", {})).metadata,
      ).toMatchObject({ error: "timeout", timeoutMs: 20 });
    },
    HANGS,
  );

  it(
    "that answers after the deadline changes nothing, and its late rejection is handled",
    async () => {
      const { tool, state } = counted();
      const late = gate<boolean>();
      let rejectionHandled = false;
      const lateRejection = {
        then: (_onFulfilled: unknown, onRejected: unknown) =>
          void (rejectionHandled = typeof onRejected === "function"),
      };
      const kit = new Toolkit([tool], { authorize: () => late.promise });
      expect((await kit.execute("refund", {}, { timeout: 20 })).metadata?.error).toBe("timeout");
      late.open(true);
      const other = new Toolkit([tool], { authorize: () => lateRejection as unknown as Promise<boolean> });
      expect((await other.execute("refund", {}, { timeout: 20 })).metadata?.error).toBe("timeout");
      await ticks();
      expect(rejectionHandled).toBe(true);
      expect(state.runs).toBe(0);
    },
    HANGS,
  );
});

describe("a tool's needsApproval", () => {
  it(
    "that never answers ends the call with a timeout result, and nobody is asked to approve it",
    async () => {
      const { tool, state } = counted({ needsApproval: () => never() });
      const approve = jest.fn(() => true);
      const result = await new Toolkit([tool], { approve }).execute("refund", {}, { timeout: 20 });
      expect(result.metadata).toMatchObject({ error: "timeout", timeoutMs: 20 });
      expect(result.output).toBe(
        'Tool "refund" timed out after 20 ms: its check of whether the call needs approval did not answer in time.',
      );
      expect(approve).not.toHaveBeenCalled();
      expect(state.runs).toBe(0);
    },
    HANGS,
  );

  it(
    "that never answers counts as yes for toolkit.needsApproval (it fails closed)",
    async () => {
      const { tool } = counted({ needsApproval: () => never() });
      expect(await new Toolkit([tool]).needsApproval("refund", {}, { timeout: 20 })).toBe(true);
    },
    HANGS,
  );
});

describe("approve", () => {
  it(
    "that never answers denies the call once the approvalTimeout has passed, saying nobody answered in time",
    async () => {
      const { tool, state } = counted({ needsApproval: true });
      const result = await new Toolkit([tool], { approve: () => never(), approvalTimeout: 20 }).execute("refund", {});
      expect(result).toEqual({
        output:
          'The call to tool "refund" did not run: nobody answered its approval request within 20 ms. Tell the user it needs their approval.',
        isError: true,
        metadata: { tool: "refund", timeoutMs: 20, error: "denied" },
      });
      expect(state.runs).toBe(0);
    },
    HANGS,
  );

  it(
    "is given the call's deadline when the toolkit sets no approvalTimeout",
    async () => {
      const { tool } = counted({ needsApproval: true });
      expect(
        (await new Toolkit([tool], { approve: () => never() }).execute("refund", {}, { timeout: 20 })).metadata,
      ).toMatchObject({ error: "denied", timeoutMs: 20 });
    },
    HANGS,
  );

  it("has an approvalTimeout of its own, longer than the call's deadline if need be: a person may take longer than the tool", async () => {
    const { tool, state } = counted({ needsApproval: true });
    const answer = gate<boolean>();
    const approve = () => answer.promise;
    const pending = new Toolkit([tool], { approve, approvalTimeout: 10_000 }).execute("refund", {}, { timeout: 20 });
    await new Promise((resolve) => setTimeout(resolve, 60));
    answer.open(true);
    expect(await pending).toEqual({ output: "refunded 1", isError: false });
    expect(state.runs).toBe(1);
  });

  it("is refused when the approvalTimeout is not a positive number of milliseconds or false, as timeout is", () => {
    for (const approvalTimeout of [0, -1, Number.NaN, "60000", 2 ** 32]) {
      expect(() => new Toolkit([], { approvalTimeout: approvalTimeout as number })).toThrow(ToolDefinitionError);
      expect(() => new Toolkit([], { approvalTimeout: approvalTimeout as number })).toThrow(
        /^Toolkit: approvalTimeout must be a positive number of milliseconds, at most 2147483647, or false for none/,
      );
    }
    expect(() => new Toolkit([], { approvalTimeout: false })).not.toThrow();
  });
});

describe("middleware", () => {
  it(
    "that never answers ends the call with a timeout result at the call's deadline",
    async () => {
      const { tool, state } = counted();
      const result = await new Toolkit([tool]).use(() => never()).execute("refund", {}, { timeout: 20 });
      expect(result).toEqual({
        output: 'Tool "refund" timed out after 20 ms',
        isError: true,
        metadata: { timeoutMs: 20, error: "timeout" },
      });
      expect(state.runs).toBe(0);
    },
    HANGS,
  );

  it(
    "that calls next() after the call timed out does not run the tool",
    async () => {
      const { tool, state } = counted();
      const resume = gate();
      let late: ToolResult | undefined;
      const stalling: ToolMiddleware = async (_call, next) => {
        await resume.promise;
        late = await next();
        return late;
      };
      expect((await new Toolkit([tool]).use(stalling).execute("refund", {}, { timeout: 20 })).metadata?.error).toBe(
        "timeout",
      );
      resume.open();
      await ticks();
      expect(state.runs).toBe(0);
      expect(late).toMatchObject({
        isError: true,
        output: 'Tool "refund" did not run: a middleware called next() after it, or the call, had answered.',
      });
    },
    HANGS,
  );

  it("that answers and later calls next() does not run the tool, synchronous or not", async () => {
    const { tool, state } = counted();
    const lateNexts: Array<Promise<ToolResult>> = [];
    const answersFirst: ToolMiddleware[] = [
      (_call, next) => {
        setImmediate(() => lateNexts.push(next()));
        return "from the cache";
      },
      async (_call, next) => {
        setImmediate(() => lateNexts.push(next()));
        return "from the cache";
      },
    ];
    for (const middleware of answersFirst) {
      expect(await new Toolkit([tool]).use(middleware).execute("refund", {})).toEqual({
        output: "from the cache",
        isError: false,
      });
    }
    await ticks();
    expect(lateNexts).toHaveLength(2);
    for (const result of await Promise.all(lateNexts)) expect(result.metadata?.error).toBe("execution_failed");
    expect(state.runs).toBe(0);
  });

  it("an inner middleware that answers and later calls next() does not run the tool, while the outer one is still running", async () => {
    const { tool, state } = counted();
    const outerDone = gate();
    let late: Promise<ToolResult> | undefined;
    const outer: ToolMiddleware = async (_call, next) => {
      const result = await next();
      await outerDone.promise;
      return result;
    };
    const inner: ToolMiddleware = (_call, next) => {
      setImmediate(() => (late = next()));
      return "inner answer";
    };
    const pending = new Toolkit([tool]).use(outer).use(inner).execute("refund", {});
    await ticks();
    expect((await late!).metadata?.error).toBe("execution_failed");
    outerDone.open();
    expect((await pending).output).toBe("inner answer");
    expect(state.runs).toBe(0);
  });

  it("still gives a second next() the first run's result while it has not answered", async () => {
    const { tool, state } = counted();
    const twice: ToolMiddleware = async (_call, next) => {
      const first = await next();
      const second = await next();
      return `${first.output} | ${second.output}`;
    };
    expect((await new Toolkit([tool]).use(twice).execute("refund", {})).output).toBe("refunded 1 | refunded 1");
    expect(state.runs).toBe(1);
  });
});

describe("the call's signal", () => {
  it(
    "ends the wait for any seam when it aborts, with an aborted result",
    async () => {
      const seams: Array<[string, (tool: ReturnType<typeof counted>["tool"]) => Toolkit]> = [
        ["authorize", (tool) => new Toolkit([tool], { authorize: () => never() })],
        ["approve", (tool) => new Toolkit([{ ...tool, needsApproval: true }], { approve: () => never() })],
        ["middleware", (tool) => new Toolkit([tool]).use(() => never())],
      ];
      for (const [, make] of seams) {
        const { tool, state } = counted();
        const controller = new AbortController();
        const pending = make(tool).execute("refund", {}, { signal: controller.signal, timeout: false });
        await ticks();
        controller.abort(new Error("user left"));
        expect(await pending).toMatchObject({
          isError: true,
          output: 'Tool "refund" was aborted: user left',
          metadata: { error: "aborted" },
        });
        expect(state.runs).toBe(0);
      }
    },
    HANGS,
  );
});

describe("visible", () => {
  it("answers synchronously: a promise hides the tool, and its rejection is handled, never left unhandled", async () => {
    const { tool, state } = counted();
    let rejectionHandled = false;
    const rejecting = {
      then: (_onFulfilled: unknown, onRejected: unknown) => void (rejectionHandled = typeof onRejected === "function"),
    };
    const kits = [
      new Toolkit([tool], { visible: () => rejecting as unknown as boolean }),
      new Toolkit([{ ...tool, visible: () => rejecting as unknown as boolean }]),
    ];
    for (const kit of kits) {
      rejectionHandled = false;
      expect(kit.tools({})).toEqual([]);
      expect((await kit.execute("refund", {})).metadata?.error).toBe("unknown_tool");
      await ticks();
      expect(rejectionHandled).toBe(true);
    }
    expect(state.runs).toBe(0);
  });
});

describe("a deadline that is not one", () => {
  it("refuses the call before any seam runs, as its body would", async () => {
    const { tool, state } = counted({ needsApproval: true });
    const approve = jest.fn(() => true);
    const result = await new Toolkit([tool], { approve }).execute("refund", {}, { timeout: -5 });
    expect(result).toMatchObject({
      isError: true,
      output: 'Tool "refund" was not run: the timeout must be a positive number of milliseconds or false (got -5).',
    });
    expect(approve).not.toHaveBeenCalled();
    expect(state.runs).toBe(0);
  });
});

describe("the timers the seams take", () => {
  const activeTimers = () => process.getActiveResourcesInfo().filter((resource) => resource === "Timeout").length;

  it(
    "are all gone once the calls settle, whichever way they ended",
    async () => {
      const before = activeTimers();
      const { tool } = counted({ needsApproval: async () => true });
      const kit = new Toolkit([tool], { authorize: async () => true, approve: async () => true }).use(
        async (_call, next) => next(),
      );
      await Promise.all(Array.from({ length: 20 }, () => kit.execute("refund", {})));
      const refusing = new Toolkit([tool], { authorize: async () => false });
      await Promise.all(Array.from({ length: 20 }, () => refusing.execute("refund", {})));
      const timingOut = new Toolkit([tool], { authorize: () => never() });
      await Promise.all(Array.from({ length: 5 }, () => timingOut.execute("refund", {}, { timeout: 10 })));
      expect(activeTimers()).toBe(before);
    },
    HANGS,
  );

  it("are not made for seams that answer at once, nor for a tool with no seams", async () => {
    const { tool } = counted({ needsApproval: () => true, authorize: () => true });
    const kit = new Toolkit([tool], { authorize: () => true, approve: () => true });
    const cached = new Toolkit([tool], { approve: () => true }).use(() => "from the cache");
    const plain = new Toolkit([counted().tool]);
    const setTimeoutSpy = jest.spyOn(global, "setTimeout");
    try {
      expect((await kit.execute("refund", {})).isError).toBe(false);
      expect((await cached.execute("refund", {})).output).toBe("from the cache");
      expect((await plain.execute("refund", {})).isError).toBe(false);
      expect(setTimeoutSpy).not.toHaveBeenCalled();
    } finally {
      setTimeoutSpy.mockRestore();
    }
  });
});
