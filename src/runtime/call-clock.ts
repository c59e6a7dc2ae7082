import { Worker } from "node:worker_threads";

/**
 * The clock that times calls against their deadlines. A call that returns synchronously is
 * judged by the time it took, so every call reads a clock twice; on machines where reading the
 * system clock is a system call (virtual machines), that alone would double the cost of a
 * cheap call. For deadlines of a second or more, a thread of its own keeps a clock in shared
 * memory, `TICK_MS` apart, so reading it is a memory read; it runs only while calls are being
 * timed (it ends after `IDLE_MS` without one) and never keeps the process alive. Shorter
 * deadlines, and any read while that thread is not ticking, use the system clock.
 */

/** How far apart the shared clock's readings are: the error on a call's measured time. */
export const TICK_MS = 16;
/** Deadlines shorter than this are timed on the system clock: a tick is then too coarse. */
export const COARSE_FROM_MS = 1_000;
const IDLE_MS = 10_000;

/** Milliseconds on the system's monotonic clock, in the same frame in every thread. */
export function preciseNow(): number {
  return performance.timeOrigin + performance.now();
}

// clock[0]: the time (ms). flags[0]: the thread's state (STOPPED, TICKING, STARTING); flags[1]: 1 when read since its
// last tick.
const STOPPED = 0;
const TICKING = 1;
const STARTING = 2;
let clock: Float64Array | undefined;
let flags: Int32Array | undefined;
let unavailable = false;

/** The time, to within `TICK_MS`; the system clock's when the shared one is not ticking. */
export function coarseNow(): number {
  if (flags !== undefined && flags[0] === TICKING) {
    flags[1] = 1;
    return clock![0]!;
  }
  if (!unavailable && (flags === undefined || flags[0] === STOPPED)) startTicking();
  return preciseNow();
}

/** The clock to time a call whose deadline is `timeout` ms. */
export function clockFor(timeout: number): () => number {
  return timeout >= COARSE_FROM_MS ? coarseNow : preciseNow;
}

const TICKER = `
const { workerData } = require("node:worker_threads");
const clock = new Float64Array(workerData, 0, 1);
const flags = new Int32Array(workerData, 8, 2);
const pause = new Int32Array(new SharedArrayBuffer(4));
let idle = 0;
for (;;) {
  clock[0] = performance.timeOrigin + performance.now();
  Atomics.store(flags, 0, ${TICKING});
  if (Atomics.exchange(flags, 1, 0) === 1) idle = 0;
  else if ((idle += ${TICK_MS}) >= ${IDLE_MS}) break;
  Atomics.wait(pause, 0, 0, ${TICK_MS});
}
Atomics.store(flags, 0, ${STOPPED});
`;

/** A new thread on new memory each time: one that is still ending never writes into the next one's. */
function startTicking(): void {
  try {
    const shared = new SharedArrayBuffer(16);
    const state = new Int32Array(shared, 8, 2);
    state[0] = STARTING;
    state[1] = 1;
    clock = new Float64Array(shared, 0, 1);
    flags = state;
    const ticker = new Worker(TICKER, { eval: true, workerData: shared, stdout: false, stderr: false });
    ticker.unref();
    // A runtime without threads to spare: the system clock it is.
    ticker.once("error", () => (unavailable = true));
  } catch {
    unavailable = true;
  }
}
