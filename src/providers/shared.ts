import { ExportError } from "../errors";
import { NAME_RULES, type ProviderId } from "../names";
import type { Tool, ToolContext, ToolResult } from "../types";

/** What the run side needs from a toolkit. */
export interface ToolRunner {
  execute(name: string, args: unknown, ctx?: ToolContext): Promise<ToolResult>;
}

/** A tool call as every provider's parser hands it over: arguments still raw (object or JSON string). */
export interface ParsedCall {
  id?: string;
  name: string;
  arguments: unknown;
}

/**
 * Runs every call concurrently, each isolated (a failure stays with its call), and returns
 * the results in call order. `ctx` is shared; each call gets its own `callId` and `provider`.
 */
export function runCalls(
  runner: ToolRunner,
  calls: readonly ParsedCall[],
  provider: ProviderId,
  ctx: ToolContext | undefined,
): Promise<ToolResult[]> {
  return Promise.all(calls.map((call) => runner.execute(call.name, call.arguments, { ...ctx, callId: call.id, provider })));
}

/** Refuses to export a name the provider would reject, naming every such tool. */
export function assertNamesAccepted(provider: ProviderId, tools: readonly Tool[]): void {
  const rule = NAME_RULES[provider];
  const rejected = tools.filter((tool) => !rule.pattern.test(tool.name)).map((tool) => `"${tool.name}"`);
  if (rejected.length > 0) {
    throw new ExportError(
      `${provider} rejects the tool name${rejected.length > 1 ? "s" : ""} ${rejected.join(", ")} (${provider} names: ${rule.text}). Rename the tool${rejected.length > 1 ? "s" : ""} with a portable name (a letter first, then letters, digits, _ or -, at most 64 characters).`,
    );
  }
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** An error result's text for providers whose result message has no error flag. */
export function textForModel(result: ToolResult): string {
  return result.isError ? `Error: ${result.output}` : result.output;
}
