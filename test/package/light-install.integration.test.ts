import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ConsumerProject } from "./consumers/consumer-project";
import { lockedVersion, packInto } from "./consumers/package-under-test";

/**
 * The published package installed with nothing but reflect-metadata: no TypeScript comes with
 * it (typescript is an optional peer). defineTool and @Tool run as they always do, the CLI loads
 * JavaScript, and a .ts file is refused with what to install; once typescript-json-schema
 * (toolnexus generate's peer) is installed, the TypeScript it brings compiles .ts files.
 */

const TOOLS_JS = `
require("reflect-metadata");
const { defineTool, Tool } = require("toolnexus");
class Weather { forecast(city) { return "sunny in " + city; } }
Tool("Forecast for a city")(Weather.prototype, "forecast", Object.getOwnPropertyDescriptor(Weather.prototype, "forecast"));
Reflect.defineMetadata("design:paramtypes", [String], Weather.prototype, "forecast");
exports.weather = new Weather();
exports.echo = defineTool({
  name: "echo",
  description: "Echoes a word",
  inputSchema: { type: "object", properties: { word: { type: "string" } }, required: ["word"] },
  execute: ({ word }) => word,
});
`;

const TOOLS_TS = `
import "reflect-metadata";
import { Tool } from "toolnexus";
export class Weather {
  @Tool("Forecast for a city")
  forecast(city: string): string {
    return "sunny in " + city;
  }
}
`;

const MISSING = "loading TypeScript files needs the TypeScript 5 compiler API, and no typescript package is installed";
const INSTALL =
  "Install it in the project: `npm install --save-dev typescript@5`, or `npm install --save-dev typescript-json-schema`";
const OR_JAVASCRIPT = "Or compile the project and give the CLI the JavaScript (e.g. `toolnexus list dist/tools.js`)";

let directory: string;
let project: ConsumerProject;

beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), "toolnexus-light-install-"));
  const tarball = await packInto(directory);
  project = new ConsumerProject(join(directory, "app")).write({
    "package.json": {
      name: "light-install",
      private: true,
      dependencies: { toolnexus: `file:${tarball}`, "reflect-metadata": lockedVersion("reflect-metadata") },
    },
    "tools.js": TOOLS_JS,
    "tools.ts": TOOLS_TS,
    "tools.mts": TOOLS_TS,
  });
  await project.install();
});
afterAll(() => rmSync(directory, { recursive: true, force: true }));

it("installs no TypeScript", () => {
  expect(existsSync(join(project.directory, "node_modules", "toolnexus", "dist"))).toBe(true);
  expect(existsSync(join(project.directory, "node_modules", "typescript"))).toBe(false);
});

it("runs defineTool and @Tool tools", async () => {
  const script = `
    const { Toolkit } = require("toolnexus");
    const { weather, echo } = require("./tools.js");
    const kit = new Toolkit([weather, echo]);
    Promise.all([kit.execute("forecast", { city: "Oslo" }), kit.execute("echo", { word: "hi" })]).then((results) =>
      console.log(JSON.stringify(results.map((result) => result.output))),
    );
  `;
  expect(JSON.parse(await project.node(["-e", script]))).toEqual(["sunny in Oslo", "hi"]);
});

it("the CLI loads JavaScript", async () => {
  const run = await project.toolnexus(["list", "tools.js", "--json"]);
  expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: "" });
  expect((JSON.parse(run.stdout) as Array<{ name: string }>).map((tool) => tool.name).sort()).toEqual([
    "echo",
    "forecast",
  ]);
});

it.each(["tools.ts", "tools.mts"])("the CLI refuses %s with what to install, and the JavaScript way", async (file) => {
  const run = await project.toolnexus(["list", file]);
  expect({ code: run.code, stdout: run.stdout }).toEqual({ code: 2, stdout: "" });
  expect(run.stderr.trimEnd().split("\n")).toHaveLength(1);
  expect(run.stderr).toContain(`toolnexus: cannot load ${file}: ${MISSING} (looked from ${project.directory}).`);
  expect(run.stderr).toContain(INSTALL);
  expect(run.stderr).toContain(OR_JAVASCRIPT);
});

it("--version says .ts files cannot be compiled, and what to install", async () => {
  const run = await project.toolnexus(["--version"]);
  expect(run.code).toBe(0);
  expect(run.stdout).toMatch(
    /^toolnexus \S+\n\.ts files cannot be compiled here: no typescript package is installed\. Install typescript@5 \(or typescript-json-schema\), or load compiled JavaScript\n$/,
  );
});

describe("with typescript-json-schema installed", () => {
  beforeAll(async () => {
    await project.succeed("npm", [
      "install",
      "--save-dev",
      "--prefer-offline",
      "--no-audit",
      "--no-fund",
      "--loglevel=error",
      `typescript-json-schema@${lockedVersion("typescript-json-schema")}`,
    ]);
  });

  it("the CLI compiles .ts files with the TypeScript 5 it brings", async () => {
    const run = await project.toolnexus(["call", "tools.ts", "forecast", '{"city":"Oslo"}', "--verbose"]);
    expect(run).toEqual({
      code: 0,
      stdout: "sunny in Oslo\n",
      stderr: expect.stringMatching(/^toolnexus: compiling \.ts files with typescript 5\.\d+\.\d+ \(.+\)\n$/),
    });
  });
});
