import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  CompleteRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  isJSONRPCRequest,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  SetLevelRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
  type JSONRPCMessage,
  type RequestId,
} from "@modelcontextprotocol/sdk/types.js";
import { mcpCallResult } from "../providers/mcp";
import { describeValue } from "../runtime/arguments";
import { normalizedUri } from "../toolkit/primitive-registry";
import type { ToolSource } from "../toolkit";
import type { ToolContext } from "../core/types";
import { progressReporter } from "./call-progress";
import { asToolkit, declarations, type McpToolkit } from "./declarations";
import { sessionInput } from "./session-input";
import { packageVersion } from "../core/version";
import { resolvedTaskOptions, runTask, servesTasks, taskTtl, type McpTaskOptions } from "./tasks";
import { runToolCall, taskCall } from "./tool-calls";
import { storeFor } from "./session-task-store";
import type { Icon } from "../core/types";
import {
  checkPageSize,
  MAX_SUBSCRIPTIONS,
  mcpLog,
  page,
  primitiveCapabilities,
  PrimitiveMethods,
  primitivesOf,
  WireError,
  type SessionState,
} from "./primitives";

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
  /**
   * The HMAC key (32 bytes or more) that signs the state of a call waiting for the client's
   * answers (`ctx.elicit` / `ctx.sample` over MCP 2026-07-28, where the client calls again with
   * them). Every instance behind one load balancer needs the same key, from a secret store.
   * Default: a random key per process, so the answers must come back to the same instance.
   */
  requestStateKey?: string | Uint8Array;
  /** Icons a client may show for this server (`serverInfo.icons`). */
  icons?: readonly Icon[];
  /**
   * How many entries one page of `tools/list`, `resources/list`, `resources/templates/list` and
   * `prompts/list` holds; the client follows `nextCursor` for the rest. Default: all in one page.
   */
  pageSize?: number;
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
  /** What the client declared at `initialize`, when that went to another server of this process (stateless HTTP). */
  clientCapabilities?: Record<string, unknown>;
  /**
   * Told when a task starts running in the background; the controller aborts it (shutdown); the returned function is
   * called when it ends.
   */
  trackTask?: (controller: AbortController) => () => void;
  /** What the client's session keeps between requests (its log level, its subscriptions), where it has one. */
  session?: SessionState;
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
  const taskOptions = servesTasks(kit, options.tasks, listCtx)
    ? (scope.tasks ?? resolvedTaskOptions(options.tasks))
    : undefined;
  const taskStore = taskOptions && storeFor(taskOptions.store, scope.owner);
  checkPageSize(options.pageSize);
  const primitives = primitivesOf(kit);
  const served = primitiveCapabilities(primitives);
  const session: SessionState = scope.session ?? { subscriptions: new Set<string>() };
  const server = new Server(serverInfo(options), {
    capabilities: {
      tools: { listChanged: false },
      ...served,
      ...(taskOptions !== undefined ? { tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } } : {}),
    },
    ...(options.instructions !== undefined ? { instructions: options.instructions } : {}),
    // The SDK answers tasks/get, tasks/result, tasks/list and tasks/cancel from the store.
    ...(taskStore !== undefined ? { taskStore, defaultTaskPollInterval: taskOptions!.pollInterval } : {}),
  });
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

  server.setRequestHandler(ListToolsRequestSchema, async (request) => {
    const { items, nextCursor } = await wire(() =>
      page(declarations(kit).current(listCtx).tools, request.params?.cursor, options.pageSize, "tools"),
    );
    return { tools: [...items], ...(nextCursor !== undefined ? { nextCursor } : {}) };
  });
  server.setRequestHandler(SetLevelRequestSchema, (request) => {
    session.logLevel = request.params.level;
    return {};
  });
  const logTo = (extra: { sendNotification: (notification: never) => Promise<void> }, logger: string) =>
    mcpLog(
      (level, data) =>
        extra.sendNotification({ method: "notifications/message", params: { level, logger, data } } as never),
      logger,
      () => session.logLevel,
    );
  // Tools, resources and prompts ask the client on its session, under the capabilities it declared there.
  const askSession = (extra: { sendRequest: never }, signal: AbortSignal) =>
    sessionInput(server.getClientCapabilities() ?? scope.clientCapabilities, extra.sendRequest, signal);
  const methods = primitives && new PrimitiveMethods(primitives, options.pageSize);
  const readCtx = (
    extra: { signal: AbortSignal; sendNotification: never; sendRequest: never },
    logger: string,
  ): ToolContext => ({
    ...listCtx,
    signal: extra.signal,
    log: logTo(extra, logger),
    ...askSession(extra, extra.signal),
  });
  if (methods !== undefined && "resources" in served) {
    server.setRequestHandler(ListResourcesRequestSchema, (request) =>
      wire(() => methods.listResources(request.params, listCtx)),
    );
    server.setRequestHandler(ListResourceTemplatesRequestSchema, (request) =>
      wire(() => methods.listResourceTemplates(request.params, listCtx)),
    );
    server.setRequestHandler(ReadResourceRequestSchema, (request, extra) =>
      wire(() => methods.readResource(request.params, readCtx(extra as never, request.params.uri))),
    );
    // Where no update can reach the client (stateless HTTP), a subscription is answered and not kept.
    server.setRequestHandler(SubscribeRequestSchema, (request) => {
      const { uri } = request.params;
      if (!primitives!.servesResource(uri, listCtx))
        throw new McpError(ErrorCode.InvalidParams, `Resource not found: ${uri}.`, { uri });
      // Kept as the updates are told apart: one resource, one spelling.
      const key = normalizedUri(uri);
      const subscriptions = session.subscriptions;
      if (subscriptions !== undefined && subscriptions.size >= MAX_SUBSCRIPTIONS && !subscriptions.has(key))
        throw new McpError(ErrorCode.InvalidRequest, `A session subscribes to ${MAX_SUBSCRIPTIONS} resources at most.`);
      subscriptions?.add(key);
      return {};
    });
    server.setRequestHandler(UnsubscribeRequestSchema, (request) => {
      session.subscriptions?.delete(normalizedUri(request.params.uri));
      return {};
    });
  }
  if (methods !== undefined && "prompts" in served) {
    server.setRequestHandler(ListPromptsRequestSchema, (request) =>
      wire(() => methods.listPrompts(request.params, listCtx)),
    );
    server.setRequestHandler(GetPromptRequestSchema, (request, extra) =>
      wire(() => methods.getPrompt(request.params, readCtx(extra as never, request.params.name)) as never),
    );
  }
  if (methods !== undefined && "completions" in served) {
    server.setRequestHandler(CompleteRequestSchema, (request, extra) =>
      wire(() => methods.complete(request.params as never, { ...listCtx, signal: extra.signal })),
    );
  }

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
        call: taskCall(kit, scope, tool, (raw ?? {}) as Record<string, unknown>, progress.report),
      });
      return { task };
    }
    const { result, tool, unknown } = await runToolCall(kit, scope, {
      requested,
      bound,
      args: (raw ?? {}) as Record<string, unknown>,
      requestId: extra.requestId,
      signal: extra.signal,
      progressToken: request.params._meta?.progressToken,
      notify: extra.sendNotification,
      input: (signal) => askSession(extra as never, signal),
      log: logTo(extra as never, bound ?? requested),
    });
    // A name this client was not shown that names no tool it may see is a protocol error, with the toolkit's text: the
    // closest names and the valid ones.
    if (unknown) throw new McpError(ErrorCode.InvalidParams, result.output);
    return mcpCallResult(tool, result);
  });
  return server;
}

/** `serverInfo`: the name, version and icons clients are shown. */
export function serverInfo(options: McpServerOptions) {
  return {
    name: options.name ?? "toolnexus",
    version: options.version ?? packageVersion(),
    ...(options.icons !== undefined ? { icons: options.icons.map((icon) => ({ ...icon })) } : {}),
  };
}

/** A method's answer, its `WireError` thrown as the SDK 1.x's error. */
async function wire<T>(answer: () => T | Promise<T>): Promise<T> {
  try {
    return await answer();
  } catch (error) {
    throw error instanceof WireError ? new McpError(error.code, error.message, error.data) : error;
  }
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
