import { ExportError } from "../errors";
import { NAME_RULES, type ProviderId } from "../names";
import { acceptArguments } from "../runtime/arguments";
import { errorMessage, errorResult } from "../runtime/result";
import { ChangeLog, type SchemaChange } from "../schema/lowering";
import type { Tool, ToolContext, ToolResult } from "../types";

/** What the run side needs from a toolkit. */
export interface ToolRunner {
  execute(name: string, args: unknown, ctx?: ToolContext): Promise<ToolResult>;
  get(name: string): Tool | undefined;
  tools(): Tool[];
}

/** A tool call as every provider's parser hands it over: arguments still raw (object or JSON string). */
export interface ParsedCall {
  id?: string;
  name: string;
  arguments: unknown;
  /** Set when the call cannot run at all (e.g. a kind of call toolnexus does not declare). */
  refusal?: string;
}

/** Options every exporter takes. */
export interface ExportOptions {
  /**
   * "exact" (default): a name the provider rejects is an error. "sanitize": such names are
   * mapped to provider-safe ones (`billing.refund` → `billing_refund`); the `run*` methods map
   * them back, and two tools mapping to one name is an error.
   */
  names?: "exact" | "sanitize";
}

/** Declarations plus every change the provider's dialect made to get there. */
export interface ExportReport<D> {
  declarations: D;
  changes: SchemaChange[];
}

/**
 * The common part of every exporter: each tool's provider name and its schema lowered by
 * `lower` (which logs what it changed), with all the changes collected.
 */
export function lowerTools<S>(
  provider: ProviderId,
  tools: readonly Tool[],
  options: ExportOptions,
  lower: (tool: Tool, log: ChangeLog) => S,
): { lowered: Array<{ tool: Tool; name: string; schema: S }>; changes: SchemaChange[] } {
  const names = exportedNames(provider, tools, options);
  const changes: SchemaChange[] = [];
  const lowered = tools.map((tool) => {
    const log = new ChangeLog(tool.name);
    const schema = lower(tool, log);
    for (const change of log.changes) changes.push(change);
    return { tool, name: names.get(tool.name)!, schema };
  });
  return { lowered, changes };
}

/** A provider-specific step between parsing a call's arguments and running it. */
export type ArgumentsAdjuster = (tool: Tool, args: Record<string, unknown>) => Record<string, unknown>;

/**
 * Runs every call concurrently, each isolated (a failure stays with its call), and returns
 * the results in call order. `ctx` is shared; each call gets its own `callId` and `provider`.
 * A name the exporter sanitized is mapped back to its tool.
 */
export function runCalls(
  runner: ToolRunner,
  calls: readonly ParsedCall[],
  provider: ProviderId,
  ctx: ToolContext | undefined,
  adjust?: ArgumentsAdjuster,
): Promise<ToolResult[]> {
  let aliases: Map<string, string> | undefined;
  // Each call is isolated: whatever one throws becomes its own result, never the batch's rejection.
  const isolated = (call: ParsedCall, run: () => ToolResult | Promise<ToolResult>): Promise<ToolResult> => {
    const failed = (thrown: unknown) => errorResult("execution_failed", `Tool "${call.name}" could not run: ${errorMessage(thrown)}`);
    try {
      return Promise.resolve(run()).then(undefined, failed);
    } catch (thrown) {
      return Promise.resolve(failed(thrown));
    }
  };
  return Promise.all(
    calls.map((call) => isolated(call, () => {
      if (call.refusal !== undefined) return errorResult("unknown_tool", call.refusal, { tool: call.name });
      let name = call.name;
      if (runner.get(name) === undefined) {
        aliases ??= new Map([...sanitizedNames(runner.tools(), provider)].map(([original, exported]) => [exported, original]));
        name = aliases.get(name) ?? name;
      }
      let args = call.arguments;
      const tool = adjust && runner.get(name);
      if (tool) {
        const accepted = acceptArguments(args);
        if (accepted.ok) args = adjust!(tool, accepted.args);
      }
      return runner.execute(name, args, { ...ctx, callId: call.id, provider });
    })),
  );
}

/**
 * The name each tool is exported under. With `names: "exact"` a name the provider rejects
 * throws, naming every such tool; with "sanitize" it is mapped, and collisions throw.
 */
export function exportedNames(provider: ProviderId, tools: readonly Tool[], options: ExportOptions = {}): Map<string, string> {
  const rule = NAME_RULES[provider];
  if (options.names !== "sanitize") {
    const rejected = tools.filter((tool) => !rule.pattern.test(tool.name)).map((tool) => `"${tool.name}"`);
    if (rejected.length > 0) {
      const plural = rejected.length > 1 ? "s" : "";
      throw new ExportError(
        `${provider} rejects the tool name${plural} ${rejected.join(", ")} (${provider} names: ${rule.text}). Rename the tool${plural} (a letter first, then letters, digits, _ or -, at most 64 characters), or export with { names: "sanitize" } to map names reversibly.`,
      );
    }
    return new Map(tools.map((tool) => [tool.name, tool.name]));
  }
  const names = sanitizedNames(tools, provider);
  const seen = new Map<string, string>();
  for (const [original, exported] of names) {
    const clash = seen.get(exported);
    if (clash !== undefined) {
      throw new ExportError(`Tools "${clash}" and "${original}" both become "${exported}" for ${provider}; rename one of them.`);
    }
    seen.set(exported, original);
  }
  return names;
}

/** Provider-safe names: invalid characters → "_", a letter first, long names shortened with a hash. */
function sanitizedNames(tools: readonly Tool[], provider: ProviderId): Map<string, string> {
  const rule = NAME_RULES[provider];
  return new Map(
    tools.map((tool) => {
      if (rule.pattern.test(tool.name)) return [tool.name, tool.name];
      let safe = tool.name.replace(/[^A-Za-z0-9_-]/g, "_");
      if (!/^[A-Za-z]/.test(safe)) safe = `t_${safe}`;
      if (safe.length > rule.max) safe = `${safe.slice(0, rule.max - 9)}_${shortHash(tool.name)}`;
      return [tool.name, safe];
    }),
  );
}

function shortHash(text: string): string {
  let hash = 2166136261;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 16777619);
  return (hash >>> 0).toString(16).padStart(8, "0");
}

/** An error result's text for providers whose result message has no error flag. */
export function textForModel(result: ToolResult): string {
  return result.isError ? `Error: ${result.output}` : result.output;
}
