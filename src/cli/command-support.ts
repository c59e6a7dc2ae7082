import type { Command } from "commander";
import { CliError } from "./errors";
import type { ToolkitLike } from "./find-tools";

/** A command's registration: one function per file in commands/, one line each in main.ts. */
export type RegisterCommand = (program: Command) => Command;

/** Options every command that loads a module takes. */
export interface ModuleOptions {
  export?: string;
}

/** Adds `--export <name>` to a command that loads a module. */
export function withModuleOptions(command: Command): Command {
  return command.option("--export <name>", "use only this export of the module (when it exports several toolkits)");
}

/**
 * Loads `specifier` and finds its tools, with the `--export` and `--verbose` of `command`. The
 * loader and the toolkit are required here, when a command runs, not when the CLI starts:
 * `--help` stays fast.
 */
export async function loadToolkit(specifier: string, command: Command): Promise<ToolkitLike> {
  const { loadModule } = require("./load-module") as typeof import("./load-module");
  const { toolkitFromModule } = require("./find-tools") as typeof import("./find-tools");
  const { export: pick, verbose } = command.optsWithGlobals<ModuleOptions & { verbose?: boolean }>();
  const loaded = await loadModule(specifier, verbose ? { note } : {});
  return toolkitFromModule(loaded.exports, specifier, pick);
}

/** A line for humans on stderr (stdout carries the command's output). */
export function note(text: string): void {
  process.stderr.write(`toolnexus: ${text}\n`);
}

/**
 * Writes `text` to stdout and ends the process with `code` once it is flushed: a loaded module
 * may hold timers or connections open that would otherwise keep the CLI running.
 */
export function finish(code: number, text = ""): Promise<never> {
  return new Promise<never>(() => {
    const exit = () => process.stderr.write("", () => process.exit(code));
    if (text === "") exit();
    else process.stdout.write(text, exit);
  });
}

/** Parses a whole, non-negative number option (milliseconds, bytes, ports). */
export function wholeNumber(flag: string, { min = 0, max = Number.MAX_SAFE_INTEGER } = {}): (value: string) => number {
  return (value: string) => {
    const parsed = /^\d+$/.test(value.trim()) ? Number(value) : NaN;
    if (!Number.isSafeInteger(parsed) || parsed < min || parsed > max) {
      throw new CliError(`${flag} takes a whole number from ${min} to ${max}; got "${value}".`);
    }
    return parsed;
  };
}
