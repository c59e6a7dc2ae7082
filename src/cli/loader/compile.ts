import { dirname } from "node:path";
import type * as TS from "typescript";
import { decoratorOptionsFor } from "./decorator-options";
import { loaderFailure } from "./loader-failure";
import type { ModuleFormat } from "./module-format";
import { typeScriptFor } from "./typescript-compiler";

/**
 * Compiles one TypeScript file to JavaScript of `format`, file by file (no type check, as
 * ts-jest's isolatedModules and ts-node --transpile-only do), with the project's TypeScript
 * (typescript-compiler.ts): decorators as the project's tsconfig.json compiles them (legacy ones
 * with `emitDecoratorMetadata`, so the `design:paramtypes` the scanner reads are intact), and an
 * inline source map, so stack traces point at the .ts lines. Syntax errors throw a SyntaxError
 * naming file:line:col.
 */
export function compileTypeScript(source: string, filename: string, format: ModuleFormat): string {
  const ts = typeScriptFor(dirname(filename));
  const decorators = decoratorOptionsFor(ts, filename);
  let output: TS.TranspileOutput;
  try {
    output = ts.transpileModule(source, {
      fileName: filename,
      reportDiagnostics: true,
      compilerOptions: {
        module: format === "module" ? ts.ModuleKind.ESNext : ts.ModuleKind.CommonJS,
        target: ts.ScriptTarget.ES2022,
        ...decorators,
        esModuleInterop: true,
        jsx: ts.JsxEmit.React,
        inlineSourceMap: true,
        inlineSources: true,
      },
    });
  } catch (error) {
    throw loaderFailure(`TypeScript ${ts.version} failed while compiling ${filename}`, error);
  }
  const errors = (output.diagnostics ?? []).filter((diagnostic) => diagnostic.category === ts.DiagnosticCategory.Error);
  if (errors.length > 0) throw new SyntaxError(errors.map((diagnostic) => formatDiagnostic(ts, diagnostic)).join("; "));
  return output.outputText;
}

function formatDiagnostic(ts: typeof TS, diagnostic: TS.Diagnostic): string {
  const text = ts.flattenDiagnosticMessageText(diagnostic.messageText, " ");
  if (diagnostic.file === undefined || diagnostic.start === undefined) return text;
  const { line, character } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
  return `${diagnostic.file.fileName}:${line + 1}:${character + 1}: ${text}`;
}
