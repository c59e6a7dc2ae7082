import { parseCallbackConfigArg, type CallbackManagerForToolRun } from "@langchain/core/callbacks/manager";
import { ToolMessage, type MessageContent, type ToolCall } from "@langchain/core/messages";
import { patchConfig, pickRunnableConfigKeys } from "@langchain/core/runnables";
import { AsyncLocalStorageProviderSingleton, MockAsyncLocalStorage } from "@langchain/core/singletons";
import {
  StructuredTool,
  type StructuredToolCallInput,
  type ToolReturnType,
  type ToolRunnableConfig,
} from "@langchain/core/tools";
import { ToolDefinitionError } from "../core/errors";
import { checkedHostState } from "../runtime/host-state";
import type { Toolkit } from "../toolkit";
import { isObject, type JSONSchemaObject, type Tool, type ToolContext } from "../core/types";
import { approvalFor, type LangChainApprover } from "./approval";
import { artifactOf, messageContentOf } from "./content";

export interface LangChainToolsOptions {
  /**
   * Host data the tools read as `ctx.state` (never shown to the model): an object, or a
   * function of each call's LangChain config, e.g. `(config) => config.configurable` or
   * `(config) => config.context`. An object also picks the tools listed (those visible to
   * `{ state }`); with a function every tool is listed, and a call of a tool hidden from its
   * state is answered as an unknown tool. What the function throws is thrown from the call: a
   * mistake of the host, not a failure of the tool.
   */
  state?: Record<string, unknown> | ((config: ToolRunnableConfig) => Record<string, unknown> | undefined);
  /**
   * Decides the calls the toolkit would ask about (`needsApproval`, or a destructive tool under
   * `approveDestructive`) in place of the toolkit's own `approve`: `true`/`{ approved: true }`
   * runs the call, `false`/`{ approved: false, reason }` answers it `denied`. What it throws denies the call, except
   * LangGraph's `interrupt()`, which pauses the graph until a person answers. Left out: the toolkit's `approve`
   * decides, and without one such calls are answered `denied` (nobody was asked).
   */
  approve?: LangChainApprover;
  /**
   * `false`: every result is its text form (images and files as notes such as
   * `[image/png image, 12.3 KB]`), for chat models whose tool messages take text only (OpenAI
   * Chat Completions drops other blocks from them). Default `true`: parts are content blocks.
   */
  multimodalResults?: boolean;
}

/**
 * What a tool call answers: a ToolMessage when it was a tool call (it has an id), else the message content alone, as
 * LangChain's own tools do.
 */
export type ToolnexusToolOutput = MessageContent | ToolMessage;

/** Runs one call of a tool, with the call's arguments (unchecked) and its LangChain config. */
type CallRunner = (args: unknown, config: ToolRunnableConfig) => Promise<ToolnexusToolOutput>;

/** `ctx.provider` of the calls made through LangChain. */
const PROVIDER = "langchain";

/** Where a tool keeps its runner: off its enumerable fields, and inherited by the view it runs with (see `call`). */
const RUN = Symbol("toolnexus.langchain.run");

/** The schema LangChain checks arguments against while a toolnexus tool runs: `true`, which accepts every value. */
const ACCEPTS_EVERY_VALUE = true;

/**
 * A toolkit tool as a LangChain structured tool: its JSON Schema is the tool's `schema` (what
 * `bindTools` and agents declare to the model), and each call runs `toolkit.execute`.
 */
export class ToolnexusTool extends StructuredTool<
  JSONSchemaObject,
  Record<string, unknown>,
  Record<string, unknown>,
  MessageContent
> {
  static lc_name(): string {
    return "ToolnexusTool";
  }

  name: string;
  description: string;
  schema: JSONSchemaObject;
  declare readonly [RUN]: CallRunner;
  readonly #withoutSchemaCheck: this;

  constructor(tool: Tool, run: CallRunner) {
    super();
    this.name = tool.name;
    this.description = tool.description;
    this.schema = tool.inputSchema;
    Object.defineProperty(this, RUN, { value: run });
    this.#withoutSchemaCheck = Object.create(this, { schema: { value: ACCEPTS_EVERY_VALUE } }) as this;
  }

  /**
   * LangChain's `call` checks the arguments against a JSON Schema itself (with its own
   * validator, JavaScript regular expressions, no coercion of "42" to 42) and throws when they
   * do not match, before the tool runs. The toolkit checks them (RE2 patterns, coercion, every
   * problem named) and answers failures as data the model reads; so LangChain's `call` runs,
   * with its callbacks and tracing, on a view of this tool whose schema accepts every value.
   */
  override call<
    TArg extends StructuredToolCallInput<JSONSchemaObject, Record<string, unknown>>,
    TConfig extends ToolRunnableConfig | undefined,
  >(arg: TArg, configArg?: TConfig, tags?: string[]): Promise<ToolReturnType<TArg, TConfig, MessageContent>> {
    const config = parseCallbackConfigArg(configArg) as ToolRunnableConfig;
    // The call's own ToolCall first, as LangChain reads its id.
    const toolCall = isToolCall(arg) ? arg : config.toolCall;
    const called = { ...config, runName: config.runName ?? this.name, ...(toolCall !== undefined ? { toolCall } : {}) };
    return StructuredTool.prototype.call.call(this.#withoutSchemaCheck, arg, called, tags) as Promise<
      ToolReturnType<TArg, TConfig, MessageContent>
    >;
  }

  /**
   * Runs the call where the runnables its tool invokes are traced as children of this run, as
   * in LangChain's `tool()`. A ToolMessage it answers is passed on by LangChain as it is (a
   * direct tool output), which the type of `_call` does not say.
   */
  protected _call(
    args: Record<string, unknown>,
    runManager?: CallbackManagerForToolRun,
    config: ToolRunnableConfig = {},
  ): Promise<MessageContent> {
    const run = () => this[RUN](args, config) as Promise<MessageContent>;
    // Until something turns on LangChain's AsyncLocalStorage (LangGraph, @langchain/core/context),
    // there is no current run to set: its setup would cost more than the rest of the call.
    if (AsyncLocalStorageProviderSingleton.getInstance() instanceof MockAsyncLocalStorage) return run();
    return AsyncLocalStorageProviderSingleton.runWithConfig(
      pickRunnableConfigKeys(patchConfig(config, { callbacks: runManager?.getChild() })),
      run,
    );
  }
}

/**
 * The toolkit's tools as LangChain structured tools, for `model.bindTools(tools)` and agents
 * (`createAgent`, LangGraph's `ToolNode`). Invoked with a ToolCall, a tool answers a
 * ToolMessage: the result's content (parts as content blocks), `status: "error"` for every
 * failure (bad arguments, a throw, a timeout, an abort, a denial), and the toolkit's result as
 * its `artifact`; it never throws for a failed call. Each call runs `toolkit.execute` with a
 * ctx of the call's `config.signal`, the tool call's id as `callId`, and `state`.
 */
export function toLangChainTools(toolkit: Toolkit, options: LangChainToolsOptions = {}): ToolnexusTool[] {
  checkOptions(toolkit, options);
  const { state, approve, multimodalResults = true } = options;
  const listed =
    typeof state === "function"
      ? toolkit.tools()
      : toolkit.tools({ provider: PROVIDER, ...(state !== undefined ? { state } : {}) });
  return listed.map((tool) => {
    const run: CallRunner = async (args, config) => {
      const ctx = contextOf(config, state);
      const decision = await approvalFor(toolkit, tool, args, ctx, config, approve);
      const result = await toolkit.execute(tool.name, args, ctx, decision);
      const content = messageContentOf(result, multimodalResults);
      if (ctx.callId === undefined) return content;
      return new ToolMessage({
        content,
        tool_call_id: ctx.callId,
        name: tool.name,
        status: result.isError ? "error" : "success",
        artifact: artifactOf(result, content),
      });
    };
    return new ToolnexusTool(tool, run);
  });
}

function checkOptions(toolkit: Toolkit, options: LangChainToolsOptions): void {
  if (typeof toolkit?.execute !== "function" || typeof toolkit.tools !== "function")
    throw new ToolDefinitionError("toLangChainTools takes a Toolkit (new Toolkit([...])).");
  if (typeof options !== "object" || options === null)
    throw new ToolDefinitionError("toLangChainTools: options must be an object.");
  const { state, approve, multimodalResults } = options;
  if (state !== undefined && typeof state !== "function" && !isObject(state))
    throw new ToolDefinitionError("toLangChainTools: state must be an object or a function (config) => object.");
  if (approve !== undefined && typeof approve !== "function")
    throw new ToolDefinitionError(
      "toLangChainTools: approve must be a function (request) => boolean | { approved, reason }.",
    );
  if (multimodalResults !== undefined && typeof multimodalResults !== "boolean")
    throw new ToolDefinitionError("toLangChainTools: multimodalResults must be true or false.");
}

/** The ctx of one call, from its LangChain config. */
function contextOf(config: ToolRunnableConfig, state: LangChainToolsOptions["state"]): ToolContext {
  const callId = config.toolCall?.id;
  const callState =
    typeof state === "function" ? checkedHostState(state(config), "the state option of toLangChainTools") : state;
  return {
    provider: PROVIDER,
    ...(config.signal !== undefined ? { signal: config.signal } : {}),
    ...(callId !== undefined ? { callId } : {}),
    ...(callState !== undefined ? { state: callState } : {}),
  };
}

function isToolCall(arg: unknown): arg is ToolCall {
  return typeof arg === "object" && arg !== null && (arg as { type?: unknown }).type === "tool_call";
}
