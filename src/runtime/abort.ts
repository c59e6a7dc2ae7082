/**
 * One listener per signal, whatever the number of calls waiting on it: a batch of a thousand
 * calls sharing the caller's `ctx.signal` adds one "abort" listener to it, not a thousand (Node
 * warns past ten). Each call leaves the fan-out when it settles, and the last one to leave
 * takes the listener off the signal: a caller's signal outlives its calls with nothing of
 * toolnexus on it (Node keeps a timeout or composite signal with a listener alive until it aborts).
 */
const fanOuts = new WeakMap<AbortSignal, FanOut>();

/**
 * Calls `callback` once when `signal` aborts; returns the way to stop waiting. May throw for a signal-like object that
 * cannot be listened to.
 */
export function onAbort(signal: AbortSignal, callback: () => void): () => void {
  const known = fanOuts.get(signal);
  if (known !== undefined) return known.join(callback);
  const fanOut = new FanOut(signal);
  const leave = fanOut.join(callback);
  fanOuts.set(signal, fanOut);
  return leave;
}

/** Whether `signal` was listened to before (so it can be) and has not aborted since. */
export function listenedBefore(signal: AbortSignal): boolean {
  return fanOuts.has(signal);
}

/**
 * The calls waiting on one signal; listening to it only while there are some. Kept with the signal, so a signal used
 * call after call makes one.
 */
class FanOut {
  readonly #callbacks = new Set<() => void>();
  #listening = false;

  constructor(private readonly signal: AbortSignal) {}

  join(callback: () => void): () => void {
    if (!this.#listening) {
      this.signal.addEventListener("abort", this.#aborted, { once: true });
      this.#listening = true;
    }
    this.#callbacks.add(callback);
    return () => this.#leave(callback);
  }

  #leave(callback: () => void): void {
    if (!this.#callbacks.delete(callback) || this.#callbacks.size > 0 || !this.#listening) return;
    // A signal-like object that cannot let go of the listener keeps it, and it still fans out.
    this.#listening = !stopListening(this.signal, this.#aborted);
  }

  readonly #aborted = () => {
    // A signal aborts once: its fan-out, and the waiters that never left it, go with it.
    fanOuts.delete(this.signal);
    this.#listening = false;
    for (const waiter of this.#callbacks) waiter();
  };
}

/** Whether `listener` is off `signal` now. */
function stopListening(signal: AbortSignal, listener: () => void): boolean {
  try {
    signal.removeEventListener("abort", listener);
    return true;
  } catch {
    return false;
  }
}
