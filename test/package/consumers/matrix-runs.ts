/**
 * The matrix's uses as tests, on one Node: one test per use, named after its integration and
 * the versions it loads. A use whose packages (or what they depend on) leave that Node out by
 * their engines is not run, and its test says so and why. The others run as child processes of
 * that Node binary (first on their PATH too, for the CLI's `#!/usr/bin/env node`), started
 * together before the tests and a few at a time; each must exit 0, print no Node warning of
 * toolnexus's, and print what its check expects.
 */
import { dirname, join } from "node:path";
import { concurrencyLimit } from "../../support/concurrency-limit";
import { patience } from "../../support/time";
import type { RunResult } from "./consumer-project";
import { describeExclusion, type EngineExclusion } from "./installed-packages";
import { inRange } from "./machine-npm";
import type { MatrixProject } from "./matrix-project";
import type { MatrixServices } from "./matrix-services";
import { MATRIX_USES, type MatrixUse } from "./matrix-uses";
import type { NodeRelease } from "./node-binaries-now";
import { isToolnexusWarning, nodeWarnings, toolnexusWarnings } from "./node-warnings";

/** The environment every process of a Node gets: that Node first on the PATH, every warning with its stack. */
export function nodeEnvironment(node: NodeRelease): NodeJS.ProcessEnv {
  return { PATH: `${dirname(node.binary)}:${process.env.PATH ?? ""}`, NODE_OPTIONS: "--trace-warnings" };
}

/** Processes running at once, across the file: one per core (each loads a framework or an SDK, or compiles). */
const inSlot = concurrencyLimit();

/** How long one use may run before it counts as hung (a Nest application, or generate's compiler, takes seconds). */
const USE_TIMEOUT_MS = patience(180_000);

interface UseRun extends RunResult {
  commandLine: string;
}

async function runUse(
  matrix: MatrixProject,
  use: MatrixUse,
  node: NodeRelease,
  services: MatrixServices,
): Promise<UseRun> {
  const { project } = matrix;
  const env = {
    ...(await services.environment(use.needsRedis === true)),
    ...nodeEnvironment(node),
    QUEUE_NAME: `matrix-node-${node.major}-${process.pid}`,
  };
  const { command } = use;
  let commandLine: [string, string[]];
  if ("script" in command) commandLine = [node.binary, [join("uses", command.script)]];
  else if ("built" in command) {
    await matrix.build();
    commandLine = [node.binary, [join("build", command.built)]];
  } else commandLine = [join(project.directory, "node_modules", ".bin", "toolnexus"), command.cli(node.major)];
  const result = await inSlot(() => project.run(...commandLine, { env, timeout: USE_TIMEOUT_MS }));
  return { ...result, commandLine: `${commandLine[0]} ${commandLine[1].join(" ")} (Node ${node.version})` };
}

/** The packages of `use`, with their installed versions: "ai 7.0.185, @ai-sdk/openai 4.0.126". */
function versionsOf(matrix: MatrixProject, use: MatrixUse): string {
  if (use.packages.length === 0) return "toolnexus alone";
  return use.packages.map((name) => `${name} ${matrix.versionOf(name)}`).join(", ");
}

/** The exclusions a title names: those not reached through another excluded package (ai's, not also its own dependencies'). */
function firstExclusions(exclusions: readonly EngineExclusion[]): EngineExclusion[] {
  const excluded = new Set(exclusions.map((exclusion) => exclusion.excludedBy.directory));
  return exclusions.filter((exclusion) => !exclusion.chain.slice(0, -1).some((on) => excluded.has(on.directory)));
}

/**
 * Registers, in the calling describe block, one test per use on `node`. `services` gives the
 * stand-ins, started by a beforeAll of the caller registered before this.
 */
export function itRunsEachUse(matrix: MatrixProject, node: NodeRelease, services: () => MatrixServices): void {
  const runs = new Map<MatrixUse, Promise<UseRun>>();
  const othersWarnings = new Set<string>();
  const exclusionsOf = (use: MatrixUse) => matrix.installed.engineExclusions(use.packages, node.version);

  beforeAll(() => {
    for (const use of MATRIX_USES) {
      if (exclusionsOf(use).length === 0) runs.set(use, runUse(matrix, use, node, services()));
    }
    // Settled here too, so that a run whose test is filtered out is never an unhandled rejection.
    for (const run of runs.values()) run.catch(() => undefined);
  });

  afterAll(async () => {
    await Promise.allSettled(runs.values());
    if (othersWarnings.size > 0)
      console.log(
        `Node warnings of other packages than toolnexus, on Node ${node.version}:\n${[...othersWarnings].join("\n")}`,
      );
  });

  for (const use of MATRIX_USES) {
    const does = typeof use.does === "function" ? use.does(matrix.versionOf) : use.does;
    const title = `${use.integration} (${versionsOf(matrix, use)})`;
    const exclusions = exclusionsOf(use);
    if (exclusions.length > 0) {
      const why = firstExclusions(exclusions).map(describeExclusion).join("; ");
      it(`${title}: not run on Node ${node.version}, which its engines leave out: ${why}`, () => {
        for (const { excludedBy } of exclusions) expect(inRange(node.version, excludedBy.node)).toBe(false);
      });
      continue;
    }
    it(`${title}: ${does}`, async () => {
      const run = await runs.get(use)!;
      if (run.code !== 0) throw new Error(`${run.commandLine} exited with ${run.code}:\n${run.stdout}\n${run.stderr}`);
      for (const warning of nodeWarnings(run.stderr).filter((found) => !isToolnexusWarning(found)))
        othersWarnings.add(`${use.integration}: ${warning.text}`);
      expect(toolnexusWarnings(run.stderr)).toEqual([]);
      let output: unknown;
      if (use.prints === "lines") output = run.stdout.trimEnd().split("\n");
      else
        try {
          output = JSON.parse(run.stdout);
        } catch {
          throw new Error(`${run.commandLine} printed no JSON:\n${run.stdout}\n${run.stderr}`);
        }
      use.check(output, { major: node.major, directory: matrix.project.directory });
    });
  }
}
