import { AsyncLocalStorage } from "node:async_hooks";
import { createHash, randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import type { Server as ModernServer, ServerContext } from "@modelcontextprotocol/server";
import { mcpCallResult, type McpTool } from "../providers/mcp";
import type { ToolContext } from "../core/types";
import { packageVersion } from "../core/version";
import { anySignal, progressReporter } from "./call-progress";
import type { AnsweringCapabilities } from "./client-capabilities";
import { declarations, type McpToolkit } from "./declarations";
import { InputRound, type AskedInput, type InputRoundState } from "./input-round";
import type { ModernSdk } from "./modern-era";
import { clientTakesTasks, serveTaskMethods, startTask, TASKS_EXTENSION } from "./modern-tasks";
import type { CallScope, McpServerOptions } from "./server";
import { resolvedTaskOptions } from "./tasks";

type TaskOptions = ReturnType<typeof resolvedTaskOptions>;

/** How long a call waiting for the client's answers may take to come back with them. */
const REQUEST_STATE_TTL_SECONDS = 600;

/** The client's capabilities as a 2026-07-28 request's envelope carries them. */
const CLIENT_CAPABILITIES_META_KEY = "io.modelcontextprotocol/clientCapabilities";

/** What a round's signed state holds beside the answers: which call it belongs to. */
interface SignedRound extends InputRoundState {
  call: string;
}

/**
 * Makes MCP SDK 2.x servers for the 2026-07-28 era: per HTTP request, or once per stdio
 * connection. Each has the toolkit's tools as the 2025-era server has them (per-user lists,
 * the same results and failures, progress, cancellation), answers the tools' `ctx.elicit` and
 * `ctx.sample` by multi-round-trip, and signs what a waiting call keeps with one key.
 */
export class ModernServers {
  readonly #codec: ReturnType<ModernSdk["server"]["createRequestStateCodec"]>;

  constructor(
    readonly sdk: ModernSdk,
    private readonly kit: McpToolkit,
    private readonly options: McpServerOptions,
  ) {
    this.#codec = sdk.server.createRequestStateCodec<SignedRound>({
      key: options.requestStateKey ?? randomBytes(32),
      ttlSeconds: REQUEST_STATE_TTL_SECONDS,
    });
  }

  /** The task options of servers that have no shared ones (stdio): one store for every server made here. */
  #ownTasks: TaskOptions | undefined;

  /** Where this server's tasks go, when it has task tools (or task options). */
  #tasks(scope: CallScope, listCtx: ToolContext): TaskOptions | undefined {
    if (this.options.tasks === undefined && !this.kit.tools(listCtx).some((tool) => tool.task === true))
      return undefined;
    return scope.tasks ?? (this.#ownTasks ??= resolvedTaskOptions(this.options.tasks));
  }

  create(scope: CallScope): ModernServer {
    const { kit, options, sdk } = this;
    const listCtx: ToolContext = { provider: "mcp", ...(scope.state !== undefined ? { state: scope.state } : {}) };
    const tasks = this.#tasks(scope, listCtx);
    const server = new sdk.server.Server(
      { name: options.name ?? "toolnexus", version: options.version ?? packageVersion() },
      {
        capabilities: {
          tools: { listChanged: false },
          ...(tasks !== undefined ? { extensions: { [TASKS_EXTENSION]: {} } } : {}),
        },
        ...(options.instructions !== undefined ? { instructions: options.instructions } : {}),
        requestState: { verify: (state, ctx) => this.#codec.verify(state, ctx) },
      },
    );
    // Task support is a 2025-era capability here: a 2026-07-28 client calls a task tool as a plain tool.
    server.setRequestHandler("tools/list", () => ({
      tools: declarations(kit)
        .current(listCtx)
        .tools.map(({ execution: _execution, ...tool }: McpTool & { execution?: unknown }) => tool) as never,
    }));
    server.setRequestHandler("tools/call", async (request, ctx) => {
      const requested = request.params.name;
      const args = request.params.arguments ?? {};
      const bound = declarations(kit).current(listCtx).binding.get(requested)?.tool;
      const call = callDigest(requested, args, scope.owner);
      const previous = ctx.mcpReq.requestState<SignedRound>();
      if (previous !== undefined && previous.call !== call)
        throw new sdk.server.ProtocolError(
          sdk.server.ProtocolErrorCode.InvalidParams,
          "Invalid requestState: it belongs to another call (tool, arguments or credentials differ).",
        );
      const tool = bound === undefined ? undefined : kit.get(bound);
      if (tasks !== undefined && tool?.task === true && clientTakesTasks(capabilitiesOf(ctx))) {
        return (await startTask(
          tasks,
          scope.owner,
          { requestId: ctx.mcpReq.id, params: request.params },
          {
            track: scope.trackTask,
            call: async (taskCtx) => {
              const result = await kit.execute(bound!, args, {
                ...taskCtx,
                provider: "mcp",
                ...(scope.state !== undefined ? { state: scope.state } : {}),
              });
              return { result, mcp: mcpCallResult(tool, result) };
            },
          },
        )) as never;
      }
      const controller = new AbortController();
      const release = scope.track?.(ctx.mcpReq.id, controller);
      const round = new InputRound(previous, ctx.mcpReq.inputResponses, capabilitiesOf(ctx), () =>
        controller.abort(new Error("The call waits for the client's answer.")),
      );
      const signal = anySignal([ctx.mcpReq.signal, controller.signal]);
      const progress = progressReporter(ctx.mcpReq._meta?.progressToken, (notification) =>
        ctx.mcpReq.notify(notification as never),
      );
      try {
        const result = await kit.execute(bound ?? requested, args, {
          signal,
          callId: String(ctx.mcpReq.id),
          provider: "mcp",
          ...(scope.state !== undefined ? { state: scope.state } : {}),
          reportProgress: progress.report,
          elicit: round.elicit,
          sample: round.sample,
        });
        await progress.sent();
        if (round.pending.size > 0) {
          return sdk.server.inputRequired({
            inputRequests: Object.fromEntries(
              [...round.pending].map(([key, asked]) => [key, this.#inputRequest(asked)]),
            ),
            requestState: await this.#codec.mint({ ...round.next(), call }),
          });
        }
        if (bound === undefined && result.isError && result.metadata?.error === "unknown_tool")
          throw new sdk.server.ProtocolError(sdk.server.ProtocolErrorCode.InvalidParams, result.output);
        const called = tool ?? kit.get(requested);
        return server.projectCallToolResult(mcpCallResult(called, result) as never, called?.outputSchema);
      } finally {
        release?.();
      }
    });
    if (tasks !== undefined) serveTaskMethods(server, sdk, tasks.store, scope.owner);
    return server;
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
 * tasks), a fresh server per request; `handle` is called once the transport's own checks passed.
 */
export class ModernHttpLeg {
  readonly #scopes = new AsyncLocalStorage<CallScope>();
  readonly #handler: ReturnType<ModernSdk["server"]["createMcpHandler"]>;

  constructor(
    private readonly servers: ModernServers,
    options: { jsonResponse?: boolean; maxBodyBytes: number; onError?: (error: Error) => void },
  ) {
    this.#handler = servers.sdk.server.createMcpHandler(() => servers.create(this.#scopes.getStore() ?? {}), {
      legacy: "reject",
      responseMode: options.jsonResponse === true ? "json" : "sse",
      maxRequestBodySize: options.maxBodyBytes,
      ...(options.onError !== undefined ? { onerror: options.onError } : {}),
    });
  }

  /** Answers one 2026-07-28 request whose body has been read and checked. */
  async handle(req: IncomingMessage, res: ServerResponse, body: unknown, scope: CallScope): Promise<void> {
    const request = await this.servers.sdk.node.toWebRequest(req, body);
    const response = await this.#scopes.run(scope, () => this.#handler.fetch(request, { parsedBody: body }));
    await writeResponse(res, response);
  }

  /** Aborts the 2026-07-28 exchanges still running. */
  close(): Promise<void> {
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

/** Which call a round's state belongs to: the tool, its arguments and the client's credentials. */
function callDigest(name: string, args: unknown, owner: string | undefined): string {
  return createHash("sha256")
    .update(JSON.stringify([name, args, owner ?? ""]))
    .digest("base64url");
}

/** Writes a web `Response` to a Node response, streaming its body (SSE) until it ends or the client goes away. */
async function writeResponse(res: ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, key) => (headers[key] = value));
  res.writeHead(response.status, headers);
  if (response.body === null) {
    res.end();
    return;
  }
  const body = Readable.fromWeb(response.body as never);
  res.once("close", () => body.destroy());
  await new Promise<void>((resolve) => {
    body.once("error", () => resolve());
    body.once("end", () => resolve());
    body.pipe(res);
  });
}
