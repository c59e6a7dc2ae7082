import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  ErrorCode,
  isJSONRPCRequest,
  ListToolsRequestSchema,
  McpError,
  type JSONRPCMessage,
  type ProgressToken,
  type RequestId,
  type ServerNotification,
} from "@modelcontextprotocol/sdk/types.js";
import { toolMethodsOf } from "../decorators/metadata";
import { exportTools, type ExportBinding, type LoweringCache } from "../providers/adapter";
import { mcp, mcpCallResult, type McpTool } from "../providers/mcp";
import { describeValue } from "../runtime/arguments";
import { functionInsteadOfInstance } from "../scanner/instance-expected";
import { Toolkit, type ToolSource } from "../toolkit";
import type { Tool, ToolContext, ToolResult } from "../core/types";
import { packageVersion } from "../core/version";
import { resolvedTaskOptions, runTask, storeFor, taskTtl, type McpTaskOptions } from "./tasks";

/** What the MCP server needs from a toolkit (a `Toolkit`, or anything shaped like one). */
export interface McpToolkit {
  /** The tools a client may see; given the call's ctx (its `state`), only those visible to it. */
  tools(ctx?: ToolContext): Tool[];
  get(name: string): Tool | undefined;
  execute(name: string, args: unknown, ctx?: ToolContext): Promise<ToolResult>;
}

/** Options of the MCP server itself, whatever the transport. */
export interface McpServerOptions {
  /** `serverInfo.name` sent to clients. Default "toolnexus". */
  name?: string;
  /** `serverInfo.version`. Default: this package's version. */
  version?: string;
  /** Sent to clients in the `initialize` result: how to use these tools. */
  instructions?: string;
  /**
   * Called with errors the server cannot answer with a response (a broken message on stdio,
   * a failed write). Never called for a tool's failure: that is a result with `isError: true`.
   */
  onError?: (error: Error) => void;
  /**
   * MCP tasks, for the tools marked `task: true` (on whenever the toolkit has one, or when this
   * is set): a client may call such a tool as a task and poll `tasks/get`, `tasks/result`;
   * `tasks/list` and `tasks/cancel` work too. Where the tasks are kept, for how long.
   */
  tasks?: McpTaskOptions;
}

/** What the calls of one server know beyond their arguments (internal: set by the transports). */
export interface CallScope {
  /** Host data handed to the tool as `ctx.state`. */
  state?: Record<string, unknown>;
  /**
   * Told when a call starts; the controller aborts the call (out-of-band cancellation); the returned function is called
   * when it ends.
   */
  track?: (requestId: string | number, controller: AbortController) => () => void;
  /** The task options resolved once for every server of a transport (one store for all its requests). */
  tasks?: ReturnType<typeof resolvedTaskOptions>;
  /**
   * Whose tasks these calls see and create (the HTTP client's session and credentials); else the transport's session.
   */
  owner?: string;
  /**
   * Told when a task starts running in the background; the controller aborts it (shutdown); the returned function is
   * called when it ends.
   */
  trackTask?: (controller: AbortController) => () => void;
}

/** Accepts a Toolkit, or the tools and decorated instances to build one from. */
export function asToolkit(toolkit: McpToolkit | readonly ToolSource[]): McpToolkit {
  if (Array.isArray(toolkit)) return new Toolkit(toolkit as readonly ToolSource[]);
  const kit = toolkit as McpToolkit;
  if (typeof kit?.tools !== "function" || typeof kit.execute !== "function" || typeof kit.get !== "function") {
    throw new TypeError(
      `serveMcp takes a Toolkit (or an array of Tools and decorated instances)${insteadOfToolkit(toolkit)}.`,
    );
  }
  return kit;
}

/** What came instead of a toolkit, and what to pass. */
function insteadOfToolkit(value: unknown): string {
  if (typeof value === "function") {
    const name = value.name || "X";
    return toolMethodsOf((value as { prototype?: unknown }).prototype).length > 0
      ? `; got the class ${name} itself: pass [new ${name}()]`
      : `; ${functionInsteadOfInstance(value)}`;
  }
  if (typeof value === "object" && value !== null)
    return "; got a single object: put it in an array, [it], or in a Toolkit";
  return `; got ${value === null ? "null" : typeof value}`;
}

/**
 * The tool names clients see. MCP allows `A-Z a-z 0-9 . _ -` up to 128 characters; a name
 * outside that (a Gemini-only `:`) is mapped reversibly, as `toMcp(tools, { names: "sanitize" })` does.
 */
class Declarations {
  #key = "";
  #tools: McpTool[] = [];
  #binding: ExportBinding = new Map();
  /** Each tool lowered once: a client that sees other tools than the last one is declared without lowering again. */
  readonly #lowerings: LoweringCache = new Map();

  constructor(private readonly toolkit: McpToolkit) {}

  current(ctx: ToolContext): { tools: McpTool[]; binding: ExportBinding } {
    const tools = this.toolkit.tools(ctx);
    const key = tools.map((tool) => tool.name).join("\u0000");
    if (key !== this.#key || this.#tools.length !== tools.length) {
      const made = exportTools(mcp, tools, { names: "sanitize" }, this.#lowerings);
      const taskTools = new Set(tools.filter((tool) => tool.task === true).map((tool) => tool.name));
      // Clients that do not use tasks can still call these tools: task support is optional.
      this.#tools = made.declarations.map((declared) =>
        taskTools.has(made.binding.get(declared.name)?.tool ?? "")
          ? { ...declared, execution: { taskSupport: "optional" } }
          : declared,
      );
      this.#binding = made.binding;
      this.#key = key;
    }
    return { tools: this.#tools, binding: this.#binding };
  }
}

const declarationsOf = new WeakMap<McpToolkit, Declarations>();

function declarations(toolkit: McpToolkit): Declarations {
  let found = declarationsOf.get(toolkit);
  if (found === undefined) declarationsOf.set(toolkit, (found = new Declarations(toolkit)));
  return found;
}

/**
 * A low-level MCP `Server` (official SDK) whose `tools/list` returns every tool of the toolkit
 * (name, description, `inputSchema` as toolnexus built it, `outputSchema` when it has one,
 * annotations from `@Tool`) and whose `tools/call` runs the tool through the toolkit: its
 * parts as content blocks, its structured result as `structuredContent`. A tool failure is a
 * `CallToolResult` with `isError: true`; an unknown tool is the SDK's invalid-params error; a
 * client's `notifications/cancelled` aborts the tool's `ctx.signal`. Connect it to any SDK
 * transport; `state` becomes every call's `ctx.state`.
 */
export function createMcpServer(
  toolkit: McpToolkit | readonly ToolSource[],
  options: McpServerOptions & { state?: Record<string, unknown> } = {},
): Server {
  return serverFor(asToolkit(toolkit), options, options.state !== undefined ? { state: options.state } : {});
}

/** createMcpServer with what the transports add: per-request state and call tracking. */
export function serverFor(kit: McpToolkit, options: McpServerOptions, scope: CallScope): Server {
  const listCtx: ToolContext = { provider: "mcp", ...(scope.state !== undefined ? { state: scope.state } : {}) };
  const taskOptions =
    options.tasks !== undefined || kit.tools(listCtx).some((tool) => tool.task === true)
      ? (scope.tasks ?? resolvedTaskOptions(options.tasks))
      : undefined;
  const taskStore = taskOptions && storeFor(taskOptions.store, scope.owner);
  const server = new Server(
    { name: options.name ?? "toolnexus", version: options.version ?? packageVersion() },
    {
      capabilities: {
        tools: { listChanged: false },
        ...(taskOptions !== undefined ? { tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } } : {}),
      },
      ...(options.instructions !== undefined ? { instructions: options.instructions } : {}),
      // The SDK answers tasks/get, tasks/result, tasks/list and tasks/cancel from the store.
      ...(taskStore !== undefined ? { taskStore, defaultTaskPollInterval: taskOptions!.pollInterval } : {}),
    },
  );
  if (options.onError) server.onerror = options.onError;

  // The SDK's schema turns `arguments` that are not an object into an internal error carrying
  // the validator's dump, and drops a top-level `__proto__` key without a word. So the raw
  // arguments of such calls are set aside here, before any parsing, for the call handler.
  const setAside = new Map<RequestId, unknown>();
  const connect = server.connect.bind(server);
  server.connect = async (transport) => {
    await connect(transport);
    const receive = transport.onmessage;
    // Without task support, a task-augmented call is answered as a plain one, as the specification asks.
    transport.onmessage = (message, extra) =>
      receive?.(setAsideArguments(taskOptions === undefined ? withoutTask(message) : message, setAside), extra);
    const send = transport.send.bind(transport);
    // A call the SDK answered without reaching the handler leaves nothing behind.
    transport.send = (message, sendOptions) => {
      if ("id" in message && !("method" in message) && message.id !== undefined) setAside.delete(message.id);
      return send(withoutSdkErrorPrefix(message), sendOptions);
    };
  };

  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: declarations(kit).current(listCtx).tools }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const raw = setAside.has(extra.requestId) ? setAside.get(extra.requestId) : request.params.arguments;
    setAside.delete(extra.requestId);
    if (raw !== undefined && (typeof raw !== "object" || raw === null || Array.isArray(raw))) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `Invalid params: tools/call "arguments" must be a JSON object; got ${describeValue(raw)}.`,
      );
    }
    const requested = request.params.name;
    // The binding holds the tools this client may see, under the names it was shown.
    const bound = declarations(kit).current(listCtx).binding.get(requested)?.tool;
    if (request.params.task !== undefined && taskOptions !== undefined) {
      const tool = bound === undefined ? undefined : kit.get(bound);
      if (tool === undefined)
        throw new McpError(
          ErrorCode.InvalidParams,
          `Unknown tool "${requested}": tools/list names the tools this server has.`,
        );
      if (tool.task !== true) {
        throw new McpError(
          ErrorCode.MethodNotFound,
          `Tool "${requested}" does not run as a task (its execution.taskSupport is "forbidden"): call it without ` +
            `"task". On the server, @Tool({ task: true }) or defineTool({ task: true }) makes it one.`,
        );
      }
      const task = await extra.taskStore!.createTask({
        ttl: taskTtl(request.params.task.ttl, taskOptions),
        pollInterval: taskOptions.pollInterval,
      });
      const progress = progressReporter(request.params._meta?.progressToken, extra.sendNotification);
      void runTask({
        taskId: task.taskId,
        ttl: task.ttl,
        store: taskStore!,
        owner: extra.sessionId,
        pollInterval: taskOptions.pollInterval,
        track: scope.trackTask,
        call: async (taskCtx) => {
          const result = await kit.execute(bound!, raw ?? {}, {
            ...taskCtx,
            provider: "mcp",
            ...(scope.state !== undefined ? { state: scope.state } : {}),
            reportProgress: progress.report,
          });
          return { result, mcp: mcpCallResult(tool, result) };
        },
      });
      return { task };
    }
    const controller = new AbortController();
    const release = scope.track?.(extra.requestId, controller);
    const signal = anySignal([extra.signal, controller.signal]);
    const progress = progressReporter(request.params._meta?.progressToken, extra.sendNotification);
    try {
      const result = await kit.execute(bound ?? requested, raw ?? {}, {
        signal,
        callId: String(extra.requestId),
        provider: "mcp",
        ...(scope.state !== undefined ? { state: scope.state } : {}),
        reportProgress: progress.report,
      });
      // The client forgets a call's progress token once its result arrives: what the tool reported goes out first.
      await progress.sent();
      // A name this client was not shown that names no tool it may see is a protocol error, with the toolkit's text:
      // the closest names and the valid ones.
      if (bound === undefined && result.isError && result.metadata?.error === "unknown_tool")
        throw new McpError(ErrorCode.InvalidParams, result.output);
      return mcpCallResult(kit.get(bound ?? requested), result);
    } finally {
      release?.();
    }
  });
  return server;
}

/**
 * An `McpError` thrown in a handler (ours, or the SDK's own checks) has the message
 * `MCP error <code>: <text>`, and the SDK answers with that message as it is. The client's
 * `McpError` puts the same prefix in front again, so a user would read it twice: the text goes
 * out without it (the code is in the response's own `code` field).
 */
function withoutSdkErrorPrefix(message: JSONRPCMessage): JSONRPCMessage {
  if (!("error" in message)) return message;
  const { code, message: text } = message.error;
  const prefix = `MCP error ${code}: `;
  return typeof text === "string" && text.startsWith(prefix)
    ? { ...message, error: { ...message.error, message: text.slice(prefix.length) } }
    : message;
}

/** A tools/call request without its `task` field (for a server without task support). */
function withoutTask(message: JSONRPCMessage): JSONRPCMessage {
  if (
    !isJSONRPCRequest(message) ||
    message.method !== "tools/call" ||
    message.params === undefined ||
    !("task" in message.params)
  )
    return message;
  const { task: _task, ...params } = message.params;
  return { ...message, params };
}

/**
 * A tools/call whose `arguments` the SDK's schema would reject (not an object) or change (an
 * own `__proto__` key, as JSON.parse makes it) has them set aside under its id; the message
 * goes on without them when they are not an object. `null` counts as no arguments.
 */
function setAsideArguments(message: JSONRPCMessage, setAside: Map<RequestId, unknown>): JSONRPCMessage {
  if (
    !isJSONRPCRequest(message) ||
    message.method !== "tools/call" ||
    message.params === undefined ||
    !("arguments" in message.params)
  )
    return message;
  const { arguments: args, ...rest } = message.params;
  if (args === null) return { ...message, params: rest };
  if (typeof args !== "object" || Array.isArray(args)) {
    setAside.set(message.id, args);
    return { ...message, params: rest };
  }
  if (Object.prototype.hasOwnProperty.call(args, "__proto__")) setAside.set(message.id, args);
  return message;
}

/** The longest a result waits for the progress notifications before it (a client that stopped reading). */
const PROGRESS_FLUSH_MS = 2_000;

/**
 * `ctx.reportProgress` of an MCP call: progress notifications for the client's progress token,
 * in order, only increasing values (the specification requires it), never failing the call;
 * nothing when the client sent no token. `sent()` settles when those reported so far are out.
 */
function progressReporter(
  token: ProgressToken | undefined,
  send: (notification: ServerNotification) => Promise<void>,
): { report: (progress: number, total?: number, message?: string) => void; sent: () => Promise<void> } {
  if (token === undefined) return { report: () => {}, sent: () => Promise.resolve() };
  let last = -Infinity;
  let queue = Promise.resolve();
  const report = (progress: number, total?: number, message?: string) => {
    if (typeof progress !== "number" || !Number.isFinite(progress) || progress <= last) return;
    last = progress;
    const params = {
      progressToken: token,
      progress,
      ...(typeof total === "number" && Number.isFinite(total) ? { total } : {}),
      ...(typeof message === "string" ? { message } : {}),
    };
    // A notification that cannot be sent (the client went away) does not concern the call.
    queue = queue.then(() => send({ method: "notifications/progress", params })).catch(() => {});
  };
  const sent = () =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, PROGRESS_FLUSH_MS);
      timer.unref?.();
      void queue.then(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  return { report, sent };
}

/** One signal aborted when any of `signals` is (AbortSignal.any needs Node 20.3). */
function anySignal(present: readonly AbortSignal[]): AbortSignal {
  const controller = new AbortController();
  const already = present.find((signal) => signal.aborted);
  if (already) {
    controller.abort(already.reason);
    return controller.signal;
  }
  const onAbort = (event: Event) => {
    for (const signal of present) signal.removeEventListener("abort", onAbort);
    controller.abort((event.target as AbortSignal).reason);
  };
  for (const signal of present) signal.addEventListener("abort", onAbort, { once: true });
  return controller.signal;
}
