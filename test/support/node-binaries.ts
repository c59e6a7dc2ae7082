import { execFile } from "node:child_process";
import { existsSync, mkdirSync, renameSync, rmSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

/** The Node majors toolnexus is tested on (package.json "engines" says the same). */
export const TESTED_NODE_MAJORS = [20, 22, 24, 26] as const;
export type NodeMajor = (typeof TESTED_NODE_MAJORS)[number];

/**
 * Where Node binaries are kept between runs: `$TOOLNEXUS_NODE_CACHE`, else under the user's
 * cache directory. Each major is installed once and reused.
 */
export const NODE_CACHE = process.env.TOOLNEXUS_NODE_CACHE ?? join(homedir(), ".cache", "toolnexus-test", "node");

const pending = new Map<NodeMajor, Promise<string>>();

/**
 * The path of a Node binary of `major`: the newest release of that line, from the npm
 * registry's `node` package (it installs the official binary for this platform from the
 * registry's `node-<platform>-<arch>` package), kept in `NODE_CACHE`. The machine's own Node
 * is used when it is of that major.
 */
export function nodeBinary(major: NodeMajor): Promise<string> {
  if (Number(process.versions.node.split(".")[0]) === major) return Promise.resolve(process.execPath);
  let binary = pending.get(major);
  if (binary === undefined) {
    binary = install(major);
    pending.set(major, binary);
  }
  return binary;
}

async function install(major: NodeMajor): Promise<string> {
  const directory = join(NODE_CACHE, String(major));
  const binary = join(directory, "node_modules", ".bin", "node");
  if (existsSync(binary)) return binary;
  // Installed beside, then moved in place: a run stopped half-way never leaves a broken binary behind.
  const staging = `${directory}.installing-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  await promisify(execFile)(
    "npm",
    ["install", "--prefix", staging, "--no-save", "--no-audit", "--no-fund", "--loglevel=error", `node@${major}`],
    { encoding: "utf8", maxBuffer: 16 * 1024 * 1024 },
  );
  if (!existsSync(binary)) {
    rmSync(directory, { recursive: true, force: true });
    renameSync(staging, directory);
  } else rmSync(staging, { recursive: true, force: true });
  return binary;
}
