import { visibleTools } from "../control/visibility";
import type { Tool } from "../core/types";
import { exportTools, type ExportOptions, type ExportReport, type ProviderAdapter } from "./adapter";
import { tokenReport, type DeclarationTokens } from "./declaration-tokens";
import {
  adapterFor,
  registeredProviders,
  type AnyExportOptions,
  type ExportFormat,
  type ExportFunction,
  type RegisteredProvider,
  type TypesOf,
} from "./registry";

/** The free declaration functions: `toGemini(tools, options)` and the rest, one per provider. */
export type Exporters = {
  readonly [P in RegisteredProvider as `to${P["name"]}`]: ExportFunction<TypesOf<P>, [tools: readonly Tool[]]>;
};

function exporterOf(provider: ProviderAdapter) {
  return (tools: readonly Tool[], options: ExportOptions = {}) =>
    exportTools(provider, visibleTools(tools, options.ctx), options).declarations;
}

/** The exporters as one namespace: `Adapters.toGemini === toGemini`. */
export const Adapters = Object.freeze(
  Object.fromEntries(registeredProviders().map((provider) => [`to${provider.name}`, exporterOf(provider)])),
) as Exporters;

export const { toGemini, toOpenAI, toOpenAIResponses, toAnthropic, toMcp, toBedrock, toOllama } = Adapters;

/** An export described: its declarations, what the dialect changed, and what the declarations cost in tokens. */
export interface ExportDescription extends ExportReport<unknown> {
  /** Counted when first read (the tokenizer loads then), and kept. */
  readonly tokens: DeclarationTokens;
}

/**
 * The declarations for `format`, every change its dialect made (tool, JSON pointer, keyword, what happened, and
 * where a value can no longer be sent as such, which), and their size in tokens: per tool, what the first request
 * sends, and what deferred tools save.
 */
export function describeExport(
  format: ExportFormat,
  tools: readonly Tool[],
  options: AnyExportOptions = {},
): ExportDescription {
  const visible = visibleTools(tools, options.ctx);
  return described(format, visible, exportTools(adapterFor(format), visible, options), options);
}

/** An export of `tools` (the ones it was made from) as `describeExport` describes it. */
export function described(
  format: ExportFormat,
  tools: readonly Tool[],
  { declarations, changes }: ExportReport<unknown>,
  options: AnyExportOptions,
): ExportDescription {
  let tokens: DeclarationTokens | undefined;
  return {
    declarations,
    changes,
    get tokens() {
      return (tokens ??= tokenReport(format, tools, declarations, options));
    },
  };
}

export type { DeclarationTokens, TokenMethod, ToolTokens } from "./declaration-tokens";
export type { AnyExportOptions, ExportFormat };
