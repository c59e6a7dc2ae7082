import type { Tool } from "../core/types";
import type { ExportOptions, ProviderAdapter } from "./adapter";

/** The description a provider sees: the tool's, and its examples in one compact line when the export asks for them. */
export function describedFor(adapter: ProviderAdapter, tool: Tool, options: ExportOptions): string {
  if (options.examplesInDescription !== true || adapter.takesExamples === true || !tool.examples?.length)
    return tool.description;
  return `${tool.description}\nExamples: ${tool.examples.map((example) => JSON.stringify(example)).join("; ")}`;
}
