/** How the CLI loads modules and finds their tools, and how it reports what goes wrong. */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { assertBuilt, expectOneLineError, rel, root, runCli } from "./run-cli";

const scratch = mkdtempSync(join(tmpdir(), "toolnexus-cli-"));
const write = (name: string, text: string) => {
  writeFileSync(join(scratch, name), text);
  return join(scratch, name);
};

beforeAll(assertBuilt);
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

async function toolNames(module: string, ...extra: string[]): Promise<string[]> {
  const run = await runCli(["list", module, "--json", ...extra]);
  expect(run).toMatchObject({ code: 0, stderr: "" });
  return (JSON.parse(run.stdout) as Array<{ name: string }>).map((tool) => tool.name);
}

describe("finding the tools a module exports", () => {
  it("a .ts module of decorated classes: each instantiated with no arguments", async () => {
    expect(await toolNames(rel("services.ts"))).toEqual(["getWeather", "add", "charge", "wait", "waitEvents"]);
  });

  it("a .ts module of instances: used as they are, other exports ignored", async () => {
    expect(await toolNames(rel("instances.ts"))).toEqual(["getWeather", "add"]);
  });

  it("a .ts module exporting a Toolkit: the toolkit wins over the classes next to it", async () => {
    expect(await toolNames(rel("toolkit.ts"))).toEqual(["getWeather", "add", "catalog.search"]);
  });

  it("a CommonJS .js module of Tools", async () => {
    expect(await toolNames(rel("tools.js"))).toEqual(["echo", "shout"]);
  });

  it("an ES module (.mjs) with a default export", async () => {
    expect(await toolNames(rel("esm-tools.mjs"))).toEqual(["reverse", "utc_time"]);
  });

  it('a .js ES module in a "type": "module" package', async () => {
    expect(await toolNames(rel("esm-package/tools.js"))).toEqual(["ping"]);
    expect(await runCli(["call", rel("esm-package/tools.js"), "ping"])).toEqual({
      code: 0,
      stdout: "pong\n",
      stderr: "",
    });
  });

  it("an absolute path, and a path without its extension", async () => {
    expect(await toolNames(join(root, rel("tools.js")))).toEqual(["echo", "shout"]);
    expect(await toolNames("./test/fixtures/cli/tools")).toEqual(["echo", "shout"]);
  });

  it("--export picks one export", async () => {
    expect(await toolNames(rel("two-toolkits.js"), "--export", "second")).toEqual(["pong"]);
    expect(await toolNames(rel("services.ts"), "--export", "PaymentsService")).toEqual(["charge"]);
  });
});

describe("errors: one line with the fix, exit code 2, no stack unless --verbose", () => {
  it("a module that throws while loading", async () => {
    const run = await runCli(["list", rel("broken.js")]);
    expectOneLineError(
      run,
      2,
      `cannot load ${rel("broken.js")}: the module threw Error: DATABASE_URL is not set (at ${rel("broken.js")}:2:7).`,
      "--verbose",
    );
  });

  it("--verbose adds the stack", async () => {
    const run = await runCli(["list", rel("broken.js"), "--verbose"]);
    expect(run.code).toBe(2);
    const [first, ...stack] = run.stderr.trimEnd().split("\n");
    expect(first).toContain("toolnexus: cannot load");
    expect(stack[0]).toBe("Error: DATABASE_URL is not set");
    expect(stack.join("\n")).toContain("broken.js:2");
  });

  it("a missing file", async () => {
    expectOneLineError(
      await runCli(["list", "./no/such/module.ts"]),
      2,
      "cannot load ./no/such/module.ts: no such file",
      "Check the path",
    );
  });

  it("a directory", async () => {
    expectOneLineError(await runCli(["list", rel("")]), 2, "it is a directory", "index.ts");
  });

  it("a module without tools", async () => {
    expectOneLineError(
      await runCli(["list", rel("no-tools.js")]),
      2,
      "it exports no tools (exports: answer, Helper)",
      "Export a Toolkit",
    );
  });

  it("several toolkits", async () => {
    expectOneLineError(
      await runCli(["list", rel("two-toolkits.js")]),
      2,
      "exports 2 toolkits (first, second)",
      "--export <name>",
    );
    expectOneLineError(
      await runCli(["list", rel("two-toolkits.js"), "--export", "third"]),
      2,
      'has no export named "third"',
      "first, second",
    );
  });

  it("a class that cannot be built with no arguments", async () => {
    expectOneLineError(
      await runCli(["list", rel("needs-config.ts")]),
      2,
      "new Mailer() failed: Mailer needs a config.",
      "Export an instance instead",
    );
  });

  it("a module whose toolkit refuses its tools: toolnexus's own message, with its fix", async () => {
    expectOneLineError(
      await runCli(["list", rel("duplicate.js")]),
      2,
      `cannot load ${rel("duplicate.js")}: DuplicateToolError: A tool named "lookup" is already registered`,
      "Rename one of them.",
    );
  });

  it("a decorated class compiled without decorator metadata", async () => {
    expectOneLineError(
      await runCli(["list", rel("no-metadata.js")]),
      2,
      `cannot use ${rel("no-metadata.js")}: Search.find, parameter 0 ("query"): no type metadata was emitted`,
      "emitDecoratorMetadata",
    );
  });

  it("a .ts syntax error names the file and line", async () => {
    const file = write("broken-syntax.ts", "export const x = {\n  a: 1,\n  b: ,\n};\n");
    expectOneLineError(
      await runCli(["list", file]),
      2,
      `cannot load ${file}: SyntaxError: ${file}:3:6: Expression expected.`,
    );
  });

  it("ES-module syntax in a CommonJS .js file", async () => {
    const file = write("esm-in-cjs.js", "export const x = 1;\n");
    const run = await runCli(["list", file]);
    // Node 20.19+ / 22.12+ detect module syntax and load it (then: no tools here); older Node refuses it.
    const nodeLoadsIt = spawnSync(process.execPath, ["-e", `require(${JSON.stringify(file)})`]).status === 0;
    if (nodeLoadsIt) expectOneLineError(run, 2, "it exports no tools (exports: x)");
    else expectOneLineError(run, 2, "It is an ES module: name it .mjs");
  });

  it("a missing import", async () => {
    const file = write("missing-import.js", 'require("toolnexus-no-such-package");\n');
    expectOneLineError(
      await runCli(["list", file]),
      2,
      `${file} imports "toolnexus-no-such-package", which cannot be found`,
      "npm install toolnexus-no-such-package",
    );
  });
});

describe("usage", () => {
  it("--help and --version exit 0", async () => {
    const help = await runCli(["--help"]);
    expect(help.code).toBe(0);
    for (const command of ["export", "call", "serve", "list"])
      expect(help.stdout).toMatch(new RegExp(`^  ${command} `, "m"));
    const version = await runCli(["--version"]);
    expect(version).toMatchObject({ code: 0, stderr: "" });
    expect(version.stdout.split("\n")[0]).toBe(
      `toolnexus ${(require("../../package.json") as { version: string }).version}`,
    );
  });

  it("no command prints the help and exits 2", async () => {
    const run = await runCli([]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("Usage: toolnexus");
  });

  it("an unknown command or option is one line", async () => {
    expectOneLineError(
      await runCli(["exprot", rel("tools.js")]),
      2,
      "unknown command 'exprot'",
      "(Did you mean export?)",
    );
    expectOneLineError(
      await runCli(["list", rel("tools.js"), "--colour"]),
      2,
      "unknown option '--colour'",
      "toolnexus list --help",
    );
  });
});
