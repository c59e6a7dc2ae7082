/**
 * The CLI compiles .ts files with the TypeScript the project already has: its own TypeScript 5,
 * else the one installed beside toolnexus, else the TypeScript 5 typescript-json-schema brings.
 * TypeScript 7's package has no JavaScript compiler API, so a project on it compiles with the
 * next one. `--version` and `--verbose` say which, and why the ones before it were passed over.
 * (Here toolnexus is this repository, so "beside toolnexus" is its own TypeScript devDependency;
 * a project with no usable TypeScript at all is in test/package/light-install.)
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { assertBuilt, root, runCli } from "./run-cli";
import { removeUserProjects, userProject } from "./user-project";

const besideToolnexus = (require("typescript/package.json") as { version: string }).version;
const toolnexusVersion = (require("../../package.json") as { version: string }).version;

beforeAll(assertBuilt);
afterAll(removeUserProjects);

describe("a project with TypeScript 7 installed", () => {
  const project = userProject("nodenext-cjs", { typescript: "7.0.2" });
  const passedOver =
    "typescript 7.0.2 (the project's) is the native compiler, whose package has no JavaScript compiler API";

  it("loads its .ts files with the next TypeScript found, the one beside toolnexus", async () => {
    const run = await runCli(["list", "tools.ts", "--json"], { cwd: project });
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: "" });
    expect((JSON.parse(run.stdout) as Array<{ name: string }>).map((tool) => tool.name)).toEqual(["plan"]);
  });

  it("--version names the compiler and why the project's is passed over", async () => {
    expect(await runCli(["--version"], { cwd: project })).toEqual({
      code: 0,
      stdout: `toolnexus ${toolnexusVersion}\ncompiling .ts files with typescript ${besideToolnexus} (next to toolnexus); ${passedOver}\n`,
      stderr: "",
    });
  });

  it("--verbose says the same before loading a .ts file", async () => {
    const run = await runCli(["list", "tools.ts", "--verbose"], { cwd: project });
    expect(run.code).toBe(0);
    expect(run.stderr).toBe(
      `toolnexus: compiling .ts files with typescript ${besideToolnexus} (next to toolnexus); ${passedOver}\n`,
    );
  });
});

describe("a project with its own TypeScript 5", () => {
  const project = userProject("nodenext-cjs");
  // The project's compiler: this repository's TypeScript under another version number, marking what it compiles.
  const own = join(project, "node_modules", "typescript");
  mkdirSync(own, { recursive: true });
  writeFileSync(join(own, "package.json"), JSON.stringify({ name: "typescript", version: "5.4.5", main: "index.js" }));
  writeFileSync(
    join(own, "index.js"),
    [
      `const real = require(${JSON.stringify(require.resolve("typescript"))});`,
      "module.exports = {",
      "  ...real,",
      "  transpileModule(source, options) {",
      "    const output = real.transpileModule(source, options);",
      '    return { ...output, outputText: `${output.outputText}\\nglobalThis.compiledBy = "the project\'s typescript";\\n` };',
      "  },",
      "};",
      "",
    ].join("\n"),
  );
  writeFileSync(
    join(project, "compiled-by.ts"),
    [
      'import { defineTool } from "toolnexus";',
      "export const compiledBy = defineTool({",
      '  name: "compiled_by",',
      '  description: "Which compiler compiled this file",',
      '  inputSchema: { type: "object", properties: {} },',
      "  execute: () => String((globalThis as { compiledBy?: unknown }).compiledBy),",
      "});",
      "",
    ].join("\n"),
  );

  it("compiles with it", async () => {
    expect(await runCli(["call", "compiled-by.ts", "compiled_by", "{}"], { cwd: project })).toEqual({
      code: 0,
      stdout: "the project's typescript\n",
      stderr: "",
    });
  });

  it("--verbose names it", async () => {
    const run = await runCli(["list", "compiled-by.ts", "--verbose"], { cwd: project });
    expect(run.code).toBe(0);
    expect(run.stderr).toBe("toolnexus: compiling .ts files with typescript 5.4.5 (the project's)\n");
  });
});

it("--version where the project's TypeScript is the one beside toolnexus names it once", async () => {
  expect(await runCli(["--version"], { cwd: root })).toEqual({
    code: 0,
    stdout: `toolnexus ${toolnexusVersion}\ncompiling .ts files with typescript ${besideToolnexus} (the project's)\n`,
    stderr: "",
  });
});
