/**
 * The consumer matrix's project: the packed toolnexus and the `latest` release of every matrix
 * package in one fresh project under the system's temp directory, installed by npm running
 * under the newest tested Node (so no package that needs a newer Node than npm's makes npm warn
 * EBADENGINE). It is installed while jest collects the test file, once per file: the tests'
 * titles name the versions npm resolved and the Nodes their engines leave out.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { requireBuild } from "../../support/built-package";
import { TESTED_NODE_MAJORS } from "../../support/node-binaries";
import { patience } from "../../support/time";
import { ConsumerProject, consumerEnvironment } from "./consumer-project";
import { InstalledPackages } from "./installed-packages";
import { npmUnder } from "./machine-npm";
import { MATRIX_PACKAGES } from "./matrix-packages";
import { nodeReleaseNow, type NodeRelease } from "./node-binaries-now";
import { PACKED_TARBALL, packageRoot } from "./package-under-test";
import {
  clockSource,
  nestAppSource,
  quickStartSource,
  scanSource,
  toolsModuleSource,
  visitorServiceSource,
  weatherServiceSource,
} from "./sources";

/** One `npm install` of the project: its command line, exit code and everything it printed. */
export interface NpmInstall {
  commandLine: string;
  code: number;
  output: string;
}

export interface MatrixProject {
  project: ConsumerProject;
  installed: InstalledPackages;
  /** The Node npm ran under. */
  npmNode: NodeRelease;
  /** The version of each matrix package's `latest` dist-tag when the project was made: what it pins. */
  latest: Record<string, string>;
  /** `npm install` as a user runs it: without --force or --legacy-peer-deps. */
  install: NpmInstall;
  /**
   * When that install failed on conflicting peer ranges (ERESOLVE): the same install with
   * --legacy-peer-deps, which the uses then run on, so that each still says whether it works.
   */
  fallbackInstall?: NpmInstall;
  /** The installed version of a package of the project. */
  versionOf(name: string): string;
  /** The decorated services compiled by the project's TypeScript (tsconfig.json), once; its output, or its errors thrown. */
  build(): Promise<string>;
  /** Deletes the project's directory. */
  remove(): void;
}

/** The scripts of the uses (copied to uses/) and of the package's smoke suite. */
export const USE_SCRIPTS = join(__dirname, "matrix-uses");
export const SMOKE_SCRIPTS = join(__dirname, "smoke");

/** The newest tested Node: npm runs under it, and the consumer matrix runs its uses on it. */
export const newestNode = (): NodeRelease => nodeReleaseNow(TESTED_NODE_MAJORS[TESTED_NODE_MAJORS.length - 1]!);

/**
 * `npm install` as the matrices run it, with its warnings printed (EBADENGINE is one). Package
 * lists are asked of the registry each time (tarballs still come from the cache): the matrix
 * pins each package to the release `latest` names now, which a cached list may not hold yet.
 */
export const NPM_INSTALL = ["install", "--prefer-online", "--no-audit", "--no-fund", "--loglevel=warn"];

/**
 * The packed package: the tarball the integration project's global setup packed for the run,
 * else one packed now into `directory`.
 */
export function packedTarballNow(directory: string): string {
  const shared = process.env[PACKED_TARBALL];
  if (shared !== undefined) return shared;
  requireBuild("the consumer matrices install the packed package");
  const packed = execFileSync("npm", ["pack", "--json", "--ignore-scripts", "--pack-destination", directory], {
    cwd: packageRoot,
    encoding: "utf8",
  });
  return join(directory, (JSON.parse(packed) as Array<{ filename: string }>)[0]!.filename);
}

function npmInstallNow(directory: string, node: NodeRelease, extraFlags: readonly string[]): NpmInstall {
  const [command, args, env] = npmUnder(node.binary, [...NPM_INSTALL, ...extraFlags]);
  const result = spawnSync(command, args, {
    cwd: directory,
    env: { ...consumerEnvironment(), ...env },
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
    timeout: patience(900_000),
  });
  return {
    commandLine: `npm ${[...NPM_INSTALL, ...extraFlags].join(" ")} (npm-cli.js under Node ${node.version})`,
    code: result.status ?? 1,
    output: `${result.stdout ?? ""}${result.stderr ?? ""}${result.error !== undefined ? String(result.error) : ""}`,
  };
}

/**
 * The version each matrix package's `latest` dist-tag points to, pinned before the install: left
 * as the spec "latest", npm would quietly install an older release that fits toolnexus's peer
 * ranges instead of failing. `npm outdated` reports, as "wanted", the version a dist-tag spec
 * resolves to, for every package in one npm run (`npm view` takes one package per run).
 */
function latestVersionsNow(directory: string): Record<string, string> {
  new ConsumerProject(directory).write({
    "package.json": {
      name: "toolnexus-consumer-matrix",
      private: true,
      dependencies: Object.fromEntries(MATRIX_PACKAGES.map((name) => [name, "latest"])),
    },
  });
  // Exits 1 when anything is outdated, as everything is before an install.
  const result = spawnSync("npm", ["outdated", "--json"], {
    cwd: directory,
    env: consumerEnvironment(),
    encoding: "utf8",
    maxBuffer: 16 * 1024 * 1024,
  });
  let report: Record<string, { wanted?: string }>;
  try {
    report = JSON.parse(result.stdout) as Record<string, { wanted?: string }>;
  } catch {
    throw new Error(`npm outdated --json printed no JSON in ${directory}:\n${result.stdout}\n${result.stderr}`);
  }
  return Object.fromEntries(
    MATRIX_PACKAGES.map((name) => {
      const wanted = report[name]?.wanted;
      if (wanted === undefined) throw new Error(`npm outdated --json gave no version of ${name}:\n${result.stdout}`);
      return [name, wanted];
    }),
  );
}

/** The project's files: package.json, the TypeScript build of the decorated services, the uses' scripts. */
function projectFiles(tarball: string, latest: Record<string, string>): Record<string, string | object> {
  const ext = ".js";
  return {
    "package.json": {
      name: "toolnexus-consumer-matrix",
      private: true,
      type: "module",
      dependencies: { toolnexus: `file:${tarball}`, ...latest },
    },
    // An application's build: decorators with metadata, as NestJS applications compile them.
    "tsconfig.json": {
      compilerOptions: {
        target: "es2022",
        module: "nodenext",
        strict: true,
        experimentalDecorators: true,
        emitDecoratorMetadata: true,
        esModuleInterop: true,
        skipLibCheck: true,
        types: ["node"],
        rootDir: "src",
        outDir: "build",
      },
      include: ["src"],
    },
    "src/clock.ts": clockSource,
    "src/weather.service.ts": weatherServiceSource(ext),
    "src/visitor.service.ts": visitorServiceSource,
    "src/tools.ts": toolsModuleSource(ext),
    "src/scan.ts": scanSource(ext),
    "src/app.ts": nestAppSource(ext, "express"),
    "src/quick-start.ts": quickStartSource(),
  };
}

let installedOnce: MatrixProject | undefined;

/** The matrix project of this test file, installed on the first call (it takes a minute or two). */
export function matrixProject(): MatrixProject {
  installedOnce ??= installMatrixProject();
  return installedOnce;
}

function installMatrixProject(): MatrixProject {
  const directory = mkdtempSync(join(tmpdir(), "toolnexus-matrix-"));
  const latest = latestVersionsNow(directory);
  const project = new ConsumerProject(directory).write(projectFiles(packedTarballNow(directory), latest));
  for (const script of readdirSync(USE_SCRIPTS)) cpSync(join(USE_SCRIPTS, script), join(directory, "uses", script));
  const npmNode = newestNode();
  const install = npmInstallNow(directory, npmNode, []);
  let fallbackInstall: NpmInstall | undefined;
  if (install.code !== 0) {
    if (!/\bERESOLVE\b/.test(install.output))
      throw new Error(`${install.commandLine} failed in ${directory}:\n${install.output}`);
    fallbackInstall = npmInstallNow(directory, npmNode, ["--legacy-peer-deps"]);
    if (fallbackInstall.code !== 0)
      throw new Error(`${fallbackInstall.commandLine} failed in ${directory}:\n${fallbackInstall.output}`);
  }
  const installed = new InstalledPackages(directory);
  let built: Promise<string> | undefined;
  return {
    project,
    installed,
    npmNode,
    latest,
    install,
    ...(fallbackInstall !== undefined ? { fallbackInstall } : {}),
    versionOf: (name) => installed.get(name).version,
    build: () => (built ??= project.build()),
    remove: () => rmSync(directory, { recursive: true, force: true }),
  };
}
