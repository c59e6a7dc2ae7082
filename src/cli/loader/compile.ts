import type * as TS from "typescript";
import { loaderFailure } from "./loader-failure";
import type { ModuleFormat } from "./module-format";

let compiler: typeof TS | undefined;

/**
 * toolnexus's own TypeScript (its `typescript` dependency), required from here and never from
 * the user's project: the project may have another major version (TypeScript 7's package has no
 * JavaScript compiler API), and the options below are written for this one. Loaded on first use.
 */
export function ownTypeScript(): typeof TS {
  if (compiler !== undefined) return compiler;
  let loaded: typeof TS;
  try {
    loaded = require("typescript") as typeof TS;
  } catch (error) {
    throw loaderFailure("toolnexus cannot load its own TypeScript compiler (its `typescript` dependency)", error);
  }
  if (typeof loaded.transpileModule !== "function") {
    throw loaderFailure(
      "toolnexus cannot use its own TypeScript compiler",
      new Error(`typescript ${String(loaded.version)} has no transpileModule`),
    );
  }
  return (compiler = loaded);
}

/**
 * Compiles one TypeScript file to JavaScript of `format`, file by file (no type check, as
 * ts-jest's isolatedModules and ts-node --transpile-only do): `experimentalDecorators` and
 * `emitDecoratorMetadata`, so the `design:paramtypes` the scanner reads are intact, and an
 * inline source map, so stack traces point at the .ts lines. Syntax errors throw a SyntaxError
 * naming file:line:col.
 */
export function compileTypeScript(source: string, filename: string, format: ModuleFormat): string {
  const ts = ownTypeScript();
  let output: TS.TranspileOutput;
  try {
    output = ts.transpileModule(source, {
      fileName: filename,
      reportDiagnostics: true,
      compilerOptions: {
        module: format === "module" ? ts.ModuleKind.ESNext : ts.ModuleKind.CommonJS,
        target: ts.ScriptTarget.ES2022,
        experimentalDecorators: true,
        emitDecoratorMetadata: true,
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
