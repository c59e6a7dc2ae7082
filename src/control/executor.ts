import { ToolDefinitionError } from "../errors";
import type { Timeout } from "../runtime/invoke";
import type { Tool, ToolContext, ToolResult } from "../types";

/**
 * Decides where a call runs once visibility, authorization, approval, middleware and the check
 * of its arguments let it through: in this process (no executor, the default), or elsewhere (a
 * queue of workers, see `toolnexus/bullmq`). It never rejects: every failure, local or remote, is a `ToolResult`.
 */
export interface ToolExecutor {
  run(call: ExecutorCall): Promise<ToolResult>;
}

/** One call as an executor gets it. */
export interface ExecutorCall {
  readonly tool: Tool;
  /**
   * The arguments as middleware left them, checked against the tool's schema (and its DTOs'
   * or Standard Schema's rules) and read as the tool reads them: a `null` for an optional value
   * left out, a JSON Schema tool's scalars coerced. JSON data. Tools with no check of their own
   * here (written by hand, `validate: false`, `fromMcp`) send them as they are.
   */
  readonly args: Record<string, unknown>;
  readonly ctx: ToolContext;
  /** Milliseconds the call may take in all (the call's, the tool's, the toolkit's or the default timeout); `false` for none. */
  readonly timeout: Timeout;
  /** Runs the call here instead: retries and the body (its checks again), as without an executor. */
  runHere(): Promise<ToolResult>;
}

/** A toolkit's `executor` option, checked when the toolkit is made. */
export function checkExecutor(executor: unknown): ToolExecutor | undefined {
  if (executor === undefined) return undefined;
  if (typeof executor !== "object" || executor === null || typeof (executor as ToolExecutor).run !== "function") {
    throw new ToolDefinitionError(
      `Toolkit: executor must be an object with a run(call) method, such as queueExecutor(...) from toolnexus/bullmq (got ${executor === null ? "null" : typeof executor}).`,
    );
  }
  return executor as ToolExecutor;
}
