import { relative, sep } from "node:path";
import type * as ts from "typescript";
import { TS } from "./compiler";

/**
 * The JavaScript file tsc emits for a source file, by the tsconfig's `outDir`/`rootDir` (or
 * next to it without `outDir`), relative to `directory` with `/`. `undefined` when the project
 * emits nothing (`noEmit`, `emitDeclarationOnly`). Takes the tsconfig as parsed, since the
 * program the generator reads is made with `noEmit`.
 */
export function compiledFileOf(
  commandLine: ts.ParsedCommandLine,
  fileName: string,
  directory: string,
): string | undefined {
  const { options } = commandLine;
  if (options.noEmit === true || options.emitDeclarationOnly === true || !commandLine.fileNames.includes(fileName))
    return undefined;
  const emitted = TS.getOutputFileNames(commandLine, fileName, !TS.sys.useCaseSensitiveFileNames).find((file) =>
    /\.[cm]?jsx?$/.test(file),
  );
  return emitted === undefined ? undefined : relative(directory, emitted).split(sep).join("/");
}
