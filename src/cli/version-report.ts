import { packageVersion } from "../core/version";
import { hasCompilerApi, typeScriptPackages, whyUnusable } from "./loader/typescript-compiler";

/**
 * `toolnexus --version`: toolnexus's version and the TypeScript the CLI compiles the .ts files
 * of the project in `cwd` with.
 */
export function versionReport(cwd: string): string {
  return `toolnexus ${packageVersion()}\n${compilerReport(cwd)}\n`;
}

/** The line `--verbose` prints before loading a .ts file in `directory`. */
export function compilerNote(directory: string): string {
  return compilerReport(directory);
}

/**
 * Which `typescript` compiles .ts files in `directory`, and why the ones before it in the
 * loader's order do not; read from package.json files, so the compiler is not loaded.
 */
function compilerReport(directory: string): string {
  const candidates = typeScriptPackages(directory);
  const chosen = candidates.find((candidate) => hasCompilerApi(candidate.version));
  const passedOver = candidates
    .slice(0, chosen === undefined ? undefined : candidates.indexOf(chosen))
    .map(whyUnusable);
  if (chosen === undefined) {
    const found = passedOver.length === 0 ? "no typescript package is installed" : passedOver.join("; ");
    return (
      `.ts files cannot be compiled here: ${found}. Install typescript@5 (or typescript-json-schema), or load ` +
      "compiled JavaScript"
    );
  }
  const line = `compiling .ts files with typescript ${chosen.version} (${chosen.whose})`;
  return passedOver.length === 0 ? line : `${line}; ${passedOver.join("; ")}`;
}
