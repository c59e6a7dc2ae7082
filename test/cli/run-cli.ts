import { spawn } from "node:child_process";
import { assertBuilt, bin, fixture, root } from "../mcp/support";

export { assertBuilt, fixture, root };

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the built `toolnexus` bin as a child process, on the Node `TOOLNEXUS_CLI_NODE` names, else on the tests' own. */
export function runCli(
  args: string[],
  { input, cwd = root, env = {} }: { input?: string; cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.env.TOOLNEXUS_CLI_NODE ?? process.execPath, [bin, ...args], {
      cwd,
      env: { ...process.env, ...env },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input);
  });
}

/** The fixture's path as a user would type it: relative to the project root. */
export const rel = (name: string): string => `test/fixtures/cli/${name}`;

/** A CLI error: exactly one line on stderr, `toolnexus: ...`, nothing on stdout. */
export function expectOneLineError(run: CliRun, code: number, ...fragments: string[]): void {
  expect({ code: run.code, stdout: run.stdout }).toEqual({ code, stdout: "" });
  const lines = run.stderr.trimEnd().split("\n");
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^toolnexus: /);
  for (const fragment of fragments) expect(lines[0]).toContain(fragment);
  expect(run.stderr).not.toMatch(/\n\s+at /); // no stack trace
}
