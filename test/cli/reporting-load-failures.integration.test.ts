/**
 * When a module cannot be loaded, the one-line error names the file at fault and the real cause,
 * and tells the user's mistakes (syntax, imports, what the module throws) and the project's
 * setup (a broken TypeScript install) from a failure of toolnexus's own loader, which it asks to
 * be reported.
 */
import { realpathSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import * as toolnexus from "../../src";
import { explainLoadFailure } from "../../src/cli/load-failure";
import { assertBuilt, expectOneLineError, runCli } from "./run-cli";
import { removeUserProjects, userProject } from "./user-project";

beforeAll(assertBuilt);
afterAll(removeUserProjects);

const cjs = userProject("nodenext-cjs");
const esm = userProject("esm-package");
const write = (project: string, name: string, text: string) => writeFileSync(join(project, name), text);

describe("syntax errors name file:line:col", () => {
  it.each([
    ["CommonJS .ts", cjs],
    ["ES-module .ts", esm],
  ])("%s, in a file it imports", async (_, project) => {
    write(project, "broken-syntax.ts", "export const x = {\n  a: 1,\n  b: ,\n};\n");
    write(project, "imports-broken.ts", 'export { x } from "./broken-syntax.js";\n');
    expectOneLineError(
      await runCli(["list", "imports-broken.ts"], { cwd: project }),
      2,
      `cannot load imports-broken.ts: SyntaxError: ${join(project, "broken-syntax.ts")}:3:6: Expression expected.`,
    );
  });

  it("an ES module in JavaScript (Node names no file for it)", async () => {
    write(esm, "broken.mjs", "const a = 1;\nconst b = ;\n");
    write(esm, "imports-broken.mjs", 'import "./broken.mjs";\n');
    expectOneLineError(
      await runCli(["list", "imports-broken.mjs"], { cwd: esm }),
      2,
      "SyntaxError: broken.mjs:2:11: Unexpected token ';'",
      "Fix the syntax error.",
    );
  });
});

describe("a missing import names the importing file and the specifier", () => {
  it.each([
    ["CommonJS .ts", cjs],
    ["ES-module .ts", esm],
  ])("%s: a relative path, with the TypeScript files looked for", async (_, project) => {
    write(project, "typo.ts", 'export { TripPlanner } from "./trip-planer.js";\n');
    write(project, "imports-typo.ts", 'export * from "./typo.js";\n');
    expectOneLineError(
      await runCli(["list", "imports-typo.ts"], { cwd: project }),
      2,
      'cannot load imports-typo.ts: typo.ts imports "./trip-planer.js", which does not exist (nor "./trip-planer.ts" or "./trip-planer.tsx"). Fix the import path',
    );
  });

  it.each([
    ["CommonJS .ts", cjs],
    ["ES-module .ts", esm],
  ])("%s: a package that is not installed", async (_, project) => {
    write(project, "needs-package.ts", 'import { pad } from "@acme/pad/strings";\nexport const padded = pad;\n');
    expectOneLineError(
      await runCli(["list", "needs-package.ts"], { cwd: project }),
      2,
      'needs-package.ts imports "@acme/pad/strings", which cannot be found',
      "npm install @acme/pad",
    );
  });

  it("a name the imported ES module does not export", async () => {
    write(esm, "wrong-name.ts", 'import { Speed } from "./pace.js";\nexport const speed = Speed;\n');
    expectOneLineError(
      await runCli(["list", "wrong-name.ts"], { cwd: esm }),
      2,
      "wrong-name.ts:1: The requested module './pace.js' does not provide an export named 'Speed'",
      "Import a name that module exports",
    );
  });
});

describe("what the module throws, where it threw (in .ts lines)", () => {
  // Type-only lines before the throw: the compiled JavaScript has fewer lines than the source.
  const throwing =
    "interface Config {\n  url: string;\n  retries: number;\n}\n\nexport const config: Config | undefined = undefined;\nthrow new Error('DATABASE_URL is not set');\n";

  it.each([
    ["CommonJS .ts", cjs],
    ["ES-module .ts", esm],
  ])("%s", async (_, project) => {
    write(project, "throws.ts", throwing);
    expectOneLineError(
      await runCli(["list", "throws.ts"], { cwd: project }),
      2,
      "the module threw Error: DATABASE_URL is not set (at throws.ts:7:7)",
    );
    const verbose = await runCli(["list", "throws.ts", "--verbose"], { cwd: project });
    expect(verbose.stderr).toContain(`${join(project, "throws.ts")}:7:7`);
  });
});

describe("toolnexus's own errors are reported as they are: they already say what to do", () => {
  it("a stale manifest met when the module builds its toolkit", async () => {
    const parameters = [{ kind: "param", name: "town", optional: false, schema: { type: "string" } }];
    const tool = {
      name: "forecast",
      file: "src/weather.ts",
      hash: `sha256:${"1".repeat(32)}`,
      description: "The forecast.",
      parameters,
    };
    const manifest = { manifestVersion: 1, hash: `sha256:${"0".repeat(32)}`, tools: { "Weather.forecast": tool } };
    write(
      cjs,
      "stale-manifest.ts",
      `import { Tool, Toolkit } from "toolnexus";
class Weather {
  @Tool()
  forecast(city: string) {
    return city;
  }
}
export const toolkit = new Toolkit([new Weather()], { manifest: ${JSON.stringify(manifest)} });
`,
    );
    const run = await runCli(["list", "stale-manifest.ts"], { cwd: cjs });
    expectOneLineError(
      run,
      2,
      'cannot load stale-manifest.ts: ManifestError: Weather.forecast: the manifest given in the options is stale for this method (parameter 0 is "town" in the manifest, "city" in the code). Run `npx toolnexus generate` again, or scan without it ({ manifest: false }).',
    );
    expect(run.stderr).not.toContain("the module threw");
    expect(run.stderr).not.toContain("Fix what the module does");
  });

  const errorClasses = Object.entries(toolnexus as Record<string, unknown>).filter(
    (exported): exported is [string, new (message: string) => Error] =>
      typeof exported[1] === "function" && exported[1].prototype instanceof Error,
  );

  it("every error class toolnexus exports is one of them", () => {
    expect(errorClasses.map(([name]) => name).sort()).toEqual([
      "DuplicateToolError",
      "ExportError",
      "InputUnavailableError",
      "ManifestError",
      "PrimitiveError",
      "ScanError",
      "ToolDefinitionError",
      "ToolnexusError",
    ]);
  });

  it.each(errorClasses)("%s: its message, with no fix added and no 'the module threw'", (name, ErrorClass) => {
    const [reason, fix] = explainLoadFailure(
      new ErrorClass("Weather.forecast: what is wrong. What to do."),
      join(cjs, "tools.ts"),
      cjs,
    );
    expect({ reason, fix }).toEqual({ reason: `${name}: Weather.forecast: what is wrong. What to do.`, fix: "" });
  });
});

describe("a module in the wrong format for its file says how to fix it", () => {
  it("CommonJS code in an ES-module package", async () => {
    write(esm, "common.js", "module.exports = {};\n");
    expectOneLineError(
      await runCli(["list", "common.js"], { cwd: esm }),
      2,
      "module is not defined in ES module scope",
      "name it .cjs (.cts for TypeScript)",
    );
  });

  it("an ES-module TypeScript file required from CommonJS", async () => {
    write(cjs, "requires-mts.ts", 'export const converter = require("./converter.mts");\n');
    expectOneLineError(
      await runCli(["list", "requires-mts.ts"], { cwd: cjs }),
      2,
      "converter.mts is an ES module (it is .mts), and it is loaded with require() from CommonJS",
      "import it from an ES module",
    );
  });
});

describe("a failure of toolnexus's own loader is toolnexus's to report", () => {
  const preload = (project: string, name: string, code: string) => {
    write(project, name, code);
    return { NODE_OPTIONS: `--require ${join(project, name)}` };
  };

  it("the ES module hooks cannot start", async () => {
    const env = preload(
      esm,
      "no-hooks.cjs",
      // Both ways of starting them: register (Node 20) and registerHooks (Node 22.15 and later).
      'const Module = require("node:module");\n' +
        'Module.register = Module.registerHooks = () => { throw new Error("hooks are disabled here"); };\n',
    );
    expectOneLineError(
      await runCli(["list", "trips.ts"], { cwd: esm, env }),
      2,
      "cannot load trips.ts: toolnexus could not start its ES module hooks: hooks are disabled here.",
      "This is a problem in toolnexus, not in your module",
      "report it",
    );
  });
});

describe("a TypeScript compiler that cannot be loaded is the project's to reinstall", () => {
  it("names it, where it is, and why", async () => {
    write(
      cjs,
      "broken-typescript.cjs",
      'const Module = require("node:module");\nconst load = Module._load;\nModule._load = function (request, ...rest) {\n  if (/[\\\\/]node_modules[\\\\/]typescript$/.test(request)) throw new Error("typescript is gone");\n  return load.call(this, request, ...rest);\n};\n',
    );
    const env = { NODE_OPTIONS: `--require ${join(cjs, "broken-typescript.cjs")}` };
    const typescript = realpathSync(dirname(require.resolve("typescript/package.json")));
    const version = (require("typescript/package.json") as { version: string }).version;
    expectOneLineError(
      await runCli(["list", "tools.ts"], { cwd: cjs, env }),
      2,
      `cannot load tools.ts: typescript ${version} (next to toolnexus, ${typescript}) cannot be loaded (typescript is gone). ` +
        "Reinstall it: `npm install` in the project.",
    );
  });
});
