/**
 * Nothing toolnexus starts outlives the calls: once every call settled, however it ended and
 * whichever way the toolkit ran it, the caller's signal carries no listener of toolnexus, no
 * timer or handle of toolnexus is active, and a program that ran its calls exits by itself.
 */
import { spawn } from "node:child_process";
import { getEventListeners } from "node:events";
import { join } from "node:path";
import type { ToolResult } from "../../src";
import {
  FATES,
  kindsOf,
  resourcesAdded,
  startCalls,
  TOOLKITS,
  WORK_DONE,
  type Fate,
} from "../fixtures/runtime/timed-calls";
import { patience } from "../support/time";

const BATCH = 5_000;

/** Lets every pending callback, microtask and due timer run. */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

const abortListeners = (signal: AbortSignal) => getEventListeners(signal, "abort").length;

/** Each way a batch ends, and the one kind of result it ends with. */
const ENDINGS: Array<{ ending: string; fate: Fate; timeout?: number; abort?: boolean; kind: string }> = [
  { ending: "answered", fate: "answers", kind: "ok" },
  { ending: "returned synchronously", fate: "returns", kind: "ok" },
  { ending: "threw", fate: "throws", kind: "execution_failed" },
  { ending: "timed out", fate: "hangs", timeout: 50, kind: "timeout" },
  { ending: "aborted by the caller", fate: "hangs", abort: true, kind: "aborted" },
];

describe.each(Object.keys(TOOLKITS))("a signal shared by 5,000 calls of %s", (toolkitName) => {
  const toolkit = TOOLKITS[toolkitName]!;

  it.each(ENDINGS)("has no listener left once every call $ending", async ({ fate, timeout, abort, kind }) => {
    const controller = new AbortController();
    const pending = startCalls(toolkit, fate, BATCH, {
      signal: controller.signal,
      ...(timeout !== undefined ? { timeout } : {}),
    });
    if (abort === true) controller.abort(new Error("the caller left"));

    const results = await Promise.all(pending);
    await turn();

    expect(kindsOf(results)).toEqual({ [kind]: BATCH });
    expect(abortListeners(controller.signal)).toBe(0);
  });

  it("has no listener left after batches of every ending, and still aborts the next call", async () => {
    const controller = new AbortController();
    for (const { fate, timeout } of ENDINGS.filter((each) => each.abort !== true)) {
      await Promise.all(
        startCalls(toolkit, fate, BATCH / 10, {
          signal: controller.signal,
          ...(timeout !== undefined ? { timeout } : {}),
        }),
      );
      expect(abortListeners(controller.signal)).toBe(0);
    }

    const next = startCalls(toolkit, "hangs", 1, { signal: controller.signal });
    await turn();
    expect(abortListeners(controller.signal)).toBe(1);
    controller.abort(new Error("the caller left"));
    expect(kindsOf(await Promise.all(next))).toEqual({ aborted: 1 });
    expect(abortListeners(controller.signal)).toBe(0);
  });
});

describe("a signal-like object toolnexus cannot fully use", () => {
  it.each([
    [
      "whose removeEventListener throws",
      () => {
        throw new Error("listeners stay here");
      },
    ],
    ["without removeEventListener", undefined],
  ])("%s (it cannot let go of a listener) still has every call settled", async (_name, removeEventListener) => {
    const added: unknown[] = [];
    const signal = {
      aborted: false,
      addEventListener: (_type: string, listener: unknown) => added.push(listener),
      removeEventListener,
    } as unknown as AbortSignal;
    for (const toolkit of Object.values(TOOLKITS)) {
      const results: ToolResult[] = await Promise.all(startCalls(toolkit, "answers", 100, { signal }));
      expect(kindsOf(results)).toEqual({ ok: 100 });
    }
    expect(added.length).toBeGreaterThan(0);
  });

  it("whose reason cannot be read ends every waiting call when it aborts, not at their deadlines", async () => {
    const listeners: Array<() => void> = [];
    const signal = {
      aborted: false,
      addEventListener: (_type: string, listener: () => void) => listeners.push(listener),
      removeEventListener: () => {},
      get reason(): unknown {
        throw new Error("no reason here");
      },
    };
    const pending = Object.values(TOOLKITS).flatMap((toolkit) =>
      startCalls(toolkit, "hangs", 100, { signal: signal as unknown as AbortSignal, timeout: 20_000 }),
    );
    await turn();
    signal.aborted = true;
    for (const listener of listeners) listener();

    const results = await Promise.all(pending);
    expect(kindsOf(results)).toEqual({ aborted: 300 });
    expect(new Set(results.map((result) => result.output))).toEqual(new Set(['Tool "work" was aborted']));
  });
});

describe("1,000 concurrent timed calls", () => {
  it.each(Object.keys(TOOLKITS))("leave no timer or handle active once they settled, on %s", async (toolkitName) => {
    const toolkit = TOOLKITS[toolkitName]!;
    const before = process.getActiveResourcesInfo();
    const aborting = new AbortController();
    // Deadlines of a second or more are timed on the call clock's thread; shorter ones on the system clock.
    const pending = FATES.flatMap((fate) => [
      ...startCalls(toolkit, fate, 100, { timeout: 1_000 }),
      ...startCalls(toolkit, fate, 100, { timeout: 200 }),
      ...startCalls(toolkit, fate, 50, { timeout: 5_000, signal: aborting.signal }),
    ]);
    aborting.abort(new Error("the caller left"));

    const results = await Promise.all(pending);
    await turn();

    expect(results).toHaveLength(1_000);
    expect(resourcesAdded(before, process.getActiveResourcesInfo())).toEqual([]);
  });
});

describe("a program that ran 1,000 concurrent timed calls on each toolkit, then returned", () => {
  const root = join(__dirname, "..", "..");
  const script = join(root, "test", "fixtures", "runtime", "timed-calls-then-return.ts");
  /** How long the program may live once its calls settled: reached only if something keeps its event loop alive. */
  const HARD_KILL_MS = patience(10_000);

  it("exits by itself, with no resource of its calls left and the call clock's thread not holding it", async () => {
    const child = spawn(process.execPath, ["-r", "ts-node/register/transpile-only", script], {
      cwd: root,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    let killer: NodeJS.Timeout | undefined;
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      // Timed from the end of its work, not its start: compiling and running the calls take what the machine's load makes them.
      if (killer === undefined && stdout.startsWith(`${WORK_DONE}\n`)) {
        killer = setTimeout(() => child.kill("SIGKILL"), HARD_KILL_MS);
      }
    });
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
      child.once("exit", (...exit) => resolve(exit)),
    );
    clearTimeout(killer);

    expect({ code, signal, stderr }).toEqual({ code: 0, signal: null, stderr: "" });
    const [done, reportLine] = stdout.trimEnd().split("\n");
    expect(done).toBe(WORK_DONE);
    const report = JSON.parse(reportLine!) as {
      settled: Record<string, Record<string, number>>;
      added: string[];
      workersAtEnd: number;
    };
    const expected = { ok: 500, execution_failed: 250, timeout: 125, aborted: 125 };
    expect(report.settled).toEqual(Object.fromEntries(Object.keys(TOOLKITS).map((name) => [name, expected])));
    expect(report.added).toEqual([]);
    // Its loop ran out of work while the clock's thread still ticked: that thread does not keep the process alive.
    expect(report.workersAtEnd).toBe(1);
  });
});
