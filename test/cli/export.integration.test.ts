import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describeExport, Toolkit, type ExportFormat } from "../../src";
import { ADAPTERS } from "../../src/providers/registry";
import { PaymentsService, SlowService, WeatherService } from "../fixtures/cli/services";
import { assertBuilt, expectOneLineError, rel, runCli } from "./run-cli";

const FORMATS = Object.keys(ADAPTERS) as ExportFormat[];
const services = new Toolkit([new WeatherService(), new PaymentsService(), new SlowService()]);
const out = mkdtempSync(join(tmpdir(), "toolnexus-export-"));

beforeAll(assertBuilt);
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe("toolnexus export", () => {
  it("covers every format the toolkit exports", () => {
    expect(FORMATS).toEqual(["gemini", "openai", "openai-responses", "anthropic", "mcp", "bedrock", "ollama"]);
  });

  it.each(FORMATS)("--format %s prints exactly the toolkit's declarations, and a report on stderr", async (format) => {
    const run = await runCli(["export", rel("services.ts"), "--format", format]);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual(describeExport(format, services.tools()).declarations);
    expect(run.stdout).toBe(`${JSON.stringify(describeExport(format, services.tools()).declarations, null, 2)}\n`);
    expect(run.stderr).toMatch(new RegExp(`^toolnexus: 5 tools exported for ${format}, \\d+ tokens \\(`));
  });

  it("defaults to gemini", async () => {
    const run = await runCli(["export", rel("services.ts")]);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual(services.toGemini());
  });

  it.each(["openai", "openai-responses"] as const)("--strict makes %s declarations strict", async (format) => {
    const run = await runCli(["export", rel("services.ts"), "--format", format, "--strict"]);
    expect(run.code).toBe(0);
    const declarations = JSON.parse(run.stdout) as unknown;
    expect(declarations).toEqual(describeExport(format, services.tools(), { strict: true }).declarations);
    expect(JSON.stringify(declarations)).toContain('"strict":true');
    // The report names what strict mode rewrote: the optional `units` became required and nullable.
    expect(run.stderr).toMatch(/getWeather\s+\/properties\/units\s+required\s+rewritten/);
  });

  it("reports the dialect's changes on stderr, one per line (gemini)", async () => {
    const run = await runCli(["export", rel("toolkit.ts"), "--format", "gemini"]);
    expect(run.code).toBe(0);
    const lines = run.stderr.trimEnd().split("\n");
    expect(lines[0]).toMatch(
      /^toolnexus: 3 tools exported for gemini, \d+ tokens \(estimated with OpenAI's o200k\); 5 schema changes for its dialect:$/,
    );
    expect(lines.slice(1)).toEqual([
      expect.stringMatching(/^ {2}getWeather\s+\/additionalProperties\s+additionalProperties\s+dropped\s+/),
      expect.stringMatching(/^ {2}add\s+\/additionalProperties\s+additionalProperties\s+dropped\s+/),
      expect.stringMatching(/^ {2}catalog\.search\s+\/additionalProperties\s+additionalProperties\s+dropped\s+/),
      expect.stringMatching(/^ {2}catalog\.search\s+\/properties\/limit\s+type\s+rewritten\s+/),
      expect.stringMatching(/^ {2}catalog\.search\s+\/properties\/limit\s+exclusiveMinimum\s+rewritten\s+/),
    ]);
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- parsed JSON, read by path
    type Declarations = Array<{ functionDeclarations: Array<{ name: string; parameters: any }> }>;
    const limit = (JSON.parse(run.stdout) as Declarations)[0]!.functionDeclarations[2]!.parameters.properties.limit;
    expect(limit).toEqual({ type: "integer", nullable: true, minimum: 0, description: "At most this many results" });
  });

  it("--json-schema sends gemini's parametersJsonSchema", async () => {
    const run = await runCli(["export", rel("toolkit.ts"), "--json-schema"]);
    expect(run.code).toBe(0);
    const [wrapper] = JSON.parse(run.stdout) as Array<{ functionDeclarations: Array<Record<string, unknown>> }>;
    expect(wrapper!.functionDeclarations[0]).toHaveProperty("parametersJsonSchema");
    expect(wrapper!.functionDeclarations[0]).not.toHaveProperty("parameters");
  });

  it("--out writes the file and keeps stdout empty", async () => {
    const target = join(out, "nested", "mcp.json");
    const run = await runCli(["export", rel("tools.js"), "--format", "mcp", "--out", target]);
    expect(run).toMatchObject({ code: 0, stdout: "" });
    expect(run.stderr).toContain(`toolnexus: wrote ${target}`);
    expect(JSON.parse(readFileSync(target, "utf8"))).toEqual([
      {
        name: "echo",
        description: "Returns its text unchanged",
        inputSchema: {
          type: "object",
          properties: { text: { type: "string" } },
          required: ["text"],
          additionalProperties: false,
        },
      },
      {
        name: "shout",
        description: "Returns its text in capitals",
        inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
      },
    ]);
  });

  it("a name the provider rejects is a one-line error naming --names sanitize; with it the name is mapped", async () => {
    expectOneLineError(
      await runCli(["export", rel("toolkit.ts"), "--format", "openai"]),
      2,
      'openai rejects the tool name "catalog.search"',
      "--names sanitize",
    );
    const run = await runCli(["export", rel("toolkit.ts"), "--format", "openai", "--names", "sanitize"]);
    expect(run.code).toBe(0);
    expect((JSON.parse(run.stdout) as Array<{ function: { name: string } }>).map((tool) => tool.function.name)).toEqual(
      ["getWeather", "add", "catalog_search"],
    );
  });

  it("refuses options that do not apply to the format", async () => {
    expectOneLineError(
      await runCli(["export", rel("services.ts"), "--format", "mcp", "--strict"]),
      2,
      "--strict applies to the formats openai, openai-responses, anthropic and bedrock",
    );
    expectOneLineError(
      await runCli(["export", rel("services.ts"), "--format", "mcp", "--json-schema"]),
      2,
      "--json-schema applies to the gemini format",
    );
    expectOneLineError(
      await runCli(["export", rel("services.ts"), "--format", "claude"]),
      2,
      "'claude' is invalid",
      "gemini, openai, openai-responses, anthropic, mcp, bedrock",
      "toolnexus export --help",
    );
  });
});
