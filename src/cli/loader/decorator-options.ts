import { dirname } from "node:path";
import type * as TS from "typescript";
import { setupError } from "./setup-error";

/** Legacy decorators with the `design:*` metadata the scanner reads; `{}` compiles standard (TC39) decorators. */
const LEGACY: TS.CompilerOptions = { experimentalDecorators: true, emitDecoratorMetadata: true };
const STANDARD: TS.CompilerOptions = {};

/**
 * Codes of the errors that keep a tsconfig.json chain from being read (a file it extends is
 * missing: 5083 and 6053; JSON syntax: 1000-1999); the file itself unreadable is always one.
 * Anything else (an option this compiler does not know, no input files) leaves
 * `experimentalDecorators` as the project wrote it.
 */
const UNREADABLE = (code: number) => code === 5083 || code === 6053 || (code >= 1000 && code < 2000);

const byDirectory = new Map<string, TS.CompilerOptions>();

/**
 * The decorator options `filename` compiles with, as its project's tsconfig.json says: the
 * nearest one up from the file (its `extends` followed). Legacy decorators with metadata when it
 * enables `experimentalDecorators`; standard decorators when it does not (code written for
 * TC39 decorators would not compile otherwise). No tsconfig.json: legacy with metadata, which
 * gives the scanner the parameter types of plain `.ts` files. Cached per directory.
 */
export function decoratorOptionsFor(ts: typeof TS, filename: string): TS.CompilerOptions {
  const directory = dirname(filename);
  let options = byDirectory.get(directory);
  if (options === undefined) {
    const configFile = ts.findConfigFile(directory, (path) => ts.sys.fileExists(path));
    options = configFile === undefined ? LEGACY : experimentalDecoratorsIn(ts, configFile) === true ? LEGACY : STANDARD;
    byDirectory.set(directory, options);
  }
  return options;
}

function experimentalDecoratorsIn(ts: typeof TS, configFile: string): boolean | undefined {
  const read = ts.readConfigFile(configFile, (path) => ts.sys.readFile(path));
  // The file list is not needed: a host that lists no directory keeps reading cheap in big projects.
  const host: TS.ParseConfigHost = { ...ts.sys, readDirectory: () => [] };
  const parsed =
    read.error === undefined
      ? ts.parseJsonConfigFileContent(read.config, host, dirname(configFile), undefined, configFile)
      : undefined;
  const unreadable = parsed === undefined ? [read.error!] : parsed.errors.filter((error) => UNREADABLE(error.code));
  if (unreadable.length > 0) {
    const reasons = unreadable.map((error) => ts.flattenDiagnosticMessageText(error.messageText, " ")).join("; ");
    throw setupError(
      `${configFile} cannot be read (${reasons}); the CLI reads it to compile decorators as the project does ` +
        "(experimentalDecorators, or standard decorators without it). Fix it or the file it extends.",
    );
  }
  return parsed?.options.experimentalDecorators;
}
