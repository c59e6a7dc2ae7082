import { isAbsolute, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { messageOf } from "./errors";
import { findSyntaxError } from "./loader/find-syntax-error";
import { isLoaderFailure } from "./loader/loader-failure";
import { isPathSpecifier, typeScriptAlternatives } from "./loader/resolution";
import { REQUIRE_OF_ESM } from "./loader/require-hook";
import { isSetupError } from "./loader/setup-error";
import { isTypeScriptFile } from "./loader/module-format";

/**
 * toolnexus's own errors (a tool that cannot be built, a stale manifest, a duplicate name) already
 * say how to fix them. Told by name: the module may load another copy of toolnexus than the CLI's.
 */
const TOOLNEXUS_ERRORS = [
  "ToolnexusError",
  "ScanError",
  "ManifestError",
  "ToolDefinitionError",
  "DuplicateToolError",
  "ExportError",
  "InputUnavailableError",
  "PrimitiveError",
];

/**
 * Why a module could not be loaded, and the fix: the user's fault (a syntax error at
 * file:line:col, an import of something missing, named with the importing file, an error the
 * module threw, with where) told apart from toolnexus's (its loader failed: a problem to report).
 */
export function explainLoadFailure(error: unknown, entry: string, cwd: string): [reason: string, fix: string] {
  const failure = (error ?? {}) as NodeJS.ErrnoException & { specifier?: string; importer?: string };
  const message = messageOf(error);
  const name = error instanceof Error ? error.name : "Error";
  const shown = (file: string) => shownPath(file, cwd);

  if (isLoaderFailure(error)) {
    return [
      message,
      "This is a problem in toolnexus, not in your module: reinstall toolnexus, and if that does not help, report it " +
        "to the toolnexus maintainers with the output of `toolnexus --version` and of this command with --verbose.",
    ];
  }
  if (failure.code === REQUIRE_OF_ESM || isSetupError(error)) return [message, ""];
  if (failure.code === "MODULE_NOT_FOUND" || failure.code === "ERR_MODULE_NOT_FOUND") {
    if (failure.specifier === undefined || failure.importer === undefined)
      return [message, "Install the missing package, or fix the import path."];
    const { specifier, importer } = failure;
    if (!isPathSpecifier(specifier)) {
      const packageName = specifier.startsWith("@")
        ? specifier.split("/").slice(0, 2).join("/")
        : specifier.split("/")[0]!;
      return [
        `${shown(importer)} imports "${specifier}", which cannot be found`,
        `Install the package (npm install ${packageName}), or fix the import.`,
      ];
    }
    const alternatives = isTypeScriptFile(importer) ? typeScriptAlternatives(specifier) : [];
    const looked =
      alternatives.length > 0 ? ` (nor ${alternatives.map((alternative) => `"${alternative}"`).join(" or ")})` : "";
    return [
      `${shown(importer)} imports "${specifier}", which does not exist${looked}`,
      "Fix the import path: it is relative to the importing file.",
    ];
  }
  if (error instanceof SyntaxError) {
    // The TypeScript compiler's messages start with file:line:col already; V8 puts the file first in the stack.
    const where = syntaxErrorLocation(error, entry, cwd);
    const located = /^\S+:\d+:\d+: /.test(message) || where === undefined ? message : `${where}: ${message}`;
    if (/does not provide an export named|Named export '[^']*' not found/.test(message)) {
      return [`${name}: ${located}`, "Import a name that module exports, or import its default export."];
    }
    if (/Cannot use import statement outside a module|Unexpected token 'export'/.test(message)) {
      return [
        `${name}: ${located}`,
        'It is an ES module: name it .mjs (.mts for TypeScript), or set "type": "module" in its package.json.',
      ];
    }
    return [`${name}: ${located}`, "Fix the syntax error."];
  }
  if (TOOLNEXUS_ERRORS.includes(name)) return [`${name}: ${message}`, ""];
  const where = thrownAt(error, cwd);
  if (/is not defined in ES module scope/.test(message)) {
    return [
      `${name}${where !== undefined ? ` at ${where}` : ""}: ${message}`,
      'The file is CommonJS but loads as an ES module: name it .cjs (.cts for TypeScript), or drop "type": "module" ' +
        "from its package.json.",
    ];
  }
  return [
    `the module threw ${name}: ${message}${where !== undefined ? ` (at ${where})` : ""}`,
    "Fix what the module does when it is loaded (run with --verbose for the stack).",
  ];
}

/**
 * Where a syntax error is: the file:line V8 puts first in its stack (CommonJS files, and ES
 * modules that fail to link), else the place TypeScript's parser finds among the entry and
 * the files it imports (Node 20 names no file for an ES module that does not parse).
 */
function syntaxErrorLocation(error: SyntaxError, entry: string, cwd: string): string | undefined {
  const header = /^((?:file:\/\/|\/|[A-Za-z]:\\)[^\n]*?):(\d+)\n/.exec(error.stack ?? "");
  if (header) return `${shownPath(header[1]!, cwd)}:${header[2]}`;
  try {
    const found = findSyntaxError(entry);
    return found === undefined ? undefined : shownPath(found, cwd);
  } catch {
    return undefined; // the search is a courtesy: the error is reported without a place
  }
}

/**
 * Where an error was thrown: the first stack frame in a file outside Node and toolnexus (source-mapped, so .ts lines).
 */
function thrownAt(error: unknown, cwd: string): string | undefined {
  const stack = error instanceof Error && typeof error.stack === "string" ? error.stack : "";
  for (const frame of stack.split("\n").slice(1)) {
    const match = /^\s*at (?:.*\()?((?:file:\/\/|\/|[A-Za-z]:\\)[^()]*?):(\d+):(\d+)\)?$/.exec(frame);
    if (match === null || isToolnexusFile(match[1]!)) continue;
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
