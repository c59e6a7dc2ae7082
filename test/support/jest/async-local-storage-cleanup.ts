/**
 * A jest worker runs many test files in one process, and `node:async_hooks` is one module per
 * process: every AsyncLocalStorage a file's libraries turned on (OpenTelemetry's context
 * manager, LangChain, the Agents SDK ...) would stay on after the file, and each one makes every
 * later promise in the worker slower (fifty of them: fifty times slower). The storages the files
 * before used are turned off as each file starts (after every hook of the one before it ran);
 * a storage used again turns itself back on.
 */
import { AsyncLocalStorage } from "node:async_hooks";

const TRACKED = Symbol.for("toolnexus.test.asyncLocalStorages");
type Tracked = typeof AsyncLocalStorage.prototype & { [TRACKED]?: Set<AsyncLocalStorage<unknown>> };
const prototype = AsyncLocalStorage.prototype as Tracked;

function trackUsedStorages(): Set<AsyncLocalStorage<unknown>> {
  const used = new Set<AsyncLocalStorage<unknown>>();
  prototype[TRACKED] = used;
  const { run, enterWith } = prototype;
  prototype.run = function (this: AsyncLocalStorage<unknown>, ...args: Parameters<typeof run>) {
    used.add(this);
    return run.apply(this, args);
  } as typeof run;
  prototype.enterWith = function (this: AsyncLocalStorage<unknown>, store: unknown) {
    used.add(this);
    return enterWith.call(this, store);
  };
  return used;
}

const used = prototype[TRACKED] ?? trackUsedStorages();
for (const storage of used) storage.disable();
used.clear();
