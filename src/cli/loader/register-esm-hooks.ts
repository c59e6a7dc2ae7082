import Module from "node:module";
import { pathToFileURL } from "node:url";
import { loadSync, resolveSync, type LoadHookSync, type ResolveHookSync } from "./esm-hooks";
import { loaderFailure } from "./loader-failure";

/** Node 22.15 and later: hooks that run in the calling thread (`module.register` is deprecated from Node 26 on). */
type RegisterHooks = (hooks: { resolve: ResolveHookSync; load: LoadHookSync }) => unknown;

let registered = false;

/** Registers esm-hooks.ts (once): from then on, `import()` loads TypeScript too. */
export function registerEsmHooks(): void {
  if (registered) return;
  const registerHooks = (Module as { registerHooks?: RegisterHooks }).registerHooks;
  try {
    if (registerHooks !== undefined) registerHooks({ resolve: resolveSync, load: loadSync });
    else Module.register(pathToFileURL(require.resolve("./esm-hooks")).href);
  } catch (error) {
    throw loaderFailure("toolnexus could not start its ES module hooks", error);
  }
  registered = true;
}
