#!/usr/bin/env node
/**
 * The `toolnexus` CLI: export, call, serve, list, generate. Commands live in ./commands, one file
 * each, registered below with one line each. Registering a command only defines its options:
 * what it runs (the toolkit, the providers, MCP, the TypeScript compiler) is required when it
 * runs, so `--help` and `--version` start fast (test/cli/starting-fast.test.ts).
 */
import { Command, CommanderError } from "commander";
import { registerCall } from "./commands/call";
import { registerExport } from "./commands/export";
import { registerGenerate } from "./commands/generate";
import { registerList } from "./commands/list";
import { registerServe } from "./commands/serve";
import { CliError, messageOf } from "./errors";

export function buildProgram(): Command {
  const program = new Command("toolnexus")
    .description("Turn TypeScript services into LLM tools: export their declarations, call them, serve them over MCP.")
    .option("-V, --version", "print the versions of toolnexus and of the TypeScript compiler it loads .ts files with")
    .option("--verbose", "print stack traces with errors, and which compiler loads .ts files")
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({ outputError: () => {} }); // errors are printed by main(), one line each

  // ---- Commands: one line each (a new command: src/cli/commands/<name>.ts exporting register<Name>) ----
  registerExport(program);
  registerCall(program);
  registerServe(program);
  registerList(program);
  registerGenerate(program);

  program.on("option:version", () => {
    const { versionReport } = require("./version-report") as typeof import("./version-report");
    process.stdout.write(versionReport(process.cwd()));
    throw new CommanderError(0, "commander.version", "");
  });
  return program;
}

/** Runs the CLI; resolves to the exit code (commands that end the process themselves never resolve). */
export async function main(argv: readonly string[] = process.argv): Promise<number> {
  const program = buildProgram();
  const verbose = argv.includes("--verbose");
  try {
    await program.parseAsync(argv as string[]);
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.exitCode === 0 || error.code === "commander.helpDisplayed" || error.code === "commander.version")
        return 0;
      // help already printed (no command given)
      if (error.code === "commander.help" || error.code === "commander.executeSubCommandAsync") return 2;
      const command = program.commands.find((c) => argv.slice(2).includes(c.name()));
      const help = command ? `toolnexus ${command.name()} --help` : "toolnexus --help";
      process.stderr.write(
        `toolnexus: ${messageOf(error.message.replace(/^error:\s*/, "")).replace(/\.+$/, "")}. Run \`${help}\` for ` +
          `usage.\n`,
      );
      return 2;
    }
    const exitCode = error instanceof CliError ? error.exitCode : 2;
    process.stderr.write(
      `toolnexus: ${messageOf(error)}${error instanceof CliError ? "" : " (run with --verbose for the stack)"}\n`,
    );
    if (verbose) {
      const cause = error instanceof CliError && error.cause !== undefined ? error.cause : error;
      process.stderr.write(`${cause instanceof Error ? (cause.stack ?? cause.message) : String(cause)}\n`);
    }
    return exitCode;
  }
}

if (require.main === module) {
  void main().then((code) => {
    if (code !== 0) process.stderr.write("", () => process.exit(code));
  });
}
