import type { Command } from "commander";
import type { JSONSchemaObject, Tool } from "../../core/types";
import { finish, loadToolkit, withModuleOptions, type ModuleOptions } from "../command-support";

interface ListOptions extends ModuleOptions {
  json?: boolean;
}

/** `toolnexus list <module>`: every tool and its parameters as a table. */
export function registerList(program: Command): Command {
  const command = program
    .command("list")
    .description("show each tool with its parameters as a table")
    .argument("<module>", "a .ts or .js module that exports tools")
    .option("--json", "print the tools (name, description, inputSchema, annotations) as JSON instead");
  return withModuleOptions(command).action(async (specifier: string, options: ListOptions, self: Command) => {
    const tools = (await loadToolkit(specifier, self)).tools();
    if (options.json) {
      const plain = tools.map(({ name, description, inputSchema, annotations }) => ({
        name,
        description,
        inputSchema,
        ...(annotations ? { annotations } : {}),
      }));
      return finish(0, `${JSON.stringify(plain, null, 2)}\n`);
    }
    return finish(0, toolTable(tools));
  });
}

/**
 * TOOL / PARAMETER / TYPE / REQUIRED / DESCRIPTION: one row per tool (its description and
 * hints), then one row per parameter.
 */
export function toolTable(tools: readonly Tool[]): string {
  const rows: string[][] = [["TOOL", "PARAMETER", "TYPE", "REQUIRED", "DESCRIPTION"]];
  for (const tool of tools) {
    rows.push([tool.name, "", "", "", flat(tool.description) + hints(tool)]);
    const properties = tool.inputSchema.properties ?? {};
    const required = new Set(tool.inputSchema.required ?? []);
    const names = Object.keys(properties);
    if (names.length === 0) rows.push(["", "(no parameters)", "", "", ""]);
    for (const name of names) {
      const schema = properties[name]!;
      const extra = schema.default !== undefined ? `default ${JSON.stringify(schema.default)}` : "";
      const description = [flat(schema.description ?? ""), extra].filter(Boolean).join("; ");
      rows.push(["", name, typeOf(schema), required.has(name) ? "yes" : "no", description]);
    }
  }
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  const lines = rows.map((row) =>
    row
      .map((cell, column) => (column < row.length - 1 ? cell.padEnd(widths[column]!) : cell))
      .join("  ")
      .trimEnd(),
  );
  lines.push("", `${tools.length} tool${tools.length === 1 ? "" : "s"}`);
  return `${lines.join("\n")}\n`;
}

function hints(tool: Tool): string {
  const a = tool.annotations ?? {};
  const words = [
    tool.defer ? "deferred" : undefined,
    tool.namespace !== undefined ? `namespace ${tool.namespace}` : undefined,
    tool.freeText !== undefined ? "free text" : undefined,
    a.readOnly ? "read-only" : undefined,
    a.destructive ? "destructive" : undefined,
    a.idempotent ? "idempotent" : undefined,
    a.openWorld ? "open-world" : undefined,
  ].filter(Boolean);
  return words.length > 0 ? ` [${words.join(", ")}]` : "";
}

function flat(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** A short, readable type: `string (email)`, `"a" | "b"`, `integer >= 1`, `object[]`. */
export function typeOf(schema: JSONSchemaObject): string {
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (Array.isArray(schema.enum)) return schema.enum.map((value) => JSON.stringify(value)).join(" | ");
  for (const key of ["anyOf", "oneOf"] as const) {
    const branches = schema[key];
    if (Array.isArray(branches)) return (branches as JSONSchemaObject[]).map(typeOf).join(" | ");
  }
  const types = Array.isArray(schema.type) ? schema.type : schema.type !== undefined ? [schema.type] : [];
  if (types.length === 0) return schema.properties ? "object" : "any";
  return types
    .map((type) => {
      if (type === "array") {
        if (Array.isArray(schema.items)) return `[${schema.items.map(typeOf).join(", ")}]`;
        const items = schema.items === undefined ? "any" : typeOf(schema.items);
        return items.includes(" ") ? `(${items})[]` : `${items}[]`;
      }
      const details: string[] = [];
      if (typeof schema.format === "string") details.push(schema.format);
      if (type === "number" || type === "integer") {
        if (typeof schema.minimum === "number") details.push(`>= ${schema.minimum}`);
        if (typeof schema.exclusiveMinimum === "number") details.push(`> ${schema.exclusiveMinimum}`);
        if (typeof schema.maximum === "number") details.push(`<= ${schema.maximum}`);
        if (typeof schema.exclusiveMaximum === "number") details.push(`< ${schema.exclusiveMaximum}`);
      }
      return details.length > 0 ? `${type} (${details.join(", ")})` : type;
    })
    .join(" | ");
}
