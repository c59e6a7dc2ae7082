import { readFileSync } from "node:fs";
import { dirname, extname, join } from "node:path";

/** How Node runs a file: as an ES module or as CommonJS. */
export type ModuleFormat = "module" | "commonjs";

/** TypeScript source extensions the loader compiles. */
export const TYPESCRIPT_EXTENSIONS: readonly string[] = [".ts", ".tsx", ".mts", ".cts"];

export function isTypeScriptFile(file: string): boolean {
  return TYPESCRIPT_EXTENSIONS.includes(extname(file).toLowerCase());
}

/**
 * A file's format, decided as Node does for JavaScript and TypeScript's NodeNext does for
 * TypeScript: `.mjs`/`.mts` are ES modules, `.cjs`/`.cts` CommonJS, and any other extension
 * follows the `"type"` of the nearest package.json (`"module"`, or CommonJS otherwise).
 */
export function moduleFormatOf(file: string): ModuleFormat {
  const extension = extname(file).toLowerCase();
  if (extension === ".mjs" || extension === ".mts") return "module";
  if (extension === ".cjs" || extension === ".cts") return "commonjs";
  return packageScopeOf(dirname(file)).type === "module" ? "module" : "commonjs";
}

export interface PackageScope {
  /** The nearest package.json, if any. */
  packageJson?: string;
  type?: string;
}

const scopes = new Map<string, PackageScope>();

/** The nearest package.json above `directory` and its `"type"`, cached per directory. */
export function packageScopeOf(directory: string): PackageScope {
  const cached = scopes.get(directory);
  if (cached !== undefined) return cached;
  const packageJson = join(directory, "package.json");
  let text: string | undefined;
  try {
    text = readFileSync(packageJson, "utf8");
  } catch {
    // no package.json here
  }
  let scope: PackageScope;
  if (text !== undefined) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      throw new SyntaxError(
        `${packageJson} is not valid JSON (${(error as Error).message}); it decides whether the files next to it are ` +
          "ES modules. Fix the file.",
      );
    }
    const type = (parsed as { type?: unknown } | null)?.type;
    scope = { packageJson, ...(typeof type === "string" ? { type } : {}) };
  } else {
    const parent = dirname(directory);
    scope = parent === directory ? {} : packageScopeOf(parent);
  }
  scopes.set(directory, scope);
  return scope;
}
