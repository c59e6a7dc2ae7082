import { checkDescription, checkName, checkTimeout, guarded, invalidArguments, runAcceptedOf, type RunAccepted } from "./define-tool";
import { DuplicateToolError, ToolDefinitionError } from "./errors";
import { closestNames } from "./names";
import { describeExport, type AnyExportOptions, type ExportFormat } from "./providers";
import { runAnthropic, toAnthropic, type AnthropicCallsInput, type AnthropicTool } from "./providers/anthropic";
import { runBedrock, toBedrock, type BedrockCallsInput, type BedrockToolConfig } from "./providers/bedrock";
import { runGemini, toGemini, type GeminiCallsInput, type GeminiExportOptions, type GeminiJsonSchemaTools, type GeminiTools } from "./providers/gemini";
import { toMcp, type McpTool } from "./providers/mcp";
import { runOpenAI, toOpenAI, type OpenAICallsInput, type OpenAIExportOptions, type OpenAIFunctionTool } from "./providers/openai";
import {
  runOpenAIResponses,
  toOpenAIResponses,
  type OpenAIResponsesCallsInput,
  type OpenAIResponsesFunctionTool,
} from "./providers/openai-responses";
import type { ExportOptions, ExportReport } from "./providers/shared";
import { acceptArguments } from "./runtime/arguments";
import { invokeWithLimits } from "./runtime/invoke";
import { errorResult } from "./runtime/result";
import { resolveManifest, type ManifestIndex, type ManifestOption } from "./manifest/load";
import { scanTools } from "./scanner/scan-tools";
import type { Tool, ToolContext, ToolResult } from "./types";

/** What a toolkit takes: `Tool`s, decorated instances, or arrays of either. */
export type ToolSource = Tool | object | readonly ToolSource[];

export interface ToolkitOptions {
  /** Milliseconds before any call is ended with a `timeout` result, unless the call or tool sets one. */
  timeout?: number;
  /**
   * The manifest written by `toolnexus generate`, for the decorated instances: the object, a
   * path to it, or `false` for none. Left out: `$TOOLNEXUS_MANIFEST` if set, else
   * `toolnexus.manifest.json` in `process.cwd()` if it exists (read when the first decorated
   * instance is registered).
   */
  manifest?: ManifestOption;
}

interface Entry {
  tool: Tool;
  run: RunAccepted;
}

/** A set of uniquely named tools, their declarations for every provider, and the runtime for their calls. */
export class Toolkit {
  readonly #entries = new Map<string, Entry>();
  readonly #timeout: number | undefined;
  readonly #manifestOption: ManifestOption;
  #manifest: { index: ManifestIndex | undefined } | undefined;

  constructor(items: readonly ToolSource[] = [], options: ToolkitOptions = {}) {
    checkTimeout("Toolkit", options.timeout);
    this.#timeout = options.timeout;
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
        throw new DuplicateToolError(
          `A tool named "${tool.name}" is already registered (${taken.source} tool); tool names must be unique in a toolkit. Rename one of them.`,
        );
      }
      incoming.set(tool.name, tool);
    }
    for (const tool of incoming.values()) this.#entries.set(tool.name, { tool, run: runAcceptedOf(tool) ?? foreignRunner(tool) });
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
    const entry = this.#entries.get(name);
    if (entry === undefined) return Promise.resolve(this.#unknownTool(name));
    const accepted = acceptArguments(args);
    if (!accepted.ok) return Promise.resolve(invalidArguments(name, [accepted.problem]));
    return entry.run(accepted.args, ctx, this.#timeout);
  }

  /** The manifest, resolved once, when the first decorated instance needs it. */
  #resolvedManifest(): ManifestIndex | undefined {
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
    parts.push(names.length > 0 ? `Available tools: ${names.join(", ")}.` : "This toolkit has no tools.");
    return errorResult("unknown_tool", parts.join(" "), { tool: shown, suggestions: close });
  }

  // ---- Declarations (each provider's dialect applied; see describeExport for what changed) ----

  toGemini(options: GeminiExportOptions & { jsonSchema: true }): GeminiJsonSchemaTools;
  toGemini(options?: GeminiExportOptions): GeminiTools;
  toGemini(options?: GeminiExportOptions): GeminiTools | GeminiJsonSchemaTools {
    return toGemini(this.tools(), options);
  }
  toOpenAI(options?: OpenAIExportOptions): OpenAIFunctionTool[] {
    return toOpenAI(this.tools(), options);
  }
  toOpenAIResponses(options?: OpenAIExportOptions): OpenAIResponsesFunctionTool[] {
    return toOpenAIResponses(this.tools(), options);
  }
  toAnthropic(options?: ExportOptions): AnthropicTool[] {
    return toAnthropic(this.tools(), options);
  }
  toMcp(options?: ExportOptions): McpTool[] {
    return toMcp(this.tools(), options);
  }
  toBedrock(options?: ExportOptions): BedrockToolConfig {
    return toBedrock(this.tools(), options);
  }
  /** The declarations for `format` and every change its dialect made to the schemas. */
  describeExport(format: ExportFormat, options?: AnyExportOptions): ExportReport<unknown> {
    return describeExport(format, this.tools(), options);
  }

  // ---- Round trips: every call in a model response, run concurrently, answered in order ----

  runGemini(input: GeminiCallsInput, ctx?: ToolContext): ReturnType<typeof runGemini> {
    return runGemini(this, input, ctx);
  }
  runOpenAI(input: OpenAICallsInput, ctx?: ToolContext): ReturnType<typeof runOpenAI> {
    return runOpenAI(this, input, ctx);
  }
  runOpenAIResponses(input: OpenAIResponsesCallsInput, ctx?: ToolContext): ReturnType<typeof runOpenAIResponses> {
    return runOpenAIResponses(this, input, ctx);
  }
  runAnthropic(input: AnthropicCallsInput, ctx?: ToolContext): ReturnType<typeof runAnthropic> {
    return runAnthropic(this, input, ctx);
  }
  runBedrock(input: BedrockCallsInput, ctx?: ToolContext): ReturnType<typeof runBedrock> {
    return runBedrock(this, input, ctx);
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
  throw new ToolDefinitionError(`A toolkit takes Tools and decorated instances; got ${item === null ? "null" : typeof item}.`);
}

/** A Tool written by hand: still held to the contract (limits, never rejects, a ToolResult). */
function foreignRunner(tool: Tool): RunAccepted {
  const body = (args: Record<string, unknown>, ctx: ToolContext) => tool.execute(args, ctx);
  return guarded(tool.name, (args, ctx, fallbackTimeout) => invokeWithLimits(tool.name, body, args, ctx, fallbackTimeout));
}
