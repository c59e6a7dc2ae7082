/**
 * `toolnexus --help` (and any command's help, and --version) loads only commander and the
 * commands' option definitions: the toolkit, the providers, MCP and the TypeScript compiler
 * are required when a command runs. Checked by what is loaded, not by a clock.
 */
import { spawnSync } from "node:child_process";
import { relative } from "node:path";
import { assertBuilt, root } from "./run-cli";
import { bin } from "../mcp/support";

beforeAll(assertBuilt);

/** The files a run of the built bin requires, relative to the project root. */
function filesLoadedBy(args: string[]): string[] {
  const script = `
    const Module = require("node:module");
    const load = Module.prototype.load;
    const loaded = [];
    Module.prototype.load = function (filename) { loaded.push(filename); return load.call(this, filename); };
    process.on("exit", () => require("node:fs").writeSync(2, JSON.stringify(loaded)));
    require(${JSON.stringify(bin)}).main([process.argv[0], ${JSON.stringify(bin)}, ...${JSON.stringify(args)}]).then((code) => process.exit(code));
  `;
  const run = spawnSync(process.execPath, ["-e", script], { cwd: root, encoding: "utf8" });
  const last = run.stderr.trimEnd().split("\n").pop()!;
  return (JSON.parse(last) as string[]).map((file) => relative(root, file));
}

const HEAVY = [
  /node_modules\/typescript\//,
  /node_modules\/@modelcontextprotocol\//,
  /node_modules\/(ajv|class-validator|class-transformer|reflect-metadata)\//,
  // The provider registry names the formats for --format without loading a provider.
  /^dist\/cjs\/(toolkit|providers\/(?!registry\.js)|mcp\/index|scanner)/,
];

describe.each([["--help"], ["serve", "--help"], ["export", "--help"], ["--version"]])("toolnexus %s", (...args) => {
  it("loads no toolkit, providers, MCP SDK or compiler", () => {
    const files = filesLoadedBy(args);
    expect(files).toContain("dist/cjs/cli/main.js");
    expect(files).toContain("dist/cjs/cli/commands/serve.js");
    expect(files.filter((file) => HEAVY.some((pattern) => pattern.test(file)))).toEqual([]);
  });
});
