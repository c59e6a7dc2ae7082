import { execFile } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { concurrencyLimit } from "../../support/concurrency-limit";

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  /** Variables set over the consumer's environment. */
  env?: NodeJS.ProcessEnv;
  /** Milliseconds after which the command is killed (its result then says so). */
  timeout?: number;
}

/**
 * The environment of the consumer's commands: npm's settings (cache, registry, certificates)
 * pass, but nothing that points back at this repository (`npm test` sets the local prefix and
 * the package's own fields), so installs and module lookups see only the consumer project.
 */
export function consumerEnvironment(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (
      /^(npm_package_|npm_lifecycle_|npm_config_local_prefix$|INIT_CWD$|NODE_PATH$|NODE_OPTIONS$|TS_NODE_)/i.test(key)
    )
      continue;
    env[key] = value;
  }
  return env;
}

/**
 * Compilers running at once, across every project: one per core. Started all together, the
 * projects' ten type-checks and two builds would leave nothing for the other tests running
 * beside them (their child processes then miss their deadlines) and finish no sooner.
 */
const withCompilerSlot = concurrencyLimit();

/** A project of its own under a temporary directory, with its own package.json and node_modules. */
export class ConsumerProject {
  constructor(readonly directory: string) {}

  /** Writes files (paths relative to the project; objects are written as JSON). */
  write(files: Record<string, string | object>): this {
    for (const [path, content] of Object.entries(files)) {
      const file = join(this.directory, path);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, typeof content === "string" ? content : `${JSON.stringify(content, null, 2)}\n`);
    }
    return this;
  }

  /**
   * Runs a command in the project; never throws for a non-zero exit (the result says).
   * `options.env` is set over the consumer's environment; `options.timeout` (ms) kills the command when it runs longer.
   */
  run(command: string, args: readonly string[], options: RunOptions = {}): Promise<RunResult> {
    return new Promise((resolve) => {
      execFile(
        command,
        args,
        {
          cwd: this.directory,
          env: { ...consumerEnvironment(), ...options.env },
          encoding: "utf8",
          maxBuffer: 64 * 1024 * 1024,
          ...(options.timeout !== undefined ? { timeout: options.timeout } : {}),
        },
        (error, stdout, stderr) => {
          // A command that ran has its exit code; one that could not start or was killed, the error's message.
          const exited = error === null || typeof error.code === "number";
          resolve({
            code: error === null ? 0 : exited ? (error.code as number) : 1,
            stdout,
            stderr: exited ? stderr : `${stderr}${error.message}`,
          });
        },
      );
    });
  }

  /** Runs a command that must succeed: its stdout, or an error with everything it printed. */
  async succeed(command: string, args: readonly string[]): Promise<string> {
    return this.#succeeded([command, ...args], await this.run(command, args));
  }

  #succeeded(commandLine: readonly string[], result: RunResult): string {
    if (result.code !== 0) {
      throw new Error(
        `\`${commandLine.join(" ")}\` in ${this.directory} exited with ${result.code}:\n${result.stdout}\n${result.stderr}`,
      );
    }
    return result.stdout;
  }

  /** `npm install` of the dependencies in its package.json, from the npm cache when it can. */
  install(): Promise<string> {
    return this.succeed("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"]);
  }

  /** The project's own TypeScript compiler (TypeScript 7's is the native one) on `tsconfig`, one per core at a time. */
  tsc(tsconfig: string): Promise<RunResult> {
    return withCompilerSlot(() => this.run(...this.#tscCommand(tsconfig)));
  }

  /** The application's build (tsconfig.json), which must succeed: an error with everything the compiler printed otherwise. */
  async build(): Promise<string> {
    const [command, args] = this.#tscCommand("tsconfig.json");
    return this.#succeeded([command, ...args], await this.tsc("tsconfig.json"));
  }

  #tscCommand(tsconfig: string): [string, string[]] {
    return [join(this.directory, "node_modules", ".bin", "tsc"), ["-p", tsconfig, "--pretty", "false"]];
  }

  /** The toolnexus CLI the project installed (`npx --no`: never fetched from the registry). */
  /** The installed CLI itself (not through npx, which would answer `--version` with npm's own). */
  toolnexus(args: readonly string[]): Promise<RunResult> {
    return this.run(join(this.directory, "node_modules", ".bin", "toolnexus"), args);
  }

  node(args: readonly string[]): Promise<string> {
    return this.succeed(process.execPath, args);
  }
}
