import {
  approvalRefusal,
  decisionFor,
  deniedResult,
  notApprovedResult,
  pendingApprovalsProblem,
  readHostApproval,
  type ApprovalDecision,
  type ApprovalRequest,
  type PendingApproval,
  type PendingApprovals,
  type WithPendingApprovals,
} from "./control/approval";
import { authorizationRefusal } from "./control/authorization";
import { checkExecutor, runOnExecutor, type ToolExecutor } from "./control/executor";
import { runThrough, type ToolCall, type ToolMiddleware } from "./control/middleware";
import { policyOf, retryPolicyOf } from "./control/policy";
import { deadlineOf, withRetries } from "./control/retry";
import { invalidTimeoutResult, isTimeout, runSeam, seamTimedOut, type SeamLimits } from "./control/seam-deadline";
import { seamFailure } from "./control/seam-failure";
import { callTracer, tracerProviderRegistered, type CallTracer, type TracingOption } from "./control/tracing";
import { visibilityBy, visibilityOf, type Visibility } from "./control/visibility";
import { toolMethodsOf } from "./decorators/metadata";
import { checkDescription, checkName, checkTask, checkTimeout } from "./define-tool";
import { DuplicateToolError, ToolDefinitionError } from "./errors";
import { resolveManifest, type ManifestOption, type ManifestSource } from "./manifest/load";
import { closestNames, sanitizedName } from "./names";
import { adapterFor, type AnyExportOptions, type ExportFormat } from "./providers";
import {
  codecOf,
  defaultBinding,
  exportTools,
  fitResult,
  runCalls,
  type CallRunner,
  type Export,
  type ExportBinding,
  type ExportOptions,
  type ExportReport,
  type ParsedCall,
  noUsableName,
  type ProviderAdapter,
} from "./providers/adapter";
import { anthropic, type AnthropicCallsInput, type AnthropicTool, type AnthropicToolResultMessage } from "./providers/anthropic";
import { bedrock, type BedrockCallsInput, type BedrockToolConfig, type BedrockToolResultMessage } from "./providers/bedrock";
import { gemini, type GeminiCallsInput, type GeminiExportOptions, type GeminiJsonSchemaTools, type GeminiToolResponseContent, type GeminiTools } from "./providers/gemini";
import { decodeWith } from "./providers/codec";
import { mcp, type McpTool } from "./providers/mcp";
import { openai, type OpenAICallsInput, type OpenAIExportOptions, type OpenAIFunctionTool, type OpenAIReplyMessage } from "./providers/openai";
import { openaiResponses, type OpenAIFunctionCallOutput, type OpenAIResponsesCallsInput, type OpenAIResponsesFunctionTool } from "./providers/openai-responses";
import { acceptArguments } from "./runtime/arguments";
import { abortedResult, invokeWithLimits, isThenable } from "./runtime/invoke";
import { carryingThrown, cutText, errorMessage, errorResult, MAX_ERROR_TEXT, safeJsonStringify, thrownBy } from "./runtime/result";
import { checkArgumentsOf, checkedWithinLimits, guarded, invalidArguments, runAcceptedOf, type CheckArguments, type RunAccepted } from "./runtime/run-contract";
import { functionInsteadOfInstance } from "./scanner/instance-expected";
import { scanTools } from "./scanner/scan-tools";
import { isObject, type Tool, type ToolContext, type ToolErrorKind, type ToolResult } from "./types";

/** What a toolkit takes: `Tool`s, decorated instances, or arrays of either. */
export type ToolSource = Tool | object | readonly ToolSource[];

export interface ToolkitOptions {
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
   * The manifest written by `toolnexus generate`, for the decorated instances: the object, a
   * path to it, or `false` for none. A relative path (here or in `$TOOLNEXUS_MANIFEST`) is
   * resolved from the working directory; pass an absolute path (e.g.
   * `join(__dirname, "toolnexus.manifest.json")`) to be independent of it. Left out:
   * `$TOOLNEXUS_MANIFEST` if set, else `toolnexus.manifest.json` found next to each `@Tool`
   * class's code: in the directory of the file defining it or one above, up to its package root
   * (that search never uses `process.cwd()`). Read when the first decorated instance is registered.
   */
  manifest?: ManifestOption;
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
}

/** A failed call, as `onError` and an `errorText` function see it. */
export interface ToolFailure {
  /** The tool name the call asked for (it may name no tool). */
  tool: string;
  kind: ToolErrorKind;
  /** What the tool threw (the value itself, with its stack), when it threw. */
  error?: unknown;
  /** Unique per failure; sent to the model with the `"errorId"` policy and always in `result.metadata.errorId`. */
  errorId: string;
  /** The result as made before the `errorText` policy applies. */
  result: ToolResult;
  callId?: string;
  provider?: string;
  ctx: ToolContext;
}

export type ErrorTextPolicy = "message" | "errorId" | ((failure: ToolFailure) => string);

/** At most this many tool names are listed in an unknown-tool reply (closest first); the rest are counted. */
export const MAX_LISTED_TOOLS = 20;

interface Entry {
  tool: Tool;
  run: RunAccepted;
  /** Its arguments' check alone, run before a call is sent to an executor (a Tool written by hand has none: its `execute` checks). */
  check: CheckArguments | undefined;
  /** Its retry policy, if it is retried. */
  retry: ReturnType<typeof retryPolicyOf>;
  /** Whether a call of this tool needs more than validation and the body (visibility, authorization, approval, retries). */
  controlled: boolean;
}

/**
 * How a call came: from `execute`/MCP (approval asked of `approve`), from run* (deferred
 * without `approve`), approved already, or decided already not to run (`answered` gives its
 * result once visibility and authorization let it through).
 */
type ApprovalMode = "ask" | "defer" | "approved" | { answered: (tool: string) => ToolResult };

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

/** A call run* hand back for approval: its result slot is filled when it is resumed. */
const DEFERRED = Symbol("toolnexus.deferred");
type DeferredResult = ToolResult & { [DEFERRED]: { tool: string; args: Record<string, unknown> } };

/** Set by the Toolkit class, which alone reaches its entries: see `runCallHere`. */
let runHereOf: (toolkit: Toolkit, name: string, args: Record<string, unknown>, ctx: ToolContext) => Promise<ToolResult>;
let reportedOf: (toolkit: Toolkit, name: string, result: ToolResult, ctx: ToolContext) => ToolResult;

/** A set of uniquely named tools, their declarations for every provider, and the runtime for their calls. */
export class Toolkit {
  readonly #entries = new Map<string, Entry>();
  readonly #timeout: number | false | undefined;
  readonly #approvalTimeout: number | false | undefined;
  /** Set when failures are observed or reworded; unset, a call pays nothing for it. */
  readonly #report: ((name: string, result: ToolResult, ctx: ToolContext | undefined) => ToolResult) | undefined;
  readonly #manifestOption: ManifestOption;
  #manifest: { index: ManifestSource | undefined } | undefined;
  /**
   * Per provider, the options of the latest export and the binding its calls are read with
   * (exported names → tools, and the way back for their arguments). Rebuilt when tools change.
   */
  readonly #exports = new Map<string, { options: ExportOptions; made?: { readonly binding: ExportBinding } }>();
  readonly #options: ToolkitOptions;
  readonly #middleware: ToolMiddleware[] = [];
  /** Made when a call first finds a tracer provider registered (`null` until then): a program that collects no spans never loads @opentelemetry/api. */
  #tracer: CallTracer | undefined | null = null;
  /** Whether toolkit options or middleware touch every call (else only controlled tools pay for the seams). */
  #controlsCalls: boolean;
  /** Whether some tool is hidden from some ctx (a toolkit `visible`, or a tool's own). */
  #hides: boolean;
  readonly #executor: ToolExecutor | undefined;

  static {
    runHereOf = (toolkit, name, args, ctx) => toolkit.#runHere(name, args, ctx);
    reportedOf = (toolkit, name, result, ctx) => (result.isError && toolkit.#report !== undefined ? toolkit.#report(name, result, ctx) : result);
  }

  constructor(items: readonly ToolSource[] = [], options: ToolkitOptions = {}) {
    if (typeof (items as { [Symbol.iterator]?: unknown } | null)?.[Symbol.iterator] !== "function" || typeof items === "string")
      throw new ToolDefinitionError(`new Toolkit takes an array of Tools and decorated instances; ${notAnArray(items)}.`);
    checkTimeout("Toolkit", options.timeout);
    checkTimeout("Toolkit", options.approvalTimeout, "approvalTimeout");
    checkControlOptions(options);
    // A copy: the flags below are computed from it once, so later changes to the caller's object cannot bypass them.
    this.#options = { ...options };
    this.#timeout = options.timeout;
    this.#approvalTimeout = options.approvalTimeout;
    this.#executor = checkExecutor(options.executor);
    // A call sent elsewhere takes the controlled path: without an executor the fast path stays as it is.
    this.#controlsCalls = options.visible !== undefined || options.authorize !== undefined || options.approveDestructive === true || this.#executor !== undefined;
    this.#hides = options.visible !== undefined;
    this.#report = failureReporter(options);
    this.#manifestOption = options.manifest;
    this.register(...items);
  }

  /** Adds tools and decorated instances. A name already taken, or accepted by no provider, throws. */
  register(...items: ToolSource[]): this {
    const scan = (instance: object) => scanTools(instance, { manifest: this.#resolvedManifest() ?? false });
    const incoming = new Map<string, Tool>();
    // Every check first, then every insert: a refused batch leaves the toolkit as it was.
    for (const tool of items.flatMap((item) => toolsOf(item, scan))) {
      checkName(tool.name);
      checkDescription(tool.name, tool.description);
      // Made by defineTool or the scanner, these were checked there; a Tool written by hand is checked here.
      if (runAcceptedOf(tool) === undefined) {
        checkTimeout(`Tool "${tool.name}"`, tool.timeout);
        checkTask(`Tool "${tool.name}"`, tool.task);
        policyOf(`Tool "${tool.name}"`, tool);
      }
      const taken = this.#entries.get(tool.name)?.tool ?? incoming.get(tool.name);
      if (taken !== undefined) {
        throw new DuplicateToolError(`A tool named "${tool.name}" is already registered (${taken.source} tool); tool names must be unique in a toolkit. Rename one of them.`);
      }
      incoming.set(tool.name, tool);
    }
    for (const tool of incoming.values()) {
      const retry = retryPolicyOf(tool);
      this.#entries.set(tool.name, {
        tool,
        run: runAcceptedOf(tool) ?? foreignRunner(tool),
        check: checkArgumentsOf(tool),
        retry,
        controlled: isControlled(tool) || retry !== undefined,
      });
      if (tool.visible !== undefined) this.#hides = true;
    }
    if (incoming.size > 0) for (const latest of this.#exports.values()) delete latest.made;
    return this;
  }

  /**
   * Wraps every call from now on (see `ToolMiddleware`): the first `use`d is the outermost. A
   * middleware runs after visibility, authorization and approval, and before validation and the body.
   */
  use(middleware: ToolMiddleware): this {
    if (typeof middleware !== "function") throw new ToolDefinitionError(`Toolkit.use takes a function (call, next) => result (got ${typeof middleware}).`);
    this.#middleware.push(middleware);
    this.#controlsCalls = true;
    return this;
  }

  /** Every tool, in registration order; given a ctx, only the tools visible to it (what its exports declare and its calls may run). */
  tools(ctx?: ToolContext): Tool[] {
    const all = [...this.#entries.values()].map((entry) => entry.tool);
    return ctx === undefined || !this.#hides ? all : all.filter((tool) => this.#isVisible(tool, ctx));
  }

  get(name: string): Tool | undefined {
    return this.#entries.get(name)?.tool;
  }

  has(name: string): boolean {
    return this.#entries.has(name);
  }

  /**
   * Whether `execute` would ask for approval before running this call: the tool's
   * `needsApproval` (a function that throws, or does not answer within the call's deadline,
   * counts as yes), or `approveDestructive` for a destructive tool. For hosts whose framework
   * runs its own approval flow, which then pass its outcome as `execute(..., { approved })`.
   * `args` as `execute` takes them (an object or JSON text). `false` for an unknown tool and
   * for arguments that are no object: `execute` refuses those before approval.
   */
  async needsApproval(name: string, args: unknown, ctx: ToolContext = {}): Promise<boolean> {
    const tool = this.#entries.get(name)?.tool;
    const accepted = acceptArguments(args);
    if (tool === undefined || !accepted.ok) return false;
    try {
      const deadline: unknown = deadlineOf(ctx, tool.timeout, this.#timeout);
      const needed = await this.#needsApproval(tool, accepted.args, ctx, { timeout: isTimeout(deadline) ? deadline : false, signal: ctx.signal });
      return needed !== false;
    } catch {
      // A ctx that cannot be read: execute would not run the call either; asking fails closed.
      return true;
    }
  }

  get size(): number {
    return this.#entries.size;
  }

  /**
   * Runs one call. `args` is an object or a JSON string of one. Never rejects: unknown tools,
   * bad arguments, throws, timeouts and aborts are all `ToolResult`s with `isError: true`.
   *
   * `options.approved` is for hosts whose own framework asked a person about this very call
   * (the AI SDK's and the Agents SDK's tool approvals): `true` runs it without the approval
   * step, `false` answers `denied` without running it, and any other value refuses it (see
   * `ExecuteOptions`). Visibility, authorization and the other seams apply as always.
   */
  execute(name: string, args: unknown, ctx?: ToolContext, options?: ExecuteOptions): Promise<ToolResult> {
    const host = readHostApproval(options);
    const mode: ApprovalMode = typeof host === "function" ? { answered: host } : host;
    // A name that is no string names no tool (it is looked at only with typeof: it may be a Proxy that throws).
    return this.#run(typeof name === "string" ? name : "", args, ctx, undefined, mode, name);
  }

  /**
   * One call, traced when tracing is on, with its failure reported when the toolkit observes
   * failures. `sentName` is the name as the caller sent it (any value from `execute`).
   */
  readonly #run = (
    name: string,
    args: unknown,
    ctx: ToolContext | undefined,
    decode: ((args: Record<string, unknown>) => unknown) | undefined,
    mode: ApprovalMode,
    sentName: unknown,
  ): Promise<ToolResult> => {
    // While no tracer provider is registered, a call builds nothing for tracing.
    const tracer = this.#options.tracing === false || !tracerProviderRegistered() ? undefined : this.#callTracer();
    if (tracer === undefined) return this.#reported(name, ctx, this.#dispatchOrFail(name, args, ctx, decode, mode, sentName));
    // Reported inside the span: the span ends with the text the model is told (the errorText policy applied).
    return tracer({ tool: name, callId: callIdOf(ctx), args }, () => this.#reported(name, ctx, this.#dispatchOrFail(name, args, ctx, decode, mode, sentName)));
  };

  /** `pending`'s result, a failure told to `onError` and worded by `errorText` when the toolkit asks for either. */
  #reported(name: string, ctx: ToolContext | undefined, pending: Promise<ToolResult>): Promise<ToolResult> {
    const report = this.#report;
    return report === undefined ? pending : pending.then((result) => (result.isError && !isDeferred(result) ? report(name, result, ctx) : result));
  }

  /** `#dispatch`, whose synchronous throw (a ctx or a decoder that throws when read) is the call's result, never the caller's exception. */
  #dispatchOrFail(
    name: string,
    args: unknown,
    ctx: ToolContext | undefined,
    decode: ((args: Record<string, unknown>) => unknown) | undefined,
    mode: ApprovalMode,
    sentName: unknown,
  ): Promise<ToolResult> {
    try {
      return this.#dispatch(name, args, ctx, decode, mode, sentName);
    } catch (thrown) {
      return Promise.resolve(internalFailure(name, thrown));
    }
  }

  #callTracer(): CallTracer | undefined {
    if (this.#tracer === null) this.#tracer = callTracer(this.#options.tracing, undefined, { thrownText: (this.#options.errorText ?? "message") === "message" });
    return this.#tracer;
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
    decode: ((args: Record<string, unknown>) => unknown) | undefined,
    mode: ApprovalMode,
    sentName: unknown,
  ): Promise<ToolResult> {
    const entry = this.#entries.get(name);
    const controlled = entry !== undefined && (entry.controlled || this.#controlsCalls);
    const visibility = controlled ? this.#visibility(entry.tool, ctx) : true;
    // Answered with the name as sent: the name a provider's name was mapped to would tell that the tool exists.
    if (entry === undefined || visibility !== true) return Promise.resolve(this.#unknownTool(sentName, ctx, visibility));
    const accepted = acceptArguments(args);
    if (!accepted.ok) return Promise.resolve(invalidArguments(name, [accepted.problem]));
    let values = accepted.args;
    if (decode !== undefined) {
      const decoded = decode(values);
      if (isObject(decoded)) values = decoded;
    }
    // A denial made at resume always goes through the seams: the body must not run, whatever this toolkit's tool declares.
    if (!controlled && typeof mode !== "object") return entry.run(values, ctx, this.#timeout);
    return this.#controlled(entry, values, ctx ?? {}, mode).catch((thrown: unknown) => internalFailure(name, thrown));
  }

  /**
   * The seams of a call, in order, each waited for at most the call's deadline (`approve` its
   * `approvalTimeout`), counted from when it starts; the body keeps its own deadline.
   */
  async #controlled(entry: Entry, args: Record<string, unknown>, ctx: ToolContext, mode: ApprovalMode): Promise<ToolResult> {
    const { tool } = entry;
    const deadline: unknown = deadlineOf(ctx, tool.timeout, this.#timeout);
    // Refused before any seam runs (nobody is asked to approve a call its body would refuse).
    if (!isTimeout(deadline)) return invalidTimeoutResult(tool.name, deadline);
    const limits: SeamLimits = { timeout: deadline, signal: ctx.signal };
    const refused = await this.#authorization(tool, args, ctx, limits);
    if (refused !== undefined) return refused;
    if (typeof mode === "object") return mode.answered(tool.name);
    if (mode !== "approved") {
      const needed = await this.#needsApproval(tool, args, ctx, limits);
      if (typeof needed === "object") return needed;
      if (needed) {
        const approve = this.#options.approve;
        if (approve === undefined) return mode === "defer" ? deferred(tool.name, args) : notApprovedResult(tool.name);
        const request: ApprovalRequest = { tool: tool.name, args, ...(ctx.callId !== undefined ? { callId: ctx.callId } : {}), ctx };
        const answer = await runSeam(() => approve(request), { timeout: this.#approvalTimeout ?? deadline, signal: ctx.signal });
        const unapproved = approvalRefusal(tool.name, answer);
        if (unapproved !== undefined) return unapproved;
      }
    }
    const local = this.#local(entry);
    const executor = this.#executor;
    const core = executor === undefined ? local : (call: ToolCall) => this.#elsewhere(executor, entry, call, local);
    const call: ToolCall = { tool, args, ctx };
    return this.#middleware.length === 0 ? core(call) : runThrough(this.#middleware, call, core, limits);
  }

  /** What runs a call in this process once the seams let it through: its retries, validation and body. */
  #local(entry: Entry): (call: ToolCall) => Promise<ToolResult> {
    const { retry, tool } = entry;
    return retry === undefined
      ? (call) => entry.run(call.args, call.ctx, this.#timeout)
      : (call) => withRetries(retry, deadlineOf(call.ctx, tool.timeout, this.#timeout), call.ctx, (attemptCtx) => entry.run(call.args, attemptCtx, this.#timeout));
  }

  /**
   * A call handed to the toolkit's executor, once its arguments passed the tool's check here
   * (a refused call never leaves this process; the executor gets the arguments as checked);
   * whatever the executor throws or returns instead of a result is an `execution_failed` result
   * worded with an `errorId` (what it threw goes to `onError`, not to the model).
   */
  async #elsewhere(executor: ToolExecutor, entry: Entry, call: ToolCall, local: (call: ToolCall) => Promise<ToolResult>): Promise<ToolResult> {
    const { tool, ctx } = call;
    const started = Date.now();
    const timeout = deadlineOf(ctx, tool.timeout, this.#timeout);
    let args = call.args;
    if (entry.check !== undefined) {
      const verdict = await checkedWithinLimits(tool.name, entry.check, args, ctx, timeout);
      if (!verdict.ok) return verdict.result;
      args = verdict.args;
    }
    // What the check took is gone from the call's time.
    const left = timeout === false ? false : Math.max(1, timeout - (Date.now() - started));
    return runOnExecutor(executor, { tool, args, ctx, timeout: left, runHere: () => local(call) }, timeout);
  }

  /**
   * A call an executor's worker took off a queue: the seams ran where the call arrived, so only
   * its retries and body run here (through this toolkit's tool of that name, whose run checks
   * the arguments again as it makes the body's values).
   */
  #runHere(name: string, args: Record<string, unknown>, ctx: ToolContext): Promise<ToolResult> {
    const entry = this.#entries.get(name);
    if (entry === undefined) {
      const text = `Tool "${name}" could not run: the worker's toolkit has no tool of that name. Register the same tools in the workers as in the toolkit the calls arrive at.`;
      return Promise.resolve(errorResult("execution_failed", text, { tool: name }));
    }
    return this.#local(entry)({ tool: entry.tool, args, ctx }).catch((thrown: unknown) => internalFailure(name, thrown));
  }

  /**
   * A `forbidden` result when the tool's or the toolkit's `authorize` refuses (or fails), the
   * result ending the call when one does not answer within `limits`, else `undefined`.
   */
  async #authorization(tool: Tool, args: Record<string, unknown>, ctx: ToolContext, limits: SeamLimits): Promise<ToolResult | undefined> {
    const own = tool.authorize;
    const shared = this.#options.authorize;
    if (own !== undefined) {
      const refused = authorizationRefusal(tool.name, await runSeam(() => own(ctx, args), limits));
      if (refused !== undefined) return refused;
    }
    return shared === undefined ? undefined : authorizationRefusal(tool.name, await runSeam(() => shared(ctx, args, tool), limits));
  }

  /**
   * Whether this call needs approval: the tool says so (a function that throws counts as yes),
   * or it is destructive and the toolkit asks for those; or the result ending the call when the
   * tool's function does not answer within `limits`.
   */
  async #needsApproval(tool: Tool, args: Record<string, unknown>, ctx: ToolContext, limits: SeamLimits): Promise<boolean | ToolResult> {
    if (this.#options.approveDestructive === true && tool.annotations?.destructive === true) return true;
    const needs = tool.needsApproval;
    // Anything set but `false` asks (fails closed).
    if (typeof needs !== "function") return needs !== undefined && needs !== false;
    const answer = await runSeam(() => needs(args, ctx), limits);
    if ("late" in answer) return seamTimedOut(tool.name, "its check of whether the call needs approval", answer.late);
    if ("aborted" in answer) return abortedResult(tool.name, answer.aborted);
    return !("answered" in answer) || answer.answered !== false;
  }

  /** Whether `tool` exists for `ctx` (no ctx: an empty one). A visibility check that throws hides the tool. */
  #isVisible(tool: Tool, ctx: ToolContext | undefined): boolean {
    return this.#visibility(tool, ctx) === true;
  }

  /** What the tool's own `visible` and the toolkit's say for `ctx`: shown, hidden, or hidden by a check that failed. */
  #visibility(tool: Tool, ctx: ToolContext | undefined): Visibility {
    const shared = this.#options.visible;
    if (tool.visible === undefined && shared === undefined) return true;
    const seen = ctx ?? {};
    const own = visibilityOf(tool, seen);
    return own !== true || shared === undefined ? own : visibilityBy(() => shared(tool, seen));
  }

  /** The manifest, resolved once, when the first decorated instance needs it. */
  #resolvedManifest(): ManifestSource | undefined {
    this.#manifest ??= { index: resolveManifest(this.#manifestOption) };
    return this.#manifest.index;
  }

  /** `hidden`: why the tool of that name does not exist for `ctx`; a visibility check that failed is kept for `onError`, out of the result's text. */
  #unknownTool(name: unknown, ctx: ToolContext | undefined, hidden: Visibility = false): ToolResult {
    // Only the names this ctx may see: a hidden tool's name never leaks through suggestions.
    const names = this.tools(ctx ?? {}).map((tool) => tool.name);
    // No provider accepts names over 128 characters: a longer one gets no suggestions, and is cut.
    const full = typeof name === "string" ? name : "";
    const shown = full.length > 128 ? `${full.slice(0, 128)}...` : full;
    const close = full === "" || full.length > 128 ? [] : closestNames(full, names);
    const parts = [typeof name === "string" ? `Unknown tool "${shown}".` : noUsableName(name)];
    if (close.length > 0) parts.push(`Did you mean ${close.map((n) => `"${n}"`).join(" or ")}?`);
    if (names.length === 0) parts.push("This toolkit has no tools.");
    else if (names.length <= MAX_LISTED_TOOLS) parts.push(`Available tools: ${names.join(", ")}.`);
    else {
      const first = [...close, ...names.filter((n) => !close.includes(n)).slice(0, MAX_LISTED_TOOLS - close.length)];
      parts.push(`Available tools (${names.length}): ${first.join(", ")} and ${names.length - first.length} more.`);
    }
    const result = errorResult("unknown_tool", parts.join(" "), { tool: shown, suggestions: close });
    return typeof hidden === "object" ? carryingThrown(result, hidden.failed) : result;
  }

  // ---- Declarations (each provider's dialect applied; see describeExport for what changed) ----
  // Each export is remembered per provider: the run methods read the model's calls with it.

  toGemini(options: GeminiExportOptions & { jsonSchema: true }): GeminiJsonSchemaTools;
  toGemini(options?: GeminiExportOptions): GeminiTools;
  toGemini(options: GeminiExportOptions = {}): GeminiTools | GeminiJsonSchemaTools {
    return this.#export(gemini, options).declarations;
  }
  toOpenAI(options: OpenAIExportOptions = {}): OpenAIFunctionTool[] {
    return this.#export(openai, options).declarations;
  }
  toOpenAIResponses(options: OpenAIExportOptions = {}): OpenAIResponsesFunctionTool[] {
    return this.#export(openaiResponses, options).declarations;
  }
  toAnthropic(options: ExportOptions = {}): AnthropicTool[] {
    return this.#export(anthropic, options).declarations;
  }
  toMcp(options: ExportOptions = {}): McpTool[] {
    return this.#export(mcp, options).declarations;
  }
  toBedrock(options: ExportOptions = {}): BedrockToolConfig {
    return this.#export(bedrock, options).declarations;
  }
  /** The declarations for `format` and every change its dialect made to the schemas. */
  describeExport(format: ExportFormat, options: AnyExportOptions = {}): ExportReport<unknown> {
    const { declarations, changes } = this.#export(adapterFor(format), options);
    return { declarations, changes };
  }

  /**
   * The declarations of the tools visible to `options.ctx` (an empty ctx when left out). The
   * options are remembered for reading calls; the binding is made from every tool, so that a
   * call is answered by the toolkit's own checks (a hidden tool: unknown), never by a missing name.
   */
  #export<D, O extends ExportOptions>(adapter: ProviderAdapter<D, O>, options: O): Export<D> {
    const { ctx, ...kept } = options;
    const made = exportTools(adapter, this.tools(ctx ?? {}), options);
    this.#exports.set(adapter.id, this.#hides ? { options: kept } : { options: kept, made });
    return made;
  }

  /** The binding of the latest export for `adapter`, or of the default one; never throws. */
  #binding(adapter: ProviderAdapter): ExportBinding {
    const latest = this.#exports.get(adapter.id) ?? { options: {} };
    if (latest.made === undefined) {
      try {
        latest.made = exportTools(adapter, this.tools(), latest.options);
      } catch {
        // Names the provider rejects, or a schema it cannot take: calls still run by tool name.
        latest.made = { binding: defaultBinding(adapter, this.tools()) };
      }
      this.#exports.set(adapter.id, latest);
    }
    return latest.made.binding;
  }

  // ---- Round trips: every call in a model response, run concurrently, answered in order ----
  // Never reject, whatever they are handed. Gemini, Anthropic and Bedrock answer with one
  // turn, or `undefined` when the response held no calls (nothing to append). The input type
  // is a type parameter so that a response written by hand, with fields toolnexus does not
  // read, type-checks as it is.

  runGemini<Input extends GeminiCallsInput>(input: Input, ctx?: ToolContext): Promise<WithPendingApprovals<GeminiToolResponseContent | undefined, "gemini">> {
    return this.#answer(gemini, input, ctx);
  }
  runOpenAI<Input extends OpenAICallsInput>(input: Input, ctx?: ToolContext): Promise<WithPendingApprovals<OpenAIReplyMessage[], "openai">> {
    return this.#answer(openai, input, ctx);
  }
  runOpenAIResponses<Input extends OpenAIResponsesCallsInput>(input: Input, ctx?: ToolContext): Promise<WithPendingApprovals<OpenAIFunctionCallOutput[], "openai-responses">> {
    return this.#answer(openaiResponses, input, ctx);
  }
  runAnthropic<Input extends AnthropicCallsInput>(input: Input, ctx?: ToolContext): Promise<WithPendingApprovals<AnthropicToolResultMessage | undefined, "anthropic">> {
    return this.#answer(anthropic, input, ctx);
  }
  runBedrock<Input extends BedrockCallsInput>(input: Input, ctx?: ToolContext): Promise<WithPendingApprovals<BedrockToolResultMessage | undefined, "bedrock">> {
    return this.#answer(bedrock, input, ctx);
  }

  /**
   * Finishes a turn whose calls waited for approval: `decisions` (by each approval's `id`:
   * `true`, `false`, or `{ approved, reason }`) run the approved calls and answer the others
   * `denied`; the reply then holds every call of the turn, as the run* method would have given
   * it. Calls without a decision stay pending (`pendingApprovals` again). A resume runs each
   * waiting call at most once, however many times the stored approvals list it; each resume runs
   * the approved calls again: take the stored value out of its store before resuming it. Rejects
   * (`TypeError`, saying what is wrong) only when `pending` is not a value a run* method
   * returned; the calls never reject.
   */
  resumeApprovals<P extends keyof ProviderReplies>(
    pending: PendingApprovals<P>,
    decisions: Record<string, ApprovalDecision>,
    ctx?: ToolContext,
  ): Promise<WithPendingApprovals<ProviderReplies[P], P>>;
  /** `pending` read back without its provider's type (e.g. `JSON.parse(text) as PendingApprovals`): the reply of whichever provider it names. */
  resumeApprovals(pending: PendingApprovals, decisions: Record<string, ApprovalDecision>, ctx?: ToolContext): Promise<WithPendingApprovals<ProviderReplies[keyof ProviderReplies]>>;
  async resumeApprovals(pending: PendingApprovals, decisions: Record<string, ApprovalDecision>, ctx?: ToolContext): Promise<unknown> {
    const problem = pendingApprovalsProblem(pending);
    if (problem !== undefined) throw new TypeError(`resumeApprovals takes the pendingApprovals object a run* method returned (stored as JSON and read back), but ${problem}.`);
    const adapter = REPLYING_ADAPTERS[pending.provider as keyof ProviderReplies] as ProviderAdapter | undefined;
    if (adapter === undefined) throw new TypeError(`resumeApprovals: "${pending.provider}" is not a provider toolnexus answers (${Object.keys(REPLYING_ADAPTERS).join(", ")}).`);
    const { calls } = pending;
    const results = [...pending.results];
    const ids = approvalIds(calls);
    const waiting: PendingApproval[] = [];
    // Each waiting call is taken by the first approval that matches it, before any call runs: listed again, it neither runs nor waits twice.
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
      return errorResult("denied", `The stored approval ${approval.id} names tool "${approval.tool}", but the call was to "${call.name}"; it did not run.`, { tool: call.name });
    }
    let callCtx: ToolContext;
    try {
      callCtx = { ...ctx, ...(call.id !== undefined ? { callId: call.id } : {}), provider: adapter.id };
    } catch (thrown) {
      return internalFailure(approval.tool, thrown);
    }
    // The call as the model sent it, read back the way this toolkit reads the tool's calls.
    // A denial goes the way of every call (visibility, authorization, tracing, onError); only the body does not run.
    const decode = this.#decoderFor(adapter, approval.tool);
    const mode: ApprovalMode = decision.approved ? "approved" : { answered: (tool) => deniedResult(tool, decision.reason) };
    return this.#run(approval.tool, call.arguments, callCtx, decode, mode, call.name);
  }

  /** How calls of `toolName` are read back for `adapter` (the way back of its export), if they need it. */
  #decoderFor(adapter: ProviderAdapter, toolName: string): ((args: Record<string, unknown>) => unknown) | undefined {
    for (const bound of this.#binding(adapter).values()) {
      if (bound.tool !== toolName) continue;
      const codec = codecOf(bound);
      return codec === undefined ? undefined : (args) => decodeWith(codec, args);
    }
    return undefined;
  }

  async #answer<T>(adapter: ProviderAdapter, input: unknown, ctx: ToolContext | undefined): Promise<T> {
    const generic = adapter as ProviderAdapter<unknown, ExportOptions>;
    const run: CallRunner = (name, args, callCtx, decode, sentName) => this.#run(name, args, callCtx, decode, "defer", sentName ?? name);
    const { calls, results } = await runCalls(generic, this.#binding(generic), run, input, ctx);
    const ids = approvalIds(calls);
    const waiting = calls.flatMap((call, index): PendingApproval[] => {
      const result = results[index]!;
      if (!isDeferred(result)) return [];
      const { tool, args } = result[DEFERRED];
      return [{ id: ids[index]!, index, tool, args, ...(call.id !== undefined ? { callId: call.id } : {}) }];
    });
    const plain = results.map((result) => (isDeferred(result) ? null : result));
    return this.#reply(generic, calls, plain, waiting) as T;
  }

  /** The reply for every call of a turn, or, while some wait for approval, the others' with `pendingApprovals` (plain JSON) attached. */
  #reply(adapter: ProviderAdapter<unknown, ExportOptions>, calls: readonly ParsedCall[], sent: ReadonlyArray<ToolResult | null>, waiting: PendingApproval[]): unknown {
    // Each result as the provider can carry it (the latest export's options say, e.g. Gemini's text-only results).
    const options = this.#exports.get(adapter.id)?.options ?? {};
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
      calls: calls.map((call) => ({ ...(call.id !== undefined ? { id: call.id } : {}), name: call.name, arguments: call.arguments })),
      results: results.map((result) => (result === null ? null : plainResult(result))),
    });
    return Object.assign(partial ?? adapter.emptyReply?.() ?? {}, { pendingApprovals });
  }
}
/**
 * For executors' workers only (not part of the public API): runs a call that already passed the
 * seams of the toolkit it arrived at, with `toolkit`'s tool of that name: retries and the body
 * (which checks the arguments again), never approval or middleware again. Never rejects.
 */
export function runCallHere(toolkit: Toolkit, name: string, args: Record<string, unknown>, ctx: ToolContext): Promise<ToolResult> {
  return runHereOf(toolkit, name, args, ctx);
}

/**
 * For executors' workers only: a failure as `toolkit`'s `onError` and `errorText` make it, for a
 * result a worker hands on itself (the toolkit a call arrived at does this for the others).
 */
export function reportedHere(toolkit: Toolkit, name: string, result: ToolResult, ctx: ToolContext): ToolResult {
  return reportedOf(toolkit, name, result, ctx);
}

export function isTool(value: unknown): value is Tool {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as Tool).name === "string" &&
    typeof (value as Tool).execute === "function" &&
    typeof (value as Tool).inputSchema === "object"
  );
}

function toolsOf(item: ToolSource, scan: (instance: object) => Tool[]): Tool[] {
  if (Array.isArray(item)) return item.flatMap((inner) => toolsOf(inner, scan));
  if (isTool(item)) return [item];
  if (typeof item === "object" && item !== null) return scan(item);
  if (typeof item === "function") throw new ToolDefinitionError(`A toolkit takes Tools and decorated instances; ${functionInsteadOfInstance(item)}.`);
  throw new ToolDefinitionError(`A toolkit takes Tools and decorated instances; got ${item === null ? "null" : typeof item}.`);
}

/** What was passed instead of the array, and the array to pass. */
function notAnArray(items: unknown): string {
  if (typeof items === "function") {
    const name = items.name || "X";
    return toolMethodsOf((items as { prototype?: unknown }).prototype).length > 0
      ? `got the class ${name} itself: pass new Toolkit([new ${name}()])`
      : `${functionInsteadOfInstance(items)}, in an array`;
  }
  if (typeof items === "object" && items !== null) return "got a single object: put it in an array, new Toolkit([it])";
  return `got ${items === null ? "null" : typeof items}`;
}

/** The step that tells `onError` and applies `errorText`, or `undefined` when neither is asked for. */
function failureReporter({ onError, errorText = "message" }: ToolkitOptions): ((name: string, result: ToolResult, ctx: ToolContext | undefined) => ToolResult) | undefined {
  if (onError !== undefined && typeof onError !== "function") throw new ToolDefinitionError(`Toolkit: onError must be a function (failure) => void (got ${typeof onError}).`);
  if (errorText !== "message" && errorText !== "errorId" && typeof errorText !== "function") {
    throw new ToolDefinitionError(`Toolkit: errorText must be "message", "errorId" or a function (failure) => string (got ${JSON.stringify(errorText)}).`);
  }
  if (onError === undefined && errorText === "message") return undefined;
  return (name, made, ctx) => {
    const thrown = thrownBy(made);
    // A failure toolnexus worded from a throw may carry its id already (its text names it): the same id for onError.
    const carried = thrown === undefined ? undefined : made.metadata?.errorId;
    const errorId = typeof carried === "string" ? carried : crypto.randomUUID();
    const result: ToolResult = { ...made, metadata: { ...made.metadata, errorId } };
    const failure: ToolFailure = {
      tool: name,
      kind: (made.metadata?.error as ToolErrorKind | undefined) ?? "execution_failed",
      ...(thrown !== undefined ? { error: thrown.thrown } : {}),
      errorId,
      result,
      ...originOf(ctx),
      ctx: ctx ?? {},
    };
    // An unknown tool's text tells nothing of a hidden tool, which a failed visibility check hid: it stays as it is.
    if (thrown !== undefined && errorText !== "message" && failure.kind !== "unknown_tool") result.output = cutText(textFor(errorText, failure), MAX_ERROR_TEXT);
    if (onError !== undefined) {
      try {
        const told = onError(failure);
        if (isThenable(told)) told.then(undefined, (error: unknown) => warnOnError(error));
      } catch (error) {
        warnOnError(error);
      }
    }
    return result;
  };
}

function textFor(policy: "errorId" | ((failure: ToolFailure) => string), failure: ToolFailure): string {
  const fixed = `Tool "${failure.tool}" failed with an internal error (error id ${failure.errorId}). Try another approach, or tell the user the tool is failing.`;
  if (policy === "errorId") return fixed;
  try {
    const text = policy(failure);
    return typeof text === "string" ? text : fixed;
  } catch (error) {
    warnOnError(error, "errorText");
    return fixed;
  }
}

/** A failing observer must not fail the call, and must not fail silently either. */
function warnOnError(error: unknown, option = "onError"): void {
  process.emitWarning(`toolnexus: the toolkit's ${option} function threw: ${errorMessage(error)}`, { code: "TOOLNEXUS_OBSERVER_FAILED" });
}

/** `ctx.callId`, for a span: a ctx that cannot be read has none. */
function callIdOf(ctx: ToolContext | undefined): string | undefined {
  return originOf(ctx).callId;
}

/** The call id and provider a ctx names, for a failure's report; a ctx that throws when read names neither. */
function originOf(ctx: ToolContext | undefined): { callId?: string; provider?: string } {
  try {
    const { callId, provider } = ctx ?? {};
    return { ...(callId !== undefined ? { callId } : {}), ...(provider !== undefined ? { provider } : {}) };
  } catch {
    return {};
  }
}

/** A call that failed inside the toolkit, not in a tool or a seam (a ctx that throws when read): worded without what was thrown. */
function internalFailure(tool: string, thrown: unknown): ToolResult {
  return seamFailure(
    "execution_failed",
    tool,
    thrown,
    (errorId) => `Tool "${tool}" could not run: the call failed inside the toolkit (error id ${errorId}). Tell the user the tool is failing.`,
  );
}

/** A Tool written by hand: still held to the contract (limits, never rejects, a ToolResult). */
function foreignRunner(tool: Tool): RunAccepted {
  const body = (args: Record<string, unknown>, ctx: ToolContext) => tool.execute(args, ctx);
  return guarded(tool.name, (args, ctx, fallbackTimeout) => invokeWithLimits(tool.name, body, args, ctx, tool.timeout ?? fallbackTimeout));
}

/** Whether a tool declares anything beyond validation and its body. */
function isControlled(tool: Tool): boolean {
  return tool.visible !== undefined || tool.needsApproval !== undefined || tool.authorize !== undefined;
}

function checkControlOptions(options: ToolkitOptions): void {
  for (const key of ["approve", "visible", "authorize"] as const) {
    const value = options[key];
    if (value !== undefined && typeof value !== "function") throw new ToolDefinitionError(`Toolkit: ${key} must be a function (got ${typeof value}).`);
  }
  if (options.approveDestructive !== undefined && typeof options.approveDestructive !== "boolean") {
    throw new ToolDefinitionError(`Toolkit: approveDestructive must be true or false (got ${typeof options.approveDestructive}).`);
  }
}

/** The stand-in result of a call handed back for approval. */
function deferred(tool: string, args: Record<string, unknown>): DeferredResult {
  const result = { output: "", isError: false } as DeferredResult;
  Object.defineProperty(result, DEFERRED, { value: { tool, args } });
  return result;
}

function isDeferred(result: ToolResult): result is DeferredResult {
  return Object.prototype.hasOwnProperty.call(result, DEFERRED);
}

/**
 * What decisions are keyed by, one per call of a turn, all different: the call's id, or
 * `call-<n>` (its place in the turn) when the provider gave none or gave one id twice.
 */
function approvalIds(calls: ReadonlyArray<{ id?: string }>): string[] {
  const seen = new Map<string, number>();
  for (const { id } of calls) if (id !== undefined) seen.set(id, (seen.get(id) ?? 0) + 1);
  const ids = calls.map(({ id }, index) => (id !== undefined && seen.get(id) === 1 ? id : `call-${index}`));
  // A provider's own id may read `call-<n>` too: such a clash falls back to the place with a mark.
  return ids.map((id, index) => (ids.indexOf(id) === ids.lastIndexOf(id) ? id : `call-${index}#${index}`));
}

/** `value` as JSON would give it back: what cannot be JSON (a BigInt, a function, a cycle) is made JSON now, not when the caller stores it. */
function asJson<T>(value: T): T {
  return JSON.parse(safeJsonStringify(value) ?? "null") as T;
}

/** A result as JSON keeps it (what a tool threw stays in this process). */
function plainResult(result: ToolResult): ToolResult {
  const { output, isError, metadata, content, structuredContent } = result;
  return {
    output,
    isError,
    ...(metadata !== undefined ? { metadata } : {}),
    ...(content !== undefined ? { content } : {}),
    ...(structuredContent !== undefined ? { structuredContent } : {}),
  };
}

/** The reply each provider's run* method gives, by provider id: what resuming its approvals gives. */
export interface ProviderReplies {
  gemini: GeminiToolResponseContent | undefined;
  openai: OpenAIReplyMessage[];
  "openai-responses": OpenAIFunctionCallOutput[];
  anthropic: AnthropicToolResultMessage | undefined;
  bedrock: BedrockToolResultMessage | undefined;
}

const REPLYING_ADAPTERS: { [P in keyof ProviderReplies]: ProviderAdapter<unknown, never, ProviderReplies[P]> } = {
  gemini,
  openai,
  "openai-responses": openaiResponses,
  anthropic,
  bedrock,
};
