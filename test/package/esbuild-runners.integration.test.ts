import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { nodeBinary } from "../support/node-binaries";
import { ConsumerProject } from "./consumers/consumer-project";
import { NodeToolchain } from "./consumers/node-toolchain";
import { lockedVersion, packInto } from "./consumers/package-under-test";

/**
 * The published package under the runners that compile TypeScript themselves, file by file,
 * without the type checker: tsx (esbuild) and vitest (Vite). A project with legacy decorators
 * (experimentalDecorators + emitDecoratorMetadata in its tsconfig, which both read) and a
 * service whose @Param parameters state no types: esbuild never emits `design:paramtypes`,
 * and no runtime metadata carries literal unions or JSDoc, so the manifest `toolnexus
 * generate` writes is what describes the tool. vitest 5 needs Node 22.12+: npm, the CLI and
 * both runners run on Node 22.
 */

const MINUTE = 60_000;
const MANIFEST = "toolnexus.manifest.json";

const serviceSource = (units: readonly string[]) => `import { Param, Tool } from "toolnexus";

export class WeatherService {
  /**
   * Current weather for a city.
   * @param city The city's name
   */
  @Tool("Current weather for a city")
  current(@Param() city: string, @Param() units: ${units.map((unit) => JSON.stringify(unit)).join(" | ")}) {
    return { city, units, temperature: 21 };
  }
}
`;

/** tsx's entry: the tool's Gemini declaration, then a call's result, one JSON line each. */
const mainSource = `import "reflect-metadata";
import { Toolkit } from "toolnexus";
import { WeatherService } from "./weather.service.js";

const toolkit = new Toolkit([new WeatherService()]);
console.log(JSON.stringify(toolkit.toGemini()));
console.log(JSON.stringify(await toolkit.execute("current", { city: "Oslo", units: "celsius" })));
`;

/** The service's vitest spec: the schema the manifest gives (with `units`' literal values), and a call. */
const vitestSource = (units: readonly string[]) => `import "reflect-metadata";
import { expect, test } from "vitest";
import { Toolkit } from "toolnexus";
import { WeatherService } from "../src/weather.service.js";

test("the tool's input schema", () => {
  const toolkit = new Toolkit([new WeatherService()]);
  expect(toolkit.get("current")!.inputSchema).toEqual({
    type: "object",
    properties: {
      city: { type: "string", description: "The city's name" },
      units: { type: "string", enum: ${JSON.stringify(units)} },
    },
    required: ["city", "units"],
    additionalProperties: false,
  });
});

test("a call", async () => {
  const toolkit = new Toolkit([new WeatherService()]);
  expect(await toolkit.execute("current", { city: "Oslo", units: "celsius" })).toMatchObject({
    isError: false,
    output: JSON.stringify({ city: "Oslo", units: "celsius", temperature: 21 }),
  });
});
`;

const UNITS = ["celsius", "fahrenheit"] as const;
const MORE_UNITS = ["celsius", "fahrenheit", "kelvin"] as const;

interface VitestReport {
  numFailedTests: number;
  numPassedTests: number;
  testResults: Array<{ assertionResults: Array<{ title: string; status: string; failureMessages: string[] }> }>;
}

let project: ConsumerProject;
let toolchain: NodeToolchain;
const temporary: string[] = [];

beforeAll(async () => {
  const packed = mkdtempSync(join(tmpdir(), "toolnexus-pack-"));
  const directory = mkdtempSync(join(tmpdir(), "toolnexus-esbuild-runners-"));
  temporary.push(packed, directory);
  const [tarball, node] = await Promise.all([packInto(packed), nodeBinary(22)]);
  toolchain = new NodeToolchain(node);
  project = new ConsumerProject(directory).write({
    "package.json": {
      name: "toolnexus-esbuild-runners",
      private: true,
      type: "module",
      dependencies: {
        toolnexus: `file:${tarball}`,
        "reflect-metadata": lockedVersion("reflect-metadata"),
        typescript: lockedVersion("typescript"),
        "typescript-json-schema": lockedVersion("typescript-json-schema"),
        // The project runs on Node 22 (vitest 5 asks for its types, not the repository's Node 20 ones).
        "@types/node": "^22",
        tsx: "^4",
        vitest: "^5",
      },
    },
    "tsconfig.json": {
      compilerOptions: {
        target: "es2022",
        module: "nodenext",
        strict: true,
        experimentalDecorators: true,
        emitDecoratorMetadata: true,
        skipLibCheck: true,
        noEmit: true,
        types: ["node"],
      },
      include: ["src", "test"],
    },
    "src/weather.service.ts": serviceSource(UNITS),
    "src/main.ts": mainSource,
    "test/weather.test.ts": vitestSource(UNITS),
  });
  const installed = await toolchain.npm(
    directory,
    ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"],
    8 * MINUTE,
  );
  if (installed.code !== 0) throw new Error(`npm install failed:\n${installed.stdout}\n${installed.stderr}`);
}, 10 * MINUTE);

afterAll(() => {
  toolchain?.stopAll();
  for (const directory of temporary) rmSync(directory, { recursive: true, force: true });
});

const tsx = () => toolchain.run(project.directory, ["node_modules/tsx/dist/cli.mjs", "src/main.ts"], 2 * MINUTE);

/** `vitest run`, its results read from its JSON report. */
async function vitestRun(): Promise<VitestReport & { output: string }> {
  const report = join(project.directory, "vitest-report.json");
  rmSync(report, { force: true });
  const run = await toolchain.run(
    project.directory,
    ["node_modules/vitest/vitest.mjs", "run", "--reporter=default", "--reporter=json", `--outputFile.json=${report}`],
    3 * MINUTE,
  );
  const output = `${run.stdout}\n${run.stderr}`;
  if (!existsSync(report)) throw new Error(`vitest wrote no report (exit code ${run.code}):\n${output}`);
  return { ...(JSON.parse(readFileSync(report, "utf8")) as VitestReport), output };
}

/** Each test's status, with the first line of its failure (so an unexpected one shows why). */
const resultsOf = (report: VitestReport) =>
  Object.fromEntries(
    report.testResults
      .flatMap((file) => file.assertionResults)
      .map(({ title, status, failureMessages }) => [
        title,
        failureMessages.length > 0 ? { status, failure: failureMessages[0]!.split("\n")[0] } : { status },
      ]),
  );
const PASSED = { "the tool's input schema": { status: "passed" }, "a call": { status: "passed" } };

describe("without a manifest", () => {
  it("tsx: scanning fails with the scanner's error, naming the runner, `toolnexus generate` and explicit types", async () => {
    const run = await tsx();
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain(
      'ScanError: WeatherService.current, parameter 0 ("city"): no type metadata was emitted',
    );
    for (const words of ["tsx", "vitest", "toolnexus generate", "@Param({ type: String })"])
      expect(run.stderr).toContain(words);
  });

  it("vitest: the tool runs on the types Vite's compiler emits, without what only the manifest has", async () => {
    // Vite 8 compiles with Oxc, which emits design:paramtypes under emitDecoratorMetadata: `units` is only a string.
    const report = await vitestRun();
    expect(resultsOf(report)).toEqual({
      "the tool's input schema": {
        status: "failed",
        failure: expect.stringMatching(/^AssertionError: expected .* to deeply equal/),
      },
      "a call": { status: "passed" },
    });
    expect(report.output).not.toContain("ScanError");
  });
});

describe("after `npx toolnexus generate`", () => {
  beforeAll(async () => {
    const generated = await toolchain.npx(project.directory, ["toolnexus", "generate"], 3 * MINUTE);
    if (generated.code !== 0) throw new Error(`toolnexus generate failed:\n${generated.stdout}\n${generated.stderr}`);
  }, 4 * MINUTE);

  it("tsx runs the service: the declaration has the types the manifest records, and the call succeeds", async () => {
    const run = await tsx();
    expect(run.stderr).toBe("");
    const [declarations, result] = run.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as unknown);
    expect(declarations).toEqual([
      {
        functionDeclarations: [
          expect.objectContaining({
            name: "current",
            description: "Current weather for a city",
            parameters: {
              type: "object",
              properties: {
                city: { type: "string", description: "The city's name" },
                units: { type: "string", enum: [...UNITS] },
              },
              required: ["city", "units"],
            },
          }),
        ],
      },
    ]);
    expect(result).toMatchObject({
      isError: false,
      structuredContent: { city: "Oslo", units: "celsius", temperature: 21 },
    });
  });

  it("the vitest spec passes", async () => {
    const report = await vitestRun();
    expect(resultsOf(report)).toEqual(PASSED);
  });
});

describe("`toolnexus generate --watch` beside vitest", () => {
  it(
    "a changed parameter type reaches the manifest, and vitest sees the new schema",
    async () => {
      const watcher = toolchain.npxInBackground(project.directory, ["toolnexus", "generate", "--watch"]);
      try {
        await watcher.waitForOutput(/watching for changes/, 3 * MINUTE);
        const before = readFileSync(join(project.directory, MANIFEST), "utf8");
        project.write({
          "src/weather.service.ts": serviceSource(MORE_UNITS),
          "test/weather.test.ts": vitestSource(MORE_UNITS),
        });
        await watcher.waitForOutput(/rewrote toolnexus\.manifest\.json/, 2 * MINUTE);
        expect(readFileSync(join(project.directory, MANIFEST), "utf8")).not.toBe(before);

        const report = await vitestRun();
        expect(resultsOf(report)).toEqual(PASSED);
      } finally {
        await watcher.stop();
      }
    },
    10 * MINUTE,
  );
});
