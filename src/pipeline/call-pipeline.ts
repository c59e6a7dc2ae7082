import { isObject, type Tool, type ToolContext, type ToolResult } from "../core/types";
import { approvalRefusal, notApprovedResult, readHostApproval, type ApprovalRequest } from "../control/approval";
import { authorizationRefusal } from "../control/authorization";
import { checkExecutor, runOnExecutor, type ToolExecutor } from "../control/executor";
import { runThrough, type ToolCall, type ToolMiddleware } from "../control/middleware";
import type { retryPolicyOf } from "../control/policy";
import { deadlineOf, withRetries } from "../control/retry";
import { invalidTimeoutResult, isTimeout, runSeam, seamTimedOut, type SeamLimits } from "../control/seam-deadline";
import { callTracer, tracerProviderRegistered, type CallTracer } from "../control/tracing";
import type { Visibility } from "../control/visibility";
import { acceptArguments } from "../runtime/arguments";
import { abortedResult } from "../runtime/invoke";
import { errorResult } from "../runtime/result";
import { checkedWithinLimits, invalidArguments, type CheckArguments, type RunAccepted } from "../runtime/run-contract";
import type { CallOptions, ExecuteOptions } from "./call-options";
import { deferredCall, isDeferred } from "./deferred-call";
import { failureReporter, internalFailure, originOf, type FailureReporter } from "./failure-report";
import { unknownToolResult } from "./unknown-tool";
import { withInputHooks } from "./input-hooks";

/** A registered tool with what running its calls needs, made once when it is registered. */
export interface CallableTool {
  tool: Tool;
  run: RunAccepted;
  /**
   * Its arguments' check alone, run before a call is sent to an executor (a Tool written by hand has none: its
   * `execute` checks).
   */
  check: CheckArguments | undefined;
  /** Its retry policy, if it is retried. */
  retry: ReturnType<typeof retryPolicyOf>;
  /**
   * Whether a call of this tool needs more than validation and the body (visibility, authorization, approval, retries).
   */
  controlled: boolean;
}

/** What the pipeline asks of the toolkit's tools: a tool by name, and who may see it. */
export interface ToolTable {
  callable(name: string): CallableTool | undefined;
  /** What the tool's own `visible` and the toolkit's say for `ctx`: shown, hidden, or hidden by a check that failed. */
  visibility(tool: Tool, ctx: ToolContext | undefined): Visibility;
  /** The names `ctx` may see, in registration order. */
  visibleNames(ctx: ToolContext): string[];
}

/**
 * How a call came: from `execute`/MCP (approval asked of `approve`), from run* (deferred
 * without `approve`), approved already, or decided already not to run (`answered` gives its
 * result once visibility and authorization let it through).
 */
export type ApprovalMode = "ask" | "defer" | "approved" | { answered: (tool: string) => ToolResult };

/** How a provider's arguments are read back for the tool (the way back of its export). */
export type ArgumentsDecoder = (args: Record<string, unknown>) => unknown;

/**
 * One call from name and raw arguments to its result, through the seams in their documented
 * order: visibility, arguments, authorization, approval, middleware, then retries with the
 * tool's validation and body, here or on the executor; tracing and failure reports around it.
 * Never rejects.
 */
export class CallPipeline {
  readonly #tools: ToolTable;
  readonly #options: CallOptions;
  readonly #middleware: ToolMiddleware[] = [];
  readonly #executor: ToolExecutor | undefined;
  /** Set when failures are observed or reworded; unset, a call pays nothing for it. */
  readonly #report: FailureReporter | undefined;
  /**
   * Made when a call first finds a tracer provider registered (`null` until then): a program that collects no spans
   * never loads @opentelemetry/api.
   */
  #tracer: CallTracer | undefined | null = null;
  /** Whether toolkit options or middleware touch every call (else only controlled tools pay for the seams). */
  #controlsEveryCall: boolean;

  constructor(tools: ToolTable, options: CallOptions) {
    this.#tools = tools;
    this.#options = options;
    this.#executor = checkExecutor(options.executor);
    this.#report = failureReporter(options.onError, options.errorText);
    // A call sent elsewhere takes the controlled path: without an executor the fast path stays as it is.
    this.#controlsEveryCall =
      options.visible !== undefined ||
      options.authorize !== undefined ||
      options.approveDestructive === true ||
      this.#executor !== undefined;
  }

  use(middleware: ToolMiddleware): void {
    this.#middleware.push(middleware);
    this.#controlsEveryCall = true;
  }

  /** A call from `execute`: `options.approved` is a host's own decision on it (see `ExecuteOptions`). */
  execute(
    name: unknown,
    args: unknown,
    ctx: ToolContext | undefined,
    options: ExecuteOptions | undefined,
  ): Promise<ToolResult> {
    const host = readHostApproval(options);
    const mode: ApprovalMode = typeof host === "function" ? { answered: host } : host;
    // A name that is no string names no tool (it is looked at only with typeof: it may be a Proxy that throws).
    return this.run(typeof name === "string" ? name : "", args, ctx, undefined, mode, name);
  }

  /**
   * One call, traced when tracing is on, with its failure reported when the toolkit observes
   * failures. `sentName` is the name as the caller sent it (any value from `execute`).
   */
  run(
    name: string,
    args: unknown,
    ctx: ToolContext | undefined,
    decode: ArgumentsDecoder | undefined,
    mode: ApprovalMode,
    sentName: unknown,
  ): Promise<ToolResult> {
    // While no tracer provider is registered, a call builds nothing for tracing.
    const tracer = this.#options.tracing === false || !tracerProviderRegistered() ? undefined : this.#callTracer();
    const call = () => this.#reported(name, ctx, this.#dispatchOrFail(name, args, ctx, decode, mode, sentName));
    // Reported inside the span: the span ends with the text the model is told (the errorText policy applied).
    return tracer === undefined ? call() : tracer({ tool: name, callId: originOf(ctx).callId, args }, call);
  }

  /**
   * Whether `execute` would ask for approval before running this call (a check that throws, or
   * does not answer within the call's deadline, counts as yes); `false` for an unknown tool and
   * for arguments that are no object, which `execute` refuses before approval.
   */
  async needsApproval(name: string, args: unknown, ctx: ToolContext): Promise<boolean> {
    const tool = this.#tools.callable(name)?.tool;
    const accepted = acceptArguments(args);
    if (tool === undefined || !accepted.ok) return false;
    try {
      const deadline: unknown = deadlineOf(ctx, tool.timeout, this.#options.timeout);
      const needed = await this.#needsApproval(tool, accepted.args, ctx, {
        timeout: isTimeout(deadline) ? deadline : false,
        signal: ctx.signal,
      });
      return needed !== false;
    } catch {
      // A ctx that cannot be read: execute would not run the call either; asking fails closed.
      return true;
    }
  }

  /**
   * A call a worker took off an executor's queue: the seams ran where the call arrived, so only
   * its retries and body run here (the tool's run checks the arguments again as it makes the
   * body's values). Never rejects.
   */
  runQueued(name: string, args: Record<string, unknown>, ctx: ToolContext): Promise<ToolResult> {
    const callable = this.#tools.callable(name);
    if (callable === undefined) {
      const text =
        `Tool "${name}" could not run: the worker's toolkit has no tool of that name. Register the same ` +
        "tools in the workers as in the toolkit the calls arrive at.";
      return Promise.resolve(errorResult("execution_failed", text, { tool: name }));
    }
    return this.#runHere(callable)({ tool: callable.tool, args, ctx }).catch((thrown: unknown) =>
      internalFailure(name, thrown),
    );
  }

  /** A failure as `onError` and `errorText` make it, for a result a worker hands on itself. */
  reported(name: string, result: ToolResult, ctx: ToolContext | undefined): ToolResult {
    return result.isError && this.#report !== undefined ? this.#report(name, result, ctx) : result;
  }

  #callTracer(): CallTracer | undefined {
    if (this.#tracer === null)
      this.#tracer = callTracer(this.#options.tracing, undefined, {
        thrownText: (this.#options.errorText ?? "message") === "message",
      });
    return this.#tracer;
  }

  /** `pending`'s result, a failure told to `onError` and worded by `errorText` when the toolkit asks for either. */
  #reported(name: string, ctx: ToolContext | undefined, pending: Promise<ToolResult>): Promise<ToolResult> {
    const report = this.#report;
    return report === undefined
      ? pending
      : pending.then((result) => (result.isError && !isDeferred(result) ? report(name, result, ctx) : result));
  }

  /**
   * `#dispatch`, whose synchronous throw (a ctx or a decoder that throws when read) is the call's result, never the
   * caller's exception.
   */
  #dispatchOrFail(
    name: string,
    args: unknown,
    ctx: ToolContext | undefined,
    decode: ArgumentsDecoder | undefined,
    mode: ApprovalMode,
    sentName: unknown,
  ): Promise<ToolResult> {
    try {
      return this.#dispatch(name, args, withInputHooks(ctx, this.#options, name), decode, mode, sentName);
    } catch (thrown) {
      return Promise.resolve(internalFailure(name, thrown));
    }
  }

  /**
   * The name looked up once (a tool hidden from this ctx is as unknown as one that does not
   * exist), the arguments accepted once and read back the provider's way, then the seams in
   * order: authorization, approval, middleware, retries, and validation with the body.
   */
  #dispatch(
    name: string,
    args: unknown,
    ctx: ToolContext | undefined,
    decode: ArgumentsDecoder | undefined,
    mode: ApprovalMode,
    sentName: unknown,
  ): Promise<ToolResult> {
    const callable = this.#tools.callable(name);
    const controlled = callable !== undefined && (callable.controlled || this.#controlsEveryCall);
    const visibility = controlled ? this.#tools.visibility(callable.tool, ctx) : true;
    // Answered with the name as sent: the name a provider's name was mapped to would tell that the tool exists.
    if (callable === undefined || visibility !== true)
      return Promise.resolve(unknownToolResult(sentName, this.#tools.visibleNames(ctx ?? {}), visibility));
    const accepted = acceptArguments(args);
    if (!accepted.ok) return Promise.resolve(invalidArguments(name, [accepted.problem]));
    let values = accepted.args;
    if (decode !== undefined) {
      const decoded = decode(values);
      if (isObject(decoded)) values = decoded;
    }
    // A denial made at resume always goes through the seams: the body must not run, whatever this toolkit's tool
    // declares.
    if (!controlled && typeof mode !== "object") return callable.run(values, ctx, this.#options.timeout);
    return this.#throughSeams(callable, values, ctx ?? {}, mode).catch((thrown: unknown) =>
      internalFailure(name, thrown),
    );
  }

  /**
   * The seams of a call, in order, each waited for at most the call's deadline (`approve` its
   * `approvalTimeout`), counted from when it starts; the body keeps its own deadline.
   */
  async #throughSeams(
    callable: CallableTool,
    args: Record<string, unknown>,
    ctx: ToolContext,
    mode: ApprovalMode,
  ): Promise<ToolResult> {
    const { tool } = callable;
    const deadline: unknown = deadlineOf(ctx, tool.timeout, this.#options.timeout);
    // Refused before any seam runs (nobody is asked to approve a call its body would refuse).
    if (!isTimeout(deadline)) return invalidTimeoutResult(tool.name, deadline);
    const limits: SeamLimits = { timeout: deadline, signal: ctx.signal };
    const refused = await this.#authorization(tool, args, ctx, limits);
    if (refused !== undefined) return refused;
    if (typeof mode === "object") return mode.answered(tool.name);
    if (mode !== "approved") {
      const unapproved = await this.#approval(tool, args, ctx, limits, mode);
      if (unapproved !== undefined) return unapproved;
    }
    const runHere = this.#runHere(callable);
    const executor = this.#executor;
    const core =
      executor === undefined ? runHere : (call: ToolCall) => this.#runOnExecutor(executor, callable, call, runHere);
    const call: ToolCall = { tool, args, ctx };
    return this.#middleware.length === 0 ? core(call) : runThrough(this.#middleware, call, core, limits);
  }

  /**
   * The approval step: `undefined` when the call may go on; else its result (denied, not
   * approved, timed out) or, from run* without `approve`, the call handed back to wait.
   */
  async #approval(
    tool: Tool,
    args: Record<string, unknown>,
    ctx: ToolContext,
    limits: SeamLimits,
    mode: "ask" | "defer",
  ): Promise<ToolResult | undefined> {
    const needed = await this.#needsApproval(tool, args, ctx, limits);
    if (typeof needed === "object") return needed;
    if (!needed) return undefined;
    const approve = this.#options.approve;
    if (approve === undefined) return mode === "defer" ? deferredCall(tool.name, args) : notApprovedResult(tool.name);
    const request: ApprovalRequest = {
      tool: tool.name,
      args,
      ...(ctx.callId !== undefined ? { callId: ctx.callId } : {}),
      ctx,
    };
    const answer = await runSeam(() => approve(request), {
      timeout: this.#options.approvalTimeout ?? limits.timeout,
      signal: ctx.signal,
    });
    return approvalRefusal(tool.name, answer);
  }

  /** What runs a call in this process once the seams let it through: its retries, validation and body. */
  #runHere(callable: CallableTool): (call: ToolCall) => Promise<ToolResult> {
    const { retry, tool } = callable;
    const timeout = this.#options.timeout;
    return retry === undefined
      ? (call) => callable.run(call.args, call.ctx, timeout)
      : (call) =>
          withRetries(retry, deadlineOf(call.ctx, tool.timeout, timeout), call.ctx, (attemptCtx) =>
            callable.run(call.args, attemptCtx, timeout),
          );
  }

  /**
   * A call handed to the toolkit's executor, once its arguments passed the tool's check here
   * (a refused call never leaves this process; the executor gets the arguments as checked);
   * whatever the executor throws or returns instead of a result is an `execution_failed` result
   * worded with an `errorId` (what it threw goes to `onError`, not to the model).
   */
  async #runOnExecutor(
    executor: ToolExecutor,
    callable: CallableTool,
    call: ToolCall,
    runHere: (call: ToolCall) => Promise<ToolResult>,
  ): Promise<ToolResult> {
    const { tool, ctx } = call;
    const started = Date.now();
    const timeout = deadlineOf(ctx, tool.timeout, this.#options.timeout);
    let args = call.args;
    if (callable.check !== undefined) {
      const verdict = await checkedWithinLimits(tool.name, callable.check, args, ctx, timeout);
      if (!verdict.ok) return verdict.result;
      args = verdict.args;
    }
    // What the check took is gone from the call's time.
    const left = timeout === false ? false : Math.max(1, timeout - (Date.now() - started));
    return runOnExecutor(executor, { tool, args, ctx, timeout: left, runHere: () => runHere(call) }, timeout);
  }

  /**
   * A `forbidden` result when the tool's or the toolkit's `authorize` refuses (or fails), the
   * result ending the call when one does not answer within `limits`, else `undefined`.
   */
  async #authorization(
    tool: Tool,
    args: Record<string, unknown>,
    ctx: ToolContext,
    limits: SeamLimits,
  ): Promise<ToolResult | undefined> {
    const own = tool.authorize;
    const shared = this.#options.authorize;
    if (own !== undefined) {
      const refused = authorizationRefusal(tool.name, await runSeam(() => own(ctx, args), limits));
      if (refused !== undefined) return refused;
    }
    return shared === undefined
      ? undefined
      : authorizationRefusal(tool.name, await runSeam(() => shared(ctx, args, tool), limits));
  }

  /**
   * Whether this call needs approval: the tool says so (a function that throws counts as yes),
   * or it is destructive and the toolkit asks for those; or the result ending the call when the
   * tool's function does not answer within `limits`.
   */
  async #needsApproval(
    tool: Tool,
    args: Record<string, unknown>,
    ctx: ToolContext,
    limits: SeamLimits,
  ): Promise<boolean | ToolResult> {
    if (this.#options.approveDestructive === true && tool.annotations?.destructive === true) return true;
    const needs = tool.needsApproval;
    // Anything set but `false` asks (fails closed).
    if (typeof needs !== "function") return needs !== undefined && needs !== false;
    const answer = await runSeam(() => needs(args, ctx), limits);
    if ("late" in answer) return seamTimedOut(tool.name, "its check of whether the call needs approval", answer.late);
    if ("aborted" in answer) return abortedResult(tool.name, answer.aborted);
    return !("answered" in answer) || answer.answered !== false;
  }
}
