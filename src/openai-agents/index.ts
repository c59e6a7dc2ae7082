/**
 * `toolnexus/openai-agents`: a toolkit's tools as function tools of the OpenAI Agents SDK
 * (`@openai/agents`, an optional peer dependency: install it to use this entry point). Each
 * call the SDK's runner makes runs through `toolkit.execute`, so every failure reaches the
 * model as the tool's output, never as an exception. The core entry never imports this file.
 */
import { adapterStepFailure } from "../control/seam-failure";
import { tool, type FunctionTool, type RunContext, type UnknownContext } from "@openai/agents";
import { mayNeedApproval } from "../control/approval";
import { ToolDefinitionError } from "../core/errors";
import { codecOf, exportTools, type ExportOptions } from "../providers/adapter";
import { decodeWith, type MaybeCodec } from "../providers/codec";
import {
  openaiResponses,
  type OpenAIResponsesFunctionTool,
  type OpenAIResponsesTool,
} from "../providers/openai-responses";
import { checkedHostState } from "../runtime/host-state";
import { errorMessage } from "../runtime/result";
import type { ExecuteOptions } from "../toolkit";
import { isObject, type Tool, type ToolContext, type ToolResult } from "../core/types";
import { agentsOutputOf, type AgentsToolOutput } from "./output";

export { agentsOutputOf, type AgentsToolOutput, type AgentsToolOutputPart } from "./output";

/** `ctx.provider` of every call the Agents SDK makes. */
export const AGENTS_PROVIDER = "openai-agents";

/** What the adapter needs from a toolkit (a `Toolkit`, or anything shaped like one). */
export interface AgentsToolkit {
  tools(ctx?: ToolContext): Tool[];
  execute(name: string, args: unknown, ctx?: ToolContext, options?: ExecuteOptions): Promise<ToolResult>;
  needsApproval(name: string, args: unknown, ctx?: ToolContext): Promise<boolean>;
}

export interface AgentsToolsOptions<TContext = UnknownContext> {
  /**
   * The tools' `ctx.state`: an object, or a function of the SDK's run context (called for each
   * call and each visibility check). Left out: the run's own context (`run(agent, input, {
   * context })`) when it is an object.
   */
  state?: Record<string, unknown> | ((runContext: RunContext<TContext>) => Record<string, unknown> | undefined);
  /**
   * `true` (the default): each tool the toolkit's OpenAI strict-mode lowering can express is
   * sent with `strict: true` and that schema (the one `toOpenAIResponses({ strict: true })`
   * declares: optional values nullable, a `null` answer read back as "not given"); the others,
   * and any the SDK refuses in strict mode, with `strict: false`. `false`: every tool with
   * `strict: false` and its schema as declared (in OpenAI's dialect).
   */
  strict?: boolean;
  /**
   * Who decides the calls that need approval (`needsApproval`): `"interrupt"` (the default)
   * hands them to the SDK's human-in-the-loop flow (`result.interruptions`, `state.approve`,
   * `state.reject`, resume with `run(agent, state)`); `"toolkit"` never interrupts and lets the
   * toolkit's own `approve` function decide in process (without one such calls are `denied`).
   */
  approvals?: "interrupt" | "toolkit";
}

/** A toolkit tool as the Agents SDK holds it. */
export type AgentsFunctionTool<TContext = UnknownContext> = FunctionTool<TContext, AgentsParameters, AgentsToolOutput>;

/** The parameters of an adapted tool: a JSON Schema object, in strict mode or not. */
export type AgentsParameters = StrictParameters | LooseParameters;
type StrictParameters = {
  type: "object";
  properties: Record<string, Record<string, unknown>>;
  required: string[];
  additionalProperties: false;
};
type LooseParameters = {
  type: "object";
  properties: Record<string, Record<string, unknown>>;
  required: string[];
  additionalProperties: true;
};

/**
 * The toolkit's tools (every tool registered so far) as the Agents SDK's function tools, for
 * `new Agent({ tools })`. Each call runs `toolkit.execute(name, args, ctx)` with `ctx.state`
 * from the run context (see `state`), `ctx.callId` the model's call id, `ctx.signal` the run's
 * abort signal, and `ctx.provider` "openai-agents"; its result is the tool's output, a failure
 * as `"Error: ..."` text the model reads and can act on. A tool hidden from a ctx (`visible`) is
 * disabled for that run. Throws `ToolDefinitionError` when two tools get one name in the SDK
 * (it writes every character other than a-z, A-Z and 0-9 as `_`).
 */
export function toAgentsTools<TContext = UnknownContext>(
  toolkit: AgentsToolkit,
  options: AgentsToolsOptions<TContext> = {},
): AgentsFunctionTool<TContext>[] {
  checkOptions(toolkit, options);
  const made = toolkit.tools().map((each) => adaptTool(toolkit, each, options));
  checkDistinctNames(made);
  return made.map((each) => each.adapted);
}

interface Made<TContext> {
  source: Tool;
  adapted: AgentsFunctionTool<TContext>;
}

function adaptTool<TContext>(
  toolkit: AgentsToolkit,
  source: Tool,
  options: AgentsToolsOptions<TContext>,
): Made<TContext> {
  const strict = options.strict !== false;
  try {
    return { source, adapted: functionTool(toolkit, source, declarationOf(source, { strict }), options) };
  } catch (error) {
    // A schema the SDK's own strict-mode checks refuse still works without strict mode.
    if (!strict) throw error;
    return { source, adapted: functionTool(toolkit, source, declarationOf(source, { strict: false }), options) };
  }
}

/** A tool's declaration in OpenAI's Responses dialect, and the way back for the arguments sent under it. */
interface Declaration {
  declared: OpenAIResponsesFunctionTool;
  codec: () => MaybeCodec;
}

function declarationOf(source: Tool, { strict }: { strict: boolean }): Declaration {
  const options: ExportOptions & { strict: boolean } = { strict, names: "sanitize" };
  const made = exportTools(openaiResponses, [source], options);
  const declared = asFunctionTool(made.declarations[0]!, source);
  const bound = made.binding.get(declared.name)!;
  return { declared, codec: () => codecOf(bound) };
}

/**
 * The Agents SDK's function tools are functions: a namespace's one tool is taken out of it, and a
 * free-text tool is a function of its one string parameter, `input` (its declared schema).
 */
function asFunctionTool(declared: OpenAIResponsesTool, source: Tool): OpenAIResponsesFunctionTool {
  const [tool] = declared.type === "namespace" ? declared.tools : [declared];
  if (tool?.type === "function") return tool;
  if (tool?.type === "custom")
    return {
      type: "function",
      name: tool.name,
      description: tool.description,
      parameters: source.inputSchema,
      strict: false,
    };
  throw new TypeError(`toAgentsTools: the tool could not be declared as a function (got a ${declared.type} tool).`);
}

/** The SDK's function tool for one toolkit tool: every call through `toolkit.execute`. */
function functionTool<TContext>(
  toolkit: AgentsToolkit,
  source: Tool,
  { declared, codec }: Declaration,
  options: AgentsToolsOptions<TContext>,
): AgentsFunctionTool<TContext> {
  const name = source.name;
  const contextOf = contextReader(options);
  const argumentsOf = (input: unknown) => decodeWith(codec(), input);
  const approval = approvalPolicy(toolkit, source, options, argumentsOf, contextOf);
  // Only a call the SDK's approval flow let through is run as approved; the name is the SDK's (set below).
  let sdkName = declared.name;
  const approvedInRun =
    approval === undefined
      ? () => false
      : (runContext: RunContext<TContext> | undefined, callId: string | undefined) =>
          isApproved(runContext, sdkName, callId);

  const execute = async (
    input: unknown,
    runContext?: RunContext<TContext>,
    details?: { toolCall?: { callId?: string }; signal?: AbortSignal },
  ): Promise<AgentsToolOutput> => {
    let ctx: ToolContext;
    try {
      ctx = contextOf(runContext, details?.toolCall?.callId, details?.signal);
    } catch (thrown) {
      // Reading the run context (a `state` function) threw: still an answer the model reads.
      return agentsOutputOf(adapterStepFailure(name, "the state function of toAgentsTools", thrown));
    }
    const approved = approvedInRun(runContext, ctx.callId);
    return agentsOutputOf(await toolkit.execute(name, argumentsOf(input), ctx, approved ? { approved: true } : {}));
  };

  const common = {
    name: declared.name,
    description: declared.description,
    execute,
    ...(approval !== undefined ? { needsApproval: approval } : {}),
    isEnabled: ({ runContext }: { runContext: RunContext<TContext> }) =>
      isVisible(toolkit, name, () => contextOf(runContext)),
    // Only what the toolkit cannot answer reaches here (arguments that are not JSON, when the tool is invoked
    // directly).
    errorFunction: (_runContext: RunContext<TContext>, error: unknown) => `Error: ${errorMessage(error)}`,
  };
  // The SDK passes JSON Schema parameters on as they are; its types tie strict mode to closed objects.
  const made: AgentsFunctionTool<TContext> = declared.strict
    ? tool<StrictParameters, TContext, AgentsToolOutput>({
        ...common,
        parameters: declared.parameters as StrictParameters,
        strict: true,
      })
    : tool<LooseParameters, TContext, AgentsToolOutput>({
        ...common,
        parameters: declared.parameters as LooseParameters,
        strict: false,
      });
  sdkName = made.name;
  return made;
}

type ContextReader<TContext> = (
  runContext: RunContext<TContext> | undefined,
  callId?: string,
  signal?: AbortSignal,
) => ToolContext;

/** How a call's ctx is read from what the SDK hands a tool. */
function contextReader<TContext>({ state }: AgentsToolsOptions<TContext>): ContextReader<TContext> {
  const stateOf =
    typeof state === "function"
      ? (runContext: RunContext<TContext> | undefined) =>
          runContext === undefined
            ? undefined
            : checkedHostState(state(runContext), "the state option of toAgentsTools")
      : state !== undefined
        ? () => state
        : (runContext: RunContext<TContext> | undefined) =>
            isObject(runContext?.context) ? runContext.context : undefined;
  return (runContext, callId, signal) => {
    const shared = stateOf(runContext);
    return {
      provider: AGENTS_PROVIDER,
      ...(callId !== undefined ? { callId } : {}),
      ...(signal !== undefined ? { signal } : {}),
      ...(isObject(shared) ? { state: shared } : {}),
    };
  };
}

/**
 * The SDK's `needsApproval` for a tool: asked of the toolkit for each call (the tool's
 * `needsApproval` with the arguments as the toolkit reads them and the call's ctx, or the
 * toolkit's `approveDestructive`; a check that fails asks), or none when the toolkit decides
 * in process or the tool never needs approval.
 */
function approvalPolicy<TContext>(
  toolkit: AgentsToolkit,
  source: Tool,
  options: AgentsToolsOptions<TContext>,
  argumentsOf: (input: unknown) => unknown,
  contextOf: ContextReader<TContext>,
): ((runContext: RunContext, input: unknown, callId?: string) => Promise<boolean>) | undefined {
  if (options.approvals === "toolkit" || !mayNeedApproval(source)) return undefined;
  return async (runContext, input, callId) => {
    try {
      // The SDK types an approval policy's run context without the agent's context type; it is the run's.
      return await toolkit.needsApproval(
        source.name,
        argumentsOf(input),
        contextOf(runContext as RunContext<TContext>, callId),
      );
    } catch {
      return true;
    }
  };
}

/** Whether a person approved this very call through the SDK (`state.approve`); a call with no id never was. */
function isApproved<TContext>(
  runContext: RunContext<TContext> | undefined,
  toolName: string,
  callId: string | undefined,
): boolean {
  if (runContext === undefined || callId === undefined || typeof runContext.isToolApproved !== "function") return false;
  return runContext.isToolApproved({ toolName, callId }) === true;
}

/** Whether the tool is visible to the run's ctx; a state function that throws hides it. */
function isVisible(toolkit: AgentsToolkit, name: string, contextOf: () => ToolContext): boolean {
  try {
    return toolkit.tools(contextOf()).some((each) => each.name === name);
  } catch {
    return false;
  }
}

function checkOptions<TContext>(toolkit: AgentsToolkit, options: AgentsToolsOptions<TContext>): void {
  if (typeof toolkit?.tools !== "function" || typeof toolkit.execute !== "function") {
    throw new ToolDefinitionError("toAgentsTools takes a Toolkit (new Toolkit([...])).");
  }
  const { state, approvals } = options;
  if (state !== undefined && typeof state !== "function" && !isObject(state)) {
    throw new ToolDefinitionError(
      "toAgentsTools: state must be an object or a function (runContext) => object (got " +
        `${state === null ? "null" : typeof state}).`,
    );
  }
  if (approvals !== undefined && approvals !== "interrupt" && approvals !== "toolkit") {
    throw new ToolDefinitionError(
      `toAgentsTools: approvals must be "interrupt" or "toolkit" (got ${JSON.stringify(approvals)}).`,
    );
  }
}

function checkDistinctNames<TContext>(made: readonly Made<TContext>[]): void {
  const seen = new Map<string, string>();
  for (const { source, adapted } of made) {
    const clash = seen.get(adapted.name);
    if (clash !== undefined) {
      throw new ToolDefinitionError(
        `Tools "${clash}" and "${source.name}" both become "${adapted.name}" in the Agents SDK (it writes every ` +
          "character other than a-z, A-Z and 0-9 as _); rename one of them.",
      );
    }
    seen.set(adapted.name, source.name);
  }
}
