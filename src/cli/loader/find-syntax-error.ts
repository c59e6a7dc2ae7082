import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { isFile } from "../../core/is-file";
import { isPathSpecifier, typeScriptAlternatives } from "./resolution";
import { typeScriptFor } from "./typescript-compiler";

/** How many files the search reads before giving up. */
const MAX_FILES = 500;

/**
 * Where the syntax error is that Node reported without naming a file (Node 20 does that for ES
 * modules): the first file:line:col TypeScript's parser finds an error at, among `entry` and
 * the files it imports by relative path (packages are not searched). Runs only once loading
 * has failed; undefined when the parser finds nothing.
 */
export function findSyntaxError(entry: string): string | undefined {
  const ts = typeScriptFor(dirname(entry));
  const queue = [entry];
  const seen = new Set(queue);
  while (queue.length > 0 && seen.size <= MAX_FILES) {
    const file = queue.shift()!;
    let source: string;
    try {
      source = readFileSync(file, "utf8");
    } catch {
      continue;
    }
    const { diagnostics = [] } = ts.transpileModule(source, {
      fileName: file,
      reportDiagnostics: true,
      compilerOptions: {
        allowJs: true,
        module: ts.ModuleKind.ESNext,
        target: ts.ScriptTarget.ES2022,
        jsx: ts.JsxEmit.React,
        experimentalDecorators: true,
      },
    });
    const error = diagnostics.find(
      (diagnostic) => diagnostic.category === ts.DiagnosticCategory.Error && diagnostic.start !== undefined,
    );
    if (error?.file !== undefined) {
      const { line, character } = error.file.getLineAndCharacterOfPosition(error.start!);
      return `${file}:${line + 1}:${character + 1}`;
    }
    for (const { fileName: specifier } of ts.preProcessFile(source, true, true).importedFiles) {
      if (!isPathSpecifier(specifier) || specifier.startsWith("file:")) continue;
      const path = resolve(dirname(file), specifier);
      const found = [path, ...typeScriptAlternatives(path)].find(isFile);
      if (found !== undefined && !seen.has(found)) {
        seen.add(found);
        queue.push(found);
      }
    }
  }
  return undefined;
}
