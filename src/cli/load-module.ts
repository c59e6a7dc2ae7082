import { existsSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { extname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { CliError, messageOf, withFix } from "./errors";
import { registerTypeScript, TYPESCRIPT_EXTENSIONS } from "./typescript";

export interface LoadedModule {
  /** The absolute path that was loaded. */
  file: string;
  /** `module.exports` (CommonJS) or the module namespace (ES modules). */
  exports: unknown;
}

/**
 * Loads a user's module: a path relative to `cwd` (or a package name), `.ts`/`.cts` through
 * the TypeScript hook, `.js`/`.cjs` with `require`, `.mjs` and ES-module `.js` with `import()`.
 * Every failure is a CliError naming the module, the reason and the fix.
 */
export async function loadModule(specifier: string, cwd: string = process.cwd()): Promise<LoadedModule> {
  const file = resolveModule(specifier, cwd);
  const extension = extname(file).toLowerCase();
  const fail = (reason: string, fix: string, cause?: unknown) => new CliError(`cannot load ${specifier}: ${withFix(reason, fix)}`, 2, { cause });

  if (extension === ".mts") {
    throw fail("ES-module TypeScript (.mts) is not supported", "Rename it to .ts, or compile it to .mjs first.");
  }
  if ((TYPESCRIPT_EXTENSIONS as readonly string[]).includes(extension)) {
    try {
      registerTypeScript(cwd);
    } catch (error) {
      throw fail(messageOf(error), "", error);
    }
  }
  try {
    if (extension === ".mjs") return { file, exports: await import(pathToFileURL(file).href) };
    try {
      return { file, exports: require(file) as unknown };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ERR_REQUIRE_ESM") throw error;
      return { file, exports: await import(pathToFileURL(file).href) };
    }
  } catch (error) {
    const [reason, fix] = explain(error);
    throw fail(reason, fix, error);
  }
}

function resolveModule(specifier: string, cwd: string): string {
  const candidate = resolve(cwd, specifier);
  if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  if (existsSync(candidate) && statSync(candidate).isDirectory()) {
    throw new CliError(`cannot load ${specifier}: it is a directory. Give the module file, e.g. ${join(specifier, "index.ts")}.`);
  }
  try {
    // A package name, or a path without its extension.
    return createRequire(join(cwd, "package.json")).resolve(specifier);
  } catch {
    throw new CliError(`cannot load ${specifier}: no such file (looked in ${cwd}). Check the path; it is relative to the current directory.`);
  }
}

function explain(error: unknown): [reason: string, fix: string] {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const message = messageOf(error);
  const name = error instanceof Error ? error.name : "Error";
  if (/Cannot use import statement outside a module|Unexpected token 'export'/.test(message)) {
    return [`${name}: ${message}`, 'It is an ES module: name it .mjs, or set "type": "module" in its package.json.'];
  }
  if (code === "MODULE_NOT_FOUND" || code === "ERR_MODULE_NOT_FOUND") {
    return [message, "Install the missing package, or fix the import path."];
  }
  if (error instanceof SyntaxError) return [`${name}: ${message}`, "Fix the syntax error."];
  // toolnexus's own errors (a tool that cannot be built, a duplicate name) already say how to fix them.
  if (["ScanError", "ToolDefinitionError", "DuplicateToolError", "ExportError"].includes(name)) return [`${name}: ${message}`, ""];
  return [`the module threw ${name}: ${message}`, "Fix what the module does when it is loaded (run with --verbose for the stack)."];
}
