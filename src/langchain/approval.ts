import { warnOfAdapterStep } from "../control/seam-failure";
import type { ToolRunnableConfig } from "@langchain/core/tools";
import { mayNeedApproval, readDecision, type ApprovalDecision, type ApprovalRequest } from "../control/approval";
import { acceptArguments } from "../runtime/arguments";
import type { ExecuteOptions, Toolkit } from "../toolkit";
import type { Tool, ToolContext } from "../core/types";

/**
 * What `approve` is asked about: the toolkit's approval request, with the call's LangChain config (`configurable`,
 * `context`, `metadata` ...).
 */
export interface LangChainApprovalRequest extends ApprovalRequest {
  config: ToolRunnableConfig;
}

export type LangChainApprover = (request: LangChainApprovalRequest) => ApprovalDecision | Promise<ApprovalDecision>;

/**
 * How the toolkit is to treat the approval step of a call: with no `approve`, or for a call
 * the toolkit would not ask about (its `needsApproval`, `approveDestructive`), as usual (the
 * toolkit's own `approve`, else `denied`); otherwise with the decision `approve` made. An approver that fails denies
 * the call, except for the errors a LangGraph run uses to pause (`interrupt()`), which must reach the graph.
 */
export async function approvalFor(
  toolkit: Toolkit,
  tool: Tool,
  args: unknown,
  ctx: ToolContext,
  config: ToolRunnableConfig,
  approve: LangChainApprover | undefined,
): Promise<ExecuteOptions> {
  if (approve === undefined || !mayNeedApproval(tool)) return {};
  // The toolkit refuses arguments that are not an object, and calls of a tool hidden from the
  // ctx, before any approval: nobody is to be asked about those.
  const accepted = acceptArguments(args);
  if (
    !accepted.ok ||
    !toolkit.tools(ctx).includes(tool) ||
    !(await toolkit.needsApproval(tool.name, accepted.args, ctx))
  )
    return {};
  let decision: ReturnType<typeof readDecision>;
  try {
    decision = readDecision(
      await approve({
        tool: tool.name,
        args: accepted.args,
        ...(ctx.callId !== undefined ? { callId: ctx.callId } : {}),
        ctx,
        config,
      }),
    );
  } catch (thrown) {
    if (pausesTheGraph(thrown)) throw thrown;
    return {
      approved: false,
      reason: `the approval step failed (error id ${warnOfAdapterStep("the approver of toLangChainTools", thrown)})`,
    };
  }
  if (decision === undefined)
    return { approved: false, reason: "the approval step answered neither a boolean nor { approved }" };
  return decision;
}

/**
 * LangGraph's interrupts and commands (GraphBubbleUp) say `is_bubble_up`: the graph catches them to pause or redirect
 * the run.
 */
function pausesTheGraph(thrown: unknown): boolean {
  try {
    return (
      typeof thrown === "object" && thrown !== null && (thrown as { is_bubble_up?: unknown }).is_bubble_up === true
    );
  } catch {
    return false;
  }
}
