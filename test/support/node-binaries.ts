import { join } from "node:path";
import { installOnce, TEST_CACHE } from "./cached-install";

/** The Node majors toolnexus is tested on (package.json "engines" says the same). */
export const TESTED_NODE_MAJORS = [20, 22, 24, 26] as const;
export type NodeMajor = (typeof TESTED_NODE_MAJORS)[number];

/**
 * Where Node binaries are kept between runs: `$TOOLNEXUS_NODE_CACHE`, else in the tests' cache
 * (cached-install.ts). Each major is installed once and reused.
 */
export const NODE_CACHE = process.env.TOOLNEXUS_NODE_CACHE ?? join(TEST_CACHE, "node");

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

function install(major: NodeMajor): Promise<string> {
  return installOnce(join(NODE_CACHE, String(major)), `node@${major}`, join("node_modules", ".bin", "node"));
}
