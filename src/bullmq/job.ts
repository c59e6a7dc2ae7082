import { createHash, randomUUID } from "node:crypto";
import {
  carryingThrown,
  errorMessage,
  errorResult,
  isToolResult,
  safeJsonStringify,
  thrownBy,
} from "../runtime/result";
import { isObject, type ToolContext, type ToolResult } from "../core/types";

/** The name every call job carries (a queue may hold other jobs: a worker answers those with an error). */
export const CALL_JOB = "toolnexus.call";

/**
 * What crosses the queue for one call: data only. The ctx's functions (`signal`,
 * `reportProgress`) stay with the caller; they are rebuilt on the worker from the deadline and
 * the cancel channel. `state` goes as JSON gives it back.
 */
export interface CallJobData {
  version: 1;
  tool: string;
  args: Record<string, unknown>;
  ctx: SentContext;
  /** The call's deadline as epoch milliseconds; `null` for none. */
  deadlineAt: number | null;
  /** The call's whole timeout, for the result's text when it runs out. */
  timeoutMs: number | null;
}

export interface SentContext {
  callId?: string;
  provider?: string;
  taskId?: string;
  state?: Record<string, unknown>;
}

/** A job's return value: the call's result, and what the tool threw (its stack stays readable to `onError`). */
export interface CallJobResult {
  result: ToolResult;
  thrown?: { name: string; message: string; stack?: string };
}

/**
 * The job id of a call: the same call asked again (same call id, tool, arguments and host
 * state) joins the job made for it first instead of running twice; anything that differs makes
 * another job, so two users' calls never share a result. An MCP task's call is named after its
 * task (with the tool and arguments: a call its body makes with its ctx is a job of its own). MCP request ids count per
 * session, so they name no job: each MCP request is a job of its own. A digest: any id makes a valid BullMQ id (no ":",
 * never an integer).
 */
export function jobIdOf(tool: string, args: Record<string, unknown>, sent: SentContext): string {
  const { callId, provider, state, taskId } = sent;
  if (taskId !== undefined) return `task.${digest([taskId, tool, args])}`;
  if (callId === undefined || provider === "mcp") return `call.${randomUUID()}`;
  return `call.${digest([tool, callId, provider ?? null, args, state ?? null])}`;
}

function digest(identity: unknown[]): string {
  return createHash("sha256")
    .update(safeJsonStringify(identity) ?? randomUUID())
    .digest("base64url");
}

/** The part of `ctx` that can cross a process boundary. */
export function sentContext(ctx: ToolContext): SentContext {
  const sent: SentContext = {};
  if (typeof ctx.callId === "string") sent.callId = ctx.callId;
  if (typeof ctx.provider === "string") sent.provider = ctx.provider;
  if (typeof ctx.taskId === "string") sent.taskId = ctx.taskId;
  if (ctx.state !== undefined) {
    const state: unknown = JSON.parse(safeJsonStringify(ctx.state) ?? "null");
    if (isObject(state)) sent.state = state;
  }
  return sent;
}

/** The job's data, if `value` is a call job's (a worker checks before it trusts it). */
export function readCallJob(value: unknown): CallJobData | undefined {
  if (
    !isObject(value) ||
    value.version !== 1 ||
    typeof value.tool !== "string" ||
    !isObject(value.args) ||
    !isObject(value.ctx)
  )
    return undefined;
  if (value.deadlineAt !== null && typeof value.deadlineAt !== "number") return undefined;
  return value as unknown as CallJobData;
}

/** A result as it crosses the queue back: JSON, with what the tool threw described. */
export function jobResultOf(result: ToolResult): CallJobResult {
  const { output, isError, metadata, content, structuredContent } = result;
  const plain: ToolResult = {
    output,
    isError,
    ...(metadata !== undefined ? { metadata } : {}),
    ...(content !== undefined ? { content } : {}),
    ...(structuredContent !== undefined ? { structuredContent } : {}),
  };
  const thrown = thrownBy(result)?.thrown;
  if (thrown === undefined) return { result: plain };
  const described =
    thrown instanceof Error
      ? { name: thrown.name, message: thrown.message, ...(thrown.stack !== undefined ? { stack: thrown.stack } : {}) }
      : { name: "Error", message: errorMessage(thrown) };
  return { result: plain, thrown: described };
}

/** The result a job gave back, with what the tool threw made an Error again (for `onError` and `errorText`). */
export function resultOfJob(tool: string, value: unknown): ToolResult {
  const parsed: unknown = typeof value === "string" ? parseJson(value) : value;
  if (!isObject(parsed) || !isToolResult(parsed.result)) {
    return errorResult(
      "execution_failed",
      `Tool "${tool}" ran on a worker that gave back no result: are the workers on this queue toolnexus tool workers?`,
      { tool },
    );
  }
  const thrown = parsed.thrown;
  if (!isObject(thrown)) return parsed.result;
  const error = new Error(String(thrown.message));
  error.name = String(thrown.name);
  if (typeof thrown.stack === "string") error.stack = thrown.stack;
  return carryingThrown(parsed.result, error);
}

/** `text` parsed, or `undefined` if it is not JSON. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
