import type { ToolContext, ToolResult } from "../core/types";
import {
  decisionFor,
  deniedResult,
  pendingApprovalsProblem,
  type ApprovalDecision,
  type PendingApproval,
  type PendingApprovals,
} from "../control/approval";
import { internalFailure } from "../pipeline/failure-report";
import type { ApprovalMode, CallPipeline } from "../pipeline/call-pipeline";
import { deferredCallOf } from "../pipeline/deferred-call";
import { sanitizedName } from "../core/names";
import {
  fitResult,
  runCalls,
  type CallRunner,
  type ExportOptions,
  type ParsedCall,
  type ProviderAdapter,
} from "../providers/adapter";
import { answeringFormats, answeringProvider } from "../providers/registry";
import { errorResult } from "../runtime/result";
import { SEARCH_TOOL_NAME } from "../providers/tool-search";
import { approvalIds, asJson, plainResult } from "./pending-approvals";
import type { ProviderExports } from "./provider-exports";

/**
 * A model turn's calls run and answered in the provider's reply, in call order; calls that need
 * approval (with no `approve` to ask) handed back as `pendingApprovals`, and resumed later.
 */
export class RoundTrips {
  readonly #pipeline: CallPipeline;
  readonly #exports: ProviderExports;

  /** Whether a call to a deferred tool its export did not declare is refused (else it runs: it is a real tool). */
  readonly #unfoundRefused: ((name: string) => boolean) | undefined;

  constructor(pipeline: CallPipeline, exports: ProviderExports, unfoundRefused?: (name: string) => boolean) {
    this.#pipeline = pipeline;
    this.#exports = exports;
    this.#unfoundRefused = unfoundRefused;
  }

  /** Every call in `input`, run concurrently, answered in order; never rejects. */
  async answerTurn(adapter: ProviderAdapter, input: unknown, ctx: ToolContext | undefined): Promise<unknown> {
    const binding = this.#exports.binding(adapter);
    const refused = adapter.searchesNatively === true ? undefined : this.#unfoundRefused;
    const run: CallRunner = (name, args, callCtx, decode, sentName) =>
      refused !== undefined && !binding.has(sentName ?? name) && refused(name)
        ? Promise.resolve(
            errorResult(
              "unknown_tool",
              `Tool "${name}" is not declared yet: find it with ${SEARCH_TOOL_NAME} first, then call it.`,
              { tool: name },
            ),
          )
        : this.#pipeline.run(name, args, callCtx, decode, "defer", sentName ?? name);
    const { calls, results } = await runCalls(adapter, binding, run, input, ctx);
    const ids = approvalIds(calls);
    const waiting = calls.flatMap((call, index): PendingApproval[] => {
      const deferred = deferredCallOf(results[index]!);
      if (deferred === undefined) return [];
      return [
        {
          id: ids[index]!,
          index,
          tool: deferred.tool,
          args: deferred.args,
          ...(call.id !== undefined ? { callId: call.id } : {}),
        },
      ];
    });
    const sent = results.map((result) => (deferredCallOf(result) === undefined ? result : null));
    return this.#reply(adapter, calls, sent, waiting);
  }

  /** See `Toolkit.resumeApprovals`. */
  async resume(
    pending: PendingApprovals,
    decisions: Record<string, ApprovalDecision>,
    ctx: ToolContext | undefined,
  ): Promise<unknown> {
    const problem = pendingApprovalsProblem(pending);
    if (problem !== undefined)
      throw new TypeError(
        "resumeApprovals takes the pendingApprovals object a run* method returned (stored as JSON and read back), " +
          `but ${problem}.`,
      );
    const adapter: ProviderAdapter | undefined = answeringProvider(pending.provider);
    if (adapter === undefined) {
      throw new TypeError(
        `resumeApprovals: "${pending.provider}" is not a provider toolnexus answers ` +
          `(${answeringFormats().join(", ")}).`,
      );
    }
    const { calls } = pending;
    const results = [...pending.results];
    const ids = approvalIds(calls);
    const waiting: PendingApproval[] = [];
    // Each waiting call is taken by the first approval that matches it, before any call runs: listed again, it neither
    // runs nor waits twice.
    const taken = new Set<number>();
    await Promise.all(
      pending.approvals.map(async (approval) => {
        const { index } = approval;
        // An approval that matches no waiting call of the turn, or has no decision, stays pending: nothing is dropped.
        if (results[index] !== null || ids[index] !== approval.id) return void waiting.push(approval);
        if (taken.has(index)) return;
        taken.add(index);
        const decision = decisionFor(decisions, approval.id);
        if (decision === undefined) return void waiting.push(approval);
        results[index] = await this.#resumed(adapter, approval, calls[index]!, decision, ctx);
      }),
    );
    return this.#reply(adapter, calls, results, waiting);
  }

  /** The result of one waiting call, decided: run if approved, else denied; never rejects. */
  async #resumed(
    adapter: ProviderAdapter,
    approval: PendingApproval,
    call: PendingApprovals["calls"][number],
    decision: { approved: boolean; reason?: string },
    ctx: ToolContext | undefined,
  ): Promise<ToolResult> {
    if (call.name !== approval.tool && call.name !== sanitizedName(approval.tool, adapter.names)) {
      return errorResult(
        "denied",
        `The stored approval ${approval.id} names tool "${approval.tool}", but the call was to "${call.name}"; it ` +
          "did not run.",
        { tool: call.name },
      );
    }
    let callCtx: ToolContext;
    try {
      callCtx = { ...ctx, ...(call.id !== undefined ? { callId: call.id } : {}), provider: adapter.id };
    } catch (thrown) {
      return internalFailure(approval.tool, thrown);
    }
    // The call as the model sent it, read back the way this toolkit reads the tool's calls.
    // A denial goes the way of every call (visibility, authorization, tracing, onError); only the body does not run.
    const decode = this.#exports.decoderFor(adapter, approval.tool);
    const mode: ApprovalMode = decision.approved
      ? "approved"
      : { answered: (tool) => deniedResult(tool, decision.reason) };
    return this.#pipeline.run(approval.tool, call.arguments, callCtx, decode, mode, call.name);
  }

  /**
   * The reply for every call of a turn, or, while some wait for approval, the others' with `pendingApprovals` (plain
   * JSON) attached.
   */
  #reply(
    adapter: ProviderAdapter<unknown, ExportOptions>,
    calls: readonly ParsedCall[],
    sent: ReadonlyArray<ToolResult | null>,
    waiting: PendingApproval[],
  ): unknown {
    // Each result as the provider can carry it (the latest export's options say, e.g. Gemini's text-only results).
    const options = this.#exports.optionsOf(adapter);
    const results = sent.map((result) => (result === null ? null : fitResult(adapter, result, options)));
    if (waiting.length === 0) return adapter.reply(calls, results as ToolResult[]);
    const done = calls.flatMap((call, index) => (results[index] === null ? [] : [{ call, result: results[index]! }]));
    const partial = adapter.reply(
      done.map((entry) => entry.call),
      done.map((entry) => entry.result),
    );
    const pendingApprovals = asJson<PendingApprovals>({
      pendingApprovalsVersion: 1,
      provider: adapter.id,
      approvals: waiting,
      calls: calls.map((call) => ({
        ...(call.id !== undefined ? { id: call.id } : {}),
        name: call.name,
        arguments: call.arguments,
        ...(call.kind !== undefined ? { kind: call.kind } : {}),
      })),
      results: results.map((result) => (result === null ? null : plainResult(result))),
    });
    return Object.assign(partial ?? adapter.emptyReply?.() ?? {}, { pendingApprovals });
  }
}
