import type { Tool } from "../core/types";
import type { ExportReport } from "./adapter";
import { tokenReport, type DeclarationTokens } from "./declaration-tokens";
import type { AnyExportOptions, ExportFormat } from "./registry";

/** An export described: its declarations, what the dialect changed, and what the declarations cost in tokens. */
export interface ExportDescription extends ExportReport<unknown> {
  /** Counted when first read (the tokenizer loads then), and kept. */
  readonly tokens: DeclarationTokens;
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
