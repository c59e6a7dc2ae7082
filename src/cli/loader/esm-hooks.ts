/**
 * Node's module customization hooks (registered by register-esm-hooks.ts; they run on a thread
 * of their own): ES-module TypeScript compiled to ES modules, CommonJS TypeScript handed to the
 * main thread's CommonJS loader (require-hook.ts), and a TypeScript file's import of `./x.js`
 * resolved to `./x.ts` when there is no `./x.js`.
 */
import { readFile } from "node:fs/promises";
import type { LoadHook, ResolveHook } from "node:module";
import { fileURLToPath } from "node:url";
import { commonJsExportNames } from "./commonjs-export-names";
import { compileTypeScript } from "./compile";
import { isTypeScriptFile, moduleFormatOf } from "./module-format";
import { typeScriptAlternatives } from "./resolution";

export const resolve: ResolveHook = async (specifier, context, nextResolve) => {
  try {
    return await nextResolve(specifier, context);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ERR_MODULE_NOT_FOUND") throw error;
    const importer = context.parentURL?.startsWith("file:") ? fileURLToPath(context.parentURL) : undefined;
    if (importer !== undefined && isTypeScriptFile(importer)) {
      for (const alternative of typeScriptAlternatives(specifier)) {
        try {
          return await nextResolve(alternative, context);
        } catch (failure) {
          if ((failure as NodeJS.ErrnoException).code !== "ERR_MODULE_NOT_FOUND") throw failure;
        }
      }
    }
    throw Object.assign(error as Error, { specifier, ...(importer !== undefined ? { importer } : {}) });
  }
};

export const load: LoadHook = async (url, context, nextLoad) => {
  const filename = url.startsWith("file:") ? fileURLToPath(url) : undefined;
  if (filename === undefined || !isTypeScriptFile(filename)) return nextLoad(url, context);
  if (moduleFormatOf(filename) === "commonjs")
    return { format: "module", source: commonJsBridge(filename), shortCircuit: true };
  const source = await readFile(filename, "utf8");
  return { format: "module", source: compileTypeScript(source, filename, "module"), shortCircuit: true };
};

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
