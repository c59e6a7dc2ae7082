import type { Tool, ToolContext, ToolResult } from "../types";
import { acceptArguments } from "./arguments";
import { errorMessage, errorResult } from "./result";

/**
 * Runs a call whose arguments already passed `acceptArguments`. `fallbackTimeout` (the
 * toolkit's) applies when neither the call nor the tool sets one.
 */
export type RunAccepted = (args: Record<string, unknown>, ctx: ToolContext | undefined, fallbackTimeout?: number) => Promise<ToolResult>;

const RUN_ACCEPTED = Symbol("toolnexus.runAccepted");
const VALIDATES = Symbol("toolnexus.validates");

/**
 * A Tool made by toolnexus: `execute` accepts raw arguments, and the toolkit can skip that
 * step (it already did it) through a non-enumerable symbol, so the object stays a plain Tool.
 * `validates` says whether calls are checked against `inputSchema`.
 */
export function managedTool(fields: Omit<Tool, "execute">, unguardedRun: RunAccepted, validates: boolean): Tool {
  const run = guarded(fields.name, unguardedRun);
  const tool: Tool = {
    ...fields,
    execute(args: Record<string, unknown>, ctx?: ToolContext): Promise<ToolResult> {
      const accepted = acceptArguments(args);
      return accepted.ok ? run(accepted.args, ctx) : Promise.resolve(invalidArguments(fields.name, [accepted.problem]));
    },
  };
  Object.defineProperty(tool, RUN_ACCEPTED, { value: run });
  Object.defineProperty(tool, VALIDATES, { value: validates });
  return tool;
}

/**
 * The last line of "never rejects": whatever a run throws before it has a promise (a schema
 * Ajv cannot compile on the first call, a bug) becomes an `execution_failed` result. The
 * promises themselves need no guard: `invokeWithLimits` settles every outcome into a result.
 */
export function guarded(toolName: string, run: RunAccepted): RunAccepted {
  const failed = (thrown: unknown) => errorResult("execution_failed", `Tool "${toolName}" could not run: ${errorMessage(thrown)}`);
  return (args, ctx, fallbackTimeout) => {
    try {
      return run(args, ctx, fallbackTimeout);
    } catch (thrown) {
      return Promise.resolve(failed(thrown));
    }
  };
}

/** The accepted-arguments entry of a toolnexus-made tool, if `tool` is one. */
export function runAcceptedOf(tool: Tool): RunAccepted | undefined {
  return (tool as unknown as { [RUN_ACCEPTED]?: RunAccepted })[RUN_ACCEPTED];
}

/** Whether calls of `tool` are checked against its `inputSchema`; `undefined` for a Tool written by hand. */
export function validatesArguments(tool: Tool): boolean | undefined {
  return (tool as unknown as { [VALIDATES]?: boolean })[VALIDATES];
}

/** At most this many problems are listed; the rest are counted (a model needs the first few, not 10,000). */
export const MAX_LISTED_PROBLEMS = 20;

/** The `invalid_arguments` result every tool kind shares: the tool, then one line per problem. */
export function invalidArguments(toolName: string, allProblems: string[]): ToolResult {
  const problems =
    allProblems.length > MAX_LISTED_PROBLEMS ? [...allProblems.slice(0, MAX_LISTED_PROBLEMS), `... and ${allProblems.length - MAX_LISTED_PROBLEMS} more problems`] : allProblems;
  const output =
    problems.length === 1 ? `Invalid arguments for tool "${toolName}": ${problems[0]}` : `Invalid arguments for tool "${toolName}":\n${problems.map((p) => `- ${p}`).join("\n")}`;
  return errorResult("invalid_arguments", output, { tool: toolName });
}
