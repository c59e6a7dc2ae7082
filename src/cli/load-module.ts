import { existsSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { CliError, withFix } from "./errors";
import { explainLoadFailure } from "./load-failure";
import { isTypeScriptFile, moduleFormatOf } from "./loader/module-format";
import { registerEsmHooks } from "./loader/register-esm-hooks";
import { registerRequireHook } from "./loader/require-hook";
import { compilerNote } from "./version-report";

export interface LoadedModule {
  /** The absolute path that was loaded. */
  file: string;
  /** `module.exports` (CommonJS) or the module namespace (ES modules). */
  exports: unknown;
}

export interface LoadOptions {
  /** What relative paths and package names are resolved from. Default `process.cwd()`. */
  cwd?: string;
  /** Receives a line for `--verbose` (which compiler loads .ts files). */
  note?: (text: string) => void;
}

/**
 * Loads a user's module: a path relative to `cwd` (or a package name). Its format is decided
 * as Node and TypeScript's NodeNext decide it, by extension and the nearest package.json
 * `"type"`: CommonJS (`.cjs`, `.cts`, and `.js`/`.ts`/`.tsx` outside `"type": "module"`) with
 * `require`, ES modules (`.mjs`, `.mts`, and `.js`/`.ts`/`.tsx` under `"type": "module"`,
 * top-level await included) with `import()`. TypeScript is compiled wherever it is met, by the
 * project's TypeScript 5 or 6 (loader/typescript-compiler.ts), with decorators as its
 * tsconfig.json says. Every failure is a CliError naming the module, the file at fault, the
 * reason and the fix.
 */
export async function loadModule(
  specifier: string,
  { cwd = process.cwd(), note }: LoadOptions = {},
): Promise<LoadedModule> {
  registerRequireHook(); // first: a path without its extension may name a .ts file
  const file = resolveModule(specifier, cwd);
  const fail = (error: unknown) => {
    const [reason, fix] = explainLoadFailure(error, file, cwd);
    return new CliError(`cannot load ${specifier}: ${withFix(reason, fix)}`, 2, { cause: error });
  };
  if (isTypeScriptFile(file)) note?.(compilerNote(dirname(file)));
  try {
    if (moduleFormatOf(file) === "commonjs") {
      try {
        return { file, exports: require(file) as unknown };
      } catch (error) {
        // A .js file Node finds ES-module syntax in, with top-level await: only import() can load it.
        if ((error as NodeJS.ErrnoException).code !== "ERR_REQUIRE_ASYNC_MODULE") throw error;
      }
    }
    registerEsmHooks();
    return { file, exports: await import(pathToFileURL(file).href) };
  } catch (error) {
    throw fail(error);
  }
}

function resolveModule(specifier: string, cwd: string): string {
  const candidate = resolve(cwd, specifier);
  if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  if (existsSync(candidate) && statSync(candidate).isDirectory()) {
    throw new CliError(
      `cannot load ${specifier}: it is a directory. Give the module file, e.g. ${join(specifier, "index.ts")}.`,
    );
  }
  try {
    // A package name, or a path without its extension.
    return createRequire(join(cwd, "package.json")).resolve(specifier);
  } catch {
    throw new CliError(
      `cannot load ${specifier}: no such file (looked in ${cwd}). Check the path; it is relative to the current ` +
        "directory.",
    );
  }
}
