/**
 * What a declaration costs: `describeExport(...).tokens`, per tool and in total, counted with OpenAI's o200k
 * tokenizer (exact for OpenAI's formats, an estimate for the others), and what deferred tools save.
 */
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { defineTool, describeExport, type ExportFormat, type Tool } from "../../src";
import { tokenReport } from "../../src/providers/declaration-tokens";
import { ADAPTERS, EXPORT_FORMATS } from "../../src/providers/registry";
import mcpServers from "../../bench/fixtures/mcp-server-tools.json";

const OPENAI_FORMATS: readonly ExportFormat[] = ["openai", "openai-responses"];

const lookup = (name: string, options: { defer?: boolean; description?: string; hidden?: boolean } = {}): Tool =>
  defineTool({
    name,
    description: options.description ?? `Looks up ${name.replace(/_/g, " ")} by id`,
    inputSchema: {
      type: "object",
      properties: { id: { type: "string", description: "The record's id" } },
      required: ["id"],
      additionalProperties: false,
    },
    ...(options.defer === true ? { defer: true } : {}),
    ...(options.hidden === true ? { visible: () => false } : {}),
    execute: ({ id }) => String(id),
  });

/**
 * The 37 tools four real MCP servers list (bench/fixtures/mcp-server-tools.json), the first `upFront` declared up
 * front and the rest deferred: what a host does with a large toolkit.
 */
const serverTools = (upFront = Infinity): Tool[] =>
  (mcpServers.servers as Array<{ tools: Array<{ name: string; description: string; inputSchema: object }> }>)
    .flatMap((server) => server.tools)
    .map((tool, index) =>
      defineTool({
        name: tool.name,
        description: tool.description,
        inputSchema: tool.inputSchema as Tool["inputSchema"],
        ...(index >= upFront ? { defer: true } : {}),
        execute: () => "ok",
      }),
    );

const jsonTokens = (value: unknown) => countTokens(JSON.stringify(value));

describe.each(EXPORT_FORMATS)("the tokens of %s declarations", (format) => {
  const exact = OPENAI_FORMATS.includes(format);

  it(`are counted with o200k, labelled ${exact ? "exact" : "an estimate"}`, () => {
    const { tokens } = describeExport(format, [lookup("find_user")]);
    expect(tokens.method).toBe(exact ? "o200k" : "o200k-estimate");
  });

  it("total the whole declarations when nothing is deferred, and then deferring saves nothing", () => {
    const { declarations, tokens } = describeExport(format, [lookup("find_user"), lookup("find_order")]);
    expect(tokens.declared).toBe(jsonTokens(declarations));
    expect(tokens.allDeclared).toBe(tokens.declared);
    expect(tokens.deferredSaving).toBe(0);
  });

  it("count each tool's own entry, found under its exported name whatever shape the format gives it", () => {
    const tools = serverTools();
    const { declarations, tokens } = describeExport(format, tools, { names: "sanitize" });
    expect(tokens.tools.map((tool) => tool.tool)).toEqual(tools.map((tool) => tool.name));
    expect(tokens.tools.filter((tool) => tool.located === false)).toEqual([]);
    for (const tool of tokens.tools) {
      expect(tool.tokens).toBeGreaterThan(countTokens(tool.name));
      expect(JSON.stringify(declarations)).toContain(`"name":${JSON.stringify(tool.name)}`);
    }
    // The entries are the declarations' parts: they add up to the whole, give or take the separators (which the
    // tokenizer may merge with the brackets around them).
    const sum = tokens.tools.reduce((total, tool) => total + tool.tokens, 0);
    expect(Math.abs(sum - tokens.declared)).toBeLessThan(tokens.declared * 0.02);
  });

  it("a larger tool costs more", () => {
    const { tokens } = describeExport(format, [
      lookup("short_one"),
      lookup("long_one", { description: "Looks up a record by id. ".repeat(20) }),
    ]);
    expect(tokens.tools[1]!.tokens).toBeGreaterThan(tokens.tools[0]!.tokens + 50);
  });

  it("with most tools deferred: count what the first request sends, what declaring all would, and the share saved", () => {
    const tools = serverTools(5);
    const { declarations, tokens } = describeExport(format, tools, { names: "sanitize" });
    const all = describeExport(
      format,
      tools.map((tool) => ({ ...tool, defer: false })),
      { names: "sanitize" },
    );
    expect(tokens.allDeclared).toBe(jsonTokens(all.declarations));
    expect(tokens.tools.filter((tool) => tool.deferred === true)).toHaveLength(tools.length - 5);
    expect(tokens.tools.map((tool) => tool.tokens)).toEqual(all.tokens.tools.map((tool) => tool.tokens));
    if (ADAPTERS[format].searchesNatively !== true) {
      // Only the tools up front and toolnexus's search_tools are declared: all of it is sent.
      expect(tokens.declared).toBe(jsonTokens(declarations));
    } else {
      // Every tool is declared, the deferred ones marked so: those stay out of the model's context until found.
      expect(tokens.declared).toBeLessThan(jsonTokens(declarations));
    }
    expect(tokens.declared).toBeLessThan(tokens.allDeclared / 2);
    expect(tokens.deferredSaving).toBeCloseTo((tokens.allDeclared - tokens.declared) / tokens.allDeclared, 10);
    expect(tokens.deferredSaving).toBeGreaterThan(0.5);
  });
});

describe("deferring", () => {
  it("costs more than it saves when the search tool is larger than the tools deferred, and says so", () => {
    const { tokens } = describeExport("gemini", [lookup("find_user"), lookup("find_order", { defer: true })]);
    expect(tokens.declared).toBeGreaterThan(tokens.allDeclared);
    expect(tokens.deferredSaving).toBeLessThan(0);
  });

  it("leaves the tools given as they are: their copies without defer are made for counting only", () => {
    const deferred = lookup("find_order", { defer: true });
    const { tokens } = describeExport("openai", [lookup("find_user"), deferred]);
    expect(tokens.tools[1]).toMatchObject({ tool: "find_order", deferred: true });
    expect(deferred.defer).toBe(true);
    expect(describeExport("openai", [lookup("find_user"), deferred]).declarations).toEqual(
      describeExport("openai", [lookup("find_user"), lookup("find_order", { defer: true })]).declarations,
    );
  });
});

describe("tokenReport", () => {
  it("gives what describeExport reports, for declarations exported elsewhere (a toolkit's)", () => {
    const tools = [lookup("find_user"), lookup("find_order", { defer: true })];
    const report = describeExport("openai-responses", tools);
    expect(tokenReport("openai-responses", tools, report.declarations)).toEqual(report.tokens);
  });

  it("counts only the tools visible to the export's ctx", () => {
    const { tokens } = describeExport("mcp", [lookup("find_user"), lookup("admin_only", { hidden: true })], {
      ctx: {},
    });
    expect(tokens.tools.map((tool) => tool.tool)).toEqual(["find_user"]);
  });
});

describe("without gpt-tokenizer installed", () => {
  it("estimates from characters, about four a token, and labels the count so", () => {
    jest.isolateModules(() => {
      jest.doMock("gpt-tokenizer/encoding/o200k_base", () => {
        throw new Error("Cannot find module 'gpt-tokenizer/encoding/o200k_base'");
      });
      const isolated = require("../../src") as typeof import("../../src");
      const tools = [lookup("find_user")];
      const { declarations, tokens } = isolated.describeExport("openai", tools);
      expect(tokens.method).toBe("characters-estimate");
      expect(tokens.declared).toBe(Math.ceil(JSON.stringify(declarations).length / 4));
    });
  });
});
