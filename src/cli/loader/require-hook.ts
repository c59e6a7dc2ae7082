import { readFileSync } from "node:fs";
import Module from "node:module";
import { dirname } from "node:path";
import { compileTypeScript } from "./compile";
import { isTypeScriptFile, moduleFormatOf, packageScopeOf, TYPESCRIPT_EXTENSIONS } from "./module-format";
import { typeScriptAlternatives } from "./resolution";

/** The `code` of the error for an ES-module TypeScript file loaded with require(). */
export const REQUIRE_OF_ESM = "TOOLNEXUS_REQUIRE_ESM";

/** The parts of Node's CommonJS loader this hook extends (internal, as ts-node and tsx use them). */
interface CommonJsLoader {
  _resolveFilename(request: string, parent: NodeJS.Module | undefined, ...rest: unknown[]): string;
  _extensions: Record<string, (module: NodeJS.Module, filename: string) => void>;
}

let registered = false;

/**
 * Lets `require()` (and so CommonJS TypeScript compiled by this hook) load TypeScript in
 * CommonJS scope: `.ts`/`.tsx` under a package.json without `"type": "module"`, and `.cts`.
 * A TypeScript file's import of `./x.js` finds `./x.ts` when there is no `./x.js` (NodeNext
 * style). An extension another hook already handles (ts-node, say) is left to it.
 */
export function registerRequireHook(): void {
  if (registered) return;
  const loader = Module as unknown as CommonJsLoader;
  for (const extension of TYPESCRIPT_EXTENSIONS) {
    if (loader._extensions[extension] === undefined) loader._extensions[extension] = compileForRequire;
  }
  const resolveFilename = loader._resolveFilename;
  loader._resolveFilename = function (this: unknown, request, parent, ...rest) {
    try {
      return resolveFilename.call(this, request, parent, ...rest);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "MODULE_NOT_FOUND" || parent?.filename == null) throw error;
      if (isTypeScriptFile(parent.filename)) {
        for (const alternative of typeScriptAlternatives(request)) {
          try {
            return resolveFilename.call(this, alternative, parent, ...rest);
          } catch {
            // not this one either
          }
        }
      }
      throw Object.assign(error as Error, { specifier: request, importer: parent.filename });
    }
  };
  // Stack traces of compiled files point at their own lines (inline source maps).
  process.setSourceMapsEnabled(true);
  registered = true;
}

function compileForRequire(module: NodeJS.Module, filename: string): void {
  if (moduleFormatOf(filename) === "module") {
    const scope = packageScopeOf(dirname(filename)).packageJson;
    const why = filename.toLowerCase().endsWith(".mts")
      ? "it is .mts"
      : `${scope ?? "its package.json"} has "type": "module"`;
    throw Object.assign(
      new Error(
        `${filename} is an ES module (${why}), and it is loaded with require() from ` +
          `CommonJS${module.parent?.filename ? ` (${module.parent.filename})` : ""}. Load it with import() from ` +
          "CommonJS, import it from an ES module, or make it CommonJS (.cts)",
      ),
      { code: REQUIRE_OF_ESM },
    );
  }
  const source = readFileSync(filename, "utf8");
  (module as NodeJS.Module & { _compile(code: string, filename: string): void })._compile(
    compileTypeScript(source, filename, "commonjs"),
    filename,
  );
}
