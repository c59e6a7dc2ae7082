import type { Tool } from "../types";
import { visibleTools } from "../control/visibility";
import { exportTools, type ExportOptions, type ExportReport, type ProviderAdapter } from "./adapter";
import { anthropic, type AnthropicTool } from "./anthropic";
import { bedrock, type BedrockToolConfig } from "./bedrock";
import { gemini, type GeminiExportOptions, type GeminiJsonSchemaTools, type GeminiTools } from "./gemini";
import { mcp, type McpTool } from "./mcp";
import { openai, type OpenAIExportOptions, type OpenAIFunctionTool } from "./openai";
import { openaiResponses, type OpenAIResponsesFunctionTool } from "./openai-responses";

/** Every provider's adapter, by format name (the CLI's `--format`). Adding a provider: one file, one line here. */
export const ADAPTERS = {
  gemini,
  openai,
  "openai-responses": openaiResponses,
  anthropic,
  mcp,
  bedrock,
} as const;

export type ExportFormat = keyof typeof ADAPTERS;

/** Options any format accepts (each format ignores what it has no use for). */
export type AnyExportOptions = GeminiExportOptions & OpenAIExportOptions;

/** The adapter for `format`, or a clear error naming the formats there are. */
export function adapterFor(format: ExportFormat): ProviderAdapter {
  if (!Object.prototype.hasOwnProperty.call(ADAPTERS, format)) {
    throw new TypeError(`Unknown export format "${String(format)}"; use one of: ${Object.keys(ADAPTERS).join(", ")}.`);
  }
  return ADAPTERS[format] as unknown as ProviderAdapter;
}

/**
 * The declarations for `format` and every change its dialect made (tool, JSON pointer,
 * keyword, what happened, and where a value can no longer be sent as such, which).
 */
export function describeExport(format: ExportFormat, tools: readonly Tool[], options: AnyExportOptions = {}): ExportReport<unknown> {
  const { declarations, changes } = exportTools(adapterFor(format), visibleTools(tools, options.ctx), options);
  return { declarations, changes };
}

/** Declarations for Gemini / Vertex `tools`: one wrapper, one declaration per tool, order kept. */
export function toGemini(tools: readonly Tool[], options: GeminiExportOptions & { jsonSchema: true }): GeminiJsonSchemaTools;
export function toGemini(tools: readonly Tool[], options?: GeminiExportOptions): GeminiTools;
export function toGemini(tools: readonly Tool[], options: GeminiExportOptions = {}): GeminiTools | GeminiJsonSchemaTools {
  return exportTools(gemini, visibleTools(tools, options.ctx), options).declarations;
}

/** Chat Completions `tools`. */
export function toOpenAI(tools: readonly Tool[], options: OpenAIExportOptions = {}): OpenAIFunctionTool[] {
  return exportTools(openai, visibleTools(tools, options.ctx), options).declarations;
}

/** Responses API `tools` (flat; `strict` always sent, `false` unless asked). */
export function toOpenAIResponses(tools: readonly Tool[], options: OpenAIExportOptions = {}): OpenAIResponsesFunctionTool[] {
  return exportTools(openaiResponses, visibleTools(tools, options.ctx), options).declarations;
}

/** Anthropic Messages `tools`. */
export function toAnthropic(tools: readonly Tool[], options: ExportOptions = {}): AnthropicTool[] {
  return exportTools(anthropic, visibleTools(tools, options.ctx), options).declarations;
}

/** MCP `tools/list` entries. */
export function toMcp(tools: readonly Tool[], options: ExportOptions = {}): McpTool[] {
  return exportTools(mcp, visibleTools(tools, options.ctx), options).declarations;
}

/** The Bedrock Converse `toolConfig`. */
export function toBedrock(tools: readonly Tool[], options: ExportOptions = {}): BedrockToolConfig {
  return exportTools(bedrock, visibleTools(tools, options.ctx), options).declarations;
}

/** The exporters as one namespace: `Adapters.toGemini === toGemini`. */
export const Adapters = Object.freeze({ toGemini, toOpenAI, toOpenAIResponses, toAnthropic, toMcp, toBedrock });
