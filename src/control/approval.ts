import { carryingThrown, errorMessage, errorResult } from "../runtime/result";
import type { Tool, ToolContext, ToolResult } from "../types";
import { seamFailure } from "./seam-failure";

/** What the toolkit's `approve` function is asked about: one call, before it runs. */
export interface ApprovalRequest {
  tool: string;
  args: Record<string, unknown>;
  callId?: string;
  ctx: ToolContext;
}

/** A person's answer: approved, or denied with a reason the model is told. */
export type ApprovalDecision = boolean | { approved: boolean; reason?: string };

/** One call waiting for a decision, as stored between requests (plain JSON). */
export interface PendingApproval {
  /** What `decisions` are keyed by: the provider's call id, or `call-<n>` when the call has none. */
  id: string;
  /** The call's place in the turn (`calls[index]`). */
  index: number;
  /** The tool it runs, and the arguments it will run with (what a person is shown). */
  tool: string;
  args: Record<string, unknown>;
  callId?: string;
}

/**
 * The calls of one model turn that wait for approval, with the results of the others: plain
 * JSON, to be stored (a database, a session) and given to `toolkit.resumeApprovals` later,
 * in this process or another. `provider` says which reply resuming gives.
 */
export interface PendingApprovals<P extends string = string> {
  pendingApprovalsVersion: 1;
  provider: P;
  approvals: PendingApproval[];
  /** Every call of the turn, in order, as the model sent it. */
  calls: Array<{ id?: string; name: string; arguments: unknown }>;
  /** The result of each call, `null` while it waits. */
  results: Array<ToolResult | null>;
}

/** A reply that may come with calls waiting for approval; when `pendingApprovals` is set, store it instead of sending the reply. */
export type WithPendingApprovals<R, P extends string = string> = R extends undefined ? R : R & { pendingApprovals?: PendingApprovals<P> };

export function isPendingApprovals(value: unknown): value is PendingApprovals {
  const candidate = value as PendingApprovals | null;
  return (
    typeof candidate === "object" &&
    candidate !== null &&
    candidate.pendingApprovalsVersion === 1 &&
    typeof candidate.provider === "string" &&
    Array.isArray(candidate.approvals) &&
    Array.isArray(candidate.calls) &&
    Array.isArray(candidate.results) &&
    candidate.calls.length === candidate.results.length
  );
}

/** A decision read leniently: `true`/`false`, or `{ approved, reason }`. Anything else is not a decision. */
export function readDecision(decision: unknown): { approved: boolean; reason?: string } | undefined {
  if (typeof decision === "boolean") return { approved: decision };
  if (typeof decision !== "object" || decision === null || typeof (decision as { approved?: unknown }).approved !== "boolean") return undefined;
  const { approved, reason } = decision as { approved: boolean; reason?: unknown };
  return typeof reason === "string" && reason.trim() !== "" ? { approved, reason } : { approved };
}

/**
 * What `execute`'s options say about the approval step: nothing (`"ask"`: options left out,
 * `null`, or without `approved`), `"approved"` (`approved: true`), or the result of a call
 * that does not run: denied (`approved: false`, with its `reason` when that is a non-empty
 * string), or refused because the options say neither (any other `approved`, options that are
 * no object, or that throw when read). Each option is read once.
 */
export function readHostApproval(options: unknown): "ask" | "approved" | ((tool: string) => ToolResult) {
  if (options === undefined || options === null) return "ask";
  if (typeof options !== "object") return (tool) => unreadableApproval(tool, `execute's options are not an object (got ${typeName(options)}), so the host's approval could not be read`);
  try {
    const { approved } = options as { approved?: unknown };
    if (approved === undefined) return "ask";
    if (approved === true) return "approved";
    if (approved !== false) {
      return (tool) => unreadableApproval(tool, `the host's approval is neither true nor false (got ${typeName(approved)}); only true approves it and only false denies it`);
    }
    const { reason } = options as { reason?: unknown };
    const told = typeof reason === "string" && reason.trim() !== "" ? reason : undefined;
    return (tool) => deniedResult(tool, told);
  } catch (thrown) {
    return (tool) => seamFailure("denied", tool, thrown, (errorId) => `The call to tool "${tool}" did not run: the host's approval could not be read (error id ${errorId}). Tell the user it needs their approval.`);
  }
}

function unreadableApproval(tool: string, why: string): ToolResult {
  return errorResult("denied", `The call to tool "${tool}" did not run: ${why}. Tell the user it needs their approval.`, { tool });
}

/** A value's kind, for a sentence, found without running any of its code. */
function typeName(value: unknown): string {
  if (value === null) return "null";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

/** The result of a call a person (or the `approve` function) did not approve. */
export function deniedResult(tool: string, reason?: string): ToolResult {
  const why = reason === undefined ? "" : ` Reason: ${/[.!?]$/.test(reason) ? reason : `${reason}.`}`;
  return errorResult("denied", `The call to tool "${tool}" was not approved, so it did not run.${why} Do not retry it unchanged; ask the user how to proceed.`, { tool });
}

/** The result when approval was needed and could not be asked for (no approver, or the approver failed). */
export function notApprovedResult(tool: string, cause: "no approver" | { failed: unknown }): ToolResult {
  const why = cause === "no approver" ? "it needs approval and nobody was asked (this caller runs no approval step)" : `the approval step failed (${errorMessage(cause.failed)})`;
  const result = errorResult("denied", `The call to tool "${tool}" did not run: ${why}. Tell the user it needs their approval.`, { tool });
  return cause === "no approver" ? result : carryingThrown(result, cause.failed);
}

/** The result of a call its authorization refused. */
export function forbiddenResult(tool: string, failed?: unknown): ToolResult {
  const why = failed === undefined ? "" : " (the permission check failed)";
  const result = errorResult("forbidden", `The call to tool "${tool}" is not allowed for this user${why}. Do not retry it; tell the user.`, { tool });
  return failed === undefined ? result : carryingThrown(result, failed);
}

/**
 * Whether calls of `tool` may need approval in some toolkit: it sets `needsApproval` (other than
 * `false`), or it is destructive (`approveDestructive` asks for those). A framework adapter
 * hands only such tools to its framework's approval flow, and asks `toolkit.needsApproval`
 * per call.
 */
export function mayNeedApproval(tool: Tool): boolean {
  return (tool.needsApproval !== undefined && tool.needsApproval !== false) || tool.annotations?.destructive === true;
}
