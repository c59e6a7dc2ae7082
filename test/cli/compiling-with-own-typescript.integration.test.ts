/**
 * The CLI compiles .ts files with toolnexus's own `typescript` dependency, never the one in the
 * user's project (TypeScript 7's package has no JavaScript compiler API), and says which.
 */
import { assertBuilt, root, runCli } from "./run-cli";
import { removeUserProjects, userProject } from "./user-project";

const ownVersion = (require("typescript/package.json") as { version: string }).version;
const toolnexusVersion = (require("../../package.json") as { version: string }).version;

beforeAll(assertBuilt);
afterAll(removeUserProjects);

describe("a project with TypeScript 7 installed", () => {
  const project = userProject("nodenext-cjs", { typescript: "7.0.2" });

  it("loads its .ts files with toolnexus's compiler", async () => {
    const run = await runCli(["list", "tools.ts", "--json"], { cwd: project });
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: "" });
    expect((JSON.parse(run.stdout) as Array<{ name: string }>).map((tool) => tool.name)).toEqual(["plan"]);
  });

  it("--version names both versions", async () => {
    expect(await runCli(["--version"], { cwd: project })).toEqual({
      code: 0,
      stdout: `toolnexus ${toolnexusVersion}\ntypescript ${ownVersion} (toolnexus's own; it compiles the .ts files the CLI loads)\nyour project has typescript 7.0.2; toolnexus compiles .ts files with its own ${ownVersion}\n`,
      stderr: "",
    });
  });

  it("--verbose says which compiler loads .ts files", async () => {
    const run = await runCli(["list", "tools.ts", "--verbose"], { cwd: project });
    expect(run.code).toBe(0);
    expect(run.stderr).toBe(
      `toolnexus: compiling .ts files with toolnexus's own typescript ${ownVersion} (your project has typescript 7.0.2, which the CLI does not use)\n`,
    );
  });
});

it("--version in a project with the same TypeScript (or none) names one", async () => {
  expect(await runCli(["--version"], { cwd: root })).toEqual({
    code: 0,
    stdout: `toolnexus ${toolnexusVersion}\ntypescript ${ownVersion} (toolnexus's own; it compiles the .ts files the CLI loads)\n`,
    stderr: "",
  });
});
