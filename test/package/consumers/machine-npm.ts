import { existsSync } from "node:fs";
import { delimiter, dirname, join } from "node:path";

/**
 * The machine's npm, as files: its CLI script (to run it under another Node than the one it
 * came with) and the semver it decides engines and peer ranges with.
 */
const npmDirectory = join(dirname(dirname(process.execPath)), "lib", "node_modules", "npm");

/** `<prefix of the machine's Node>/lib/node_modules/npm/bin/npm-cli.js`: `<node> <it> install` is npm under that Node. */
export function npmCli(): string {
  const cli = join(npmDirectory, "bin", "npm-cli.js");
  if (!existsSync(cli))
    throw new Error(`npm's CLI is not at ${cli}, beside the Node running the tests (${process.execPath}).`);
  return cli;
}

/**
 * `npm <args>` run by the Node binary at `node` (the machine's npm-cli.js, so that npm installs
 * for that Node), with that Node first on the PATH of npm's scripts, as [command, args, env].
 */
export function npmUnder(node: string, args: readonly string[]): [string, string[], NodeJS.ProcessEnv] {
  return [node, [npmCli(), ...args], { PATH: `${dirname(node)}${delimiter}${process.env.PATH ?? ""}` }];
}

interface Semver {
  satisfies(version: string, range: string, options?: { includePrerelease?: boolean }): boolean;
}

let semver: Semver | undefined;

/** Whether `version` is in `range`, as npm itself decides it (EBADENGINE, ERESOLVE). */
export function inRange(version: string, range: string): boolean {
  semver ??= require(join(npmDirectory, "node_modules", "semver")) as Semver;
  return semver.satisfies(version, range, { includePrerelease: true });
}
