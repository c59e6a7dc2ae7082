/**
 * The packed toolnexus on every Node it is tested on (package.json "engines"; test/support/node-binaries.ts):
 * on each, the package's smoke suite in a project that installs toolnexus alone (CommonJS and
 * ES module entry, every entry point resolvable, a defined tool through a toolkit, the CLI's
 * --version and export), then the consumer matrix's uses, with the latest peers, run by that
 * Node. A use whose latest packages leave that Node out by their engines is not run there, and
 * its test's title says which and why. No process may print a Node warning of toolnexus's.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TESTED_NODE_MAJORS } from "../support/node-binaries";
import { patience } from "../support/time";
import { ConsumerProject, type RunResult } from "./consumers/consumer-project";
import { describeExclusion, InstalledPackages } from "./consumers/installed-packages";
import { inRange, npmUnder } from "./consumers/machine-npm";
import { NPM_INSTALL, matrixProject, newestNode, packedTarballNow, SMOKE_SCRIPTS } from "./consumers/matrix-project";
import { itRunsEachUse, nodeEnvironment } from "./consumers/matrix-runs";
import { startMatrixServices, type MatrixServices } from "./consumers/matrix-services";
import { nodeReleaseNow, type NodeRelease } from "./consumers/node-binaries-now";
import { toolnexusWarnings } from "./consumers/node-warnings";
import { entryPoints, packageRoot } from "./consumers/package-under-test";
import { versionTable } from "./consumers/version-table";

// Installed while jest collects this file: the titles below name the versions and the Nodes' exact releases.
const matrix = matrixProject();
const nodes = TESTED_NODE_MAJORS.map(nodeReleaseNow);
console.log(versionTable(matrix));

const { version: packageVersion } = JSON.parse(readFileSync(join(packageRoot, "package.json"), "utf8")) as {
  version: string;
};

/** A project with toolnexus alone and the smoke scripts, installed once for every Node. */
let smoke: Promise<ConsumerProject>;
let smokeDirectory: string;
let services: MatrixServices;

async function installSmokeProject(): Promise<ConsumerProject> {
  const project = new ConsumerProject(smokeDirectory).write({
    "package.json": {
      name: "toolnexus-smoke",
      private: true,
      type: "commonjs",
      dependencies: { toolnexus: `file:${packedTarballNow(smokeDirectory)}` },
    },
  });
  cpSync(SMOKE_SCRIPTS, join(smokeDirectory, "smoke"), { recursive: true });
  const [command, args, env] = npmUnder(newestNode().binary, NPM_INSTALL);
  const { code, stdout, stderr } = await project.run(command, args, { env, timeout: patience(600_000) });
  if (code !== 0) throw new Error(`npm install of the smoke project exited with ${code}:\n${stdout}\n${stderr}`);
  return project;
}

beforeAll(async () => {
  smokeDirectory = mkdtempSync(join(tmpdir(), "toolnexus-smoke-"));
  smoke = installSmokeProject();
  // Awaited by the smoke tests; settled here so that a failed install is each one's failure, not an unhandled rejection.
  smoke.catch(() => undefined);
  services = await startMatrixServices();
});

afterAll(async () => {
  await smoke?.catch(() => undefined);
  await services?.close();
  rmSync(smokeDirectory, { recursive: true, force: true });
  matrix.remove();
});

/** Runs `args` in the smoke project under `node`: it must exit 0 and print no Node warning of toolnexus's. */
async function smokeRun(node: NodeRelease, command: string, args: readonly string[]): Promise<RunResult> {
  const result = await (await smoke).run(command, args, { env: nodeEnvironment(node), timeout: patience(120_000) });
  if (result.code !== 0)
    throw new Error(
      `${command} ${args.join(" ")} on Node ${node.version} exited with ${result.code}:\n${result.stdout}\n${result.stderr}`,
    );
  expect(toolnexusWarnings(result.stderr)).toEqual([]);
  return result;
}

const toolnexusBin = () => join(smokeDirectory, "node_modules", ".bin", "toolnexus");

/** What both smoke scripts print, from whichever module system. */
function expectRoundTrip(output: Record<string, unknown>): void {
  expect(output.exporters).toEqual(
    ["toAnthropic", "toBedrock", "toGemini", "toMcp", "toOllama", "toOpenAI", "toOpenAIResponses"].sort(),
  );
  expect(Object.values(output.declaredNames as Record<string, boolean>).every(Boolean)).toBe(true);
  expect(output.answered).toEqual({ output: "sunny in Chennai", isError: false });
  expect(output.refused).toMatchObject({ tool: "get_weather", error: "invalid_arguments" });
  expect(output.openaiReplies).toEqual([{ role: "tool", tool_call_id: "call_1", content: "sunny in Chennai" }]);
  expect(output.providersRuntimeExports).toEqual([]);
}

describe('package.json "engines"', () => {
  const { engines } = JSON.parse(readFileSync(join(packageRoot, "package.json"), "utf8")) as {
    engines: { node: string };
  };

  it.each(nodes)("accepts Node $version, which this file tests", ({ version }) => {
    expect(inRange(version, engines.node)).toBe(true);
  });

  it("accepts no Node major this file does not test", () => {
    const untested = [18, 19, 21, 23, 25, 27, 28].filter((major) => inRange(`${major}.99.0`, engines.node));
    expect(untested).toEqual([]);
  });
});

describe.each(nodes)("the packed toolnexus on Node $version", (node) => {
  describe("smoke suite, toolnexus installed alone", () => {
    it("toolnexus and everything it depends on accept this Node by their engines", async () => {
      const installed = new InstalledPackages((await smoke).directory);
      expect(installed.engineExclusions(["toolnexus"], node.version).map(describeExclusion)).toEqual([]);
    });

    it('require("toolnexus") from CommonJS: every entry point resolves to the CommonJS build, a tool goes through a toolkit', async () => {
      const output = JSON.parse((await smokeRun(node, node.binary, ["smoke/smoke.cjs"])).stdout);
      expect(Object.keys(output.resolved)).toEqual(entryPoints);
      for (const file of Object.values(output.resolved)) expect(file).toMatch(/^node_modules\/toolnexus\/dist\/cjs\//);
      expectRoundTrip(output);
    });

    it('import from "toolnexus" in an ES module: every entry point resolves to the ES module build, a tool goes through a toolkit', async () => {
      const output = JSON.parse((await smokeRun(node, node.binary, ["smoke/smoke.mjs"])).stdout);
      expect(Object.keys(output.resolved)).toEqual(entryPoints);
      for (const file of Object.values(output.resolved)) expect(file).toMatch(/^node_modules\/toolnexus\/dist\/esm\//);
      expect(output.defaultIsTheModule).toBe(true);
      expectRoundTrip(output);
    });

    it("the toolnexus bin: --version", async () => {
      const { stdout } = await smokeRun(node, toolnexusBin(), ["--version"]);
      expect(stdout.split("\n")[0]).toBe(`toolnexus ${packageVersion}`);
    });

    it("the toolnexus bin: export of a tools module, as OpenAI declarations", async () => {
      const { stdout, stderr } = await smokeRun(node, toolnexusBin(), [
        "export",
        "smoke/tools.mjs",
        "--format",
        "openai",
      ]);
      expect(JSON.parse(stdout)).toEqual([
        {
          type: "function",
          function: {
            name: "get_weather",
            description: "Current weather for a city",
            parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
          },
        },
      ]);
      expect(stderr).toContain("1 tool exported for openai");
    });
  });

  describe("the consumer matrix's uses, with the latest peers", () => {
    itRunsEachUse(matrix, node, () => services);
  });
});
