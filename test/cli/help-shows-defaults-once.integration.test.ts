/** Every command's help shows each option's default once: commander's "(default: ...)" or the description, never both. */
import { assertBuilt, runCli } from "./run-cli";

beforeAll(assertBuilt);

/** The help's option and argument entries, each joined onto one line (commander wraps long ones). */
function entries(help: string): string[] {
  const result: string[] = [];
  for (const line of help.split("\n")) {
    if (/^ {2}\S/.test(line)) result.push(line.trim());
    else if (/^ {3,}\S/.test(line) && result.length > 0) result[result.length - 1] += ` ${line.trim()}`;
  }
  return result;
}

describe.each(["export", "call", "serve", "list", "generate"])("toolnexus %s --help", (command) => {
  it("mentions each default once", async () => {
    const run = await runCli([command, "--help"]);
    expect(run.code).toBe(0);
    const repeated = entries(run.stdout).filter((entry) => (entry.match(/\bdefault\b/gi) ?? []).length > 1);
    expect(repeated).toEqual([]);
  });
});

it("serve --help shows its defaults in commander's form", async () => {
  const help = entries((await runCli(["serve", "--help"])).stdout).join("\n");
  expect(help).toMatch(/--path <path> .*\(default: "\/mcp"\)/);
  expect(help).toMatch(/--max-body <bytes> .*\(default: 1048576\)/);
  expect(help).toMatch(/--shutdown-timeout <ms> .*\(default: 10000\)/);
  expect(help).toMatch(/--name <name> .*\(default: "toolnexus"\)/);
  expect(help).toMatch(/--allowed-host <host> .*always answered$/m);
});
