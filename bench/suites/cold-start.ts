/**
 * Cold start: 1,000 decorated tools (100 services × 10 methods, each taking a string, an enum,
 * a ranged number, and on every other tool an optional boolean) are recorded (the decorator
 * calls tsc emits, run through `Reflect.decorate` exactly as compiled code runs them), scanned
 * into a Toolkit, and exported to every format (Gemini, OpenAI, OpenAI Responses, Anthropic,
 * MCP, Bedrock). Baseline: the same 1,000 tools built with zod (schema + AI SDK `tool()`) and
 * converted to JSON Schema with `z.toJSONSchema`.
 *
 * Measured in a fresh Node process (module loading excluded for both): the first run is the
 * real cold start (nothing JIT-compiled yet, toolnexus measured first); then warm runs,
 * alternating, each on new classes.
 */
import "reflect-metadata";
import { tool as aiTool } from "ai";
import { z } from "zod";
import { Param, Tool, Toolkit } from "../../src";
import { SORTS, searchBody } from "../fixtures";
import { isChild, median, row, runChild } from "../harness";
import type { BenchSuite } from "../types";

const TOOLS = 1_000;
const PER_SERVICE = 10;

type Decorator = (target: object, key: string | symbol, descriptor?: PropertyDescriptor) => unknown;
const param = (index: number, decorator: ParameterDecorator): Decorator => (target, key) => decorator(target, key, index);

/** What `tsc --experimentalDecorators --emitDecoratorMetadata` emits for each method, run for `count` tools. */
export function defineDecoratedServices(count: number, tag: string): object[] {
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
        Reflect.metadata("design:paramtypes", withExact ? [String, String, Number, Boolean] : [String, String, Number]) as Decorator,
        Reflect.metadata("design:returntype", String) as Decorator,
      ];
      Reflect.decorate(decorators as MethodDecorator[], Service.prototype, key, descriptor);
    }
    instances.push(new Service());
  }
  return instances;
}

function toolnexusColdStart(tag: string): number {
  const started = performance.now();
  const toolkit = new Toolkit(defineDecoratedServices(TOOLS, tag));
  const gemini = toolkit.toGemini();
  const openai = toolkit.toOpenAI();
  const responses = toolkit.toOpenAIResponses();
  const anthropic = toolkit.toAnthropic();
  const mcp = toolkit.toMcp();
  const bedrock = toolkit.toBedrock();
  const elapsed = performance.now() - started;
  const counts = [gemini[0].functionDeclarations.length, openai.length, responses.length, anthropic.length, mcp.length, bedrock.tools.length];
  if (counts.some((n) => n !== TOOLS)) throw new Error(`cold start: expected ${TOOLS} declarations per format, got ${counts.join(", ")}`);
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

interface ChildResult {
  first: { toolnexus: number; zod: number };
  warm: { toolnexus: number[]; zod: number[] };
}

function child(rounds: number): ChildResult {
  const first = { toolnexus: toolnexusColdStart("c0"), zod: zodColdStart("c0") };
  const warm: ChildResult["warm"] = { toolnexus: [], zod: [] };
  for (let round = 1; round <= rounds; round++) {
    warm.toolnexus.push(toolnexusColdStart(`w${round}`));
    warm.zod.push(zodColdStart(`w${round}`));
  }
  return { first, warm };
}

export const run: BenchSuite = async (options) => {
  const result = await runChild<ChildResult>(__filename, [String(options.quick ? 5 : 15)]);
  const suite = "cold start";
  const unit = "ms";
  const baseline = "zod: 1,000 schemas + AI SDK tool() + z.toJSONSchema";
  return [
    row(
      { suite, case: "1,000 decorated tools: record, scan, export 6 formats (first run, fresh process)", value: result.first.toolnexus, baseline, baselineValue: result.first.zod, unit },
      { text: "< 100 ms", maxValue: 100 },
    ),
    row({
      suite,
      case: "same, warm (median of repeated runs on new classes)",
      value: median(result.warm.toolnexus),
      baseline,
      baselineValue: median(result.warm.zod),
      unit,
    }),
  ];
};

if (isChild(module)) {
  const rounds = Number(process.argv[process.argv.indexOf("--child") + 1] ?? 5);
  console.log(JSON.stringify(child(rounds)));
}
