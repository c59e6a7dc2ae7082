/**
 * The official MCP conformance suite (`@modelcontextprotocol/conformance`), run as its CLI on
 * Node 22 (it needs 22 or later; npm installs it for that Node into the tests' cache, so the
 * repository's own install stays free of it and of its engines).
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { installOnce, TEST_CACHE } from "../../support/cached-install";
import { nodeBinary } from "../../support/node-binaries";
import { npmUnder } from "../../package/consumers/machine-npm";

/** A release of the suite the tests hold toolnexus to (a work in progress: pinned, and moved on deliberately). */
export interface ConformanceRelease {
  version: string;
  /** How the server scenarios are picked (`--suite all`, or `--requirements <revision>`). */
  args: string[];
  /** Whether `conformance list`'s scenario with these version tags is one that `args` runs. */
  runs: (versions: readonly string[]) => boolean;
}

/** The latest release: the scenarios of the 2025 revisions. */
export const RELEASE_2025: ConformanceRelease = { version: "0.1.16", args: ["--suite", "all"], runs: () => true };

/**
 * The first release with scenarios of revision 2026-07-28 (a prerelease: nothing later is
 * published yet): what that revision requires, and the Tasks extension's scenarios.
 */
export const RELEASE_2026: ConformanceRelease = {
  version: "0.2.0-alpha.12",
  args: ["--requirements", "2026-07-28"],
  runs: (versions) => versions.includes("2026-07-28") || versions.includes("extension"),
};

/** One check of a scenario, as the suite writes it in its checks.json. */
export interface ConformanceCheck {
  id: string;
  description: string;
  status: "SUCCESS" | "FAILURE" | "WARNING" | "INFO" | "SKIPPED";
  errorMessage?: string;
}

export interface ConformanceRun {
  /** Every server scenario the suite has (active and pending), by name. */
  scenarios: string[];
  /** Each scenario's checks. */
  checks: Map<string, ConformanceCheck[]>;
  /** What the suite printed. */
  output: string;
}

/** A scenario passes as the suite decides it: none of its checks failed, and not all of them were skipped. */
export const passed = (checks: readonly ConformanceCheck[] | undefined): boolean =>
  checks !== undefined &&
  checks.some((check) => check.status !== "SKIPPED") &&
  checks.every((check) => check.status !== "FAILURE");

/** Runs the release's server scenarios against the MCP endpoint at `url`. */
export async function runServerScenarios(url: string, release: ConformanceRelease): Promise<ConformanceRun> {
  const node = await nodeBinary(22);
  const [command, args, env] = npmUnder(node, []);
  const cli = await installOnce(
    join(TEST_CACHE, `mcp-conformance-${release.version}`),
    `@modelcontextprotocol/conformance@${release.version}`,
    join("node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js"),
    { command, args, env },
  );
  const results = mkdtempSync(join(tmpdir(), "toolnexus-conformance-"));
  try {
    const run = (args: string[]) =>
      promisify(execFile)(node, [cli, ...args], { encoding: "utf8", maxBuffer: 16 * 1024 * 1024, timeout: 300_000 })
        // The suite exits 1 when a scenario fails: its results are read either way.
        .catch((error: { stdout?: string; stderr?: string; code?: unknown }) => {
          if (typeof error.stdout !== "string") throw error;
          return { stdout: error.stdout, stderr: error.stderr ?? "" };
        });
    const listed = await run(["list"]);
    const suite = await run(["server", "--url", url, ...release.args, "--output-dir", results]);
    return {
      scenarios: serverScenarios(listed.stdout, release),
      checks: checksIn(results),
      output: `${suite.stdout}${suite.stderr}`,
    };
  } finally {
    rmSync(results, { recursive: true, force: true });
  }
}

/** The names under "Server scenarios" in the output of `conformance list` (`  - name [versions]`) the release runs. */
function serverScenarios(listing: string, release: ConformanceRelease): string[] {
  const section = /Server scenarios[^\n]*\n((?:\s+- [^\n]*\n?)*)/.exec(listing)?.[1];
  if (section === undefined) throw new Error(`conformance list printed no server scenarios:\n${listing}`);
  return [...section.matchAll(/- (\S+)(?: \[([^\]]*)\])?/g)]
    .filter((match) => release.runs((match[2] ?? "").split(",")))
    .map((match) => match[1]!);
}

/** Each scenario's checks.json, from the folders `server-<scenario>-<timestamp>` the suite wrote. */
function checksIn(results: string): Map<string, ConformanceCheck[]> {
  const checks = new Map<string, ConformanceCheck[]>();
  for (const folder of readdirSync(results)) {
    const scenario = /^server-(.+)-\d{4}-\d{2}-\d{2}T[\d-]+Z$/.exec(folder)?.[1];
    if (scenario === undefined) continue;
    checks.set(scenario, JSON.parse(readFileSync(join(results, folder, "checks.json"), "utf8")) as ConformanceCheck[]);
  }
  return checks;
}

/** Where each scenario of a release stands for toolnexus: served (with the warnings it knowingly gets), or not yet. */
export interface ScenarioPlacement {
  served: readonly string[];
  /** Scenario → the warnings of its checks that are known and stated. */
  warned: Record<string, string[]>;
  /** Scenario → the feature toolnexus does not serve yet. */
  notServed: Record<string, string>;
}

const describeChecks = (checks: readonly ConformanceCheck[] | undefined) =>
  checks === undefined
    ? "the suite wrote no results for it"
    : JSON.stringify(
        checks.map(({ id, status, errorMessage }) => ({ id, status, ...(errorMessage ? { errorMessage } : {}) })),
        null,
        2,
      );

/**
 * The specification of a run: every scenario the release lists is placed; every served one
 * passes, warning only where stated; every other one fails until its feature is served.
 */
export function specifyPlacement(run: () => ConformanceRun, { served, warned, notServed }: ScenarioPlacement): void {
  it("places every server scenario of the release as served or not served yet", () => {
    expect([...run().scenarios].sort()).toEqual([...served, ...Object.keys(notServed)].sort());
  });

  it.each([...served])("%s passes", (scenario) => {
    const checks = run().checks.get(scenario);
    if (!passed(checks)) throw new Error(`${scenario} did not pass:\n${describeChecks(checks)}\n\n${run().output}`);
  });

  it("warns only where a recommendation is knowingly not followed", () => {
    const warnings = Object.fromEntries(
      served
        .map((scenario) => [
          scenario,
          (run().checks.get(scenario) ?? []).filter((check) => check.status === "WARNING").map((check) => check.id),
        ])
        .filter(([, ids]) => ids!.length > 0),
    );
    expect(warnings).toEqual(warned);
  });

  // Once every scenario is served, nothing waits.
  if (Object.keys(notServed).length > 0)
    it.each(Object.entries(notServed))("%s does not pass yet: toolnexus does not serve %s", (scenario) => {
      const checks = run().checks.get(scenario);
      if (passed(checks))
        throw new Error(`${scenario} passes now: move it to the served ones.\n${describeChecks(checks)}`);
    });
}
