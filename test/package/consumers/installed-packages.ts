import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { inRange } from "./machine-npm";

/** The fields of an installed package's package.json the matrices read. */
export interface InstalledPackage {
  name: string;
  version: string;
  /** Its `engines.node` range, if it has one. */
  node?: string;
  dependencies: string[];
  /** Its peer dependencies and their ranges (optional ones included). */
  peers: Record<string, string>;
  optionalPeers: string[];
  directory: string;
}

interface PackageJson {
  name: string;
  version: string;
  engines?: { node?: string };
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

/** Why a Node may not run a package: `chain` leads from the package asked about to the one whose engines exclude it. */
export interface EngineExclusion {
  chain: InstalledPackage[];
  /** The last of the chain, whose `engines.node` leaves the Node out. */
  excludedBy: InstalledPackage & { node: string };
}

/** The packages installed in a project, as Node would find them from one another. */
export class InstalledPackages {
  readonly #read = new Map<string, InstalledPackage>();

  constructor(readonly root: string) {}

  /** The package `name` as the project's own code loads it (node_modules/<name> at the root). */
  get(name: string): InstalledPackage {
    const found = this.#find(name, this.root);
    if (found === undefined) throw new Error(`${name} is not installed in ${this.root}`);
    return found;
  }

  /**
   * The packages among `names` and everything they need (dependencies and required peers, as
   * installed) whose `engines.node` leaves out Node `version`: what npm under that Node warns
   * EBADENGINE for. Each comes with the chain of packages that needs it.
   */
  engineExclusions(names: readonly string[], version: string): EngineExclusion[] {
    const exclusions: EngineExclusion[] = [];
    const seen = new Set<string>();
    const queue: InstalledPackage[][] = names.map((name) => [this.get(name)]);
    while (queue.length > 0) {
      const chain = queue.shift()!;
      const last = chain[chain.length - 1]!;
      if (seen.has(last.directory)) continue;
      seen.add(last.directory);
      if (last.node !== undefined && !inRange(version, last.node))
        exclusions.push({ chain, excludedBy: { ...last, node: last.node } });
      const required = Object.keys(last.peers).filter((peer) => !last.optionalPeers.includes(peer));
      for (const dependency of [...last.dependencies, ...required]) {
        const next = this.#find(dependency, last.directory);
        if (next !== undefined) queue.push([...chain, next]);
      }
    }
    return exclusions;
  }

  /** `name` as code in `from` would load it: the nearest node_modules/<name> up from there, within the project. */
  #find(name: string, from: string): InstalledPackage | undefined {
    for (let at = from; ; at = dirname(at)) {
      const directory = join(at, "node_modules", name);
      if (existsSync(join(directory, "package.json"))) return this.#readAt(directory);
      if (at === this.root || dirname(at) === at) return undefined;
    }
  }

  #readAt(directory: string): InstalledPackage {
    let installed = this.#read.get(directory);
    if (installed === undefined) {
      const manifest = JSON.parse(readFileSync(join(directory, "package.json"), "utf8")) as PackageJson;
      installed = {
        name: manifest.name,
        version: manifest.version,
        ...(manifest.engines?.node !== undefined ? { node: manifest.engines.node } : {}),
        dependencies: Object.keys(manifest.dependencies ?? {}),
        peers: manifest.peerDependencies ?? {},
        optionalPeers: Object.entries(manifest.peerDependenciesMeta ?? {})
          .filter(([, meta]) => meta.optional === true)
          .map(([peer]) => peer),
        directory,
      };
      this.#read.set(directory, installed);
    }
    return installed;
  }
}

/** "@openai/agents 0.20.0 needs openai 7.60.0, which requires node >=22.0.0". */
export function describeExclusion({ chain, excludedBy }: EngineExclusion): string {
  const named = chain.map((installed) => `${installed.name} ${installed.version}`);
  const requires = `requires node ${excludedBy.node}`;
  if (named.length === 1) return `${named[0]} ${requires}`;
  return `${named[0]} needs ${named.slice(1).join(", which needs ")}, which ${requires}`;
}
