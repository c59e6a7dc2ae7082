import { spawn, type ChildProcess } from "node:child_process";
import { realpathSync } from "node:fs";
import { delimiter, dirname, join } from "node:path";
import { consumerEnvironment, type RunResult } from "./consumer-project";

/** npm and npx as installed with the machine's Node (`<prefix>/lib/node_modules/npm`), run by whichever Node is chosen. */
const NPM_BIN = join(dirname(dirname(process.execPath)), "lib", "node_modules", "npm", "bin");

/** A command still running in the background (a watcher): its output so far, and how to stop it. */
export interface BackgroundCommand {
  /** stdout and stderr as printed so far. */
  output(): string;
  /** Resolves once the output matches `pattern`; rejects with the output so far after `timeoutMs` or when it exits. */
  waitForOutput(pattern: RegExp, timeoutMs: number): Promise<void>;
  /** Ends it (and what it started): SIGTERM, then SIGKILL if it has not exited within two seconds. */
  stop(): Promise<void>;
}

/**
 * A Node binary other than the one running the tests (a runner may need a newer one: vitest 5
 * needs Node 22.12+), running a consumer project's commands: npm and npx run on it (so their
 * engine checks and the packages' scripts see it), and its directory comes first on PATH (so
 * `#!/usr/bin/env node` bins and the processes runners start get it too). Every command has a
 * deadline, and runs in a process group of its own, killed whole when the deadline passes or
 * `stopAll` is called (a failed test's afterAll): runners start workers that would outlive
 * their parent.
 */
export class NodeToolchain {
  readonly #running = new Set<ChildProcess>();

  constructor(readonly node: string) {}

  /** The consumer's environment (see `consumerEnvironment`), with PATH starting at this Node's directory. */
  #environment(): NodeJS.ProcessEnv {
    const env = consumerEnvironment();
    env.PATH = [dirname(realpathSync(this.node)), env.PATH].filter(Boolean).join(delimiter);
    // Plain output to assert on.
    env.NO_COLOR = "1";
    env.FORCE_COLOR = "0";
    return env;
  }

  /** `node <args>` in `directory`; never rejects (the result says, with the deadline's note when it was killed). */
  run(directory: string, args: readonly string[], timeoutMs: number): Promise<RunResult> {
    return new Promise((resolve) => {
      const child = this.#spawn(directory, args);
      let stdout = "";
      let stderr = "";
      child.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
      child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
      let timedOut = false;
      const deadline = setTimeout(() => {
        timedOut = true;
        killGroup(child, "SIGKILL");
      }, timeoutMs);
      child.on("error", (error) => {
        clearTimeout(deadline);
        resolve({ code: 1, stdout, stderr: `${stderr}${error.message}` });
      });
      child.on("close", (code) => {
        clearTimeout(deadline);
        this.#running.delete(child);
        const note = timedOut ? `\n(killed after ${timeoutMs} ms: \`node ${args.join(" ")}\` did not finish)` : "";
        resolve({ code: timedOut ? 1 : (code ?? 1), stdout, stderr: `${stderr}${note}` });
      });
    });
  }

  /** Like `run`, but an error with everything it printed unless it exits with 0; its stdout otherwise. */
  async succeed(directory: string, args: readonly string[], timeoutMs: number): Promise<string> {
    const result = await this.run(directory, args, timeoutMs);
    if (result.code !== 0)
      throw new Error(
        `\`node ${args.join(" ")}\` in ${directory} exited with ${result.code}:\n${result.stdout}\n${result.stderr}`,
      );
    return result.stdout;
  }

  /** npm's CLI on this Node. */
  npm(directory: string, args: readonly string[], timeoutMs: number): Promise<RunResult> {
    return this.run(directory, [join(NPM_BIN, "npm-cli.js"), ...args], timeoutMs);
  }

  /** npx on this Node, never fetching what the project has not installed (`--no`). */
  npx(directory: string, args: readonly string[], timeoutMs: number): Promise<RunResult> {
    return this.run(directory, [join(NPM_BIN, "npx-cli.js"), "--no", ...args], timeoutMs);
  }

  /** npx in the background, for a command that runs until stopped (`toolnexus generate --watch`). */
  npxInBackground(directory: string, args: readonly string[]): BackgroundCommand {
    const child = this.#spawn(directory, [join(NPM_BIN, "npx-cli.js"), "--no", ...args]);
    let output = "";
    let exited = false;
    const listeners = new Set<() => void>();
    const changed = () => listeners.forEach((listener) => listener());
    child.stdout!.on("data", (chunk: Buffer) => ((output += chunk.toString("utf8")), changed()));
    child.stderr!.on("data", (chunk: Buffer) => ((output += chunk.toString("utf8")), changed()));
    const closed = new Promise<void>((resolve) =>
      child.on("close", () => {
        exited = true;
        this.#running.delete(child);
        changed();
        resolve();
      }),
    );
    return {
      output: () => output,
      waitForOutput: (pattern, timeoutMs) =>
        new Promise((resolve, reject) => {
          const check = () => {
            if (pattern.test(output)) done(() => resolve());
            else if (exited)
              done(() => reject(new Error(`\`npx ${args.join(" ")}\` exited before printing ${pattern}:\n${output}`)));
          };
          const timer = setTimeout(
            () =>
              done(() =>
                reject(new Error(`\`npx ${args.join(" ")}\` printed no ${pattern} in ${timeoutMs} ms:\n${output}`)),
              ),
            timeoutMs,
          );
          const done = (settle: () => void) => {
            clearTimeout(timer);
            listeners.delete(check);
            settle();
          };
          listeners.add(check);
          check();
        }),
      stop: async () => {
        if (exited) return;
        killGroup(child, "SIGTERM");
        const killed = setTimeout(() => killGroup(child, "SIGKILL"), 2_000);
        await closed;
        clearTimeout(killed);
      },
    };
  }

  /** Kills every command of this toolchain still running, with what each started. */
  stopAll(): void {
    for (const child of this.#running) killGroup(child, "SIGKILL");
    this.#running.clear();
  }

  #spawn(directory: string, args: readonly string[]): ChildProcess {
    // detached: a process group of its own, so the whole of it can be killed by its id.
    const child = spawn(this.node, args, {
      cwd: directory,
      env: this.#environment(),
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    this.#running.add(child);
    return child;
  }
}

/** Signals the process group `child` leads (it and what it started); nothing when it is gone already. */
function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ESRCH") throw error;
  }
}
