import type { Tool } from "../types";
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
  const { declarations, changes } = exportTools(adapterFor(format), tools, options);
  return { declarations, changes };
}

/** Declarations for Gemini / Vertex `tools`: one wrapper, one declaration per tool, order kept. */
export function toGemini(tools: readonly Tool[], options: GeminiExportOptions & { jsonSchema: true }): GeminiJsonSchemaTools;
export function toGemini(tools: readonly Tool[], options?: GeminiExportOptions): GeminiTools;
export function toGemini(tools: readonly Tool[], options: GeminiExportOptions = {}): GeminiTools | GeminiJsonSchemaTools {
  return exportTools(gemini, tools, options).declarations;
}

/** Chat Completions `tools`. */
export function toOpenAI(tools: readonly Tool[], options: OpenAIExportOptions = {}): OpenAIFunctionTool[] {
  return exportTools(openai, tools, options).declarations;
}

/** Responses API `tools` (flat; `strict` always sent, `false` unless asked). */
export function toOpenAIResponses(tools: readonly Tool[], options: OpenAIExportOptions = {}): OpenAIResponsesFunctionTool[] {
  return exportTools(openaiResponses, tools, options).declarations;
}

/** Anthropic Messages `tools`. */
export function toAnthropic(tools: readonly Tool[], options: ExportOptions = {}): AnthropicTool[] {
  return exportTools(anthropic, tools, options).declarations;
}

/** MCP `tools/list` entries. */
export function toMcp(tools: readonly Tool[], options: ExportOptions = {}): McpTool[] {
  return exportTools(mcp, tools, options).declarations;
}

/** The Bedrock Converse `toolConfig`. */
export function toBedrock(tools: readonly Tool[], options: ExportOptions = {}): BedrockToolConfig {
  return exportTools(bedrock, tools, options).declarations;
}

/** The exporters as one namespace: `Adapters.toGemini === toGemini`. */
export const Adapters = Object.freeze({ toGemini, toOpenAI, toOpenAIResponses, toAnthropic, toMcp, toBedrock });
