import { execFile } from "node:child_process";
import { existsSync, mkdirSync, renameSync, rmSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

/** Where tools the tests install from the npm registry are kept between runs: `$TOOLNEXUS_TEST_CACHE`, else the user's cache directory. */
export const TEST_CACHE = process.env.TOOLNEXUS_TEST_CACHE ?? join(homedir(), ".cache", "toolnexus-test");

/** How to run npm: a command, the arguments before npm's own, and the environment to add. */
export interface NpmCommand {
  command: string;
  args: readonly string[];
  env?: NodeJS.ProcessEnv;
}

const MACHINE_NPM: NpmCommand = { command: "npm", args: [] };

/**
 * The path of `file` in `directory`, where `spec` is installed from the npm registry the first
 * time it is asked for and reused after. It is installed beside, then moved in place: a run
 * stopped half-way never leaves a broken install behind.
 */
export async function installOnce(
  directory: string,
  spec: string,
  file: string,
  npm: NpmCommand = MACHINE_NPM,
): Promise<string> {
  const installed = join(directory, file);
  if (existsSync(installed)) return installed;
  const staging = `${directory}.installing-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  await promisify(execFile)(
    npm.command,
    [...npm.args, "install", "--prefix", staging, "--no-save", "--no-audit", "--no-fund", "--loglevel=error", spec],
    { encoding: "utf8", maxBuffer: 16 * 1024 * 1024, env: { ...process.env, ...npm.env } },
  );
  if (!existsSync(installed)) {
    rmSync(directory, { recursive: true, force: true });
    renameSync(staging, directory);
  } else rmSync(staging, { recursive: true, force: true });
  if (!existsSync(installed)) throw new Error(`npm installed ${spec} into ${directory}, but it has no ${file}.`);
  return installed;
}
