import { ToolDefinitionError } from "../core/errors";
import { checkTimeout } from "../core/checks";
import type { LogEntry, Tool, ToolContext } from "../core/types";
import type { InputHooks } from "../core/input-requests";
import type { ApprovalDecision, ApprovalRequest } from "../control/approval";
import type { ToolExecutor } from "../control/executor";
import type { TracingOption } from "../control/tracing";
import type { ErrorTextPolicy, ToolFailure } from "./failure-report";

/**
 * How a toolkit runs its calls: deadlines, observers, the seams, tracing, where calls run, and
 * who answers a tool's `ctx.elicit` / `ctx.sample` when no MCP client does (`InputHooks`).
 */
export interface CallOptions extends InputHooks {
  /**
   * Milliseconds before any call is ended with a `timeout` result, unless the call or the tool
   * sets its own: `DEFAULT_TIMEOUT_MS` (60 s) when left out, `false` for no deadline at all.
   */
  timeout?: number | false;
  /**
   * Told about every failed call (unknown tool, invalid arguments, a throw, a timeout, an abort,
   * an error result the tool returned), after its result is made and before it is returned: log
   * it, count it, report it. What it returns or throws changes nothing for the call.
   */
  onError?: (failure: ToolFailure) => void | Promise<void>;
  /**
   * What the model is told when a tool throws: `"message"` (the default) sends the thrown
   * message; `"errorId"` sends a fixed text with the failure's `errorId` (to find its `onError`
   * log line) and keeps the message in the process; a function writes the text itself.
   */
  errorText?: ErrorTextPolicy;
  /**
   * Decides, in process, the calls that need approval (`needsApproval`, or `approveDestructive`):
   * `true`/`{ approved: true }` runs the call, `false`/`{ approved: false, reason }` answers it
   * with a `denied` result. Left out, `execute` and MCP answer such calls `denied`, and run*
   * hand them back as `pendingApprovals` to resume later with `resumeApprovals`.
   */
  approve?: (request: ApprovalRequest) => ApprovalDecision | Promise<ApprovalDecision>;
  /**
   * Milliseconds `approve` has to answer a call before the call is answered `denied` (nobody
   * answered in time): the call's deadline when left out (`ctx.timeout`, the tool's `timeout`,
   * the toolkit's, or `DEFAULT_TIMEOUT_MS`), `false` for no limit. Counted from when `approve`
   * is asked; the tool's own deadline starts when its body does.
   */
  approvalTimeout?: number | false;
  /** Every tool annotated `destructive` needs approval. */
  approveDestructive?: boolean;
  /**
   * Which tools exist for a ctx, beside each tool's own `visible`: hidden tools are neither
   * exported nor run. It answers synchronously (listing tools does not wait): anything but
   * `true`, a promise included, and a throw hide the tool.
   */
  visible?: (tool: Tool, ctx: ToolContext) => boolean;
  /**
   * Whether a call may run, beside each tool's own `authorize`: `false` gives a `forbidden`
   * result. Each is waited for at most the call's deadline (then the call is a `timeout`).
   */
  authorize?: (ctx: ToolContext, args: Record<string, unknown>, tool: Tool) => boolean | Promise<boolean>;
  /**
   * OpenTelemetry: one span per call (`execute_tool {tool}`, GenAI conventions) when
   * `@opentelemetry/api` is installed. On by default; `false` turns it off;
   * `{ recordArguments, recordResults }` also records what went in and came out.
   */
  tracing?: TracingOption;
  /**
   * Where calls run once visibility, authorization, approval and middleware let them through:
   * in this process when left out, or on workers with `queueExecutor(...)` from
   * `toolnexus/bullmq`. Tracing and `onError` stay here, around the whole call.
   */
  executor?: ToolExecutor;
  /**
   * Where a tool's `ctx.log(level, message, data?)` goes when no MCP client listens (every call
   * outside MCP): your logger. Left out, such logs are not kept. What it throws changes nothing for the call.
   */
  log?: (entry: LogEntry, ctx: ToolContext) => void;
}

/** Refuses call options of the wrong kind, naming the option and what it takes. */
export function checkCallOptions(options: CallOptions): void {
  checkTimeout("Toolkit", options.timeout);
  checkTimeout("Toolkit", options.approvalTimeout, "approvalTimeout");
  for (const key of ["approve", "visible", "authorize", "elicit", "sample", "log"] as const) {
    const value = options[key];
    if (value !== undefined && typeof value !== "function")
      throw new ToolDefinitionError(`Toolkit: ${key} must be a function (got ${typeof value}).`);
  }
  if (options.approveDestructive !== undefined && typeof options.approveDestructive !== "boolean") {
    throw new ToolDefinitionError(
      `Toolkit: approveDestructive must be true or false (got ${typeof options.approveDestructive}).`,
    );
  }
}

/**
 * How `execute` treats the approval step (see `Toolkit.execute`). Only the boolean `true`
 * approves and only `false` denies. Any other `approved` (`"false"`, `1`, `{}`, `null`), options
 * that are not an object, or options that throw when read refuse the call with a `denied`
 * result saying why, and the tool does not run: a host's approval that cannot be read as a
 * decision is not approval (the call fails closed, as when `approve` answers no decision).
 * Each option is read once. Options left out, `null`, or without `approved`: approval is asked as usual.
 */
export interface ExecuteOptions {
  /** A person already decided on this call through the host's framework: `true` approved, `false` denied. */
  approved?: boolean;
  /** Why it was denied, for the model (with `approved: false`; only a non-empty string is told). */
  reason?: string;
}
