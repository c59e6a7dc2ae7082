import { existsSync, readFileSync, realpathSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type * as TS from "typescript";
import { setupError } from "./setup-error";

/** A `typescript` package the CLI could compile with, found without loading it. */
export interface TypeScriptPackage {
  version: string;
  /** Its directory (where its package.json is). */
  directory: string;
  /** Who it belongs to, for messages: "the project's", "next to toolnexus", "typescript-json-schema's". */
  whose: string;
}

/** Where the CLI's own code is: a `typescript` installed beside toolnexus is found from here. */
const TOOLNEXUS_DIRECTORY = __dirname;

/**
 * The `typescript` packages the CLI may compile a file in `projectDirectory` with, in the order it
 * tries them: the project's own, the one beside toolnexus, then the TypeScript 5 that
 * typescript-json-schema (toolnexus generate's optional peer) depends on, found from the
 * project and from toolnexus. Only package.json files are read: listing costs no compiler load.
 */
export function typeScriptPackages(
  projectDirectory: string,
  toolnexusDirectory: string = TOOLNEXUS_DIRECTORY,
): TypeScriptPackage[] {
  const found = [
    packageFrom(projectDirectory, "the project's"),
    packageFrom(toolnexusDirectory, "next to toolnexus"),
    ...[projectDirectory, toolnexusDirectory].map((from) => {
      const schemaGenerator = packageDirectory(from, "typescript-json-schema");
      return schemaGenerator === undefined ? undefined : packageFrom(schemaGenerator, "typescript-json-schema's");
    }),
  ];
  const seen = new Set<string>();
  return found.filter((candidate): candidate is TypeScriptPackage => {
    if (candidate === undefined || seen.has(candidate.directory)) return false;
    seen.add(candidate.directory);
    return true;
  });
}

/**
 * Whether a version has the JavaScript compiler API the CLI compiles with (`transpileModule`):
 * TypeScript 5 and 6. TypeScript 7's npm package is the native compiler, with no such API.
 */
export function hasCompilerApi(version: string): boolean {
  const major = Number(version.split(".")[0]);
  return major >= 5 && major < 7;
}

const byPackage = new Map<string, typeof TS>();
const byDirectory = new Map<string, typeof TS>();

/**
 * The compiler for a file in `projectDirectory` (loaded once per package, found once per
 * directory): the first of typeScriptPackages with the compiler API. None: a setup error that
 * says what was found, what to install, and that compiled JavaScript needs no compiler.
 */
export function typeScriptFor(projectDirectory: string, toolnexusDirectory: string = TOOLNEXUS_DIRECTORY): typeof TS {
  const key = `${projectDirectory}\0${toolnexusDirectory}`;
  let ts = byDirectory.get(key);
  if (ts === undefined) {
    ts = firstUsable(projectDirectory, toolnexusDirectory);
    byDirectory.set(key, ts);
  }
  return ts;
}

function firstUsable(projectDirectory: string, toolnexusDirectory: string): typeof TS {
  const candidates = typeScriptPackages(projectDirectory, toolnexusDirectory);
  const unusable: string[] = [];
  for (const candidate of candidates) {
    if (!hasCompilerApi(candidate.version)) {
      unusable.push(whyUnusable(candidate));
      continue;
    }
    const cached = byPackage.get(candidate.directory);
    if (cached !== undefined) return cached;
    let ts: typeof TS;
    try {
      ts = createRequire(join(candidate.directory, "package.json"))(candidate.directory) as typeof TS;
    } catch (error) {
      throw setupError(
        `typescript ${candidate.version} (${candidate.whose}, ${candidate.directory}) cannot be loaded ` +
          `(${error instanceof Error ? error.message : String(error)}). Reinstall it: \`npm install\` in the project.`,
      );
    }
    if (typeof ts.transpileModule !== "function") {
      unusable.push(`typescript ${candidate.version} (${candidate.whose}) has no transpileModule`);
      continue;
    }
    byPackage.set(candidate.directory, ts);
    return ts;
  }
  throw missingTypeScript(projectDirectory, unusable);
}

/** Why the CLI passes over a package without the compiler API. */
export function whyUnusable({ version, whose }: TypeScriptPackage): string {
  return Number(version.split(".")[0]) >= 7
    ? `typescript ${version} (${whose}) is the native compiler, whose package has no JavaScript compiler API`
    : `typescript ${version} (${whose}) is older than TypeScript 5`;
}

function missingTypeScript(projectDirectory: string, unusable: readonly string[]): Error {
  const found = unusable.length === 0 ? "no typescript package is installed" : unusable.join("; ");
  return setupError(
    `loading TypeScript files needs the TypeScript 5 compiler API, and ${found} (looked from ${projectDirectory}). ` +
      "Install it in the project: `npm install --save-dev typescript@5`, or `npm install --save-dev " +
      "typescript-json-schema`, which brings TypeScript 5 (and toolnexus generate). Or compile the project and " +
      "give the CLI the JavaScript (e.g. `toolnexus list dist/tools.js`), which needs no compiler.",
  );
}

/**
 * `name`'s package directory (symlinks resolved, as Node's require resolves them) in the nearest
 * node_modules up from `from` that has it: where `require(name)` from there would find it.
 */
function packageDirectory(from: string, name: string): string | undefined {
  for (let at = from; ; at = dirname(at)) {
    const candidate = join(at, "node_modules", name);
    if (existsSync(join(candidate, "package.json"))) return realpathSync(candidate);
    if (dirname(at) === at) return undefined;
  }
}

function packageFrom(from: string, whose: string): TypeScriptPackage | undefined {
  const directory = packageDirectory(from, "typescript");
  if (directory === undefined) return undefined;
  try {
    const { version } = JSON.parse(readFileSync(join(directory, "package.json"), "utf8")) as { version?: unknown };
    return typeof version === "string" ? { version, directory, whose } : undefined;
  } catch {
    return undefined;
  }
}
