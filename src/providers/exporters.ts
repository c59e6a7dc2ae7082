import { visibleTools } from "../control/visibility";
import type { Tool } from "../core/types";
import { exportTools, type ExportOptions, type ExportReport, type ProviderAdapter } from "./adapter";
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
 * The declarations for `format` and every change its dialect made (tool, JSON pointer,
 * keyword, what happened, and where a value can no longer be sent as such, which).
 */
export function describeExport(
  format: ExportFormat,
  tools: readonly Tool[],
  options: AnyExportOptions = {},
): ExportReport<unknown> {
  const { declarations, changes } = exportTools(adapterFor(format), visibleTools(tools, options.ctx), options);
  return { declarations, changes };
}

export type { AnyExportOptions, ExportFormat };
