/**
 * One signal, any number of calls: a batch of a thousand calls sharing the caller's
 * `ctx.signal` adds one "abort" listener to it (Node warns past ten), an abort still ends every
 * pending call, and a call that settled leaves nothing on the signal behind it.
 */
import { getEventListeners } from "node:events";
import { runInThisContext } from "node:vm";
import { defineTool, Toolkit, type ToolResult } from "../../src";

const CALLS = 1_000;

/**
 * The names of the warnings emitted until `stop()`. Node emits them on the host's `process`,
 * which jest does not hand to a test file (it hands it a copy): both are listened to.
 */
function collectWarnings(): { names: string[]; stop: () => void } {
  const names: string[] = [];
  const onWarning = (warning: Error) => names.push(warning.name);
  const hostProcess = runInThisContext("process") as NodeJS.Process;
  const processes = hostProcess === process ? [process] : [process, hostProcess];
  for (const each of processes) each.on("warning", onWarning);
  return { names, stop: () => processes.forEach((each) => each.off("warning", onWarning)) };
}

/** Lets every pending microtask, nextTick and due timer run. */
const settleEmitted = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

const abortListeners = (signal: AbortSignal) => getEventListeners(signal, "abort").length;

/** A toolkit of one tool that waits 20 ms; `seen` holds the ctx.signal of every call it served. */
function waitingToolkit() {
  const seen: AbortSignal[] = [];
  const wait = defineTool({
    name: "wait",
    description: "Waits 20 ms, then answers.",
    execute: async (args, ctx) => {
      seen.push(ctx.signal!);
      await new Promise((resolve) => setTimeout(resolve, 20));
      return `waited for ${String(args.n)}`;
    },
  });
  return { toolkit: new Toolkit([wait]), seen };
}

const openAICalls = (count: number) =>
  Array.from({ length: count }, (_, i) => ({
    id: `call_${i}`,
    type: "function" as const,
    function: { name: "wait", arguments: JSON.stringify({ n: i }) },
  }));

describe("a signal shared by a thousand calls", () => {
  it("gets one listener while pending, none once settled, and no MaxListenersExceededWarning from a provider batch", async () => {
    const { toolkit, seen } = waitingToolkit();
    const controller = new AbortController();
    const warnings = collectWarnings();
    try {
      const pending = toolkit.runOpenAI(openAICalls(CALLS), { signal: controller.signal });
      expect(seen).toHaveLength(CALLS);
      expect(abortListeners(controller.signal)).toBeLessThanOrEqual(1);

      const messages = await pending;
      await settleEmitted();
      expect(messages).toHaveLength(CALLS);
      expect(
        messages.every(
          (message, i) =>
            message.role === "tool" && message.tool_call_id === `call_${i}` && message.content === `waited for ${i}`,
        ),
      ).toBe(true);
      expect(abortListeners(controller.signal)).toBe(0);
      expect(warnings.names.filter((name) => name === "MaxListenersExceededWarning")).toEqual([]);
    } finally {
      warnings.stop();
    }
  });

  it("gets one listener while pending, none once settled, and no MaxListenersExceededWarning from concurrent execute calls", async () => {
    const { toolkit, seen } = waitingToolkit();
    const controller = new AbortController();
    const warnings = collectWarnings();
    try {
      const pending = Array.from({ length: CALLS }, (_, n) =>
        toolkit.execute("wait", { n }, { signal: controller.signal }),
      );
      expect(seen).toHaveLength(CALLS);
      expect(abortListeners(controller.signal)).toBeLessThanOrEqual(1);

      const results = await Promise.all(pending);
      await settleEmitted();
      expect(results.every((result, n) => !result.isError && result.output === `waited for ${n}`)).toBe(true);
      expect(abortListeners(controller.signal)).toBe(0);
      expect(warnings.names.filter((name) => name === "MaxListenersExceededWarning")).toEqual([]);
    } finally {
      warnings.stop();
    }
  });

  it("still ends every pending call, and each call's own signal, when it aborts mid-batch", async () => {
    const { toolkit, seen } = waitingToolkit();
    const controller = new AbortController();
    const warnings = collectWarnings();
    try {
      const executed = Array.from({ length: CALLS }, (_, n) =>
        toolkit.execute("wait", { n }, { signal: controller.signal }),
      );
      const answered = toolkit.runOpenAI(openAICalls(CALLS), { signal: controller.signal });
      expect(seen).toHaveLength(2 * CALLS);
      expect(abortListeners(controller.signal)).toBeLessThanOrEqual(1);

      controller.abort(new Error("the user left"));
      const results: ToolResult[] = await Promise.all(executed);
      const messages = await answered;
      await settleEmitted();

      expect(results.filter((result) => result.isError && result.metadata?.error === "aborted")).toHaveLength(CALLS);
      expect(new Set(results.map((result) => result.output))).toEqual(
        new Set(['Tool "wait" was aborted: the user left']),
      );
      expect(messages.map((message) => message.content)).toEqual(
        Array.from({ length: CALLS }, () => 'Error: Tool "wait" was aborted: the user left'),
      );
      expect(seen.filter((signal) => signal.aborted)).toHaveLength(2 * CALLS);
      expect(warnings.names.filter((name) => name === "MaxListenersExceededWarning")).toEqual([]);
    } finally {
      warnings.stop();
    }
  });

  it("keeps nothing for settled calls: the next batch on the same signal works, and a later abort reaches no settled call", async () => {
    const { toolkit, seen } = waitingToolkit();
    const controller = new AbortController();

    const first = Array.from({ length: CALLS }, (_, n) =>
      toolkit.execute("wait", { n }, { signal: controller.signal }),
    );
    expect(abortListeners(controller.signal)).toBeLessThanOrEqual(1);
    expect((await Promise.all(first)).every((result) => !result.isError)).toBe(true);
    expect(abortListeners(controller.signal)).toBe(0);

    const second = toolkit.runOpenAI(openAICalls(CALLS), { signal: controller.signal });
    expect(abortListeners(controller.signal)).toBeLessThanOrEqual(1);
    const messages = await second;
    expect(messages.every((message, i) => message.content === `waited for ${i}`)).toBe(true);
    expect(abortListeners(controller.signal)).toBe(0);

    controller.abort();
    expect(seen).toHaveLength(2 * CALLS);
    expect(seen.filter((signal) => signal.aborted)).toEqual([]);

    const afterAbort = await toolkit.execute("wait", { n: 0 }, { signal: controller.signal });
    expect(afterAbort.metadata).toMatchObject({ error: "aborted" });
    expect(seen).toHaveLength(2 * CALLS);
  });
});
