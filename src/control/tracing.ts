import { cutText, errorMessage, safeJsonStringify } from "../runtime/result";
import type { ToolResult } from "../core/types";
import { packageVersion } from "../core/version";

/*
 * OpenTelemetry spans for tool calls, after the GenAI semantic conventions: one
 * `execute_tool {gen_ai.tool.name}` span per call (SpanKind.INTERNAL), a child of the active
 * span, the parent of every span the tool starts. @opentelemetry/api is an optional peer: it
 * is required the first time a toolkit asks for a tracer (never when this module loads), once
 * per process. With the API installed and no tracer provider registered, a call pays for one
 * property read and runs as it would untraced; with one registered, a span the sampler drops
 * costs a no-op span and nothing more.
 * Nothing the tracer does, and nothing the API or an SDK throws, changes a call's result.
 */

/** What a span records beyond the GenAI attributes: off unless asked (arguments and results may hold personal data). */
export interface TracingOptions {
  recordArguments?: boolean;
  recordResults?: boolean;
}

/** The toolkit's `tracing` option: on by default when @opentelemetry/api is installed; `false` turns it off. */
export type TracingOption = boolean | TracingOptions;

export interface TracedCall {
  /** The tool name the call asked for (it may name no tool). */
  tool: string;
  callId?: string;
  args: unknown;
}

/** Runs `run` inside a span for `call`; never rejects when `run` does not. */
export type CallTracer = (call: TracedCall, run: () => Promise<ToolResult>) => Promise<ToolResult>;

/** `gen_ai.tool.call.arguments` and `gen_ai.tool.call.result` are cut to this many characters. */
export const MAX_RECORDED_TEXT = 4_096;
/** An error span's status message (the result's output) is cut to this many characters. */
export const MAX_STATUS_TEXT = 200;
/** The tool name in a span's name and `gen_ai.tool.name` is cut to this many characters (a model may send any name). */
export const MAX_TRACED_NAME = 256;

/** An OpenTelemetry context (read and made only by the API). */
export interface OTelContext {
  getValue(key: symbol): unknown;
  setValue(key: symbol, value: unknown): OTelContext;
  deleteValue(key: symbol): OTelContext;
}

/** The parts of an OpenTelemetry span the tracer uses. */
export interface OTelSpan {
  isRecording(): boolean;
  setAttribute(key: string, value: string): unknown;
  setStatus(status: { code: number; message?: string }): unknown;
  end(): void;
}

export interface OTelTracer {
  startSpan(
    name: string,
    options: { kind: number; attributes: Record<string, string> },
    context: OTelContext,
  ): OTelSpan;
}

/**
 * The parts of `@opentelemetry/api` the tracer uses, written out so that this package's
 * typings never name the optional package (`require("@opentelemetry/api")` is one).
 */
export interface OTelApi {
  trace: {
    getTracer(name: string, version?: string): OTelTracer;
    setSpan(context: OTelContext, span: OTelSpan): OTelContext;
  };
  context: {
    active(): OTelContext;
    with<T>(context: OTelContext, fn: () => T): T;
  };
  SpanKind: { readonly INTERNAL: number };
  SpanStatusCode: { readonly ERROR: number };
}

let installed: { api: OTelApi | undefined } | undefined;

/** `@opentelemetry/api`, required once per process; `undefined` when it is not installed or does not load. */
function installedApi(): OTelApi | undefined {
  if (installed === undefined) {
    let api: OTelApi | undefined;
    try {
      const loaded = require("@opentelemetry/api") as Partial<OTelApi> | undefined;
      if (typeof loaded?.trace?.getTracer === "function" && typeof loaded.context?.with === "function")
        api = loaded as OTelApi;
    } catch {
      // not installed, or it failed to load: no tracing
    }
    installed = { api };
  }
  return installed.api;
}

/**
 * Where @opentelemetry/api 1.x keeps what is registered for the process (`{ version, trace?,
 * context?, ... }`), one object shared by every copy of the API. `trace` is set while a tracer
 * provider is registered (`trace.setGlobalTracerProvider`, what every SDK's `register()` and
 * NodeSDK do) and deleted by `trace.disable()`. Without it every span is non-recording, so a
 * call need not touch the API at all: this one read is what tracing costs a program that
 * installs the API (or a package bringing it) and collects nothing. The key holds for the
 * API's major version 1, the one the peer range allows.
 */
const OTEL_GLOBALS = Symbol.for("opentelemetry.js.api.1");

/** The tracer provider registered for the process, or `undefined` when none is. */
function registeredProvider(): unknown {
  return (globalThis as { [OTEL_GLOBALS]?: { trace?: unknown } })[OTEL_GLOBALS]?.trace;
}

/**
 * Whether an OpenTelemetry tracer provider is registered now. When it is not, a `CallTracer`
 * only runs the call: a caller may skip it (and what it allocates to call it) on this check.
 */
export function tracerProviderRegistered(): boolean {
  return registeredProvider() !== undefined;
}

/** What a toolkit's spans may say of a failure. */
export interface TracedText {
  /**
   * Whether a thrown message may reach a span (the toolkit's `errorText` is `"message"`). A
   * span's status always carries the result's text as the model is told it; when this is
   * false, a `run` that throws or rejects (toolnexus's own never do) ends its span without its message.
   */
  thrownText: boolean;
}

/**
 * The tracer for a toolkit, or `undefined` when tracing is off or @opentelemetry/api is not
 * installed. `load` finds the API (tests pass their own); by default it is required once per process.
 */
export function callTracer(
  option: TracingOption | undefined,
  load: () => OTelApi | undefined = installedApi,
  text: TracedText = { thrownText: true },
): CallTracer | undefined {
  if (option === false) return undefined;
  let api: OTelApi | undefined;
  let kind: number;
  let errorCode: number;
  try {
    api = load();
    if (api === undefined) return undefined;
    kind = api.SpanKind.INTERNAL;
    errorCode = api.SpanStatusCode.ERROR;
  } catch {
    return undefined;
  }
  const otel = api;
  const settings: Settings = {
    recordArguments: typeof option === "object" && option !== null && option.recordArguments === true,
    recordResults: typeof option === "object" && option !== null && option.recordResults === true,
    errorCode,
    thrownText: text.thrownText,
  };
  // The toolkit's tracer, got once per registered provider: a provider registered after the
  // toolkit was made (or registered again after `trace.disable()`) is followed.
  let tracedProvider: unknown;
  let tracer: OTelTracer | undefined;

  return (call, run) => {
    const provider = registeredProvider();
    if (provider === undefined) return run();
    let active: OTelContext;
    let span: OTelSpan | undefined;
    try {
      if (provider !== tracedProvider) {
        tracedProvider = provider;
        tracer = undefined;
        tracer = otel.trace.getTracer("toolnexus", packageVersion());
      }
      if (tracer !== undefined) {
        active = otel.context.active();
        const tool = typeof call.tool === "string" ? cutText(call.tool, MAX_TRACED_NAME) : String(call.tool);
        span = tracer.startSpan(
          `execute_tool ${tool}`,
          { kind, attributes: startAttributes(tool, call.callId) },
          active,
        );
        // Sampled out: nothing to record, nothing for the tool's own spans to hang from.
        if (!span.isRecording()) {
          span.end();
          span = undefined;
        }
      }
    } catch {
      // The API or an SDK threw (a span processor's onStart, ...): the call runs untraced.
      if (span !== undefined) endQuietly(span);
      span = undefined;
    }
    return span === undefined ? run() : traced(otel, settings, span, active!, call, run);
  };
}

interface Settings {
  recordArguments: boolean;
  recordResults: boolean;
  errorCode: number;
  thrownText: boolean;
}

/** The attributes a span starts with (a sampler sees them). */
function startAttributes(tool: string, callId: string | undefined): Record<string, string> {
  const attributes: Record<string, string> = {
    "gen_ai.operation.name": "execute_tool",
    "gen_ai.tool.name": tool,
    "gen_ai.tool.type": "function",
  };
  if (typeof callId === "string" && callId !== "") attributes["gen_ai.tool.call.id"] = callId;
  return attributes;
}

/** A recording span: `run` inside its context, its end once the result is known. */
function traced(
  otel: OTelApi,
  settings: Settings,
  span: OTelSpan,
  active: OTelContext,
  call: TracedCall,
  run: () => Promise<ToolResult>,
): Promise<ToolResult> {
  if (settings.recordArguments) {
    try {
      span.setAttribute("gen_ai.tool.call.arguments", cutText(argumentsText(call.args), MAX_RECORDED_TEXT));
    } catch {
      // an argument's toJSON or getter threw, or the span did: nothing recorded
    }
  }
  let pending: Promise<ToolResult> | undefined;
  let ran = false;
  let threw = false;
  let thrown: unknown;
  const inside = () => {
    ran = true;
    try {
      pending = run();
    } catch (error) {
      threw = true;
      thrown = error;
    }
  };
  try {
    otel.context.with(otel.trace.setSpan(active, span), inside);
  } catch {
    // The context manager threw: if it did before `run` started, `run` starts below, untraced.
  }
  if (!ran) {
    try {
      pending = run();
    } catch (error) {
      threw = true;
      thrown = error;
    }
  }
  if (threw) {
    endThrown(span, settings, thrown);
    throw thrown;
  }
  return pending!.then(
    (result) => {
      endWith(span, settings, result);
      return result;
    },
    (error: unknown) => {
      endThrown(span, settings, error);
      throw error;
    },
  );
}

/** The arguments as JSON text: a string (JSON text as the model sent it) as it is. */
function argumentsText(args: unknown): string {
  if (typeof args === "string") return args;
  return safeJsonStringify(args) ?? String(args);
}

function endWith(span: OTelSpan, settings: Settings, result: ToolResult): void {
  try {
    const output = typeof result.output === "string" ? result.output : String(result.output);
    if (result.isError) {
      const kind = result.metadata?.error;
      span.setAttribute("error.type", typeof kind === "string" && kind !== "" ? kind : "_OTHER");
      span.setStatus({ code: settings.errorCode, message: cutText(output, MAX_STATUS_TEXT) });
    }
    if (settings.recordResults) span.setAttribute("gen_ai.tool.call.result", cutText(output, MAX_RECORDED_TEXT));
  } catch {
    // a throwing attribute changes nothing for the call
  }
  endQuietly(span);
}

/** `run` threw or rejected (toolnexus's own never do): the span ends as an error. */
function endThrown(span: OTelSpan, settings: Settings, error: unknown): void {
  try {
    const name = error instanceof Error ? error.constructor.name || error.name : "";
    span.setAttribute("error.type", typeof name === "string" && name !== "" ? name : "_OTHER");
    span.setStatus(
      settings.thrownText
        ? { code: settings.errorCode, message: cutText(errorMessage(error), MAX_STATUS_TEXT) }
        : { code: settings.errorCode },
    );
  } catch {
    // as above
  }
  endQuietly(span);
}

function endQuietly(span: OTelSpan): void {
  try {
    span.end();
  } catch {
    // a span processor's onEnd or an exporter threw: the call's result stands
  }
}
