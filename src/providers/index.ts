import { toAnthropic } from "./anthropic";
import { toBedrock } from "./bedrock";
import { toGemini } from "./gemini";
import { toMcp } from "./mcp";
import { toOpenAI } from "./openai";
import { toOpenAIResponses } from "./openai-responses";

/** Every provider's declaration exporter, by format name (the CLI's `--format`). */
export const EXPORTERS = {
  gemini: toGemini,
  openai: toOpenAI,
  "openai-responses": toOpenAIResponses,
  anthropic: toAnthropic,
  mcp: toMcp,
  bedrock: toBedrock,
} as const;

export type ExportFormat = keyof typeof EXPORTERS;

/** The exporters as one namespace: `Adapters.toGemini === toGemini`. */
export const Adapters = Object.freeze({ toGemini, toOpenAI, toOpenAIResponses, toAnthropic, toMcp, toBedrock });
