/**
 * One listener per signal, whatever the number of calls waiting on it: a batch of a thousand
 * calls sharing the caller's `ctx.signal` adds one "abort" listener to it, not a thousand (Node
 * warns past ten). Each call leaves the fan-out when it settles, and the last one to leave
 * takes the listener off the signal: a caller's signal outlives its calls with nothing of
 * toolnexus on it (Node keeps a timeout or composite signal with a listener alive until it aborts).
 */
interface FanOut {
  readonly callbacks: Set<() => void>;
  readonly listener: () => void;
}

const waiting = new WeakMap<AbortSignal, FanOut>();

/** Calls `callback` once when `signal` aborts; returns the way to stop waiting. May throw for a signal-like object that cannot be listened to. */
export function onAbort(signal: AbortSignal, callback: () => void): () => void {
  const fanOut = waiting.get(signal) ?? listenTo(signal);
  fanOut.callbacks.add(callback);
  return () => {
    if (!fanOut.callbacks.delete(callback) || fanOut.callbacks.size > 0) return;
    if (waiting.get(signal) === fanOut) waiting.delete(signal);
    stopListening(signal, fanOut.listener);
  };
}

function listenTo(signal: AbortSignal): FanOut {
  const callbacks = new Set<() => void>();
  const listener = () => {
    waiting.delete(signal);
    for (const waiter of callbacks) waiter();
  };
  signal.addEventListener("abort", listener, { once: true });
  const fanOut = { callbacks, listener };
  waiting.set(signal, fanOut);
  return fanOut;
}

/** A signal-like object that cannot let go of its listener keeps it: the call still settles. */
function stopListening(signal: AbortSignal, listener: () => void): void {
  try {
    signal.removeEventListener("abort", listener);
  } catch {
    // Nothing more can be done for such a signal; its listener calls no one now.
  }
}
