import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { Option, type Command } from "commander";
import { CliError, messageOf } from "../errors";
import { finish, loadToolkit, note, wholeNumber, withModuleOptions, type ModuleOptions } from "../command-support";
import { budgetFailure, tokensText } from "../declaration-budget";
import { ADAPTERS, EXPORT_FORMATS, type AnyExportOptions, type ExportFormat } from "../../providers/registry";

interface ExportOptions extends ModuleOptions {
  format: ExportFormat;
  strict?: boolean;
  jsonSchema?: boolean;
  toolSearch?: "bm25" | "regex";
  examplesInDescription?: boolean;
  names: "exact" | "sanitize";
  budget?: number;
  allowLossy?: boolean;
  out?: string;
}

/** The formats with a strict form of their declarations. */
const STRICT_FORMATS: readonly ExportFormat[] = ["openai", "openai-responses", "anthropic", "bedrock"];

/** Each format but the last, then "and" the last. */
const listed = (formats: readonly string[]) => `${formats.slice(0, -1).join(", ")} and ${formats.at(-1)}`;

/**
 * `toolnexus export <module>`: the declarations for one provider on stdout (or --out), the dialect report on stderr.
 */
export function registerExport(program: Command): Command {
  const command = program
    .command("export")
    .description(
      "print the tool declarations for a provider; what the provider's schema dialect changed goes to stderr",
    )
    .argument("<module>", "a .ts or .js module that exports tools (a Toolkit, Tools, decorated classes or instances)")
    .addOption(new Option("-f, --format <format>", "provider format").choices(EXPORT_FORMATS).default("gemini"))
    .option("--strict", `strict tool schemas (formats ${listed(STRICT_FORMATS)})`)
    .option("--json-schema", "Gemini: send the full JSON Schema as parametersJsonSchema")
    .addOption(
      new Option("--tool-search <mode>", "Anthropic: how its tool search finds deferred tools").choices([
        "bm25",
        "regex",
      ]),
    )
    .option(
      "--examples-in-description",
      "append each tool's examples to its description (formats without a field for them)",
    )
    .addOption(
      new Option("--names <mode>", "tool names a provider rejects: exact = error, sanitize = map them")
        .choices(["exact", "sanitize"])
        .default("exact"),
    )
    .option(
      "--budget <tokens>",
      "fail (exit code 1) when the declarations sent up front take more tokens, or a schema change is lossy",
      wholeNumber("--budget", { min: 1 }),
    )
    .option("--allow-lossy", "with --budget: accept lossy schema changes")
    .option("-o, --out <file>", "write the declarations to this file instead of stdout");
  return withModuleOptions(command).action(async (specifier: string, options: ExportOptions, self: Command) => {
    if (options.strict && !STRICT_FORMATS.includes(options.format)) {
      throw new CliError(
        `--strict applies to the formats ${listed(STRICT_FORMATS)}, not ${options.format}. Drop --strict, or ` +
          "use --format openai.",
      );
    }
    if (options.toolSearch !== undefined && options.format !== "anthropic") {
      throw new CliError(
        `--tool-search applies to the anthropic format (its own search of deferred tools), not ${options.format}. ` +
          "Drop --tool-search, or use --format anthropic.",
      );
    }
    if (options.examplesInDescription && ADAPTERS[options.format].takesExamples === true) {
      throw new CliError(
        `--examples-in-description does not apply to ${options.format}: its declarations carry each tool's ` +
          "examples in a field of their own. Drop --examples-in-description.",
      );
    }
    if (options.allowLossy && options.budget === undefined) {
      throw new CliError("--allow-lossy applies with --budget. Add --budget <tokens>, or drop --allow-lossy.");
    }
    if (options.jsonSchema && options.format !== "gemini") {
      throw new CliError(
        `--json-schema applies to the gemini format, not ${options.format}. Drop --json-schema, or use --format ` +
          "gemini.",
      );
    }
    const toolkit = await loadToolkit(specifier, self);
    // Loaded when the command runs: its help loads no provider.
    const { describeExport } = require("../../providers/exporters") as typeof import("../../providers/exporters");
    const exportOptions: AnyExportOptions = {
      names: options.names,
      ...(options.strict ? { strict: true } : {}),
      ...(options.jsonSchema ? { jsonSchema: true } : {}),
      ...(options.toolSearch !== undefined ? { toolSearch: options.toolSearch } : {}),
      ...(options.examplesInDescription ? { examplesInDescription: true } : {}),
    };
    let report;
    try {
      report = describeExport(options.format, toolkit.tools(), exportOptions);
    } catch (error) {
      const message = messageOf(error).replace('export with { names: "sanitize" }', "export with --names sanitize");
      throw new CliError(`cannot export ${specifier} for ${options.format}: ${message}`, 2, { cause: error });
    }
    if (options.budget !== undefined) {
      const failure = budgetFailure(options.format, report, options.budget, options.allowLossy === true);
      if (failure !== undefined) throw new CliError(`${specifier} fails --budget: ${failure}`, 1);
    }
    const json = `${JSON.stringify(report.declarations, null, 2)}\n`;
    const count = toolkit.tools().length;
    const tools = `${count} tool${count === 1 ? "" : "s"} exported for ${options.format}, ${tokensText(report.tokens)}`;
    if (report.changes.length === 0) {
      note(`${tools}; the schemas needed no changes.`);
    } else {
      note(
        `${tools}; ${report.changes.length} schema ` +
          `change${report.changes.length === 1 ? "" : "s"} for its dialect:`,
      );
      const rows = report.changes.map((c) => [
        c.tool,
        c.pointer === "" ? "/" : c.pointer,
        c.keyword,
        c.action,
        c.detail,
      ]);
      const widths = [0, 1, 2, 3].map((i) => Math.max(...rows.map((row) => row[i]!.length)));
      for (const row of rows)
        process.stderr.write(
          `  ${row
            .map((cell, i) => (i < 4 ? cell.padEnd(widths[i]!) : cell))
            .join("  ")
            .trimEnd()}\n`,
        );
    }
    if (options.out !== undefined) {
      const target = resolve(options.out);
      try {
        mkdirSync(dirname(target), { recursive: true });
        writeFileSync(target, json);
      } catch (error) {
        throw new CliError(
          `cannot write ${options.out}: ${messageOf(error)}. Check that the directory is writable.`,
          2,
          { cause: error },
        );
      }
      note(`wrote ${options.out}`);
      return finish(0);
    }
    return finish(0, json);
  });
}
