/**
 * Node's module customization hooks (registered by register-esm-hooks.ts): ES-module TypeScript
 * compiled to ES modules, CommonJS TypeScript handed to the CommonJS loader (require-hook.ts),
 * and a TypeScript file's import of `./x.js` resolved to `./x.ts` when there is no `./x.js`.
 * Each hook comes twice: asynchronous for `module.register` (on a thread of its own, Node 20
 * and 22.14 and earlier) and synchronous for `module.registerHooks` (in the main thread, Node
 * 22.15 and later, where `module.register` is deprecated from 26 on).
 */
import { readFileSync } from "node:fs";
import type {
  LoadFnOutput,
  LoadHook,
  LoadHookContext,
  ResolveFnOutput,
  ResolveHook,
  ResolveHookContext,
} from "node:module";
import { fileURLToPath } from "node:url";
import { commonJsExportNames } from "./commonjs-export-names";
import { compileTypeScript } from "./compile";
import { isTypeScriptFile, moduleFormatOf } from "./module-format";
import { typeScriptAlternatives } from "./resolution";

/** `module.registerHooks`'s hooks (Node 22.15 and later; not yet in the Node 20 types). */
export type ResolveHookSync = (
  specifier: string,
  context: ResolveHookContext,
  nextResolve: (specifier: string, context?: Partial<ResolveHookContext>) => ResolveFnOutput,
) => ResolveFnOutput;
export type LoadHookSync = (
  url: string,
  context: LoadHookContext,
  nextLoad: (url: string, context?: Partial<LoadHookContext>) => LoadFnOutput,
) => LoadFnOutput;

export const resolve: ResolveHook = async (specifier, context, nextResolve) => {
  try {
    return await nextResolve(specifier, context);
  } catch (error) {
    for (const alternative of alternativesAfter(error, specifier, context)) {
      try {
        return await nextResolve(alternative, context);
      } catch (failure) {
        if (!isNotFound(failure)) throw failure;
      }
    }
    throw withSpecifier(error, specifier, context);
  }
};

export const resolveSync: ResolveHookSync = (specifier, context, nextResolve) => {
  try {
    return nextResolve(specifier, context);
  } catch (error) {
    for (const alternative of alternativesAfter(error, specifier, context)) {
      try {
        return nextResolve(alternative, context);
      } catch (failure) {
        if (!isNotFound(failure)) throw failure;
      }
    }
    throw withSpecifier(error, specifier, context);
  }
};

export const load: LoadHook = async (url, context, nextLoad) => typeScriptModule(url) ?? nextLoad(url, context);

export const loadSync: LoadHookSync = (url, context, nextLoad) => typeScriptModule(url) ?? nextLoad(url, context);

const isNotFound = (error: unknown) => (error as NodeJS.ErrnoException).code === "ERR_MODULE_NOT_FOUND";

const importerOf = (context: ResolveHookContext) =>
  context.parentURL?.startsWith("file:") ? fileURLToPath(context.parentURL) : undefined;

/** The TypeScript files to try after `error`: for a module not found from a TypeScript importer; rethrows any other error. */
function alternativesAfter(error: unknown, specifier: string, context: ResolveHookContext): string[] {
  if (!isNotFound(error)) throw error;
  const importer = importerOf(context);
  return importer !== undefined && isTypeScriptFile(importer) ? typeScriptAlternatives(specifier) : [];
}

/** The resolution error with what was imported and from where, for the CLI's explanation. */
function withSpecifier(error: unknown, specifier: string, context: ResolveHookContext): Error {
  const importer = importerOf(context);
  return Object.assign(error as Error, { specifier, ...(importer !== undefined ? { importer } : {}) });
}

/** The module a TypeScript file loads as, or undefined for any other URL (the next hook's). */
function typeScriptModule(url: string): LoadFnOutput | undefined {
  const filename = url.startsWith("file:") ? fileURLToPath(url) : undefined;
  if (filename === undefined || !isTypeScriptFile(filename)) return undefined;
  if (moduleFormatOf(filename) === "commonjs")
    return { format: "module", source: commonJsBridge(filename), shortCircuit: true };
  const source = readFileSync(filename, "utf8");
  return { format: "module", source: compileTypeScript(source, filename, "module"), shortCircuit: true };
}

/**
 * An ES module standing for a CommonJS TypeScript file: it loads the file with the main
 * thread's `require` (compiled by require-hook.ts, cached in `require.cache` like any CommonJS
 * module, so `import` and `require` share one instance), `export default` is `module.exports`
 * and each name the file exports is a named export, as Node does for CommonJS JavaScript. (A
 * `commonjs` result without source would go to the same loader, but Node would look for the
 * export names in the TypeScript source, and find few.)
 */
function commonJsBridge(filename: string): string {
  const names = [...commonJsExportNames(filename)];
  return [
    `import { createRequire } from "node:module";`,
    `const exports = createRequire(import.meta.url)(${JSON.stringify(filename)});`,
    `export default exports;`,
    ...names.map((name, index) => `const name${index} = exports[${JSON.stringify(name)}];`),
    names.length > 0
      ? `export { ${names.map((name, index) => `name${index} as ${JSON.stringify(name)}`).join(", ")} };`
      : "",
    "",
  ].join("\n");
}
