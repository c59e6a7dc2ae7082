import type { Tool, ToolContext, ToolResult } from "../core/types";
import { mcpCallResult } from "../providers/mcp";
import { anySignal, progressReporter, type ProgressNotificationParams } from "./call-progress";
import type { McpToolkit } from "./declarations";
import type { CallScope } from "./server";
import { NO_INPUT_IN_TASKS, type TaskRun } from "./tasks";

/** One `tools/call` as either era's server received it. */
export interface ToolCallRequest {
  /** The name the client sent, and the tool it names among those this client was shown. */
  requested: string;
  bound: string | undefined;
  args: Record<string, unknown>;
  requestId: string | number;
  /** The request's own signal (the client cancelled, or went away). */
  signal: AbortSignal;
  progressToken: string | number | undefined;
  notify: (notification: { method: "notifications/progress"; params: ProgressNotificationParams }) => Promise<void>;
  /** Who answers the tool's `ctx.elicit` / `ctx.sample`, given the call's signal. */
  input: (signal: AbortSignal) => Required<Pick<ToolContext, "elicit" | "sample">>;
  /** Where the tool's `ctx.log` goes (the client's log notifications). */
  log?: ToolContext["log"];
}

/**
 * Runs a `tools/call` through the toolkit, the same in both eras: registered for out-of-band
 * cancellation and shutdown, its progress sent before its result. `unknown` says the name
 * names no tool this client may see: a protocol error, with the toolkit's text.
 */
export async function runToolCall(
  kit: McpToolkit,
  scope: CallScope,
  call: ToolCallRequest,
  stop?: AbortSignal,
): Promise<{ result: ToolResult; tool: Tool | undefined; unknown: boolean }> {
  const controller = new AbortController();
  const release = scope.track?.(call.requestId, controller);
  const signal = anySignal([call.signal, controller.signal, ...(stop !== undefined ? [stop] : [])]);
  const progress = progressReporter(call.progressToken, call.notify);
  try {
    const result = await kit.execute(call.bound ?? call.requested, call.args, {
      signal,
      callId: String(call.requestId),
      provider: "mcp",
      ...(scope.state !== undefined ? { state: scope.state } : {}),
      reportProgress: progress.report,
      ...(call.log !== undefined ? { log: call.log } : {}),
      ...call.input(signal),
    });
    // The client forgets a call's progress token once its result arrives: what the tool reported goes out first.
    await progress.sent();
    return {
      result,
      tool: kit.get(call.bound ?? call.requested),
      unknown: call.bound === undefined && result.isError && result.metadata?.error === "unknown_tool",
    };
  } finally {
    release?.();
  }
}

/** The body of a task call, in either era: the tool run through the toolkit, its outcome as a `CallToolResult`. */
export function taskCall(
  kit: McpToolkit,
  scope: CallScope,
  tool: Tool,
  args: Record<string, unknown>,
  reportProgress?: (progress: number, total?: number, message?: string) => void,
): TaskRun["call"] {
  return async (taskCtx) => {
    const result = await kit.execute(tool.name, args, {
      ...taskCtx,
      ...NO_INPUT_IN_TASKS,
      provider: "mcp",
      ...(scope.state !== undefined ? { state: scope.state } : {}),
      ...(reportProgress !== undefined ? { reportProgress } : {}),
    });
    return { result, mcp: mcpCallResult(tool, result) };
  };
}
