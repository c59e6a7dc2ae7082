import Module from "node:module";
import { pathToFileURL } from "node:url";
import { loaderFailure } from "./loader-failure";

let registered = false;

/** Registers esm-hooks.ts (once): from then on, `import()` loads TypeScript too. */
export function registerEsmHooks(): void {
  if (registered) return;
  try {
    Module.register(pathToFileURL(require.resolve("./esm-hooks")).href);
  } catch (error) {
    throw loaderFailure("toolnexus could not start its ES module hooks", error);
  }
  registered = true;
}
