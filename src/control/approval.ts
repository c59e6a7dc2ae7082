import { abortedResult } from "../runtime/invoke";
import { errorResult, isToolResult } from "../runtime/result";
import type { Tool, ToolContext, ToolResult } from "../core/types";
import type { SeamOutcome } from "./seam-deadline";
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
  calls: Array<{ id?: string; name: string; arguments: unknown; kind?: string }>;
  /** The result of each call, `null` while it waits. */
  results: Array<ToolResult | null>;
}

/**
 * A reply that may come with calls waiting for approval; when `pendingApprovals` is set, store it instead of sending
 * the reply.
 */
export type WithPendingApprovals<R, P extends string = string> = R extends undefined
  ? R
  : R & { pendingApprovals?: PendingApprovals<P> };

/**
 * What makes `value` something other than a `PendingApprovals` a run* method returned (the
 * first such thing, as a phrase), or `undefined` when it is one. Never throws: a value that
 * throws when read is not one.
 */
export function pendingApprovalsProblem(value: unknown): string | undefined {
  try {
    const candidate = value as PendingApprovals | null;
    if (
      typeof candidate !== "object" ||
      candidate === null ||
      candidate.pendingApprovalsVersion !== 1 ||
      typeof candidate.provider !== "string"
    ) {
      return "it is not a pendingApprovals object (version 1, with its provider)";
    }
    const { approvals, calls, results } = candidate;
    if (!Array.isArray(approvals) || !Array.isArray(calls) || !Array.isArray(results))
      return "its approvals, calls and results are not all lists";
    if (calls.length !== results.length) return "it has not one result slot per call";
    const approval = approvals.findIndex((entry: unknown) => !isApprovalEntry(entry));
    if (approval !== -1) return `approvals[${approval}] is not { id, index, tool }`;
    const call = calls.findIndex((entry: unknown) => !isCallEntry(entry));
    if (call !== -1) return `calls[${call}] is not { name, arguments }`;
    const result = results.findIndex((entry: unknown) => entry !== null && !isToolResult(entry));
    if (result !== -1) return `results[${result}] is neither null nor a ToolResult`;
    return undefined;
  } catch {
    return "it cannot be read";
  }
}

function isApprovalEntry(entry: unknown): boolean {
  const approval = entry as PendingApproval | null;
  return (
    typeof approval === "object" &&
    approval !== null &&
    typeof approval.id === "string" &&
    Number.isInteger(approval.index) &&
    typeof approval.tool === "string"
  );
}

function isCallEntry(entry: unknown): boolean {
  const call = entry as PendingApprovals["calls"][number] | null;
  return (
    typeof call === "object" &&
    call !== null &&
    typeof call.name === "string" &&
    (call.id === undefined || typeof call.id === "string") &&
    (call.kind === undefined || typeof call.kind === "string")
  );
}

/**
 * The decision `decisions` holds for approval `id`, read leniently (`readDecision`); one it does not own, or that
 * cannot be read, is none.
 */
export function decisionFor(decisions: unknown, id: string): { approved: boolean; reason?: string } | undefined {
  try {
    if (typeof decisions !== "object" || decisions === null || !Object.prototype.hasOwnProperty.call(decisions, id))
      return undefined;
    return readDecision((decisions as Record<string, unknown>)[id]);
  } catch {
    return undefined;
  }
}

/**
 * A decision read leniently: `true`/`false`, or `{ approved, reason }` (each field read once,
 * so a getter cannot pass the check with a boolean and then answer something else). Anything
 * else is not a decision. Throws when the object's getters do.
 */
export function readDecision(decision: unknown): { approved: boolean; reason?: string } | undefined {
  if (typeof decision === "boolean") return { approved: decision };
  if (typeof decision !== "object" || decision === null) return undefined;
  const { approved, reason } = decision as { approved?: unknown; reason?: unknown };
  if (typeof approved !== "boolean") return undefined;
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
  if (typeof options !== "object")
    return (tool) =>
      unreadableApproval(
        tool,
        `execute's options are not an object (got ${typeName(options)}), so the host's approval could not be read`,
      );
  try {
    const { approved } = options as { approved?: unknown };
    if (approved === undefined) return "ask";
    if (approved === true) return "approved";
    if (approved !== false) {
      return (tool) =>
        unreadableApproval(
          tool,
          `the host's approval is neither true nor false (got ${typeName(approved)}); only true approves it and only ` +
            "false denies it",
        );
    }
    const { reason } = options as { reason?: unknown };
    const told = typeof reason === "string" && reason.trim() !== "" ? reason : undefined;
    return (tool) => deniedResult(tool, told);
  } catch (thrown) {
    return (tool) =>
      seamFailure(
        "denied",
        tool,
        thrown,
        (errorId) =>
          `The call to tool "${tool}" did not run: the host's approval could not be read (error id ${errorId}). Tell ` +
          "the user it needs their approval.",
      );
  }
}

function unreadableApproval(tool: string, why: string): ToolResult {
  return errorResult(
    "denied",
    `The call to tool "${tool}" did not run: ${why}. Tell the user it needs their approval.`,
    { tool },
  );
}

/** A value's kind, for a sentence, found without running any of its code. */
function typeName(value: unknown): string {
  if (value === null) return "null";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

/** The result of a call a person (or the `approve` function) did not approve. */
export function deniedResult(tool: string, reason?: string): ToolResult {
  const why = reason === undefined ? "" : ` Reason: ${/[.!?]$/.test(reason) ? reason : `${reason}.`}`;
  return errorResult(
    "denied",
    `The call to tool "${tool}" was not approved, so it did not run.${why} Do not retry it unchanged; ask the user ` +
      "how to proceed.",
    { tool },
  );
}

/** The result when approval was needed and nobody could be asked (this caller runs no approval step). */
export function notApprovedResult(tool: string): ToolResult {
  const text =
    `The call to tool "${tool}" did not run: it needs approval and nobody was asked (this caller runs no ` +
    "approval step). Tell the user it needs their approval.";
  return errorResult("denied", text, { tool });
}

/**
 * What ends a call at its approval step, from how `approve` answered: `denied` for a refusal,
 * for anything that is no decision, for a throw, and when nobody answered within the
 * `approvalTimeout`; `aborted` when the call's signal aborted first; `undefined` when it approved.
 */
export function approvalRefusal(tool: string, answer: SeamOutcome): ToolResult | undefined {
  if ("late" in answer) {
    const text =
      `The call to tool "${tool}" did not run: nobody answered its approval request within ${answer.late} ` +
      "ms. Tell the user it needs their approval.";
    return errorResult("denied", text, { tool, timeoutMs: answer.late });
  }
  if ("aborted" in answer) return abortedResult(tool, answer.aborted);
  if ("threw" in answer) return approvalFailed(tool, answer.threw, "failed");
  let decision: ReturnType<typeof readDecision>;
  try {
    decision = readDecision(answer.answered);
  } catch (thrown) {
    return approvalFailed(tool, thrown, "failed");
  }
  if (decision === undefined)
    return approvalFailed(
      tool,
      new TypeError("approve answered neither true, false nor { approved, reason? }."),
      "answered neither true, false nor { approved }",
    );
  return decision.approved ? undefined : deniedResult(tool, decision.reason);
}

/**
 * A `denied` result for an approval step that failed (`how`: "failed", or what it answered instead), with an `errorId`;
 * what it threw stays for `onError`.
 */
function approvalFailed(tool: string, thrown: unknown, how: string): ToolResult {
  return seamFailure(
    "denied",
    tool,
    thrown,
    (errorId) =>
      `The call to tool "${tool}" did not run: its approval step ${how} (error id ${errorId}). Tell the user it ` +
      "needs their approval.",
  );
}

/**
 * The result of a call its authorization refused, or (given what it threw) could not decide:
 * then worded with an `errorId`, never with what was thrown, which stays for `onError`.
 */
export function forbiddenResult(tool: string, failed?: unknown): ToolResult {
  if (failed === undefined)
    return errorResult(
      "forbidden",
      `The call to tool "${tool}" is not allowed for this user. Do not retry it; tell the user.`,
      { tool },
    );
  const text = (errorId: string) =>
    `The call to tool "${tool}" is not allowed for this user: the permission check failed (error id ${errorId}). Do ` +
    "not retry it; tell the user.";
  return seamFailure("forbidden", tool, failed, text);
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
