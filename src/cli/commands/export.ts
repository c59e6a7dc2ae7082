import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { Option, type Command } from "commander";
import { CliError, messageOf } from "../errors";
import { finish, loadToolkit, note, withModuleOptions, type ModuleOptions } from "../command-support";
import { EXPORT_FORMATS, type AnyExportOptions, type ExportFormat } from "../../providers/registry";

interface ExportOptions extends ModuleOptions {
  format: ExportFormat;
  strict?: boolean;
  jsonSchema?: boolean;
  names: "exact" | "sanitize";
  out?: string;
}

const STRICT_FORMATS: readonly ExportFormat[] = ["openai", "openai-responses"];

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
    .option("--strict", "OpenAI strict mode (formats openai and openai-responses)")
    .option("--json-schema", "Gemini: send the full JSON Schema as parametersJsonSchema")
    .addOption(
      new Option("--names <mode>", "tool names a provider rejects: exact = error, sanitize = map them")
        .choices(["exact", "sanitize"])
        .default("exact"),
    )
    .option("-o, --out <file>", "write the declarations to this file instead of stdout");
  return withModuleOptions(command).action(async (specifier: string, options: ExportOptions, self: Command) => {
    if (options.strict && !STRICT_FORMATS.includes(options.format)) {
      throw new CliError(
        `--strict applies to the formats ${STRICT_FORMATS.join(" and ")}, not ${options.format}. Drop --strict, or ` +
          "use --format openai.",
      );
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
    };
    let report;
    try {
      report = describeExport(options.format, toolkit.tools(), exportOptions);
    } catch (error) {
      const message = messageOf(error).replace('export with { names: "sanitize" }', "export with --names sanitize");
      throw new CliError(`cannot export ${specifier} for ${options.format}: ${message}`, 2, { cause: error });
    }
    const json = `${JSON.stringify(report.declarations, null, 2)}\n`;
    const count = toolkit.tools().length;
    const tools = `${count} tool${count === 1 ? "" : "s"}`;
    if (report.changes.length === 0) {
      note(`${tools} exported for ${options.format}; the schemas needed no changes.`);
    } else {
      note(
        `${tools} exported for ${options.format}; ${report.changes.length} schema ` +
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
