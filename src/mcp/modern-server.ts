import { AsyncLocalStorage } from "node:async_hooks";
import { createHash, randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type * as NodeSdk from "@modelcontextprotocol/node";
import type { Server as ModernServer, ServerContext } from "@modelcontextprotocol/server";
import { canonicalJson } from "../core/canonical-json";
import type { ToolContext } from "../core/types";
import { mcpCallResult, type McpTool } from "../providers/mcp";
import { thrownBy } from "../runtime/result";
import { anySignal } from "./call-progress";
import type { AnsweringCapabilities } from "./client-capabilities";
import { declarations, type McpToolkit } from "./declarations";
import { InputRound, type AskedInput, type InputRoundState } from "./input-round";
import type { ModernSdk } from "./modern-era";
import { clientTakesTasks, serveTaskMethods, startTask, TASKS_EXTENSION } from "./modern-tasks";
import { serverInfo, type CallScope, type McpServerOptions } from "./server";
import {
  checkPageSize,
  mcpLog,
  page,
  primitiveCapabilities,
  PrimitiveMethods,
  primitivesOf,
  WireError,
} from "./primitives";
import { resolvedTaskOptions, servesTasks } from "./tasks";
import { runToolCall, taskCall } from "./tool-calls";

type TaskOptions = ReturnType<typeof resolvedTaskOptions>;

/** How long a call waiting for the client's answers may take to come back with them. */
const REQUEST_STATE_TTL_SECONDS = 600;

/** The client's capabilities as a 2026-07-28 request's envelope carries them. */
const CLIENT_CAPABILITIES_META_KEY = "io.modelcontextprotocol/clientCapabilities";

/** What a round's signed state holds beside the answers: which request it belongs to (`requestDigest`). */
interface SignedRound extends InputRoundState {
  call: string;
}

/**
 * Makes MCP SDK 2.x servers for the 2026-07-28 era: per HTTP request, or once per stdio
 * connection. Each has the toolkit's tools as the 2025-era server has them (per-user lists,
 * the same results and failures, progress, cancellation), answers the `ctx.elicit` and
 * `ctx.sample` of tools, resources and prompts by multi-round-trip, and signs what a waiting
 * request keeps with one key.
 */
export class ModernServers {
  readonly #codec: ReturnType<ModernSdk["server"]["createRequestStateCodec"]>;

  constructor(
    readonly sdk: ModernSdk,
    readonly kit: McpToolkit,
    private readonly options: McpServerOptions,
  ) {
    checkPageSize(options.pageSize);
    this.#codec = sdk.server.createRequestStateCodec<SignedRound>({
      key: options.requestStateKey ?? randomBytes(32),
      ttlSeconds: REQUEST_STATE_TTL_SECONDS,
    });
  }

  /** The task options of servers that have no shared ones (stdio): one store for every server made here. */
  #ownTasks: TaskOptions | undefined;

  /** Where this server's tasks go, when it has task tools (or task options). */
  #tasks(scope: CallScope, listCtx: ToolContext): TaskOptions | undefined {
    if (!servesTasks(this.kit, this.options.tasks, listCtx)) return undefined;
    return scope.tasks ?? (this.#ownTasks ??= resolvedTaskOptions(this.options.tasks));
  }

  create(scope: CallScope): ModernServer {
    const { kit, options, sdk } = this;
    const listCtx: ToolContext = { provider: "mcp", ...(scope.state !== undefined ? { state: scope.state } : {}) };
    const tasks = this.#tasks(scope, listCtx);
    const primitives = primitivesOf(kit);
    const served = primitiveCapabilities(primitives);
    const server = new sdk.server.Server(serverInfo(options), {
      capabilities: {
        tools: { listChanged: false },
        ...served,
        ...(tasks !== undefined ? { extensions: { [TASKS_EXTENSION]: {} } } : {}),
      },
      ...(options.instructions !== undefined ? { instructions: options.instructions } : {}),
      requestState: { verify: (state, ctx) => this.#codec.verify(state, ctx) },
    });
    // Task support is a 2025-era capability here: a 2026-07-28 client calls a task tool as a plain tool.
    // A method's WireError, as the SDK 2.x's error.
    const wire = async <T>(answer: () => T | Promise<T>): Promise<T> => {
      try {
        return await answer();
      } catch (error) {
        if (!(error instanceof WireError)) throw error;
        throw new sdk.server.ProtocolError(error.code, error.message, error.data);
      }
    };
    const logTo = (ctx: ServerContext, logger: string) =>
      mcpLog((level, data) => ctx.mcpReq.log(level, data, logger), logger);
    server.setRequestHandler("tools/list", (request) =>
      wire(() => {
        const { items, nextCursor } = page(
          declarations(kit).current(listCtx).tools,
          request.params?.cursor,
          options.pageSize,
          "tools",
        );
        return {
          tools: items.map(({ execution: _execution, ...tool }: McpTool & { execution?: unknown }) => tool) as never,
          ...(nextCursor !== undefined ? { nextCursor } : {}),
        };
      }),
    );
    const methods = primitives && new PrimitiveMethods(primitives, options.pageSize);
    // A resource or prompt asks the client as a tool does: in rounds, its body stopped while it waits for an answer.
    const asking = (
      ctx: ServerContext,
      method: string,
      name: string,
      args: unknown,
      run: (askingCtx: ToolContext) => Promise<unknown>,
    ) =>
      wire(() =>
        this.#inRounds(ctx, requestDigest(method, name, args, scope.owner), (round, stop) =>
          run({
            ...listCtx,
            signal: anySignal([ctx.mcpReq.signal, stop]),
            log: logTo(ctx, name),
            elicit: round.elicit,
            sample: round.sample,
          }),
        ),
      ) as Promise<never>;
    if (methods !== undefined && "resources" in served) {
      server.setRequestHandler("resources/list", (request) =>
        wire(() => methods.listResources(request.params, listCtx) as never),
      );
      server.setRequestHandler("resources/templates/list", (request) =>
        wire(() => methods.listResourceTemplates(request.params, listCtx) as never),
      );
      server.setRequestHandler("resources/read", (request, ctx) =>
        asking(ctx, "resources/read", request.params.uri, {}, (readCtx) =>
          methods.readResource(request.params, readCtx),
        ),
      );
    }
    if (methods !== undefined && "prompts" in served) {
      server.setRequestHandler("prompts/list", (request) =>
        wire(() => methods.listPrompts(request.params, listCtx) as never),
      );
      server.setRequestHandler("prompts/get", (request, ctx) =>
        asking(ctx, "prompts/get", request.params.name, request.params.arguments ?? {}, (getCtx) =>
          methods.getPrompt(request.params, getCtx),
        ),
      );
    }
    if (methods !== undefined && "completions" in served) {
      server.setRequestHandler("completion/complete", (request, ctx) =>
        wire(() => methods.complete(request.params as never, { ...listCtx, signal: ctx.mcpReq.signal }) as never),
      );
    }
    server.setRequestHandler("tools/call", async (request, ctx) => {
      const requested = request.params.name;
      const args = request.params.arguments ?? {};
      const bound = declarations(kit).current(listCtx).binding.get(requested)?.tool;
      const digest = requestDigest("tools/call", requested, args, scope.owner);
      const tool = bound === undefined ? undefined : kit.get(bound);
      if (tasks !== undefined && tool?.task === true && clientTakesTasks(capabilitiesOf(ctx))) {
        this.#checkState(ctx, digest);
        return (await startTask(
          tasks,
          scope.owner,
          { requestId: ctx.mcpReq.id, params: request.params },
          { track: scope.trackTask, call: taskCall(kit, scope, tool, args) },
        )) as never;
      }
      const answer = await this.#inRounds<Awaited<ReturnType<typeof runToolCall>>>(
        ctx,
        digest,
        (round, stop) =>
          runToolCall(
            kit,
            scope,
            {
              requested,
              bound,
              args,
              requestId: ctx.mcpReq.id,
              signal: ctx.mcpReq.signal,
              progressToken: ctx.mcpReq._meta?.progressToken,
              notify: (notification) => ctx.mcpReq.notify(notification as never),
              input: () => ({ elicit: round.elicit, sample: round.sample }),
              log: logTo(ctx, bound ?? requested),
            },
            stop,
          ),
        ({ result }) => thrownBy(result)?.thrown,
      );
      if (sdk.server.isInputRequiredResult(answer)) return answer as never;
      const { result, tool: called, unknown } = answer;
      if (unknown) throw new sdk.server.ProtocolError(sdk.server.ProtocolErrorCode.InvalidParams, result.output);
      return server.projectCallToolResult(mcpCallResult(called, result) as never, called?.outputSchema);
    });
    if (tasks !== undefined) serveTaskMethods(server, sdk, tasks.store, scope.owner);
    return server;
  }

  /** Refuses a `requestState` minted for another request. */
  #checkState(ctx: ServerContext, digest: string): SignedRound | undefined {
    const previous = ctx.mcpReq.requestState<SignedRound>();
    if (previous !== undefined && previous.call !== digest)
      throw new this.sdk.server.ProtocolError(
        this.sdk.server.ProtocolErrorCode.InvalidParams,
        "Invalid requestState: it belongs to another request (method, name, arguments or credentials differ).",
      );
    return previous;
  }

  /**
   * One round of a request that may ask the client (`tools/call`, `prompts/get`,
   * `resources/read`): `run` gets the round's `ctx.elicit` / `ctx.sample` and a signal that
   * stops it once it waits for an answer. Questions left open answer `input_required` with this
   * round's signed state; a question the client cannot take that made the request fail
   * (thrown, or kept by the tool's failed result: `failureOf`) answers MCP's
   * missing-capability error, naming what to declare.
   */
  async #inRounds<T>(
    ctx: ServerContext,
    digest: string,
    run: (round: InputRound, stop: AbortSignal) => Promise<T>,
    failureOf: (value: T) => unknown = () => undefined,
  ): Promise<T | ReturnType<ModernSdk["server"]["inputRequired"]>> {
    const previous = this.#checkState(ctx, digest);
    const waiting = new AbortController();
    const round = new InputRound(previous, ctx.mcpReq.inputResponses, capabilitiesOf(ctx), () =>
      waiting.abort(new Error("The request waits for the client's answer.")),
    );
    const outcome = await run(round, waiting.signal).then(
      (value) => ({ value }),
      (error: unknown) => ({ error }),
    );
    if (round.pending.size > 0)
      return this.sdk.server.inputRequired({
        inputRequests: Object.fromEntries([...round.pending].map(([key, asked]) => [key, this.#inputRequest(asked)])),
        requestState: await this.#codec.mint({ ...round.next(), call: digest }),
      });
    const required = round.requiredBy("error" in outcome ? outcome.error : failureOf(outcome.value));
    if (required !== undefined)
      throw new this.sdk.server.MissingRequiredClientCapabilityError(
        { requiredCapabilities: required as never },
        `Serving this request needs the client to take ${capabilityNames(required)}: declare it in the request's clientCapabilities.`,
      );
    if ("error" in outcome) throw outcome.error;
    return outcome.value;
  }

  #inputRequest(asked: AskedInput) {
    const { inputRequired } = this.sdk.server;
    if (asked.kind === "sample") return inputRequired.createMessage(asked.params as never);
    const { request } = asked;
    return "url" in request
      ? inputRequired.elicitUrl({ message: request.message, url: request.url })
      : inputRequired.elicit({ message: request.message, requestedSchema: request.schema as never });
  }
}

/**
 * Serves 2026-07-28 requests over HTTP with the MCP SDK 2.x (`createMcpHandler`, modern
 * requests only: the 2025 era stays with the SDK 1.x server, which has its sessions and
 * tasks), a fresh server per request; `handle` is called once the transport's own checks
 * passed. A client that goes away aborts its call, as in the 2025 era.
 */
export class ModernHttpLeg {
  readonly #scopes = new AsyncLocalStorage<CallScope>();
  readonly #handler: ReturnType<ModernSdk["server"]["createMcpHandler"]>;
  readonly #serve: ReturnType<typeof NodeSdk.toNodeHandler>;

  constructor(
    servers: ModernServers,
    node: typeof NodeSdk,
    options: { jsonResponse?: boolean; maxBodyBytes: number; onError?: (error: Error) => void },
  ) {
    this.#handler = servers.sdk.server.createMcpHandler(
      () => {
        const scope = this.#scopes.getStore();
        // Never served without its request's scope: without it, a server would see every user's tools and tasks.
        if (scope === undefined) throw new Error("A 2026-07-28 server was made outside a request.");
        return servers.create(scope);
      },
      {
        legacy: "reject",
        responseMode: options.jsonResponse === true ? "json" : "auto",
        maxRequestBodySize: options.maxBodyBytes,
        ...(options.onError !== undefined ? { onerror: options.onError } : {}),
      },
    );
    this.#serve = node.toNodeHandler(this.#handler, options.onError !== undefined ? { onerror: options.onError } : {});
    // Clients listening for a resource (subscriptions/listen) hear it changed.
    this.#stopUpdates = primitivesOf(servers.kit)?.onResourceUpdated?.((uri) =>
      this.#handler.notify.resourceUpdated(uri),
    );
  }

  readonly #stopUpdates: (() => void) | undefined;

  /** Answers one 2026-07-28 request whose body has been read and checked. */
  handle(req: IncomingMessage, res: ServerResponse, body: unknown, scope: CallScope): Promise<void> {
    return this.#scopes.run(scope, () => this.#serve(req, res, body));
  }

  /** Aborts the 2026-07-28 exchanges still running. */
  close(): Promise<void> {
    this.#stopUpdates?.();
    return this.#handler.close();
  }
}

/** Refuses a `requestStateKey` too short to sign with (HMAC-SHA256 wants 32 bytes or more). */
export function checkRequestStateKey(key: unknown): void {
  if (key === undefined) return;
  const bytes = typeof key === "string" ? Buffer.byteLength(key) : key instanceof Uint8Array ? key.byteLength : -1;
  if (bytes < 32)
    throw new TypeError(
      `requestStateKey must be a string or bytes of 32 bytes or more (got ${bytes < 0 ? typeof key : `${bytes} bytes`}); ` +
        'e.g. crypto.randomBytes(32).toString("base64"), kept in your secret store and given to every instance.',
    );
}

/** The client's capabilities from the request's envelope. */
function capabilitiesOf(ctx: ServerContext): AnsweringCapabilities | undefined {
  return (ctx.mcpReq.envelope as Record<string, unknown> | undefined)?.[CLIENT_CAPABILITIES_META_KEY] as
    AnsweringCapabilities | undefined;
}

/** Which request a round's state belongs to: the method, what it names, its arguments and the client's credentials. */
function requestDigest(method: string, name: string, args: unknown, owner: string | undefined): string {
  return createHash("sha256")
    .update(canonicalJson([method, name, args, owner ?? ""]))
    .digest("base64url");
}

/** `{ sampling: { tools: {} } }` as "sampling.tools". */
function capabilityNames(capabilities: AnsweringCapabilities): string {
  return Object.entries(capabilities)
    .map(([name, modes]) => {
      const inner = Object.keys(modes as object);
      return inner.length === 0 ? name : inner.map((mode) => `${name}.${mode}`).join(", ");
    })
    .join(", ");
}
