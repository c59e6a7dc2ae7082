import { isAbsolute, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { messageOf } from "./errors";
import { isLoaderFailure } from "./loader/loader-failure";
import { isPathSpecifier, typeScriptAlternatives } from "./loader/resolution";
import { REQUIRE_OF_ESM } from "./loader/require-hook";
import { isTypeScriptFile } from "./loader/module-format";

/** toolnexus's own errors (a tool that cannot be built, a duplicate name) already say how to fix them. */
const TOOLNEXUS_ERRORS = ["ScanError", "ToolDefinitionError", "DuplicateToolError", "ExportError"];

/**
 * Why a module could not be loaded, and the fix: the user's fault (a syntax error at
 * file:line:col, an import of something missing, named with the importing file, an error the
 * module threw, with where) told apart from toolnexus's (its loader failed: a problem to report).
 */
export function explainLoadFailure(error: unknown, cwd: string): [reason: string, fix: string] {
  const failure = (error ?? {}) as NodeJS.ErrnoException & { specifier?: string; importer?: string };
  const message = messageOf(error);
  const name = error instanceof Error ? error.name : "Error";
  const shown = (file: string) => shownPath(file, cwd);

  if (isLoaderFailure(error)) {
    return [
      message,
      "This is a problem in toolnexus, not in your module: please report it to the toolnexus maintainers, with the output of `toolnexus --version` and of this command with --verbose.",
    ];
  }
  if (failure.code === REQUIRE_OF_ESM) return [message, ""];
  if (failure.code === "MODULE_NOT_FOUND" || failure.code === "ERR_MODULE_NOT_FOUND") {
    if (failure.specifier === undefined || failure.importer === undefined) return [message, "Install the missing package, or fix the import path."];
    const { specifier, importer } = failure;
    if (!isPathSpecifier(specifier)) {
      const packageName = specifier.startsWith("@") ? specifier.split("/").slice(0, 2).join("/") : specifier.split("/")[0]!;
      return [`${shown(importer)} imports "${specifier}", which cannot be found`, `Install the package (npm install ${packageName}), or fix the import.`];
    }
    const alternatives = isTypeScriptFile(importer) ? typeScriptAlternatives(specifier) : [];
    const looked = alternatives.length > 0 ? ` (nor ${alternatives.map((alternative) => `"${alternative}"`).join(" or ")})` : "";
    return [`${shown(importer)} imports "${specifier}", which does not exist${looked}`, "Fix the import path: it is relative to the importing file."];
  }
  const where = locationOf(error, cwd);
  if (error instanceof SyntaxError) {
    // The TypeScript compiler's messages start with file:line:col already.
    const located = /^\S+:\d+:\d+: /.test(message) || where === undefined ? message : `${where}: ${message}`;
    if (/Cannot use import statement outside a module|Unexpected token 'export'/.test(message)) {
      return [`${name}: ${located}`, 'It is an ES module: name it .mjs (.mts for TypeScript), or set "type": "module" in its package.json.'];
    }
    return [`${name}: ${located}`, "Fix the syntax error."];
  }
  if (TOOLNEXUS_ERRORS.includes(name)) return [`${name}: ${message}`, ""];
  if (/is not defined in ES module scope/.test(message)) {
    return [
      `${name}${where !== undefined ? ` at ${where}` : ""}: ${message}`,
      'The file is CommonJS but loads as an ES module: name it .cjs (.cts for TypeScript), or drop "type": "module" from its package.json.',
    ];
  }
  return [`the module threw ${name}: ${message}${where !== undefined ? ` (at ${where})` : ""}`, "Fix what the module does when it is loaded (run with --verbose for the stack)."];
}

/**
 * Where an error was thrown or found: the file:line V8 puts first in a syntax error's stack, or
 * the first stack frame in a file outside Node and toolnexus (source-mapped, so .ts lines).
 */
function locationOf(error: unknown, cwd: string): string | undefined {
  const stack = error instanceof Error && typeof error.stack === "string" ? error.stack : "";
  const header = /^((?:file:\/\/)?\/[^\n]*?|[A-Za-z]:\\[^\n]*?):(\d+)\n/.exec(stack);
  if (header) return `${shownPath(header[1]!, cwd)}:${header[2]}`;
  for (const frame of stack.split("\n").slice(1)) {
    const match = /\(?((?:file:\/\/)?(?:\/|[A-Za-z]:\\)[^()\s]*?):(\d+):(\d+)\)?\s*$/.exec(frame.trim());
    if (match === null || match[1]!.startsWith("node:") || isToolnexusFile(match[1]!)) continue;
    return `${shownPath(match[1]!, cwd)}:${match[2]}:${match[3]}`;
  }
  return undefined;
}

/** A file of this toolnexus itself (its built code), whose frames say nothing about the user's module. */
function isToolnexusFile(file: string): boolean {
  const path = file.startsWith("file:") ? fileURLToPath(file) : file;
  return !relative(TOOLNEXUS_CODE, path).startsWith("..");
}

/** toolnexus's code: dist/cjs/ for the built CLI (src/ under ts-jest), the folder above cli/. */
const TOOLNEXUS_CODE = join(__dirname, "..");

/** A path relative to `cwd` when it is inside it, else absolute. */
function shownPath(file: string, cwd: string): string {
  const path = file.startsWith("file:") ? fileURLToPath(file) : file;
  const fromCwd = relative(cwd, path);
  return fromCwd === "" || fromCwd.startsWith("..") || isAbsolute(fromCwd) ? path : fromCwd;
}
