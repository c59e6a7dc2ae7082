import { adapterStepFailure } from "../control/seam-failure";
import { jsonSchema, type JSONSchema7, type ModelMessage, type Tool as AiTool } from "ai";
import { mayNeedApproval } from "../control/approval";
import { ToolDefinitionError } from "../core/errors";
import { checkedHostState } from "../runtime/host-state";
import type { Toolkit } from "../toolkit";
import { isObject, type Tool, type ToolContext, type ToolResult } from "../core/types";
import { aiSdkCallOf, type AiSdkCall } from "./ai-sdk-call";
import { modelOutputOf } from "./model-output";

/** One toolkit tool as an AI SDK tool: the model's arguments in, the toolkit's `ToolResult` out. */
export type AiSdkTool = AiTool<Record<string, unknown>, ToolResult>;

/**
 * The tool set `toAiSdkTools` gives, keyed by tool name: pass it as `tools` to `generateText`, `streamText` or an
 * `Agent`.
 */
export type AiSdkToolSet = Record<string, AiSdkTool>;

export interface AiSdkToolsOptions {
  /**
   * The ctx every call starts from: `state`, `timeout`, `provider` (default `"ai-sdk"`). Its
   * `signal`, if any, aborts calls beside the AI SDK's `abortSignal`; `callId` is always the
   * AI SDK's `toolCallId`.
   */
  ctx?: ToolContext;
  /**
   * Host data for `ctx.state` (over `ctx.state`): an object, or a function of each call's AI SDK
   * options (`context`, `messages`, `toolCallId`). Left out, the call's context is the state when
   * it is an object: AI SDK 7's tool `context` (the tool's entry in `toolsContext`), AI SDK 6's
   * `experimental_context`. Which tools are given is decided with `ctx` and an object `state`: a
   * function's state is only known per call.
   */
  state?: Record<string, unknown> | ((call: AiSdkCall) => Record<string, unknown> | undefined);
  /** Only these tools (by name); every name must be a tool of the toolkit. */
  include?: readonly string[];
  /** Not these tools (by name). */
  exclude?: readonly string[];
  /**
   * Send results with images, audio or files as the AI SDK's content parts (default `true`).
   * `false` sends their text form instead, for models whose AI SDK provider sends tool results
   * as text only (it would write the parts' base64 into the text).
   */
  multimodalResults?: boolean;
}

const APPROVED = { approved: true } as const;

/**
 * The toolkit's tools visible to `options.ctx`, as an AI SDK tool set. Each call runs through
 * `toolkit.execute`: the toolkit validates the arguments (the AI SDK is given the JSON Schema
 * without a validator, so it checks nothing itself), and every failure is a result the model
 * reads, never a throw. A tool with `needsApproval` uses the AI SDK's approval flow; a call a
 * person approved there runs without the toolkit asking again.
 */
export function toAiSdkTools(toolkit: Toolkit, options: AiSdkToolsOptions = {}): AiSdkToolSet {
  checkOptions(toolkit, options);
  const contextOf = callContext(options);
  const multimodal = options.multimodalResults !== false;
  const set: AiSdkToolSet = {};
  for (const tool of chosenTools(toolkit, options)) set[tool.name] = aiSdkTool(toolkit, tool, contextOf, multimodal);
  return set;
}

/** The ctx of one call, from the options and what the AI SDK says about the call. */
type CallContext = (call: AiSdkCall, abortSignal?: AbortSignal) => ToolContext;

function aiSdkTool(toolkit: Toolkit, tool: Tool, contextOf: CallContext, multimodal: boolean): AiSdkTool {
  const { name } = tool;
  const asksAi = mayNeedApproval(tool);
  return {
    description: tool.description,
    ...(tool.annotations?.title !== undefined ? { title: tool.annotations.title } : {}),
    // No validator: the toolkit validates each call (with its own messages), once.
    inputSchema: jsonSchema<Record<string, unknown>>(tool.inputSchema as JSONSchema7),
    // The AI SDK asks a person whenever the toolkit would ask (`needsApproval`, or `approveDestructive`).
    // AI SDK 7 deprecates the tool's `needsApproval` for the call's `toolApproval`, and still asks it
    // for every tool the call's `toolApproval` leaves out: one field serves both majors.
    ...(asksAi
      ? { needsApproval: (input, options) => askedFor(toolkit, name, input, () => contextOf(aiSdkCallOf(options))) }
      : {}),
    execute: (input, options) => {
      const call = aiSdkCallOf(options);
      let ctx: ToolContext;
      try {
        ctx = contextOf(call, options.abortSignal);
      } catch (thrown) {
        return Promise.resolve(adapterStepFailure(name, "the state function of toAiSdkTools", thrown));
      }
      // The AI SDK runs a call that needs approval only once a person approved it in its flow.
      return asksAi && approvedInMessages(call.toolCallId, call.messages)
        ? toolkit.execute(name, input, ctx, APPROVED)
        : toolkit.execute(name, input, ctx);
    },
    toModelOutput: ({ output }) => modelOutputOf(output, multimodal),
  };
}

/** Whether the toolkit would ask for approval of this call; a ctx that cannot be made asks (fails closed). */
async function askedFor(toolkit: Toolkit, name: string, input: unknown, ctxOf: () => ToolContext): Promise<boolean> {
  try {
    return await toolkit.needsApproval(name, input, ctxOf());
  } catch {
    return true;
  }
}

/**
 * Whether a person approved this call in the AI SDK's flow: an approval request for it in an
 * assistant message, answered `approved` in the last message (a tool message), which is where
 * the AI SDK reads approval responses from.
 */
function approvedInMessages(toolCallId: string, messages: readonly ModelMessage[]): boolean {
  const last = messages[messages.length - 1];
  if (last?.role !== "tool") return false;
  const requests = new Set<string>();
  for (const message of messages) {
    if (message.role !== "assistant" || typeof message.content === "string") continue;
    for (const part of message.content)
      if (part.type === "tool-approval-request" && part.toolCallId === toolCallId) requests.add(part.approvalId);
  }
  if (requests.size === 0) return false;
  const response = last.content.find((part) => part.type === "tool-approval-response" && requests.has(part.approvalId));
  return response?.type === "tool-approval-response" && response.approved === true;
}

function callContext({ ctx = {}, state }: AiSdkToolsOptions): CallContext {
  const base: ToolContext = { ...ctx, provider: ctx.provider ?? "ai-sdk" };
  const stateOf = stateSource(state);
  return (call, abortSignal) => {
    const extra = checkedHostState(stateOf(call), "state");
    const ctx: ToolContext = { ...base, callId: call.toolCallId };
    if (extra !== undefined) ctx.state = base.state === undefined ? extra : { ...base.state, ...extra };
    const signal = signalOf(base.signal, abortSignal);
    if (signal !== undefined) ctx.signal = signal;
    return ctx;
  };
}

/** Where a call's state comes from: the option (an object or a function), else the call's context when it is an object. */
function stateSource(state: AiSdkToolsOptions["state"]): (call: AiSdkCall) => unknown {
  if (typeof state === "function") return state;
  if (state !== undefined) return () => state;
  return (call) => (isObject(call.context) ? call.context : undefined);
}

/** The AI SDK's abort signal, joined with the ctx's own when both are given. */
function signalOf(own: AbortSignal | undefined, aiSdk: AbortSignal | undefined): AbortSignal | undefined {
  if (own === undefined || aiSdk === undefined) return aiSdk ?? own;
  return AbortSignal.any([own, aiSdk]);
}

/** The tools to give: those visible to the ctx with an object `state`, narrowed by `include` and `exclude`. */
function chosenTools(toolkit: Toolkit, { ctx = {}, state, include, exclude }: AiSdkToolsOptions): Tool[] {
  const seen: ToolContext = isObject(state) ? { ...ctx, state: { ...ctx.state, ...state } } : ctx;
  const included = include === undefined ? undefined : new Set(include);
  const excluded = new Set(exclude);
  return toolkit
    .tools(seen)
    .filter((tool) => (included === undefined || included.has(tool.name)) && !excluded.has(tool.name));
}

function checkOptions(toolkit: Toolkit, options: AiSdkToolsOptions): void {
  if (typeof toolkit?.execute !== "function" || typeof toolkit.tools !== "function")
    throw new ToolDefinitionError("toAiSdkTools takes a Toolkit (new Toolkit([...])).");
  const { state, include, exclude, multimodalResults } = options;
  if (state !== undefined && typeof state !== "function" && !isObject(state))
    throw new ToolDefinitionError("toAiSdkTools: state must be an object or a function (call) => object.");
  if (multimodalResults !== undefined && typeof multimodalResults !== "boolean")
    throw new ToolDefinitionError("toAiSdkTools: multimodalResults must be true or false.");
  for (const [option, names] of [
    ["include", include],
    ["exclude", exclude],
  ] as const) {
    if (names === undefined) continue;
    if (!Array.isArray(names) || names.some((name) => typeof name !== "string"))
      throw new ToolDefinitionError(`toAiSdkTools: ${option} must be a list of tool names.`);
    const unknown = names.filter((name) => !toolkit.has(name));
    // A misspelt name would silently give or keep a tool: say so at once.
    if (unknown.length > 0)
      throw new ToolDefinitionError(
        `toAiSdkTools: ${option} names no tool of this toolkit: ${unknown.map((name) => `"${name}"`).join(", ")}.`,
      );
  }
}
