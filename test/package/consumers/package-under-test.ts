import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { requireBuild } from "../../support/built-package";

/** The repository's root: the package `npm pack` turns into the tarball users install. */
export const packageRoot = join(__dirname, "..", "..", "..");

interface PackageJson {
  name: string;
  exports: Record<string, unknown>;
}

const manifest = JSON.parse(readFileSync(join(packageRoot, "package.json"), "utf8")) as PackageJson;

/** Every module specifier a user can import, from package.json "exports": `toolnexus`, `toolnexus/mcp`, ... */
export const entryPoints: readonly string[] = Object.keys(manifest.exports)
  .filter((subpath) => !subpath.endsWith(".json"))
  .map((subpath) => (subpath === "." ? manifest.name : `${manifest.name}/${subpath.slice(2)}`));

/** The version of a dependency the repository is locked to (package-lock.json), so consumers pin what CI tests. */
export function lockedVersion(name: string): string {
  const lock = JSON.parse(readFileSync(join(packageRoot, "package-lock.json"), "utf8")) as {
    packages: Record<string, { version?: string }>;
  };
  const version = lock.packages[`node_modules/${name}`]?.version;
  if (version === undefined)
    throw new Error(
      `${name} is not in package-lock.json: add it to devDependencies, or pin its version in the consumer test.`,
    );
  return version;
}

/** Set by the integration project's global setup: the tarball it packed once for the run, and the JSON list of the paths in it. */
export const PACKED_TARBALL = "TOOLNEXUS_TEST_TARBALL";
export const PACKED_FILES = "TOOLNEXUS_TEST_PACKED_FILES";

/** `npm pack` of the built package with `args`: what it packed. */
export async function npmPack(args: string[]): Promise<{ filename: string; files: Array<{ path: string }> }> {
  requireBuild("the package tests pack the built package");
  const { stdout } = await promisify(execFile)("npm", ["pack", "--json", "--ignore-scripts", ...args], {
    cwd: packageRoot,
    encoding: "utf8",
  });
  return (JSON.parse(stdout) as Array<{ filename: string; files: Array<{ path: string }> }>)[0]!;
}

/** `npm pack` of the built package: the run's shared tarball, or one packed into `directory` when no global setup packed it. */
export async function packInto(directory: string): Promise<string> {
  const shared = process.env[PACKED_TARBALL];
  if (shared !== undefined) return shared;
  return join(directory, (await npmPack(["--pack-destination", directory])).filename);
}

/** The paths in the tarball (relative to the package root). */
export async function packedFiles(): Promise<Set<string>> {
  const shared = process.env[PACKED_FILES];
  if (shared !== undefined) return new Set(JSON.parse(readFileSync(shared, "utf8")) as string[]);
  return new Set((await npmPack(["--dry-run"])).files.map((file) => file.path));
}
