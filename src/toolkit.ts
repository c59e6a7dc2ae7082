import { toolMethodsOf } from "./decorators/metadata";
import { checkDescription, checkName, checkTimeout } from "./define-tool";
import { DuplicateToolError, ToolDefinitionError } from "./errors";
import { resolveManifest, type ManifestOption, type ManifestSource } from "./manifest/load";
import { closestNames } from "./names";
import { adapterFor, type AnyExportOptions, type ExportFormat } from "./providers";
import { answerCalls, defaultBinding, exportTools, type Export, type ExportBinding, type ExportOptions, type ExportReport, type ProviderAdapter } from "./providers/adapter";
import { anthropic, type AnthropicCallsInput, type AnthropicTool, type AnthropicToolResultMessage } from "./providers/anthropic";
import { bedrock, type BedrockCallsInput, type BedrockToolConfig, type BedrockToolResultMessage } from "./providers/bedrock";
import { gemini, type GeminiCallsInput, type GeminiExportOptions, type GeminiJsonSchemaTools, type GeminiToolResponseContent, type GeminiTools } from "./providers/gemini";
import { mcp, type McpTool } from "./providers/mcp";
import { openai, type OpenAICallsInput, type OpenAIExportOptions, type OpenAIFunctionTool, type OpenAIToolMessage } from "./providers/openai";
import { openaiResponses, type OpenAIFunctionCallOutput, type OpenAIResponsesCallsInput, type OpenAIResponsesFunctionTool } from "./providers/openai-responses";
import { acceptArguments } from "./runtime/arguments";
import { invokeWithLimits, isThenable } from "./runtime/invoke";
import { cutText, errorMessage, errorResult, MAX_ERROR_TEXT, thrownBy } from "./runtime/result";
import { guarded, invalidArguments, runAcceptedOf, type RunAccepted } from "./runtime/run-contract";
import { functionInsteadOfInstance } from "./scanner/instance-expected";
import { scanTools } from "./scanner/scan-tools";
import { isObject, type Tool, type ToolContext, type ToolErrorKind, type ToolResult } from "./types";

/** What a toolkit takes: `Tool`s, decorated instances, or arrays of either. */
export type ToolSource = Tool | object | readonly ToolSource[];

export interface ToolkitOptions {
  /**
   * Milliseconds before any call is ended with a `timeout` result, unless the call or the tool
   * sets its own: `DEFAULT_TIMEOUT_MS` (60 s) when left out, `false` for no deadline at all.
   */
  timeout?: number | false;
  /**
   * Told about every failed call (unknown tool, invalid arguments, a throw, a timeout, an abort,
   * an error result the tool returned), after its result is made and before it is returned: log
   * it, count it, report it. What it returns or throws changes nothing for the call.
   */
  onError?: (failure: ToolFailure) => void | Promise<void>;
  /**
   * What the model is told when a tool throws: `"message"` (the default) sends the thrown
   * message; `"errorId"` sends a fixed text with the failure's `errorId` (to find its `onError`
   * log line) and keeps the message in the process; a function writes the text itself.
   */
  errorText?: ErrorTextPolicy;
  /**
   * The manifest written by `toolnexus generate`, for the decorated instances: the object, a
   * path to it, or `false` for none. A relative path (here or in `$TOOLNEXUS_MANIFEST`) is
   * resolved from the working directory; pass an absolute path (e.g.
   * `join(__dirname, "toolnexus.manifest.json")`) to be independent of it. Left out:
   * `$TOOLNEXUS_MANIFEST` if set, else `toolnexus.manifest.json` found next to each `@Tool`
   * class's code: in the directory of the file defining it or one above, up to its package root
   * (that search never uses `process.cwd()`). Read when the first decorated instance is registered.
   */
  manifest?: ManifestOption;
}

/** A failed call, as `onError` and an `errorText` function see it. */
export interface ToolFailure {
  /** The tool name the call asked for (it may name no tool). */
  tool: string;
  kind: ToolErrorKind;
  /** What the tool threw (the value itself, with its stack), when it threw. */
  error?: unknown;
  /** Unique per failure; sent to the model with the `"errorId"` policy and always in `result.metadata.errorId`. */
  errorId: string;
  /** The result as made before the `errorText` policy applies. */
  result: ToolResult;
  callId?: string;
  provider?: string;
  ctx: ToolContext;
}

export type ErrorTextPolicy = "message" | "errorId" | ((failure: ToolFailure) => string);

/** At most this many tool names are listed in an unknown-tool reply (closest first); the rest are counted. */
export const MAX_LISTED_TOOLS = 20;

interface Entry {
  tool: Tool;
  run: RunAccepted;
}

/** A set of uniquely named tools, their declarations for every provider, and the runtime for their calls. */
export class Toolkit {
  readonly #entries = new Map<string, Entry>();
  readonly #timeout: number | false | undefined;
  /** Set when failures are observed or reworded; unset, a call pays nothing for it. */
  readonly #report: ((name: string, result: ToolResult, ctx: ToolContext | undefined) => ToolResult) | undefined;
  readonly #manifestOption: ManifestOption;
  #manifest: { index: ManifestSource | undefined } | undefined;
  /**
   * Per provider, the options of the latest export and the binding its calls are read with
   * (exported names → tools, and the way back for their arguments). Rebuilt when tools change.
   */
  readonly #exports = new Map<string, { options: ExportOptions; made?: { readonly binding: ExportBinding } }>();

  constructor(items: readonly ToolSource[] = [], options: ToolkitOptions = {}) {
    if (typeof (items as { [Symbol.iterator]?: unknown } | null)?.[Symbol.iterator] !== "function" || typeof items === "string")
      throw new ToolDefinitionError(`new Toolkit takes an array of Tools and decorated instances; ${notAnArray(items)}.`);
    checkTimeout("Toolkit", options.timeout);
    this.#timeout = options.timeout;
    this.#report = failureReporter(options);
    this.#manifestOption = options.manifest;
    this.register(...items);
  }

  /** Adds tools and decorated instances. A name already taken, or accepted by no provider, throws. */
  register(...items: ToolSource[]): this {
    const scan = (instance: object) => scanTools(instance, { manifest: this.#resolvedManifest() ?? false });
    const incoming = new Map<string, Tool>();
    // Every check first, then every insert: a refused batch leaves the toolkit as it was.
    for (const tool of items.flatMap((item) => toolsOf(item, scan))) {
      checkName(tool.name);
      checkDescription(tool.name, tool.description);
      const taken = this.#entries.get(tool.name)?.tool ?? incoming.get(tool.name);
      if (taken !== undefined) {
        throw new DuplicateToolError(`A tool named "${tool.name}" is already registered (${taken.source} tool); tool names must be unique in a toolkit. Rename one of them.`);
      }
      incoming.set(tool.name, tool);
    }
    for (const tool of incoming.values()) this.#entries.set(tool.name, { tool, run: runAcceptedOf(tool) ?? foreignRunner(tool) });
    if (incoming.size > 0) for (const latest of this.#exports.values()) delete latest.made;
    return this;
  }

  /** Every tool, in registration order. */
  tools(): Tool[] {
    return [...this.#entries.values()].map((entry) => entry.tool);
  }

  get(name: string): Tool | undefined {
    return this.#entries.get(name)?.tool;
  }

  has(name: string): boolean {
    return this.#entries.has(name);
  }

  get size(): number {
    return this.#entries.size;
  }

  /**
   * Runs one call. `args` is an object or a JSON string of one. Never rejects: unknown tools,
   * bad arguments, throws, timeouts and aborts are all `ToolResult`s with `isError: true`.
   */
  execute(name: string, args: unknown, ctx?: ToolContext): Promise<ToolResult> {
    return this.#run(name, args, ctx);
  }

  /** One call, with its failure reported when the toolkit observes failures. */
  readonly #run = (name: string, args: unknown, ctx: ToolContext | undefined, decode?: (args: Record<string, unknown>) => unknown): Promise<ToolResult> => {
    const pending = this.#dispatch(name, args, ctx, decode);
    const report = this.#report;
    return report === undefined ? pending : pending.then((result) => (result.isError ? report(name, result, ctx) : result));
  };

  /** The name looked up once, the arguments accepted once, then read back the provider's way. */
  #dispatch(name: string, args: unknown, ctx: ToolContext | undefined, decode?: (args: Record<string, unknown>) => unknown): Promise<ToolResult> {
    const entry = this.#entries.get(name);
    if (entry === undefined) return Promise.resolve(this.#unknownTool(name));
    const accepted = acceptArguments(args);
    if (!accepted.ok) return Promise.resolve(invalidArguments(name, [accepted.problem]));
    let values = accepted.args;
    if (decode !== undefined) {
      const decoded = decode(values);
      if (isObject(decoded)) values = decoded;
    }
    return entry.run(values, ctx, this.#timeout);
  }

  /** The manifest, resolved once, when the first decorated instance needs it. */
  #resolvedManifest(): ManifestSource | undefined {
    this.#manifest ??= { index: resolveManifest(this.#manifestOption) };
    return this.#manifest.index;
  }

  #unknownTool(name: unknown): ToolResult {
    const names = [...this.#entries.keys()];
    // No provider accepts names over 128 characters: a longer one gets no suggestions, and is cut.
    const full = typeof name === "string" ? name : String(name);
    const shown = full.length > 128 ? `${full.slice(0, 128)}...` : full;
    const close = full === "" || full.length > 128 ? [] : closestNames(full, names);
    const parts = [`Unknown tool "${shown}".`];
    if (close.length > 0) parts.push(`Did you mean ${close.map((n) => `"${n}"`).join(" or ")}?`);
    if (names.length === 0) parts.push("This toolkit has no tools.");
    else if (names.length <= MAX_LISTED_TOOLS) parts.push(`Available tools: ${names.join(", ")}.`);
    else {
      const first = [...close, ...names.filter((n) => !close.includes(n)).slice(0, MAX_LISTED_TOOLS - close.length)];
      parts.push(`Available tools (${names.length}): ${first.join(", ")} and ${names.length - first.length} more.`);
    }
    return errorResult("unknown_tool", parts.join(" "), { tool: shown, suggestions: close });
  }

  // ---- Declarations (each provider's dialect applied; see describeExport for what changed) ----
  // Each export is remembered per provider: the run methods read the model's calls with it.

  toGemini(options: GeminiExportOptions & { jsonSchema: true }): GeminiJsonSchemaTools;
  toGemini(options?: GeminiExportOptions): GeminiTools;
  toGemini(options: GeminiExportOptions = {}): GeminiTools | GeminiJsonSchemaTools {
    return this.#export(gemini, options).declarations;
  }
  toOpenAI(options: OpenAIExportOptions = {}): OpenAIFunctionTool[] {
    return this.#export(openai, options).declarations;
  }
  toOpenAIResponses(options: OpenAIExportOptions = {}): OpenAIResponsesFunctionTool[] {
    return this.#export(openaiResponses, options).declarations;
  }
  toAnthropic(options: ExportOptions = {}): AnthropicTool[] {
    return this.#export(anthropic, options).declarations;
  }
  toMcp(options: ExportOptions = {}): McpTool[] {
    return this.#export(mcp, options).declarations;
  }
  toBedrock(options: ExportOptions = {}): BedrockToolConfig {
    return this.#export(bedrock, options).declarations;
  }
  /** The declarations for `format` and every change its dialect made to the schemas. */
  describeExport(format: ExportFormat, options: AnyExportOptions = {}): ExportReport<unknown> {
    const { declarations, changes } = this.#export(adapterFor(format), options);
    return { declarations, changes };
  }

  #export<D, O extends ExportOptions>(adapter: ProviderAdapter<D, O>, options: O): Export<D> {
    const made = exportTools(adapter, this.tools(), options);
    this.#exports.set(adapter.id, { options, made });
    return made;
  }

  /** The binding of the latest export for `adapter`, or of the default one; never throws. */
  #binding(adapter: ProviderAdapter): ExportBinding {
    const latest = this.#exports.get(adapter.id) ?? { options: {} };
    if (latest.made === undefined) {
      try {
        latest.made = exportTools(adapter, this.tools(), latest.options);
      } catch {
        // Names the provider rejects, or a schema it cannot take: calls still run by tool name.
        latest.made = { binding: defaultBinding(adapter, this.tools()) };
      }
      this.#exports.set(adapter.id, latest);
    }
    return latest.made.binding;
  }

  // ---- Round trips: every call in a model response, run concurrently, answered in order ----
  // Never reject, whatever they are handed. Gemini, Anthropic and Bedrock answer with one
  // turn, or `undefined` when the response held no calls (nothing to append). The input type
  // is a type parameter so that a response written by hand, with fields toolnexus does not
  // read, type-checks as it is.

  runGemini<Input extends GeminiCallsInput>(input: Input, ctx?: ToolContext): Promise<GeminiToolResponseContent | undefined> {
    return this.#answer(gemini, input, ctx);
  }
  runOpenAI<Input extends OpenAICallsInput>(input: Input, ctx?: ToolContext): Promise<OpenAIToolMessage[]> {
    return this.#answer(openai, input, ctx);
  }
  runOpenAIResponses<Input extends OpenAIResponsesCallsInput>(input: Input, ctx?: ToolContext): Promise<OpenAIFunctionCallOutput[]> {
    return this.#answer(openaiResponses, input, ctx);
  }
  runAnthropic<Input extends AnthropicCallsInput>(input: Input, ctx?: ToolContext): Promise<AnthropicToolResultMessage | undefined> {
    return this.#answer(anthropic, input, ctx);
  }
  runBedrock<Input extends BedrockCallsInput>(input: Input, ctx?: ToolContext): Promise<BedrockToolResultMessage | undefined> {
    return this.#answer(bedrock, input, ctx);
  }

  #answer<R>(adapter: ProviderAdapter<unknown, never, R>, input: unknown, ctx: ToolContext | undefined): Promise<R> {
    const generic = adapter as unknown as ProviderAdapter<unknown, ExportOptions, R>;
    return answerCalls(generic, this.#binding(generic), this.#run, input, ctx);
  }
}

export function isTool(value: unknown): value is Tool {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as Tool).name === "string" &&
    typeof (value as Tool).execute === "function" &&
    typeof (value as Tool).inputSchema === "object"
  );
}

function toolsOf(item: ToolSource, scan: (instance: object) => Tool[]): Tool[] {
  if (Array.isArray(item)) return item.flatMap((inner) => toolsOf(inner, scan));
  if (isTool(item)) return [item];
  if (typeof item === "object" && item !== null) return scan(item);
  if (typeof item === "function") throw new ToolDefinitionError(`A toolkit takes Tools and decorated instances; ${functionInsteadOfInstance(item)}.`);
  throw new ToolDefinitionError(`A toolkit takes Tools and decorated instances; got ${item === null ? "null" : typeof item}.`);
}

/** What was passed instead of the array, and the array to pass. */
function notAnArray(items: unknown): string {
  if (typeof items === "function") {
    const name = items.name || "X";
    return toolMethodsOf((items as { prototype?: unknown }).prototype).length > 0
      ? `got the class ${name} itself: pass new Toolkit([new ${name}()])`
      : `${functionInsteadOfInstance(items)}, in an array`;
  }
  if (typeof items === "object" && items !== null) return "got a single object: put it in an array, new Toolkit([it])";
  return `got ${items === null ? "null" : typeof items}`;
}

/** The step that tells `onError` and applies `errorText`, or `undefined` when neither is asked for. */
function failureReporter({ onError, errorText = "message" }: ToolkitOptions): ((name: string, result: ToolResult, ctx: ToolContext | undefined) => ToolResult) | undefined {
  if (onError !== undefined && typeof onError !== "function") throw new ToolDefinitionError(`Toolkit: onError must be a function (failure) => void (got ${typeof onError}).`);
  if (errorText !== "message" && errorText !== "errorId" && typeof errorText !== "function") {
    throw new ToolDefinitionError(`Toolkit: errorText must be "message", "errorId" or a function (failure) => string (got ${JSON.stringify(errorText)}).`);
  }
  if (onError === undefined && errorText === "message") return undefined;
  return (name, made, ctx) => {
    const errorId = crypto.randomUUID();
    const thrown = thrownBy(made);
    const result: ToolResult = { ...made, metadata: { ...made.metadata, errorId } };
    const failure: ToolFailure = {
      tool: name,
      kind: (made.metadata?.error as ToolErrorKind | undefined) ?? "execution_failed",
      ...(thrown !== undefined ? { error: thrown.thrown } : {}),
      errorId,
      result,
      ...(ctx?.callId !== undefined ? { callId: ctx.callId } : {}),
      ...(ctx?.provider !== undefined ? { provider: ctx.provider } : {}),
      ctx: ctx ?? {},
    };
    if (thrown !== undefined && errorText !== "message") result.output = cutText(textFor(errorText, failure), MAX_ERROR_TEXT);
    if (onError !== undefined) {
      try {
        const told = onError(failure);
        if (isThenable(told)) told.then(undefined, (error: unknown) => warnOnError(error));
      } catch (error) {
        warnOnError(error);
      }
    }
    return result;
  };
}

function textFor(policy: "errorId" | ((failure: ToolFailure) => string), failure: ToolFailure): string {
  const fixed = `Tool "${failure.tool}" failed with an internal error (error id ${failure.errorId}). Try another approach, or tell the user the tool is failing.`;
  if (policy === "errorId") return fixed;
  try {
    const text = policy(failure);
    return typeof text === "string" ? text : fixed;
  } catch (error) {
    warnOnError(error, "errorText");
    return fixed;
  }
}

/** A failing observer must not fail the call, and must not fail silently either. */
function warnOnError(error: unknown, option = "onError"): void {
  process.emitWarning(`toolnexus: the toolkit's ${option} function threw: ${errorMessage(error)}`, { code: "TOOLNEXUS_OBSERVER_FAILED" });
}

/** A Tool written by hand: still held to the contract (limits, never rejects, a ToolResult). */
function foreignRunner(tool: Tool): RunAccepted {
  const body = (args: Record<string, unknown>, ctx: ToolContext) => tool.execute(args, ctx);
  return guarded(tool.name, (args, ctx, fallbackTimeout) => invokeWithLimits(tool.name, body, args, ctx, fallbackTimeout));
}
