/**
 * Cold start: 1,000 decorated tools (100 services × 10 methods, each taking a string, an enum,
 * a ranged number, and on every other tool an optional boolean) are recorded (the decorator
 * calls tsc emits, run through `Reflect.decorate` exactly as compiled code runs them), scanned
 * into a Toolkit, and exported to every format (Gemini, OpenAI, OpenAI Responses, Anthropic,
 * MCP, Bedrock). Baseline: the same 1,000 tools built with zod (schema + AI SDK `tool()`) and
 * converted to JSON Schema with `z.toJSONSchema`.
 *
 * Every figure comes from a fresh Node process, module loading excluded, each run starting
 * from a collected heap. Two settings:
 *  - sources: toolnexus's TypeScript loaded through ts-node, which leaves a large heap behind
 *    (as an application's own modules do): the first run (nothing JIT-compiled yet, toolnexus
 *    first), then warm runs alternating, each on new classes;
 *  - compiled: the built package (dist/, as installed) in a process of its own per library,
 *    with nothing else loaded: every page the run touches is fresh memory. The page faults
 *    are reported, since on some virtual machines each one costs microseconds.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import "reflect-metadata";
import { tool as aiTool } from "ai";
import { z } from "zod";
import type * as Toolnexus from "../../src";
import { isChild, median, row, runChild } from "../harness";
import { SORTS, searchBody } from "../search-body";
import type { BenchRow, BenchSuite } from "../types";

type Library = Pick<typeof Toolnexus, "Param" | "Tool" | "Toolkit">;

/** toolnexus as sources (through ts-node) or as the compiled package `npm run build` writes. */
function library(compiled: boolean): Library {
  if (!compiled) return require("../../src") as Library;
  const entry = path.resolve(__dirname, "../../dist/cjs/index.js");
  if (!fs.existsSync(entry))
    throw new Error(`${entry} is missing: run \`npm run build\` (npm run bench does it first).`);
  return require(entry) as Library;
}

const TOOLS = 1_000;
const PER_SERVICE = 10;

type Decorator = (target: object, key: string | symbol, descriptor?: PropertyDescriptor) => unknown;
const param =
  (index: number, decorator: ParameterDecorator): Decorator =>
  (target, key) =>
    decorator(target, key, index);

/** What `tsc --experimentalDecorators --emitDecoratorMetadata` emits for each method, run for `count` tools. */
export function defineDecoratedServices(
  count: number,
  tag: string,
  { Param, Tool }: Pick<Library, "Param" | "Tool">,
): object[] {
  const instances: object[] = [];
  for (let s = 0; s < count / PER_SERVICE; s++) {
    const Service = class {};
    Object.defineProperty(Service, "name", { value: `Service_${tag}_${s}` });
    for (let m = 0; m < PER_SERVICE; m++) {
      const index = s * PER_SERVICE + m;
      const key = `search_${tag}_${index}`;
      const withExact = index % 2 === 1;
      const method = withExact
        ? function (query: string, sort: string, limit: number, exact?: boolean) {
            return searchBody(query, sort, exact ? 1 : limit);
          }
        : function (query: string, sort: string, limit: number) {
            return searchBody(query, sort, limit);
          };
      const descriptor: PropertyDescriptor = { value: method, writable: true, enumerable: false, configurable: true };
      Object.defineProperty(Service.prototype, key, descriptor);
      const decorators: Decorator[] = [
        Tool(`Search catalogue ${index} by text`) as Decorator,
        param(0, Param("query", { description: "What to look for" })),
        param(1, Param("sort", { enum: [...SORTS], description: "Result order" })),
        param(2, Param("limit", { minimum: 1, maximum: 100, description: "How many results" })),
        ...(withExact ? [param(3, Param("exact", { optional: true, description: "Exact matches only" }))] : []),
        Reflect.metadata("design:type", Function) as Decorator,
        Reflect.metadata(
          "design:paramtypes",
          withExact ? [String, String, Number, Boolean] : [String, String, Number],
        ) as Decorator,
        Reflect.metadata("design:returntype", String) as Decorator,
      ];
      Reflect.decorate(decorators as MethodDecorator[], Service.prototype, key, descriptor);
    }
    instances.push(new Service());
  }
  return instances;
}

function toolnexusColdStart(lib: Library, tag: string): number {
  const started = performance.now();
  const toolkit = new lib.Toolkit(defineDecoratedServices(TOOLS, tag, lib));
  const gemini = toolkit.toGemini();
  const openai = toolkit.toOpenAI();
  const responses = toolkit.toOpenAIResponses();
  const anthropic = toolkit.toAnthropic();
  const mcp = toolkit.toMcp();
  const bedrock = toolkit.toBedrock();
  const elapsed = performance.now() - started;
  const counts = [
    gemini[0].functionDeclarations.length,
    openai.length,
    responses.length,
    anthropic.length,
    mcp.length,
    bedrock.tools.length,
  ];
  if (counts.some((n) => n !== TOOLS))
    throw new Error(`cold start: expected ${TOOLS} declarations per format, got ${counts.join(", ")}`);
  return elapsed;
}

function zodColdStart(tag: string): number {
  const started = performance.now();
  const tools: Record<string, unknown> = {};
  const jsonSchemas: unknown[] = [];
  for (let index = 0; index < TOOLS; index++) {
    const withExact = index % 2 === 1;
    const inputSchema = z.object({
      query: z.string().describe("What to look for"),
      sort: z.enum(SORTS).describe("Result order"),
      limit: z.number().min(1).max(100).describe("How many results"),
      ...(withExact ? { exact: z.boolean().optional().describe("Exact matches only") } : {}),
    });
    tools[`search_${tag}_${index}`] = aiTool({
      description: `Search catalogue ${index} by text`,
      inputSchema,
      execute: async ({ query, sort, limit }) => searchBody(query, sort, limit),
    });
    jsonSchemas.push(z.toJSONSchema(inputSchema));
  }
  const elapsed = performance.now() - started;
  if (jsonSchemas.length !== TOOLS) throw new Error("cold start: zod baseline built the wrong number of schemas");
  return elapsed;
}

interface SourcesResult {
  first: { toolnexus: number; zod: number };
  warm: { toolnexus: number[]; zod: number[] };
}

interface CompiledResult {
  ms: number;
  pageFaults: number;
}

/** Runs `measure` from a collected heap (children run with --expose-gc). */
function collected<T>(measure: () => T): T {
  (globalThis as { gc?: () => void }).gc!();
  return measure();
}

function sourcesChild(rounds: number): SourcesResult {
  const lib = library(false);
  const first = { toolnexus: collected(() => toolnexusColdStart(lib, "c0")), zod: collected(() => zodColdStart("c0")) };
  const warm: SourcesResult["warm"] = { toolnexus: [], zod: [] };
  for (let round = 1; round <= rounds; round++) {
    warm.toolnexus.push(collected(() => toolnexusColdStart(lib, `w${round}`)));
    warm.zod.push(collected(() => zodColdStart(`w${round}`)));
  }
  return { first, warm };
}

function compiledChild(subject: string): CompiledResult {
  const lib = subject === "toolnexus" ? library(true) : undefined;
  return collected(() => {
    const faults = process.resourceUsage().minorPageFault;
    const ms = lib !== undefined ? toolnexusColdStart(lib, "c0") : zodColdStart("c0");
    return { ms, pageFaults: process.resourceUsage().minorPageFault - faults };
  });
}

export const run: BenchSuite = async (options) => {
  const sources = await runChild<SourcesResult>(
    __filename,
    ["sources", String(options.quick ? 5 : 15)],
    ["--expose-gc"],
  );
  const compiled = {
    toolnexus: await runChild<CompiledResult>(__filename, ["compiled", "toolnexus"], ["--expose-gc"]),
    zod: await runChild<CompiledResult>(__filename, ["compiled", "zod"], ["--expose-gc"]),
  };
  const suite = "cold start";
  const unit = "ms";
  const baseline = "zod: 1,000 schemas + AI SDK tool() + z.toJSONSchema";
  const target = { text: "< 100 ms", maxValue: 100 };
  const rows: BenchRow[] = [
    row(
      {
        suite,
        case: "1,000 decorated tools: record, scan, export 6 formats (first run, sources, grown heap)",
        value: sources.first.toolnexus,
        baseline,
        baselineValue: sources.first.zod,
        unit,
      },
      target,
    ),
    row({
      suite,
      case: "same, warm (median of repeated runs on new classes)",
      value: median(sources.warm.toolnexus),
      baseline,
      baselineValue: median(sources.warm.zod),
      unit,
    }),
    row(
      {
        suite,
        case: `same, first run, compiled package, fresh heap (page faults: ${compiled.toolnexus.pageFaults} vs ${compiled.zod.pageFaults})`,
        value: compiled.toolnexus.ms,
        baseline,
        baselineValue: compiled.zod.ms,
        unit,
      },
      target,
    ),
  ];
  return rows;
};

if (isChild(module)) {
  const [mode, argument] = process.argv.slice(process.argv.indexOf("--child") + 1);
  console.log(
    JSON.stringify(mode === "compiled" ? compiledChild(argument ?? "toolnexus") : sourcesChild(Number(argument ?? 5))),
  );
}
