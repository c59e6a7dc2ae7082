import type { Tool } from "../types";
import { exportAnthropic, toAnthropic } from "./anthropic";
import { exportBedrock, toBedrock } from "./bedrock";
import { exportGemini, toGemini, type GeminiExportOptions } from "./gemini";
import { exportMcp, toMcp } from "./mcp";
import { exportOpenAI, toOpenAI, type OpenAIExportOptions } from "./openai";
import { exportOpenAIResponses, toOpenAIResponses } from "./openai-responses";
import type { ExportReport } from "./shared";

/**
 * Every provider's exporter (declarations + the dialect's change report), by format name
 * (the CLI's `--format`). Adding a provider: one file in this folder, one line here.
 */
export const EXPORTERS = {
  gemini: exportGemini,
  openai: exportOpenAI,
  "openai-responses": exportOpenAIResponses,
  anthropic: exportAnthropic,
  mcp: exportMcp,
  bedrock: exportBedrock,
} as const;

export type ExportFormat = keyof typeof EXPORTERS;

/** Options any format accepts (each format ignores what it has no use for). */
export type AnyExportOptions = GeminiExportOptions & OpenAIExportOptions;

/**
 * The declarations for `format` and every change its dialect made (tool, JSON pointer,
 * keyword, what happened). Whatever was dropped is still enforced when the call runs.
 */
export function describeExport(format: ExportFormat, tools: readonly Tool[], options: AnyExportOptions = {}): ExportReport<unknown> {
  const exporter = EXPORTERS[format] as ((tools: readonly Tool[], options: AnyExportOptions) => ExportReport<unknown>) | undefined;
  if (exporter === undefined) {
    throw new TypeError(`Unknown export format "${String(format)}"; use one of: ${Object.keys(EXPORTERS).join(", ")}.`);
  }
  return exporter(tools, options);
}

/** The exporters as one namespace: `Adapters.toGemini === toGemini`. */
export const Adapters = Object.freeze({ toGemini, toOpenAI, toOpenAIResponses, toAnthropic, toMcp, toBedrock });
