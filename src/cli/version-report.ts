import { readFileSync } from "node:fs";
import { packageVersion } from "../core/version";
import { projectTypeScript } from "../core/project-typescript";

/**
 * The version of toolnexus's own `typescript` (the one the CLI compiles .ts files with), read
 * from its package.json without loading the compiler; undefined when it cannot be found.
 */
export function ownTypeScriptVersion(): string | undefined {
  try {
    return versionIn(require.resolve("typescript/package.json"));
  } catch {
    return undefined;
  }
}

/**
 * `toolnexus --version`: toolnexus's version and the TypeScript it compiles with (and the project's, when that
 * differs).
 */
export function versionReport(cwd: string): string {
  const own = ownTypeScriptVersion();
  const lines = [
    `toolnexus ${packageVersion()}`,
    own === undefined
      ? "typescript: not found next to toolnexus (reinstall toolnexus)"
      : `typescript ${own} (toolnexus's own; it compiles the .ts files the CLI loads)`,
  ];
  const project = projectTypeScript(cwd)?.version;
  if (project !== undefined && own !== undefined && project !== own)
    lines.push(`your project has typescript ${project}; toolnexus compiles .ts files with its own ${own}`);
  return `${lines.join("\n")}\n`;
}

/** The line `--verbose` prints before loading a .ts file. */
export function compilerNote(cwd: string): string {
  const own = ownTypeScriptVersion() ?? "(not found)";
  const project = projectTypeScript(cwd)?.version;
  return (
    `compiling .ts files with toolnexus's own typescript ${own}` +
    (project !== undefined && project !== own
      ? ` (your project has typescript ${project}, which the CLI does not use)`
      : "")
  );
}

function versionIn(packageJson: string): string | undefined {
  try {
    const version = (JSON.parse(readFileSync(packageJson, "utf8")) as { version?: unknown }).version;
    return typeof version === "string" ? version : undefined;
  } catch {
    return undefined;
  }
}
