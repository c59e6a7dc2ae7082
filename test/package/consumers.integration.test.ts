import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ConsumerProject, type RunResult } from "./consumers/consumer-project";
import { entryPoints, lockedVersion, packInto } from "./consumers/package-under-test";
import {
  clockSource,
  entryPointsSource,
  esmOnlySource,
  nestAppSource,
  scanSource,
  toolsModuleSource,
  visitorServiceSource,
  weatherServiceSource,
} from "./consumers/sources";
import { expectWeatherServiceSchemas } from "./consumers/weather-service-schemas";

/**
 * The published package in the projects of its users: `npm pack` of the built package,
 * installed (and nothing from this repository) into fresh projects under the system's temp
 * directory, one per dependency set, each type-checked under every module resolution mode,
 * compiled by its own TypeScript, and run.
 */

type CompilerOptions = Record<string, unknown>;

interface Setup {
  label: string;
  /** package.json "type". */
  type: "commonjs" | "module";
  /** The extension of relative imports in the sources. */
  ext: string;
  dependencies: Record<string, string>;
  /** The options the application is built with (tsconfig.json, also what `generate` reads). */
  build: CompilerOptions;
  /**
   * Whether the type-checks also check every declaration file (skipLibCheck: false): on with
   * TypeScript 7 (native, a few seconds); TypeScript 5.9 would spend most of a minute on
   * the dependencies' declarations in each mode, so it checks the consumer's code against them.
   */
  checkDeclarations: boolean;
  /** The Nest application's HTTP adapter. */
  adapter: "express" | "fastify";
  /** Type-checks of the entry points: resolution mode → its module options and the files it checks. */
  typeChecks: Record<string, { options: CompilerOptions; files: string[] }>;
}

const TYPESCRIPT_7 = "7.0.2";
const NEST_12 = "12.5.1";
const NEST_12_FASTIFY = "12.5.0";

const shared = (names: string[]) => Object.fromEntries(names.map((name) => [name, lockedVersion(name)]));
const common = shared([
  "reflect-metadata",
  "rxjs",
  "class-validator",
  "typescript-json-schema",
  "@modelcontextprotocol/sdk",
  "@openai/agents",
  "zod",
  "ai",
  "@langchain/core",
  "bullmq",
  "ioredis",
  "@types/node",
]);
const nest = (version: string) => ({
  "@nestjs/common": version,
  "@nestjs/core": version,
  "@nestjs/platform-express": version,
});

const ESM_FILES = ["types/entry-points.mts", "types/esm-default.mts"];
const setups: Setup[] = [
  {
    label: `TypeScript ${lockedVersion("typescript")} + NestJS ${lockedVersion("@nestjs/core")} on Express, CommonJS`,
    type: "commonjs",
    ext: "",
    checkDeclarations: false,
    dependencies: { typescript: lockedVersion("typescript"), ...nest(lockedVersion("@nestjs/core")), ...common },
    adapter: "express",
    build: { module: "node16" },
    typeChecks: {
      node10: { options: { module: "commonjs" }, files: ["types/entry-points.ts"] },
      node16: { options: { module: "node16" }, files: ["types/entry-points.cts", ...ESM_FILES] },
      nodenext: { options: { module: "nodenext" }, files: ["types/entry-points.cts", ...ESM_FILES] },
      bundler: {
        options: { module: "esnext", moduleResolution: "bundler" },
        files: ["types/entry-points.ts", "types/esm-default.mts"],
      },
      "bundler (module preserve)": {
        options: { module: "preserve" },
        files: ["types/entry-points.ts", "types/esm-default.mts"],
      },
    },
  },
  {
    label: `TypeScript ${TYPESCRIPT_7} + NestJS ${NEST_12} on Fastify, ES modules`,
    type: "module",
    ext: ".js",
    checkDeclarations: true,
    dependencies: {
      typescript: TYPESCRIPT_7,
      ...nest(NEST_12),
      "@nestjs/platform-fastify": NEST_12_FASTIFY,
      ...common,
    },
    adapter: "fastify",
    build: { module: "nodenext" },
    typeChecks: {
      // TypeScript 7 has no node10 resolution (moduleResolution "node10" is error TS5108):
      // module commonjs without a moduleResolution resolves as bundler does, from CommonJS.
      "commonjs (resolved as bundler)": { options: { module: "commonjs" }, files: ["types/entry-points.cts"] },
      node16: { options: { module: "node16" }, files: ["types/entry-points.cts", ...ESM_FILES] },
      nodenext: { options: { module: "nodenext" }, files: ["types/entry-points.cts", ...ESM_FILES] },
      bundler: {
        options: { module: "esnext", moduleResolution: "bundler" },
        files: ["types/entry-points.ts", "types/esm-default.mts"],
      },
      "bundler (module preserve)": {
        options: { module: "preserve" },
        files: ["types/entry-points.ts", "types/esm-default.mts"],
      },
    },
  },
];

/** What every compilation shares: strict, decorators with metadata. */
const base: CompilerOptions = {
  target: "es2022",
  strict: true,
  experimentalDecorators: true,
  emitDecoratorMetadata: true,
  esModuleInterop: true,
  types: ["node"],
};

function projectFiles(setup: Setup, tarball: string): Record<string, string | object> {
  const { ext } = setup;
  const entryPointsText = entryPointsSource(entryPoints);
  const files: Record<string, string | object> = {
    "package.json": {
      name: "toolnexus-consumer",
      private: true,
      type: setup.type,
      dependencies: { toolnexus: `file:${tarball}`, ...setup.dependencies },
    },
    // An application build checks its own code (skipLibCheck, as the Nest starter sets it).
    "tsconfig.json": {
      compilerOptions: { ...base, ...setup.build, skipLibCheck: true, rootDir: "src", outDir: "build" },
      include: ["src"],
    },
    "src/clock.ts": clockSource,
    "src/weather.service.ts": weatherServiceSource(ext),
    "src/visitor.service.ts": visitorServiceSource,
    "src/tools.ts": toolsModuleSource(ext),
    "src/scan.ts": scanSource(ext),
    "src/app.ts": nestAppSource(ext, setup.adapter),
    "types/entry-points.ts": entryPointsText,
    "types/entry-points.cts": entryPointsText,
    "types/entry-points.mts": entryPointsText,
    "types/esm-default.mts": esmOnlySource,
  };
  for (const [mode, { options, files: checked }] of Object.entries(setup.typeChecks)) {
    files[typeCheckConfig(mode)] = {
      compilerOptions: { ...base, ...options, skipLibCheck: !setup.checkDeclarations, noEmit: true },
      files: checked,
    };
  }
  return files;
}

/**
 * The errors of a type-check that are toolnexus's or the consumer's: those in other packages'
 * declarations are theirs (the MCP SDK's CommonJS types import the ES module json-schema-typed,
 * which TypeScript refuses under module node16; ioredis 6 imports the untyped redis-errors).
 * An error's indented lines belong to it.
 */
function ownErrors(output: string): string[] {
  const errors: string[] = [];
  for (const line of output.split("\n")) {
    if (line.trim() === "") continue;
    if (/^\s/.test(line) && errors.length > 0) errors[errors.length - 1] += `\n${line}`;
    else errors.push(line);
  }
  return errors.filter((error) => !/^node_modules\//.test(error) || /^node_modules\/toolnexus\//.test(error));
}

const typeCheckConfig = (mode: string) => `tsconfig.${mode.replace(/\W+/g, "-").replace(/-$/, "")}.json`;

const temporary: string[] = [];
const projects = new Map<Setup, ConsumerProject>();
/** The type-checks of each project, started together once it is installed (they run while the rest is built). */
const typeChecks = new Map<Setup, Map<string, Promise<RunResult>>>();

beforeAll(async () => {
  const packed = mkdtempSync(join(tmpdir(), "toolnexus-pack-"));
  temporary.push(packed);
  const tarball = await packInto(packed);
  await Promise.all(
    setups.map(async (setup) => {
      const directory = mkdtempSync(join(tmpdir(), "toolnexus-consumer-"));
      temporary.push(directory);
      const project = new ConsumerProject(directory).write(projectFiles(setup, tarball));
      await project.install();
      typeChecks.set(
        setup,
        new Map(Object.keys(setup.typeChecks).map((mode) => [mode, project.tsc(typeCheckConfig(mode))])),
      );
      await project.build();
      projects.set(setup, project);
    }),
  );
  // Installing every project from the registry and building it takes about 2 minutes on an idle machine, and over
  // the usual 5 under the load of a whole suite running beside it.
}, 900_000);

afterAll(async () => {
  await Promise.all([...typeChecks.values()].flatMap((checks) => [...checks.values()]));
  for (const directory of temporary) rmSync(directory, { recursive: true, force: true });
});

const projectOf = (setup: Setup) => {
  const project = projects.get(setup);
  if (project === undefined) throw new Error(`the ${setup.label} project was not set up (see the error of beforeAll)`);
  return project;
};

const typeCheckOf = (setup: Setup, mode: string) => {
  const check = typeChecks.get(setup)?.get(mode);
  if (check === undefined) throw new Error(`the ${setup.label} project was not installed (see the error of beforeAll)`);
  return check;
};

const weatherCall = { city: "Chennai", days: 3, hourly: true, units: "celsius" };
const expectedForecast = { ...weatherCall, from: "2025-01-01" };

describe.each(setups)("the packed package in a project with $label", (setup) => {
  it.each(Object.keys(setup.typeChecks))("type-checks every entry point (%s resolution)", async (mode) => {
    const { code, stdout, stderr } = await typeCheckOf(setup, mode);
    expect(ownErrors(`${stdout}${stderr}`)).toEqual([]);
    if (code !== 0) expect(stdout).toMatch(/^node_modules\//);
  });

  it("scans the decorated services its TypeScript compiled: string, number, boolean, enum and DTO parameters", async () => {
    const output = JSON.parse(await projectOf(setup).node(["build/scan.js"])) as {
      tools: Array<{ name: string; inputSchema: Record<string, unknown> }>;
      forecast: { output: string; isError: boolean };
      plan: { output: string; isError: boolean };
    };
    expectWeatherServiceSchemas(output.tools);
    expect(output.forecast.isError).toBe(false);
    expect(JSON.parse(output.forecast.output)).toEqual(expectedForecast);
    expect(JSON.parse(output.plan.output)).toEqual({ isTrip: true, city: "Pune", days: 2 });
  });

  it("runs ToolnexusModule in a Nest application: discovery, the injected toolkit, request scope, Nest's guards on tools, the MCP endpoint", async () => {
    const output = JSON.parse(await projectOf(setup).node(["build/app.js"])) as {
      oneToolkitClass: boolean;
      discovered: Array<{ name: string; provider: string; scope: string }>;
      forecast: { output: string; isError: boolean };
      whoami: { output: string; isError: boolean };
      vault: {
        refused: { isError: boolean; metadata: { error: string } };
        opened: { output: string };
        guardSaw: string[];
      };
      mcp: { status: number; body: string };
    };
    expect(output.oneToolkitClass).toBe(true);
    expect(output.discovered.map(({ name, provider, scope }) => ({ name, provider, scope }))).toEqual([
      { name: "forecast", provider: "WeatherService", scope: "singleton" },
      { name: "plan", provider: "WeatherService", scope: "singleton" },
      { name: "whoami", provider: "VisitorService", scope: "request" },
      { name: "openVault", provider: "VaultService", scope: "singleton" },
    ]);
    expect(output.vault.refused).toMatchObject({ isError: true, metadata: { error: "forbidden" } });
    expect(output.vault.opened.output).toBe("opened");
    expect(output.vault.guardSaw).toEqual(["toolnexus openVault", "toolnexus openVault"]);
    expect(JSON.parse(output.forecast.output)).toEqual(expectedForecast);
    expect(JSON.parse(output.whoami.output)).toEqual({ user: "ada" });
    expect(output.mcp.status).toBe(200);
    const message = /^data: (.*)$/m.exec(output.mcp.body)?.[1];
    const listed = (JSON.parse(message ?? "null") as { result: { tools: Array<{ name: string }> } }).result.tools.map(
      (tool) => tool.name,
    );
    expect(listed.sort()).toEqual(["forecast", "openVault", "plan", "whoami"]);
  });

  it.each(["build/tools.js", "src/tools.ts"])("npx toolnexus list %s: the tools and their schemas", async (module) => {
    const { code, stdout, stderr } = await projectOf(setup).toolnexus(["list", module, "--json"]);
    expect(stderr).toBe("");
    expect(code).toBe(0);
    expectWeatherServiceSchemas(JSON.parse(stdout) as Array<{ name: string; inputSchema: Record<string, unknown> }>);
  });

  it("npx toolnexus generate: the manifest from the project's types and JSDoc", async () => {
    const project = projectOf(setup);
    const manifestPath = "generated/toolnexus.manifest.json";
    const { code, stdout, stderr } = await project.toolnexus(["generate", "--out", manifestPath, "--json", "--quiet"]);
    expect(stderr).toBe("");
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ ok: true, tools: 4, errors: [] });
    const manifest = JSON.parse(readFileSync(join(project.directory, manifestPath), "utf8")) as {
      tools: Record<string, { parameters: Array<{ name: string; schema: Record<string, unknown> }> }>;
    };
    expect(Object.keys(manifest.tools).sort()).toEqual([
      "VaultService.openVault",
      "VisitorService.whoami",
      "WeatherService.forecast",
      "WeatherService.plan",
    ]);
    const days = manifest.tools["WeatherService.forecast"]!.parameters.find((parameter) => parameter.name === "days");
    expect(days?.schema).toMatchObject({ type: "number", description: "How many days ahead" });
  });
});
