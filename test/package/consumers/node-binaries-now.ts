import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { NODE_CACHE, type NodeMajor } from "../../support/node-binaries";

/** A Node binary of one major: where it is and its exact version. */
export interface NodeRelease {
  major: NodeMajor;
  binary: string;
  /** Without the "v": "24.21.0". */
  version: string;
}

const repositoryRoot = join(__dirname, "..", "..", "..");
const known = new Map<NodeMajor, NodeRelease>();

/**
 * The Node binary `nodeBinary(major)` gives (test/support/node-binaries.ts: the machine's own
 * Node of that major, else the one cached under NODE_CACHE, installed there first if missing),
 * now: the matrices decide their test titles from the exact versions while jest collects the
 * tests, before any asynchronous hook can run.
 */
export function nodeReleaseNow(major: NodeMajor): NodeRelease {
  let release = known.get(major);
  if (release === undefined) {
    const binary = binaryNow(major);
    const version = execFileSync(binary, ["--version"], { encoding: "utf8" }).trim().replace(/^v/, "");
    release = { major, binary, version };
    known.set(major, release);
  }
  return release;
}

function binaryNow(major: NodeMajor): string {
  if (Number(process.versions.node.split(".")[0]) === major) return process.execPath;
  const cached = join(NODE_CACHE, String(major), "node_modules", ".bin", "node");
  if (existsSync(cached)) return cached;
  // Not cached yet: the asynchronous helper installs it, in a process of its own this one waits for.
  return execFileSync(
    process.execPath,
    [
      "-r",
      "ts-node/register/transpile-only",
      "-e",
      `require("./test/support/node-binaries").nodeBinary(${major}).then((binary) => process.stdout.write(binary))`,
    ],
    {
      cwd: repositoryRoot,
      env: { ...process.env, TS_NODE_PROJECT: join(repositoryRoot, "tsconfig.json") },
      encoding: "utf8",
    },
  ).trim();
}
