import { visibleTools } from "../control/visibility";
import type { Tool } from "../core/types";
import { exportTools, type ExportOptions, type ProviderAdapter } from "./adapter";
import { described, type ExportDescription } from "./described-export";
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

export type { DeclarationTokens, TokenMethod, ToolTokens } from "./declaration-tokens";
export type { ExportDescription } from "./described-export";
export type { AnyExportOptions, ExportFormat };
