/**
 * One listener per signal, whatever the number of calls waiting on it: a batch of a thousand
 * calls sharing the caller's `ctx.signal` adds one "abort" listener to it, not a thousand (Node
 * warns past ten), and each call leaves the fan-out when it settles.
 */
const waiting = new WeakMap<AbortSignal, Set<() => void>>();

/** Calls `callback` once when `signal` aborts; returns the way to stop waiting. May throw for a signal-like object that cannot be listened to. */
export function onAbort(signal: AbortSignal, callback: () => void): () => void {
  let callbacks = waiting.get(signal);
  if (callbacks === undefined) {
    const fresh = new Set<() => void>();
    signal.addEventListener(
      "abort",
      () => {
        waiting.delete(signal);
        for (const waiter of fresh) waiter();
      },
      { once: true },
    );
    waiting.set(signal, fresh);
    callbacks = fresh;
  }
  callbacks.add(callback);
  const registered = callbacks;
  return () => void registered.delete(callback);
}
