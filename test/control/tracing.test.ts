import * as otel from "@opentelemetry/api";
import { context, trace, SpanKind, SpanStatusCode } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import {
  AlwaysOffSampler,
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
  type Span,
  type SpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { defineTool, Toolkit, type ToolResult } from "../../src";
import {
  callTracer,
  MAX_RECORDED_TEXT,
  MAX_STATUS_TEXT,
  tracerProviderRegistered,
  type OTelApi,
  type TracingOption,
} from "../../src/control/tracing";

// The real API fits the part of it the tracer declares (checked by tsc).
const realApi: OTelApi = otel;

/** A span processor that throws where it is told to: the tracer must never let that reach a call. */
class FlakyProcessor implements SpanProcessor {
  throwOn: "nothing" | "start" | "end" = "nothing";
  /** How many times it threw. */
  thrown = 0;
  onStart(_span: Span): void {
    if (this.throwOn === "start") this.fail("onStart");
  }
  onEnd(_span: ReadableSpan): void {
    if (this.throwOn === "end") this.fail("onEnd");
  }
  private fail(where: string): never {
    this.thrown++;
    throw new Error(`processor ${where} failed`);
  }
  forceFlush(): Promise<void> {
    return Promise.resolve();
  }
  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}

const exporter = new InMemorySpanExporter();
const flaky = new FlakyProcessor();
const provider = new BasicTracerProvider({ spanProcessors: [flaky, new SimpleSpanProcessor(exporter)] });
const contextManager = new AsyncLocalStorageContextManager();
const outer = () => trace.getTracer("test");

beforeAll(() => {
  context.setGlobalContextManager(contextManager.enable());
  trace.setGlobalTracerProvider(provider);
});

afterAll(async () => {
  await provider.shutdown();
  trace.disable();
  context.disable();
});

beforeEach(() => {
  exporter.reset();
  flaky.throwOn = "nothing";
  flaky.thrown = 0;
});

const toolSpans = () => exporter.getFinishedSpans().filter((span) => span.name.startsWith("execute_tool"));

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const weather = () =>
  defineTool({
    name: "get_weather",
    description: "Current weather for a city.",
    inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
    validate: true,
    execute: ({ city }) => `sunny in ${String(city)}`,
  });
const failing = () =>
  defineTool({
    name: "explode",
    description: "Always throws.",
    execute: () => {
      throw new Error("boom ".repeat(100));
    },
  });
const slow = () =>
  defineTool({
    name: "slow",
    description: "Takes its time.",
    execute: async () => {
      await sleep(1_000);
      return "late";
    },
  });
const nested = () =>
  defineTool({
    name: "nested",
    description: "Starts a span of its own.",
    execute: async () => {
      await sleep(1);
      return outer().startActiveSpan("inside the tool", (span) => {
        span.end();
        return "done";
      });
    },
  });

const toolkitWith = (tracing?: TracingOption) =>
  new Toolkit([weather(), failing(), slow(), nested()], tracing === undefined ? {} : { tracing });

const ok = (output: string): ToolResult => ({ output, isError: false });

describe("callTracer", () => {
  it("is undefined when tracing is off, or when @opentelemetry/api is not installed", () => {
    expect(callTracer(false)).toBeUndefined();
    expect(callTracer(undefined, () => undefined)).toBeUndefined();
    expect(callTracer({ recordArguments: true }, () => undefined)).toBeUndefined();
    expect(
      callTracer(true, () => {
        throw new Error("Cannot find module '@opentelemetry/api'");
      }),
    ).toBeUndefined();
  });

  it("is a tracer by default when the API is installed, whatever else the option says", () => {
    for (const option of [undefined, true, {}, { recordArguments: true, recordResults: true }] as const)
      expect(callTracer(option)).toEqual(expect.any(Function));
    expect(callTracer(undefined, () => realApi)).toEqual(expect.any(Function));
  });

  it("makes one execute_tool span per call, with the GenAI attributes, and returns the result unchanged", async () => {
    const tracer = callTracer(undefined)!;
    const result = ok("sunny");
    await expect(
      tracer({ tool: "get_weather", callId: "call_1", args: { city: "Paris" } }, async () => result),
    ).resolves.toBe(result);
    const [span, ...others] = toolSpans();
    expect(others).toEqual([]);
    expect(span!.name).toBe("execute_tool get_weather");
    expect(span!.kind).toBe(SpanKind.INTERNAL);
    expect(span!.instrumentationScope.name).toBe("toolnexus");
    expect(span!.attributes).toEqual({
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": "get_weather",
      "gen_ai.tool.call.id": "call_1",
      "gen_ai.tool.type": "function",
    });
    expect(span!.status.code).toBe(SpanStatusCode.UNSET);
  });

  it("leaves gen_ai.tool.call.id out when the call has no id", async () => {
    await callTracer(undefined)!({ tool: "get_weather", args: {} }, async () => ok("sunny"));
    expect(toolSpans()[0]!.attributes).not.toHaveProperty("gen_ai.tool.call.id");
  });

  it("marks an error result with error.type (its kind) and an ERROR status carrying its text, cut short", async () => {
    const output = `Tool "x" failed: ${"why ".repeat(200)}`;
    await callTracer(undefined)!({ tool: "x", args: {} }, async () => ({
      output,
      isError: true,
      metadata: { error: "execution_failed" },
    }));
    const [span] = toolSpans();
    expect(span!.attributes["error.type"]).toBe("execution_failed");
    expect(span!.status.code).toBe(SpanStatusCode.ERROR);
    expect(span!.status.message!.length).toBeLessThanOrEqual(MAX_STATUS_TEXT);
    expect(span!.status.message!.startsWith('Tool "x" failed: why why')).toBe(true);
  });

  it("gives error.type _OTHER to an error result without a kind", async () => {
    await callTracer(undefined)!({ tool: "x", args: {} }, async () => ({ output: "no", isError: true }));
    expect(toolSpans()[0]!.attributes["error.type"]).toBe("_OTHER");
  });

  it("runs the call inside its span: a span the call starts is its child", async () => {
    await callTracer(undefined)!({ tool: "nested", args: {} }, async () => {
      await sleep(1);
      outer().startSpan("inside").end();
      return ok("done");
    });
    const spans = exporter.getFinishedSpans();
    const tool = spans.find((span) => span.name === "execute_tool nested")!;
    const inside = spans.find((span) => span.name === "inside")!;
    expect(inside.parentSpanContext?.spanId).toBe(tool.spanContext().spanId);
    expect(inside.spanContext().traceId).toBe(tool.spanContext().traceId);
  });

  it("ends the span as an error and passes on a rejection or a throw of run (toolnexus's own never do either)", async () => {
    const tracer = callTracer(undefined)!;
    const rejected = new TypeError("rejected");
    await expect(tracer({ tool: "a", args: {} }, () => Promise.reject(rejected))).rejects.toBe(rejected);
    const thrown = new RangeError("thrown");
    expect(() =>
      tracer({ tool: "b", args: {} }, () => {
        throw thrown;
      }),
    ).toThrow(thrown);
    const [a, b] = toolSpans();
    expect([a!.name, a!.attributes["error.type"], a!.status]).toEqual([
      "execute_tool a",
      "TypeError",
      { code: SpanStatusCode.ERROR, message: "rejected" },
    ]);
    expect([b!.name, b!.attributes["error.type"], b!.status]).toEqual([
      "execute_tool b",
      "RangeError",
      { code: SpanStatusCode.ERROR, message: "thrown" },
    ]);
  });

  it("records the arguments and the result only when asked, as JSON text cut to MAX_RECORDED_TEXT", async () => {
    const run = async () => ok("sunny in Paris");
    await callTracer(undefined)!({ tool: "t", args: { city: "Paris" } }, run);
    await callTracer({ recordArguments: true })!({ tool: "t", args: { city: "Paris", n: 10n } }, run);
    await callTracer({ recordResults: true })!({ tool: "t", args: { city: "Paris" } }, run);
    await callTracer({ recordArguments: true, recordResults: true })!(
      { tool: "t", args: '{"city":"Paris"}' },
      async () => ok("x".repeat(10_000)),
    );
    const [none, args, results, both] = toolSpans().map((span) => span.attributes);
    expect(none).not.toHaveProperty("gen_ai.tool.call.arguments");
    expect(none).not.toHaveProperty("gen_ai.tool.call.result");
    expect(args!["gen_ai.tool.call.arguments"]).toBe('{"city":"Paris","n":"10"}');
    expect(args).not.toHaveProperty("gen_ai.tool.call.result");
    expect(results!["gen_ai.tool.call.result"]).toBe("sunny in Paris");
    expect(results).not.toHaveProperty("gen_ai.tool.call.arguments");
    expect(both!["gen_ai.tool.call.arguments"]).toBe('{"city":"Paris"}'); // JSON text as the model sent it
    const cut = both!["gen_ai.tool.call.result"] as string;
    expect(cut.length).toBeLessThanOrEqual(MAX_RECORDED_TEXT);
    expect(cut).toMatch(/^x+ \.\.\. \(\d+ more characters\)$/);
  });

  it("is not broken by arguments that cannot be written as JSON", async () => {
    const hostile = {
      toJSON() {
        throw new Error("no JSON for you");
      },
    };
    await expect(
      callTracer({ recordArguments: true })!({ tool: "t", args: hostile }, async () => ok("fine")),
    ).resolves.toEqual(ok("fine"));
    expect(toolSpans()[0]!.attributes).not.toHaveProperty("gen_ai.tool.call.arguments");
  });

  it("never makes a call fail: a span processor that throws on start or on end changes nothing", async () => {
    const tracer = callTracer({ recordArguments: true, recordResults: true })!;
    for (const where of ["start", "end"] as const) {
      flaky.throwOn = where;
      const result = ok(`fine with ${where}`);
      let runs = 0;
      await expect(
        tracer({ tool: "t", args: {} }, async () => {
          runs++;
          return result;
        }),
      ).resolves.toBe(result);
      expect(runs).toBe(1);
    }
    expect(flaky.thrown).toBe(2);
  });

  it("never makes a call fail: an exporter that throws changes nothing", async () => {
    let exports = 0;
    const throwing = new BasicTracerProvider({
      spanProcessors: [
        new SimpleSpanProcessor({
          export: () => {
            exports++;
            throw new Error("exporter down");
          },
          shutdown: () => Promise.resolve(),
        }),
      ],
    });
    const api: OTelApi = {
      ...apiParts(),
      trace: { getTracer: (name, version) => throwing.getTracer(name, version), setSpan: trace.setSpan },
    };
    const result = ok("fine");
    await expect(callTracer(undefined, () => api)!({ tool: "t", args: {} }, async () => result)).resolves.toBe(result);
    await throwing.forceFlush();
    expect(exports).toBe(1);
    await throwing.shutdown();
  });

  it("never makes a call fail: an API that throws anywhere runs the call once, untraced or traced as far as it goes", async () => {
    const boom = () => {
      throw new Error("broken API");
    };
    const working = apiParts();
    const brokenSpan = { isRecording: () => true, setAttribute: boom, setStatus: boom, end: boom };
    const variants: Array<[string, OTelApi]> = [
      ["getTracer", { ...working, trace: { getTracer: boom, setSpan: trace.setSpan } }],
      ["context.active", { ...working, context: { active: boom, with: (_c, fn) => fn() } }],
      ["startSpan", { ...working, trace: { getTracer: () => ({ startSpan: boom }), setSpan: trace.setSpan } }],
      [
        "isRecording",
        {
          ...working,
          trace: {
            getTracer: () => ({ startSpan: () => ({ ...brokenSpan, isRecording: boom }) }),
            setSpan: trace.setSpan,
          },
        },
      ],
      [
        "span methods",
        { ...working, trace: { getTracer: () => ({ startSpan: () => brokenSpan }), setSpan: trace.setSpan } },
      ],
      ["setSpan", { ...working, trace: { getTracer: () => ({ startSpan: () => brokenSpan }), setSpan: boom } }],
      [
        "context.with before the call",
        {
          ...working,
          trace: { getTracer: () => ({ startSpan: () => brokenSpan }), setSpan: trace.setSpan },
          context: { active: context.active.bind(context), with: boom },
        },
      ],
      [
        "context.with after the call",
        {
          ...working,
          trace: { getTracer: () => ({ startSpan: () => brokenSpan }), setSpan: trace.setSpan },
          context: {
            active: context.active.bind(context),
            with: (_c, fn) => {
              fn();
              throw new Error("broken API");
            },
          },
        },
      ],
    ];
    for (const [where, api] of variants) {
      const tracer = callTracer({ recordArguments: true, recordResults: true }, () => api)!;
      let runs = 0;
      const result = { output: "bad", isError: true, metadata: { error: "execution_failed" } };
      await expect(
        tracer({ tool: "t", args: { a: 1 } }, async () => {
          runs++;
          return result;
        }),
      ).resolves.toBe(result);
      expect([where, runs]).toEqual([where, 1]);
    }
  });

  it("tells whether a tracer provider is registered (when none is, a tracer only runs the call)", () => {
    expect(tracerProviderRegistered()).toBe(true);
    trace.disable();
    try {
      expect(tracerProviderRegistered()).toBe(false);
    } finally {
      trace.setGlobalTracerProvider(provider);
    }
    expect(tracerProviderRegistered()).toBe(true);
  });

  it("touches no part of the API while no tracer provider is registered", async () => {
    const untouched = () => {
      throw new Error("the API was used");
    };
    const api: OTelApi = {
      trace: { getTracer: untouched, setSpan: untouched },
      context: { active: untouched, with: untouched },
      SpanKind,
      SpanStatusCode,
    };
    const tracer = callTracer({ recordArguments: true, recordResults: true }, () => api)!;
    const result = ok("fine");
    trace.disable();
    try {
      await expect(tracer({ tool: "t", args: {} }, async () => result)).resolves.toBe(result);
    } finally {
      trace.setGlobalTracerProvider(provider);
    }
  });

  it("keeps a non-recording span cheap: no context switch, no attribute, the call run directly", async () => {
    const unsampled = new InMemorySpanExporter();
    const sampledOut = new BasicTracerProvider({
      sampler: new AlwaysOffSampler(),
      spanProcessors: [new SimpleSpanProcessor(unsampled)],
    });
    const withCalls: unknown[] = [];
    const api: OTelApi = {
      ...apiParts(),
      trace: { getTracer: (name, version) => sampledOut.getTracer(name, version), setSpan: trace.setSpan },
      context: { active: () => context.active(), with: (c, fn) => (withCalls.push(c), context.with(c, fn)) },
    };
    const result = ok("fine");
    const run = jest.fn(async () => result);
    await expect(
      callTracer({ recordArguments: true, recordResults: true }, () => api)!({ tool: "t", args: {} }, run),
    ).resolves.toBe(result);
    expect(run).toHaveBeenCalledTimes(1);
    expect(withCalls).toEqual([]);
    expect(unsampled.getFinishedSpans()).toEqual([]);
    await sampledOut.shutdown();
  });
});

/** The API's parts as plain functions (its objects are class instances: spreading them loses their methods). */
function apiParts(): OTelApi {
  return {
    trace: { getTracer: (name, version) => trace.getTracer(name, version), setSpan: trace.setSpan },
    context: { active: () => context.active(), with: (c, fn) => context.with(c, fn) },
    SpanKind,
    SpanStatusCode,
  };
}

describe("@opentelemetry/api is loaded lazily", () => {
  it("is not required when toolnexus loads or a toolkit is made, only when a call finds a tracer provider registered, and then once", async () => {
    let loads = 0;
    await jest.isolateModulesAsync(async () => {
      jest.doMock("@opentelemetry/api", () => {
        loads++;
        return jest.requireActual("@opentelemetry/api");
      });
      const fresh = require("../../src") as typeof import("../../src");
      const tool = fresh.defineTool({ name: "lazy", description: "Answers", execute: () => "ok" });
      const off = new fresh.Toolkit([tool], { tracing: false });
      const on = new fresh.Toolkit([tool]);
      expect(loads).toBe(0);
      await off.execute("lazy", {});
      expect(loads).toBe(0);
      expect(tracerProviderRegistered()).toBe(true);
      await on.execute("lazy", {});
      await on.execute("lazy", {});
      expect(loads).toBe(1);
    });
    jest.dontMock("@opentelemetry/api");
  });

  it("when it is not installed, toolkits run their calls untraced", async () => {
    let tries = 0;
    await jest.isolateModulesAsync(async () => {
      jest.doMock("@opentelemetry/api", () => {
        tries++;
        throw new Error("Cannot find module '@opentelemetry/api'");
      });
      const fresh = require("../../src") as typeof import("../../src");
      const tracing = require("../../src/control/tracing") as typeof import("../../src/control/tracing");
      expect(tracing.callTracer(undefined)).toBeUndefined();
      const toolkit = new fresh.Toolkit([weather()]);
      await expect(toolkit.execute("get_weather", { city: "Paris" })).resolves.toEqual(ok("sunny in Paris"));
      expect(tries).toBe(1); // tried once per process, the failure remembered
    });
    jest.dontMock("@opentelemetry/api");
    expect(toolSpans()).toEqual([]);
  });
});

describe("Toolkit tracing", () => {
  it("traces every execute by default: the requested name, ctx.callId, the GenAI attributes", async () => {
    const toolkit = toolkitWith();
    await expect(toolkit.execute("get_weather", { city: "Paris" }, { callId: "call_7" })).resolves.toEqual(
      ok("sunny in Paris"),
    );
    const [span, ...others] = toolSpans();
    expect(others).toEqual([]);
    expect(span!.name).toBe("execute_tool get_weather");
    expect(span!.kind).toBe(SpanKind.INTERNAL);
    expect(span!.attributes).toEqual({
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": "get_weather",
      "gen_ai.tool.call.id": "call_7",
      "gen_ai.tool.type": "function",
    });
    expect(span!.status.code).toBe(SpanStatusCode.UNSET);
  });

  it("is a child of the span around the call and the parent of the spans the tool starts", async () => {
    const toolkit = toolkitWith();
    const result = await outer().startActiveSpan("agent turn", async (turn) => {
      try {
        return await toolkit.execute("nested", {});
      } finally {
        turn.end();
      }
    });
    expect(result).toEqual(ok("done"));
    const spans = exporter.getFinishedSpans();
    const turn = spans.find((span) => span.name === "agent turn")!;
    const tool = spans.find((span) => span.name === "execute_tool nested")!;
    const inside = spans.find((span) => span.name === "inside the tool")!;
    expect(tool.parentSpanContext?.spanId).toBe(turn.spanContext().spanId);
    expect(inside.parentSpanContext?.spanId).toBe(tool.spanContext().spanId);
    expect(new Set([turn, tool, inside].map((span) => span.spanContext().traceId)).size).toBe(1);
  });

  it.each([
    ["invalid_arguments", "get_weather", { city: 3 }, {}],
    ["invalid_arguments", "get_weather", "{not json", {}],
    ["unknown_tool", "get_wether", {}, {}],
    ["execution_failed", "explode", {}, {}],
    ["timeout", "slow", {}, { timeout: 20 }],
  ] as const)(
    "marks a %s result: error.type and an ERROR status with the result's text, cut short",
    async (kind, name, args, ctx) => {
      const result = await toolkitWith().execute(name, args, ctx);
      expect(result).toMatchObject({ isError: true, metadata: { error: kind } });
      const [span] = toolSpans();
      expect(span!.name).toBe(`execute_tool ${name}`);
      expect(span!.attributes["gen_ai.tool.name"]).toBe(name);
      expect(span!.attributes["error.type"]).toBe(kind);
      expect(span!.status.code).toBe(SpanStatusCode.ERROR);
      expect(span!.status.message!.length).toBeLessThanOrEqual(MAX_STATUS_TEXT);
      expect(result.output.startsWith(span!.status.message!.replace(/ \.\.\. \(\d+ more characters\)$/, ""))).toBe(
        true,
      );
    },
  );

  it("records arguments and results only when asked", async () => {
    await toolkitWith().execute("get_weather", { city: "Paris" });
    await toolkitWith({ recordArguments: true }).execute("get_weather", { city: "Paris" });
    await toolkitWith({ recordResults: true }).execute("get_weather", '{"city":"Rome"}');
    await toolkitWith({ recordArguments: true, recordResults: true }).execute("explode", {});
    const [none, args, results, both] = toolSpans().map((span) => span.attributes);
    expect(none).not.toHaveProperty("gen_ai.tool.call.arguments");
    expect(none).not.toHaveProperty("gen_ai.tool.call.result");
    expect(args).toMatchObject({ "gen_ai.tool.call.arguments": '{"city":"Paris"}' });
    expect(args).not.toHaveProperty("gen_ai.tool.call.result");
    expect(results).toMatchObject({ "gen_ai.tool.call.result": "sunny in Rome" });
    expect(results).not.toHaveProperty("gen_ai.tool.call.arguments");
    expect(both).toMatchObject({
      "gen_ai.tool.call.arguments": "{}",
      "gen_ai.tool.call.result": expect.stringContaining("boom boom"),
    });
  });

  it("follows the registered provider: none (no span), one registered after the toolkit was made, one registered again", async () => {
    trace.disable();
    let toolkit: Toolkit;
    try {
      toolkit = toolkitWith();
      await toolkit.execute("get_weather", { city: "Paris" });
      expect(toolSpans()).toEqual([]);
    } finally {
      trace.setGlobalTracerProvider(provider);
    }
    await toolkit.execute("get_weather", { city: "Rome" });
    trace.disable();
    try {
      await toolkit.execute("get_weather", { city: "Oslo" });
    } finally {
      trace.setGlobalTracerProvider(provider);
    }
    await toolkit.execute("get_weather", { city: "Lima" });
    expect(toolSpans().map((span) => span.status.code === SpanStatusCode.UNSET && span.name)).toEqual([
      "execute_tool get_weather",
      "execute_tool get_weather",
    ]);
  });

  it("makes no span with tracing: false", async () => {
    const toolkit = toolkitWith(false);
    await expect(toolkit.execute("get_weather", { city: "Paris" })).resolves.toEqual(ok("sunny in Paris"));
    await toolkit.execute("nope", {});
    expect(toolSpans()).toEqual([]);
  });

  it("returns the same results whether a span processor throws or not", async () => {
    const untraced = toolkitWith(false);
    const traced = toolkitWith({ recordArguments: true, recordResults: true });
    const calls: Array<[string, unknown]> = [
      ["get_weather", { city: "Paris" }],
      ["get_weather", { city: 3 }],
      ["nope", {}],
    ];
    for (const where of ["start", "end"] as const) {
      flaky.throwOn = where;
      for (const [name, args] of calls) {
        const expected = await untraced.execute(name, args);
        expect(strip(await traced.execute(name, args))).toEqual(strip(expected));
      }
    }
    expect(flaky.thrown).toBe(2 * calls.length);
  });

  it("makes one span per call of runOpenAI, each with its call id", async () => {
    const toolkit = toolkitWith();
    const message = {
      role: "assistant",
      content: null,
      tool_calls: [
        { id: "call_a", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } },
        { id: "call_b", type: "function", function: { name: "explode", arguments: "{}" } },
      ],
    };
    const replies = await toolkit.runOpenAI(message);
    expect(replies).toEqual([
      { role: "tool", tool_call_id: "call_a", content: "sunny in Paris" },
      { role: "tool", tool_call_id: "call_b", content: expect.stringMatching(/^Error: /) },
    ]);
    const spans = toolSpans().sort((a, b) =>
      String(a.attributes["gen_ai.tool.call.id"]).localeCompare(String(b.attributes["gen_ai.tool.call.id"])),
    );
    expect(
      spans.map((span) => [span.name, span.attributes["gen_ai.tool.call.id"], span.attributes["error.type"]]),
    ).toEqual([
      ["execute_tool get_weather", "call_a", undefined],
      ["execute_tool explode", "call_b", "execution_failed"],
    ]);
  });
});

/** A result without its per-failure id (unique to each failure). */
function strip(result: ToolResult): ToolResult {
  const { errorId: _errorId, ...metadata } = result.metadata ?? {};
  return result.metadata === undefined ? result : { ...result, metadata };
}
