/**
 * Hot path: one call of a tool taking a string, an enum and a number with a range, through
 * `Toolkit.execute`, against
 *  - the method called directly (the floor),
 *  - the method behind a hand-written type check (the floor plus the cheapest validation),
 *  - the Vercel AI SDK: `tool({ inputSchema: zod, execute })`, validated the way its runtime
 *    does (`safeValidateTypes` with the tool's schema, which wraps it with `asSchema` per call
 *    as `generateText` does) and then executed. Its telemetry span and `executeTool` stream
 *    wrapper are left out, which can only make it faster,
 *  - LangChain: `tool(fn, { schema: zod }).invoke(args)`.
 * Every case is awaited per call (every tool runtime is async; the direct call pays one await).
 *
 * Those rows ("Toolkit.execute, ... (default options)") use the toolkit's default options:
 * tracing on, and, with @opentelemetry/api installed (a devDependency) and no SDK registered,
 * every span non-recording. Tracing has rows of its own, "Toolkit.execute, valid args, tracing ...":
 *  - `tracing: false`, the path of a program without @opentelemetry/api (no tracer at all),
 *    against the direct call;
 *  - the default (API installed, no SDK registered), against `tracing: false`: the target is
 *    that tracing nobody collects costs under 5%;
 *  - an SDK registered (BasicTracerProvider, a BatchSpanProcessor and an exporter that drops
 *    every batch, AsyncLocalStorage contexts), against `tracing: false`, measured in a
 *    comparison of its own (the provider is global: the default toolkit would record too), and
 *    reported without a target. The provider and the context manager are unregistered after.
 */
import { safeValidateTypes } from "@ai-sdk/provider-utils";
import { context, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { BasicTracerProvider, BatchSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { Toolkit } from "../../src";
import {
  CatalogService,
  INVALID_ARGS,
  VALID_ARGS,
  handChecked,
  makeAiSdkTool,
  makeLangChainTool,
  searchBody,
} from "../fixtures";
import { compare, row, settingsFor } from "../harness";
import type { BenchRow, BenchSuite } from "../types";

const SUITE = "hot path";
const UNIT = "ns/call";

export const run: BenchSuite = async (options) => {
  const service = new CatalogService();
  const toolkit = new Toolkit([service]); // default options: tracing on, non-recording here
  const untraced = new Toolkit([service], { tracing: false });
  if (trace.getTracer("toolnexus bench").startSpan("probe").isRecording())
    throw new Error("hot path: an OpenTelemetry SDK is already registered; the default rows would record spans");
  const ai = makeAiSdkTool();
  const lc = makeLangChainTool();
  const callOptions = { toolCallId: "call_1", messages: [] };

  const aiCall = async (args: unknown) => {
    const parsed = await safeValidateTypes({ value: args, schema: ai.inputSchema });
    if (!parsed.success) return { output: parsed.error.message, isError: true };
    return { output: (await ai.execute!(parsed.value, callOptions)) as string, isError: false };
  };
  const lcCall = async (args: unknown) => {
    try {
      return { output: await lc.invoke(args as typeof VALID_ARGS), isError: false };
    } catch (error) {
      return { output: (error as Error).message, isError: true };
    }
  };

  await checkEquivalence(toolkit, untraced, aiCall, lcCall);

  const settings = settingsFor(options);
  const valid = await compare(
    {
      toolnexus: () => toolkit.execute("search", VALID_ARGS),
      untraced: () => untraced.execute("search", VALID_ARGS),
      direct: () => service.search(VALID_ARGS.query, VALID_ARGS.sort, VALID_ARGS.limit),
      hand: () => handChecked(VALID_ARGS),
      ai: () => aiCall(VALID_ARGS),
      langchain: () => lcCall(VALID_ARGS),
    },
    settings,
  );
  const invalid = await compare(
    {
      toolnexus: () => toolkit.execute("search", INVALID_ARGS),
      hand: () => handChecked(INVALID_ARGS),
      ai: () => aiCall(INVALID_ARGS),
      langchain: () => lcCall(INVALID_ARGS),
    },
    settings,
  );
  const recorded = await withSdk(() =>
    compare(
      { untraced: () => untraced.execute("search", VALID_ARGS), recorded: () => toolkit.execute("search", VALID_ARGS) },
      settings,
    ),
  );

  const peers = [
    { key: "ai", label: "Vercel AI SDK tool (zod, validate + execute)" },
    { key: "langchain", label: "LangChain tool().invoke (zod)" },
  ] as const;
  const rows: BenchRow[] = [];
  for (const [kind, figures] of [
    ["valid args", valid],
    ["invalid args", invalid],
  ] as const) {
    const caseName = `Toolkit.execute, ${kind} (default options)`;
    const value = figures.toolnexus!;
    if (figures.direct !== undefined) {
      rows.push(
        row({
          suite: SUITE,
          case: caseName,
          value,
          baseline: "direct method call (floor)",
          baselineValue: figures.direct,
          unit: UNIT,
        }),
      );
    }
    rows.push(
      row(
        {
          suite: SUITE,
          case: caseName,
          value,
          baseline: "hand-written type check + call",
          baselineValue: figures.hand!,
          unit: UNIT,
        },
        kind === "valid args" ? { text: "≤ 3× hand-written check", maxRatio: 3 } : undefined,
      ),
    );
    const fastest = peers.reduce((best, peer) => (figures[peer.key]! < figures[best.key]! ? peer : best));
    for (const peer of peers) {
      const isFastest = peer === fastest;
      rows.push(
        row(
          {
            suite: SUITE,
            case: caseName,
            value,
            baseline: `${peer.label}${isFastest ? " [fastest peer]" : ""}`,
            baselineValue: figures[peer.key]!,
            unit: UNIT,
          },
          kind === "valid args" && isFastest
            ? { text: "≥ 2× faster than fastest peer (ratio ≤ 0.5)", maxRatio: 0.5 }
            : undefined,
        ),
      );
    }
  }
  const tracingCase = "Toolkit.execute, valid args, tracing";
  const off = "same, tracing: false";
  rows.push(
    row({
      suite: SUITE,
      case: `${tracingCase}: false (no @opentelemetry/api)`,
      value: valid.untraced!,
      baseline: "direct method call (floor)",
      baselineValue: valid.direct!,
      unit: UNIT,
    }),
    row(
      {
        suite: SUITE,
        case: `${tracingCase} on (default), API without SDK`,
        value: valid.toolnexus!,
        baseline: off,
        baselineValue: valid.untraced!,
        unit: UNIT,
      },
      { text: "≤ 1.05× tracing: false", maxRatio: 1.05 },
    ),
    row({
      suite: SUITE,
      case: `${tracingCase} on, SDK registered (batch processor, dropping exporter)`,
      value: recorded.recorded!,
      baseline: `${off} (same comparison)`,
      baselineValue: recorded.untraced!,
      unit: UNIT,
    }),
  );
  return rows;
};

/**
 * Runs `measure` with an OpenTelemetry SDK registered as an application registers one, then
 * unregisters it (the suites share a process). Checks that spans were made and exported.
 */
async function withSdk<T>(measure: () => Promise<T>): Promise<T> {
  let exported = 0;
  const provider = new BasicTracerProvider({
    spanProcessors: [
      new BatchSpanProcessor({
        export: (spans, done) => {
          exported += spans.length;
          done({ code: 0 });
        },
        shutdown: () => Promise.resolve(),
      }),
    ],
  });
  try {
    const registered =
      context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable()) &&
      trace.setGlobalTracerProvider(provider);
    if (!registered) throw new Error("hot path: an OpenTelemetry SDK is already registered");
    const figures = await measure();
    await provider.forceFlush();
    if (exported === 0) throw new Error("hot path: the registered SDK exported no span");
    return figures;
  } finally {
    await provider.shutdown();
    trace.disable();
    context.disable();
  }
}

/** Refuses to measure implementations that do not do the same work. */
async function checkEquivalence(
  toolkit: Toolkit,
  untraced: Toolkit,
  aiCall: (args: unknown) => Promise<{ output: string; isError: boolean }>,
  lcCall: (args: unknown) => Promise<{ output: string; isError: boolean }>,
): Promise<void> {
  const expected = searchBody(VALID_ARGS.query, VALID_ARGS.sort, VALID_ARGS.limit);
  const results = {
    toolnexus: await toolkit.execute("search", VALID_ARGS),
    untraced: await untraced.execute("search", VALID_ARGS),
    hand: handChecked(VALID_ARGS),
    ai: await aiCall(VALID_ARGS),
    langchain: await lcCall(VALID_ARGS),
  };
  for (const [name, result] of Object.entries(results)) {
    if (result.isError || result.output !== expected)
      throw new Error(`hot path: ${name} gave ${JSON.stringify(result)} for valid args`);
  }
  const failures = {
    toolnexus: await toolkit.execute("search", INVALID_ARGS),
    untraced: await untraced.execute("search", INVALID_ARGS),
    hand: handChecked(INVALID_ARGS),
    ai: await aiCall(INVALID_ARGS),
    langchain: await lcCall(INVALID_ARGS),
  };
  for (const [name, result] of Object.entries(failures)) {
    if (!result.isError) throw new Error(`hot path: ${name} accepted invalid args: ${JSON.stringify(result)}`);
  }
}
