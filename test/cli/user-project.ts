import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fixture, root } from "./run-cli";

const made: string[] = [];

export interface UserProjectOptions {
  /**
   * Installs a `typescript` package of this version in the project's node_modules, shaped like
   * TypeScript 7's: `require("typescript")` gives only `{ version, versionMajorMinor }`.
   */
  typescript?: string;
}

/**
 * A copy of the fixture project `name` (a folder of test/fixtures/cli) in a temporary directory,
 * with toolnexus installed the way a user's project has it: node_modules/toolnexus is this
 * package (its built dist), so the project's `import "toolnexus"` works from ES modules too.
 */
export function userProject(name: string, { typescript }: UserProjectOptions = {}): string {
  const dir = mkdtempSync(join(tmpdir(), `toolnexus-${name}-`));
  made.push(dir);
  cpSync(fixture(name), dir, { recursive: true });
  mkdirSync(join(dir, "node_modules"));
  symlinkSync(root, join(dir, "node_modules", "toolnexus"), "dir");
  if (typescript !== undefined) {
    const lib = join(dir, "node_modules", "typescript", "lib");
    mkdirSync(lib, { recursive: true });
    writeFileSync(
      join(lib, "..", "package.json"),
      JSON.stringify({ name: "typescript", version: typescript, main: "./lib/typescript.js" }),
    );
    const majorMinor = typescript.split(".").slice(0, 2).join(".");
    writeFileSync(
      join(lib, "typescript.js"),
      `module.exports = { version: ${JSON.stringify(typescript)}, versionMajorMinor: ${JSON.stringify(majorMinor)} };\n`,
    );
  }
  return dir;
}

/** Removes every project userProject made (for afterAll). */
export function removeUserProjects(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}
