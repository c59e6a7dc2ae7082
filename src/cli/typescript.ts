import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import type * as TS from "typescript";

/** Extensions compiled by the hook. `.mts` is an ES module: not supported (see load-module.ts). */
export const TYPESCRIPT_EXTENSIONS = [".ts", ".cts", ".tsx"] as const;

let registered = false;

/**
 * Lets `require()` load TypeScript files, compiled one by one with TypeScript's
 * `transpileModule` (CommonJS, `experimentalDecorators`, `emitDecoratorMetadata`), so the
 * `design:paramtypes` metadata the scanner reads is intact. Type errors are not checked (as
 * ts-jest and ts-node --transpile-only do); syntax errors are reported with file and line.
 *
 * TypeScript is an optional peer dependency: it is looked up from `cwd` first (the user's
 * project), then next to toolnexus. A hook already registered (ts-node, say) is left alone.
 */
export function registerTypeScript(cwd: string): void {
  if (registered) return;
  const ts = loadTypeScript(cwd);
  const extensions = require.extensions as NodeJS.RequireExtensions;
  for (const extension of TYPESCRIPT_EXTENSIONS) {
    if (extensions[extension] !== undefined) continue;
    extensions[extension] = (module, filename) => {
      const source = readFileSync(filename, "utf8");
      const output = ts.transpileModule(source, {
        fileName: filename,
        reportDiagnostics: true,
        compilerOptions: {
          module: ts.ModuleKind.CommonJS,
          target: ts.ScriptTarget.ES2022,
          experimentalDecorators: true,
          emitDecoratorMetadata: true,
          esModuleInterop: true,
          jsx: ts.JsxEmit.React,
          inlineSourceMap: true,
          inlineSources: true,
        },
      });
      const errors = (output.diagnostics ?? []).filter((d) => d.category === ts.DiagnosticCategory.Error);
      if (errors.length > 0) throw new SyntaxError(errors.map((d) => formatDiagnostic(ts, d)).join("; "));
      (module as NodeJS.Module & { _compile(code: string, filename: string): void })._compile(output.outputText, filename);
    };
  }
  // Stack traces of the loaded .ts files point at their own lines (inline source maps).
  process.setSourceMapsEnabled?.(true);
  registered = true;
}

function loadTypeScript(cwd: string): typeof TS {
  for (const from of [join(cwd, "package.json"), __filename]) {
    try {
      return createRequire(from)("typescript") as typeof TS;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "MODULE_NOT_FOUND") throw error;
    }
  }
  throw new Error(
    "loading .ts files needs the TypeScript compiler, which is not installed (it is an optional peer dependency of toolnexus). Install it with `npm install --save-dev typescript`, or compile the module to .js first",
  );
}

function formatDiagnostic(ts: typeof TS, diagnostic: TS.Diagnostic): string {
  const text = ts.flattenDiagnosticMessageText(diagnostic.messageText, " ");
  if (diagnostic.file === undefined || diagnostic.start === undefined) return text;
  const { line, character } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
  return `${diagnostic.file.fileName}:${line + 1}:${character + 1}: ${text}`;
}
