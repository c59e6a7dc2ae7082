/**
 * Growth: what each step costs at 10, 1,000 and 10,000 tools, as a ratio to the 10-tool figure
 * of the same run — define (validated and not), the first export, a repeated export, a
 * per-user export, `tools/list`'s declarations, and `execute` — and the 1,000-tool figures
 * beside the Vercel AI SDK's `tool()` with zod for the same tools.
 *
 * Steps that run once (define, first export) are timed whole, as the median of a few runs;
 * per-request steps (repeated and per-user exports, `execute`) are timed per call.
 */
import { asSchema, tool as aiTool } from "ai";
import { z } from "zod";
import { defineTool, Toolkit, type Tool } from "../../src";
import { searchBody, SORTS, VALID_ARGS } from "../fixtures";
import { compare, median, row, settingsFor } from "../harness";
import type { BenchOptions, BenchRow, BenchSuite } from "../types";

const SUITE = "growth";

/** The tool counts measured; the first is the base of every ratio. */
function sizes(options: BenchOptions): readonly number[] {
  return options.quick ? [10, 100, 1_000] : [10, 1_000, 10_000];
}

/** The AI SDK and the targets are compared at this count (or the largest a quick run has). */
const PEER_SIZE = 1_000;

const searchSchema = () => ({
  type: "object" as const,
  properties: {
    query: { type: "string" as const, description: "What to look for", minLength: 1 },
    sort: { type: "string" as const, enum: [...SORTS], description: "Result order" },
    limit: { type: "integer" as const, minimum: 1, maximum: 100, description: "How many results" },
    since: { type: "string" as const, format: "date-time", description: "Only results after this time" },
  },
  required: ["query", "sort", "limit"],
});

function defineTools(count: number, validate: boolean): Tool[] {
  const tools: Tool[] = [];
  for (let index = 0; index < count; index++) {
    tools.push(
      defineTool({
        name: `search_${index}`,
        description: `Search catalogue ${index} by text`,
        inputSchema: searchSchema(),
        validate,
        execute: ({ query, sort, limit }) => searchBody(query as string, sort as string, limit as number),
      }),
    );
  }
  return tools;
}

function aiSdkTool(index: number) {
  return aiTool({
    description: `Search catalogue ${index} by text`,
    inputSchema: z.object({
      query: z.string().min(1).describe("What to look for"),
      sort: z.enum(SORTS).describe("Result order"),
      limit: z.number().int().min(1).max(100).describe("How many results"),
      since: z.iso.datetime().optional().describe("Only results after this time"),
    }),
    execute: async ({ query, sort, limit }) => searchBody(query, sort, limit),
  });
}

function defineAiSdkTools(count: number): Array<ReturnType<typeof aiSdkTool>> {
  return Array.from({ length: count }, (_, index) => aiSdkTool(index));
}

/** Milliseconds `step` takes, the median of `runs` runs, each on what `prepare` makes afresh. */
function timed<T>(runs: number, prepare: () => T, step: (prepared: T) => unknown): number {
  const times: number[] = [];
  for (let run = 0; run < runs; run++) {
    const prepared = prepare();
    const started = process.hrtime.bigint();
    step(prepared);
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  return median(times);
}

interface Figures {
  defineValidated: number;
  defineUnvalidated: number;
  firstExport: number;
  repeatedExport: number;
  perUserExport: number;
  toolsList: number;
  execute: number;
}

async function figuresAt(count: number, options: BenchOptions): Promise<Figures> {
  const runs = count >= 10_000 ? 3 : options.quick ? 3 : 7;
  const defineValidated = timed(
    runs,
    () => undefined,
    () => defineTools(count, true),
  );
  const defineUnvalidated = timed(
    runs,
    () => undefined,
    () => defineTools(count, false),
  );
  const firstExport = timed(
    runs,
    () => new Toolkit(defineTools(count, true)),
    (toolkit) => toolkit.toGemini(),
  );
  const toolkit = new Toolkit(defineTools(count, true));
  toolkit.toGemini();
  const perUser = new Toolkit(defineTools(count, true), {
    visible: (tool, ctx) => ctx.state?.plan === "pro" || !tool.name.endsWith("7"),
  });
  perUser.toGemini({ ctx: { state: { plan: "free" } } });
  toolkit.toMcp();
  const settings = { ...settingsFor(options), batch: count >= 10_000 ? 1 : count >= 1_000 ? 5 : 100 };
  const perRequest = await compare(
    {
      repeatedExport: () => toolkit.toGemini(),
      perUserExport: () => perUser.toGemini({ ctx: { state: { plan: "free" } } }),
      toolsList: () => toolkit.toMcp({ ctx: { state: { user: "u1" } } }),
    },
    settings,
  );
  toolkit.warm();
  const calls = await compare(
    { execute: () => toolkit.execute(`search_${count - 1}`, VALID_ARGS) },
    settingsFor(options),
  );
  return {
    defineValidated,
    defineUnvalidated,
    firstExport,
    repeatedExport: perRequest.repeatedExport! / 1e6,
    perUserExport: perRequest.perUserExport! / 1e6,
    toolsList: perRequest.toolsList! / 1e6,
    execute: calls.execute!,
  };
}

const CASES: ReadonlyArray<[keyof Figures, string, string]> = [
  ["defineValidated", "defineTool({ validate: true }) × N", "ms"],
  ["defineUnvalidated", "defineTool({ validate: false }) × N", "ms"],
  ["firstExport", "first toGemini() of a new Toolkit", "ms"],
  ["repeatedExport", "toGemini() again, same toolkit", "ms/call"],
  ["perUserExport", "toGemini({ ctx }) with per-user visibility", "ms/call"],
  ["toolsList", "tools/list declarations (toMcp({ ctx }))", "ms/call"],
  ["execute", "execute one tool, validated (after warm())", "ns/call"],
];

export const run: BenchSuite = async (options) => {
  const counts = sizes(options);
  const figures = new Map<number, Figures>();
  for (const count of counts) figures.set(count, await figuresAt(count, options));
  const base = counts[0]!;
  const rows: BenchRow[] = [];
  for (const count of counts.slice(1)) {
    for (const [key, label, unit] of CASES) {
      rows.push(
        row({
          suite: SUITE,
          case: `${label}, N = ${count.toLocaleString("en-US")}`,
          value: figures.get(count)![key],
          baseline: `same, N = ${base}`,
          baselineValue: figures.get(base)![key],
          unit,
        }),
      );
    }
  }

  const peer = counts.includes(PEER_SIZE) ? PEER_SIZE : counts[counts.length - 1]!;
  const at = figures.get(peer)!;
  const n = `N = ${peer.toLocaleString("en-US")}`;
  rows.push(
    row(
      {
        suite: SUITE,
        case: `defineTool({ validate: true }) × N, ${n}`,
        value: at.defineValidated,
        baseline: "same tools, validate: false",
        baselineValue: at.defineUnvalidated,
        unit: "ms",
      },
      { text: "≤ 3× unvalidated", maxRatio: 3 },
    ),
    row(
      {
        suite: SUITE,
        case: `toGemini() again, same toolkit, ${n}`,
        value: at.repeatedExport,
        baseline: "the toolkit's first toGemini()",
        baselineValue: at.firstExport,
        unit: "ms",
      },
      { text: "≤ 0.2× the first export", maxRatio: 0.2 },
    ),
  );

  // The AI SDK: tool() with zod for the same tools; its declarations are each schema's JSON Schema, made per request.
  const runs = options.quick ? 3 : 7;
  const aiDefine = timed(
    runs,
    () => undefined,
    () => defineAiSdkTools(peer),
  );
  const aiTools = defineAiSdkTools(peer);
  const aiExport = timed(
    runs,
    () => undefined,
    () => aiTools.map((each) => asSchema(each.inputSchema).jsonSchema),
  );
  const aiTool1 = aiTools[peer - 1]!;
  const aiSchema = asSchema(aiTool1.inputSchema);
  const aiExecute = await compare(
    {
      ai: async () => {
        const checked = await aiSchema.validate!(VALID_ARGS);
        return checked.success
          ? aiTool1.execute!(checked.value as never, { toolCallId: "c", messages: [] })
          : checked.error;
      },
    },
    settingsFor(options),
  );
  const sdk = "Vercel AI SDK tool() with zod, same tools";
  rows.push(
    row({
      suite: SUITE,
      case: `defineTool({ validate: true }) × N, ${n}`,
      value: at.defineValidated,
      baseline: `${sdk}: tool() × N`,
      baselineValue: aiDefine,
      unit: "ms",
    }),
    row({
      suite: SUITE,
      case: `first toGemini() of a new Toolkit, ${n}`,
      value: at.firstExport,
      baseline: `${sdk}: each schema's JSON Schema`,
      baselineValue: aiExport,
      unit: "ms",
    }),
    row({
      suite: SUITE,
      case: `toGemini() again, same toolkit, ${n}`,
      value: at.repeatedExport,
      baseline: `${sdk}: each schema's JSON Schema`,
      baselineValue: aiExport,
      unit: "ms",
    }),
    row({
      suite: SUITE,
      case: `execute one tool, validated, ${n}`,
      value: at.execute,
      baseline: `${sdk}: validate + execute`,
      baselineValue: aiExecute.ai!,
      unit: "ns/call",
    }),
  );
  return rows;
};
