import { readFileSync, realpathSync } from "node:fs";
import { dirname, join } from "node:path";

/** A project's own `typescript` package, as its package.json says. */
export interface ProjectTypeScript {
  version: string;
  /** Its real directory (symlinks resolved), to tell it apart from the one toolnexus runs on. */
  directory: string;
}

/**
 * The `typescript` package code in `directory` would load, if any: the nearest
 * node_modules/typescript up from it. Only its package.json is read, never the compiler, so
 * this costs nothing to the entries that must not load TypeScript.
 */
export function projectTypeScript(directory: string): ProjectTypeScript | undefined {
  for (let at = directory; ; at = dirname(at)) {
    const packageDirectory = join(at, "node_modules", "typescript");
    try {
      const { version } = JSON.parse(readFileSync(join(packageDirectory, "package.json"), "utf8")) as {
        version?: unknown;
      };
      if (typeof version === "string") return { version, directory: realpathSync(packageDirectory) };
    } catch {
      // Not here: look further up.
    }
    if (dirname(at) === at) return undefined;
  }
}
