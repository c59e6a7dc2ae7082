import { readFileSync } from "node:fs";
import type { Command } from "commander";
import { CliError, messageOf } from "../errors";
import { finish, loadToolkit, note, wholeNumber, withModuleOptions, type ModuleOptions } from "../command-support";

interface CallOptions extends ModuleOptions {
  timeout?: number;
  json?: boolean;
}

/** `toolnexus call <module> <tool> [args]`: runs one tool; exit code 1 when the result is an error. */
export function registerCall(program: Command): Command {
  const command = program
    .command("call")
    .description("run one tool and print its result (exit code 1 when the result is an error)")
    .argument("<module>", "a .ts or .js module that exports tools")
    .argument("<tool>", "the tool's name")
    .argument("[args]", 'the arguments as a JSON object, e.g. \'{"city":"Chennai"}\'; "-" reads them from stdin', "{}")
    .option(
      "--timeout <ms>",
      "end the call with a timeout result after this many milliseconds",
      wholeNumber("--timeout", { min: 1 }),
    )
    .option("--json", "print the whole result ({ output, isError, metadata }) as JSON");
  return withModuleOptions(command).action(
    async (specifier: string, tool: string, rawArgs: string, options: CallOptions, self: Command) => {
      let args = rawArgs;
      if (args === "-") {
        try {
          args = readFileSync(0, "utf8");
        } catch (error) {
          throw new CliError(
            `cannot read the arguments from stdin: ${messageOf(error)}. Pipe a JSON object in, or pass it as the ` +
              "third argument.",
          );
        }
      }
      const toolkit = await loadToolkit(specifier, self);
      const controller = new AbortController();
      const interrupt = () => controller.abort(new Error("interrupted (Ctrl-C)"));
      process.once("SIGINT", interrupt);
      // A JSON string goes to the toolkit as it is: invalid JSON is an error *result*, like a model's.
      const result = await toolkit.execute(tool, args, {
        signal: controller.signal,
        provider: "cli",
        ...(options.timeout !== undefined ? { timeout: options.timeout } : {}),
      });
      process.off("SIGINT", interrupt);
      const code = result.isError ? 1 : 0;
      if (result.isError) note(`"${tool}" returned an error result (${String(result.metadata?.error ?? "error")}).`);
      if (options.json) return finish(code, `${JSON.stringify(result, null, 2)}\n`);
      return finish(code, result.output === "" || result.output.endsWith("\n") ? result.output : `${result.output}\n`);
    },
  );
}
