import { availableParallelism } from "node:os";

/**
 * A limit on work running at once: the function it gives starts `work` while fewer than `slots`
 * run, else when one of them ends (first come, first served). Default: one per core.
 */
export function concurrencyLimit(slots = availableParallelism()): <T>(work: () => Promise<T>) => Promise<T> {
  const waiting: Array<() => void> = [];
  let running = 0;
  return async <T>(work: () => Promise<T>): Promise<T> => {
    if (running >= slots) await new Promise<void>((resolve) => waiting.push(resolve));
    else running++;
    try {
      return await work();
    } finally {
      // The slot passes to the next in line, or is freed.
      const next = waiting.shift();
      if (next !== undefined) next();
      else running--;
    }
  };
}
