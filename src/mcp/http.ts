import { createHash, randomUUID, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { ErrorCode, isJSONRPCRequest, JSONRPCMessageSchema, type RequestId } from "@modelcontextprotocol/sdk/types.js";
import type { ToolSource } from "../toolkit";
import { asToolkit, type McpToolkit } from "./declarations";
import { serverFor, type McpServerOptions } from "./server";
import { unlistedOwner } from "../tasks/task-store";
import { DEFAULT_MAX_BODY_BYTES, LOCAL_HOSTS } from "./defaults";
import { claimsModernEra, modernNodeSdk, modernSdk, unsupportedRevision } from "./modern-era";
import { checkRequestStateKey, ModernHttpLeg, ModernServers } from "./modern-server";
import { SessionRelay } from "./session-relay";
import { checkPageSize } from "./primitives";
import { resolvedTaskOptions, RunningTasks, SHUTDOWN_REASON, ABORT_GRACE_MS } from "./tasks";
import { requiredScopes, ResourceServer, type McpAuthInfo, type McpAuthOptions } from "./auth";

/** Options of the streamable HTTP handler (and of `serveMcp` in HTTP mode). */
export interface McpHttpOptions extends McpServerOptions {
  /**
   * `Host` header values the handler answers (DNS rebinding protection); anything else gets
   * 403. An entry is a host name (`"localhost"`, any port), a `host:port`, or `"*"` (no check:
   * only behind a proxy that checks `Host` itself). IPv6 addresses in brackets: `"[::1]"`.
   * Default: `localhost`, `127.0.0.1`, `[::1]`.
   */
  allowedHosts?: readonly string[];
  /**
   * `Origin` header values accepted (browsers send one). Default: an origin whose host passes
   * `allowedHosts`. A request without `Origin` (every non-browser client) is not affected.
   */
  allowedOrigins?: readonly string[];
  /** When set, every request needs `Authorization: Bearer <token>`; otherwise 401. */
  token?: string;
  /**
   * OAuth 2.1 authorization, as MCP specifies it: every request needs an access token issued by
   * `auth.issuer` for this server (`auth.resource`), checked for signature, issuer, audience and
   * expiry (401 with a `WWW-Authenticate` challenge naming the protected-resource metadata
   * otherwise); a request for a tool, resource or prompt with `scopes` the token lacks gets 403
   * `insufficient_scope` naming them. The metadata (RFC 9728) is answered at `/.well-known/oauth-protected-resource`
   * followed by the resource URL's path (`handler.resourceMetadataPaths`: route those GETs to
   * the handler too). Each call's `ctx.state.auth` is the caller's `McpAuthInfo`. A client's
   * calls, tasks and session are told apart by the token's subject and client, so a refreshed
   * token keeps them. Not together with `token`.
   */
  auth?: McpAuthOptions;
  /**
   * Largest request body in bytes (declared `Content-Length` or counted while reading); larger
   * ones get 413 unread. Default 1 MiB. When you pass `parsedBody`, your body parser's own
   * limit applied when it read the body; the declared `Content-Length` is still checked.
   */
  maxBodyBytes?: number;
  /**
   * Answer with a single JSON body, never an SSE stream. Default false: 2025-era calls stream (SSE keeps long calls
   * alive through proxies); 2026-07-28 calls stream once they send progress or a log before their result, and are
   * a JSON body otherwise, so that an error found while serving keeps its HTTP status.
   */
  jsonResponse?: boolean;
  /** Host data for the tools (`ctx.state`) from the request: the user, the tenant ... */
  state?: (req: IncomingMessage) => Record<string, unknown> | undefined | Promise<Record<string, unknown> | undefined>;
}

/**
 * A Node `(req, res, parsedBody?)` handler for MCP's streamable HTTP transport, stateless,
 * plus what a host needs to drain it.
 */
export interface McpHttpHandler {
  (req: IncomingMessage, res: ServerResponse, parsedBody?: unknown): Promise<void>;
  /** HTTP requests being answered right now. */
  readonly activeRequests: number;
  /**
   * With `auth`: the paths of the protected-resource metadata the handler answers (GET), e.g.
   * `["/.well-known/oauth-protected-resource/mcp"]`. Empty without `auth`.
   */
  readonly resourceMetadataPaths: readonly string[];
  /**
   * Graceful stop: new requests get 503 (`Connection: close`); resolves once every request
   * in flight has been answered and every task call running in the background has ended.
   * After `timeout` ms (default 10 s) the calls still running are aborted (their tools see
   * `ctx.signal` fire and answer with an `aborted` result; a task ends `failed`, its result
   * saying the server shut down).
   */
  close(options?: { timeout?: number }): Promise<void>;
}

/**
 * Creates a framework-free handler that serves a toolkit over MCP's streamable HTTP
 * transport, stateless: every request gets a fresh SDK `Server` and transport (as the SDK's
 * stateless example does), so nothing is kept between requests and any number of instances
 * can run behind a load balancer.
 *
 * Before anything reaches the SDK, each request is checked, in this order:
 * 1. `Host` against `allowedHosts` (403) and `Origin` against `allowedOrigins` (403);
 * 2. `Authorization: Bearer <token>` when `token` is set (401, `WWW-Authenticate: Bearer`), or an
 *    OAuth access token when `auth` is (401; 403 `insufficient_scope` once the body names what
 *    the request needs; the protected-resource metadata is answered before anything but `Host`);
 * 3. method: POST only (GET and DELETE are for sessions; 405 with `Allow: POST`);
 * 4. size: `Content-Length` and the bytes read against `maxBodyBytes` (413);
 * 5. JSON (400, `-32700 Parse error`) and JSON-RPC shape (400, `-32600 Invalid Request`).
 * Refusals are JSON-RPC error bodies with `id: null`. The response to `initialize` carries a
 * fresh random `Mcp-Session-Id`, which clients send back; nothing is stored for it. A
 * `notifications/cancelled` aborts the matching call running in this process, matched by
 * request id, session and `Authorization`, so a client can cancel its own calls only. A
 * client that closes the connection aborts its calls. Tasks are likewise the session's, under
 * its `Authorization`; a request without a session reaches a task by its id only, and
 * `tasks/list` lists it none.
 *
 * Mounting: call it from any Node HTTP framework with the raw `IncomingMessage` and
 * `ServerResponse`. If a body parser already read the JSON body, pass it as `parsedBody`
 * (Express: `req.body`; NestJS: `@Req() req, @Res() res` and `req.body`); otherwise the
 * handler reads the body itself. The handler does not look at the path: mount it at the
 * route you want (conventionally `/mcp`). It never throws; an unexpected failure is a 500.
 *
 * @example
 * ```ts
 * const handler = createMcpHttpHandler(toolkit, {
 *   allowedHosts: ["localhost", "tools.example.com"],
 *   token: process.env.MCP_TOKEN
 * });
 * app.post("/mcp", (req, res) => handler(req, res, req.body));        // Express with express.json()
 * http.createServer((req, res) => handler(req, res)).listen(3000, "127.0.0.1");   // plain Node
 * process.on("SIGTERM", () => handler.close().then(() => process.exit(0)));
 * ```
 */
export function createMcpHttpHandler(
  toolkit: McpToolkit | readonly ToolSource[],
  options: McpHttpOptions = {},
): McpHttpHandler {
  const kit = asToolkit(toolkit);
  const allowedHosts = (options.allowedHosts ?? LOCAL_HOSTS).map(normalizeHostEntry);
  const allowedOrigins = options.allowedOrigins?.map((origin) => origin.toLowerCase().replace(/\/+$/, ""));
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  if (!(Number.isSafeInteger(maxBodyBytes) && maxBodyBytes > 0))
    throw new TypeError(`maxBodyBytes must be a positive whole number of bytes; got ${String(options.maxBodyBytes)}.`);
  if (options.token !== undefined && options.token.length === 0)
    throw new TypeError("token must not be empty; leave it out to serve without a token.");
  if (options.token !== undefined && options.auth !== undefined)
    throw new TypeError(
      "token and auth exclude each other: token is one shared secret, auth checks OAuth access tokens from an " +
        "authorization server. Keep one.",
    );
  const tokenDigest = options.token === undefined ? undefined : digest(options.token);
  checkRequestStateKey(options.requestStateKey);
  checkPageSize(options.pageSize);
  const calls = new CallRegistry();
  const relay = new SessionRelay();
  // One store for every request: each is served by a fresh server, and tasks outlive requests.
  const tasks = resolvedTaskOptions(options.tasks);
  const onError = options.onError ?? (() => {});
  const resourceServer = options.auth === undefined ? undefined : new ResourceServer(options.auth, onError);

  let active = 0;
  let closing = false;
  const drained = new Set<() => void>();
  const idle = () => active === 0 && running.size === 0;
  const settle = () => {
    if (idle()) for (const resolve of drained) resolve();
  };
  // Task calls outlive their requests: shutting down waits for them too.
  const running = new RunningTasks(settle);

  const handle = async (req: IncomingMessage, res: ServerResponse, parsedBody?: unknown): Promise<void> => {
    if (closing) {
      return refuse(
        res,
        503,
        "The server is shutting down; send the request again (another instance will answer it).",
        { connection: "close", "retry-after": "1" },
      );
    }
    active++;
    res.once("close", () => {
      active--;
      settle();
    });
    try {
      // Public, for any origin (browsers' clients read it cross-origin), and before any credentials.
      if (resourceServer?.isMetadataRequest(req)) {
        const wrongHost = checkHostHeader(req, allowedHosts);
        if (wrongHost !== undefined) return refuse(res, wrongHost.status, wrongHost.message, wrongHost.headers);
        const answer = resourceServer.metadataResponse(req.method);
        res.writeHead(answer.status, { ...answer.headers, "content-length": Buffer.byteLength(answer.body) });
        return void res.end(req.method === "HEAD" ? undefined : answer.body);
      }
      const denied = checkHost(req, allowedHosts, allowedOrigins) ?? checkToken(req, tokenDigest);
      if (denied !== undefined) return refuse(res, denied.status, denied.message, denied.headers);
      let authInfo: McpAuthInfo | undefined;
      if (resourceServer !== undefined) {
        const { info, refusal } = await resourceServer.authenticate(req);
        if (refusal !== undefined) return refuse(res, refusal.status, refusal.message, refusal.headers);
        authInfo = info;
      }
      // Who the client is: the token's subject and client with auth (a refreshed token is the same client), else
      // its Authorization as sent.
      const credentials = (authInfo !== undefined ? principalOf(authInfo) : undefined) ?? credentialsOf(req);
      if (req.method !== "POST") {
        return refuse(
          res,
          405,
          `Method ${req.method ?? "?"} not allowed: this MCP server is stateless, so it takes POST only (no ` +
            "sessions, no GET stream).",
          { allow: "POST" },
        );
      }
      if (parsedBody instanceof UnreadableBody)
        return refuse(res, parsedBody.status, parsedBody.message, { connection: "close" }, parsedBody.code);
      const declared = Number(req.headers["content-length"]);
      if (Number.isFinite(declared) && declared > maxBodyBytes)
        return refuse(res, 413, tooLarge(maxBodyBytes), { connection: "close" });

      let body = parsedBody;
      if (body === undefined) {
        const read = await readBody(req, maxBodyBytes);
        if (read === ABORTED) return; // the client went away mid-body: nobody to answer
        if (read === TOO_LARGE) return refuse(res, 413, tooLarge(maxBodyBytes), { connection: "close" });
        try {
          body = JSON.parse(read);
        } catch (error) {
          const notJson = UnreadableBody.notJson((error as Error).message);
          return refuse(res, notJson.status, notJson.message, {}, notJson.code);
        }
      }
      const invalid = checkMessages(body);
      if (invalid !== undefined) return refuse(res, 400, invalid, {}, ErrorCode.InvalidRequest);

      // The tools' ctx.state, made once: with auth, the caller's McpAuthInfo is its `auth`.
      let madeState: Promise<Record<string, unknown> | undefined> | undefined;
      const stateOf = () =>
        (madeState ??= (async () => {
          const state = await options.state?.(req);
          return authInfo === undefined ? state : { ...state, auth: authInfo };
        })());
      if (resourceServer !== undefined && authInfo !== undefined) {
        // Before either era's server: every request of a batch, each with what it names.
        const requests = ([body].flat() as Array<{ method?: unknown; params?: unknown }>).filter(
          (message): message is { method: string; params?: unknown } => typeof message.method === "string",
        );
        const needed = [...resourceServer.options.requiredScopes];
        if (requests.some((message) => SCOPED_METHODS.has(message.method))) {
          const state = await stateOf();
          // The ctx the request's server will resolve names with: the check sees what the call will run.
          const ctx = { provider: "mcp", ...(state !== undefined ? { state } : {}) };
          for (const message of requests) needed.push(...requiredScopes(kit, message, ctx));
        }
        const refusal = resourceServer.insufficientScope(authInfo, [...new Set(needed)]);
        if (refusal !== undefined) return refuse(res, refusal.status, refusal.message, refusal.headers);
      }

      if (claimsModernEra(body, req.headers)) return await serveModern(req, res, body, stateOf, credentials);

      const messages = [body].flat() as Array<{
        method?: string;
        id?: unknown;
        params?: { requestId?: RequestId; reason?: unknown };
      }>;
      // A session's id tells this client's calls from everyone else's; this instance keeps only what the
      // session declared at initialize and the log level it set (SessionRelay).
      let session = sessionOf(req);
      if (messages.some((message) => message.method === "initialize" && message.id !== undefined)) {
        session = randomUUID();
        res.setHeader(SESSION_HEADER, session);
      }
      const client = session === undefined ? undefined : clientKey(session, credentials);
      if (client !== undefined) {
        for (const message of messages)
          if (message.method === "initialize")
            relay.remember(client, (message.params as { capabilities?: unknown } | undefined)?.capabilities);
        // The client's answers to what a call here asked it: they go to that call, not to a fresh server.
        if (messages.every((message) => message.method === undefined && message.id !== undefined)) {
          if (messages.every((message) => relay.deliver(client, message))) return void res.writeHead(202).end();
        }
      }
      for (const message of messages) {
        if (
          client !== undefined &&
          message.method === "notifications/cancelled" &&
          message.params?.requestId !== undefined
        ) {
          const reason =
            typeof message.params.reason === "string" && message.params.reason !== ""
              ? message.params.reason
              : "Cancelled by the client.";
          calls.cancel(client, message.params.requestId, reason);
        }
      }
      const state = await stateOf();
      if (res.destroyed || res.writableEnded) return;
      const server = serverFor(kit, options, {
        ...(state !== undefined ? { state } : {}),
        track: (requestId, controller) => calls.add(client, requestId, controller),
        tasks,
        // A client's tasks are those of its session under its credentials, on whichever instance it lands;
        // without a session, nothing tells it from the others with its credentials: it reaches a task by its id only.
        owner: client ?? unlistedOwner(credentials),
        trackTask: running.track,
        ...(relay.capabilitiesOf(client) !== undefined ? { clientCapabilities: relay.capabilitiesOf(client) } : {}),
        ...(client !== undefined ? { session: relay.sessionOf(client) } : {}),
      });
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: options.jsonResponse ?? false,
      });
      res.once("close", () => {
        // Done, or the client went away: either way this request's server ends (and aborts what still runs).
        void transport.close().catch(() => {});
        void server.close().catch(() => {});
      });
      await server.connect(transport);
      if (client !== undefined) relayRequests(transport, client, relay, res);
      await transport.handleRequest(req, res, body);
    } catch (error) {
      onError(error instanceof Error ? error : new Error(String(error)));
      if (!res.headersSent)
        refuse(res, 500, "Internal error while handling the MCP request.", {}, ErrorCode.InternalError);
      else res.end();
    }
  };

  // The 2026-07-28 side, made when its first request arrives (and only with the MCP SDK 2.x installed).
  let modern: ModernHttpLeg | undefined;
  let missingReported = false;
  // subscriptions/listen streams stay open until their clients leave: shutting down ends them rather than waiting.
  const listening = new Set<ServerResponse>();
  const serveModern = async (
    req: IncomingMessage,
    res: ServerResponse,
    body: unknown,
    stateOf: () => Promise<Record<string, unknown> | undefined>,
    credentials: string,
  ): Promise<void> => {
    const sdk = modernSdk();
    const node = sdk instanceof Error ? sdk : modernNodeSdk();
    if (sdk instanceof Error || node instanceof Error) {
      const missing = sdk instanceof Error ? sdk : (node as Error);
      if (!missingReported) onError(missing);
      missingReported = true;
      // A notification gets no answer; a request, the revisions this server speaks.
      if ((body as { id?: unknown }).id === undefined) return void res.writeHead(202).end();
      return respond(res, 200, unsupportedRevision(body, missing));
    }
    modern ??= new ModernHttpLeg(new ModernServers(sdk, kit, options), node, { ...options, maxBodyBytes });
    const state = await stateOf();
    if (res.destroyed || res.writableEnded) return;
    if ((body as { method?: unknown }).method === "subscriptions/listen") {
      listening.add(res);
      res.once("close", () => listening.delete(res));
    }
    await modern.handle(req, res, body, {
      ...(state !== undefined ? { state } : {}),
      // No sessions in this era: a call is cancelled by its own connection closing (and by shutdown).
      track: (requestId, controller) => calls.add(undefined, requestId, controller),
      tasks,
      trackTask: running.track,
      // Nothing tells a client from the others with its credentials: it reaches its tasks by their ids.
      owner: unlistedOwner(credentials),
    });
  };

  /** Resolves true once no request and no task call is running, false after `ms`. */
  const idleWithin = (ms: number): Promise<boolean> => {
    if (idle()) return Promise.resolve(true);
    return new Promise((resolve) => {
      const done = (outcome: boolean) => {
        clearTimeout(timer);
        drained.delete(wake);
        resolve(outcome);
      };
      const wake = () => done(true);
      const timer = setTimeout(() => done(false), ms);
      drained.add(wake);
    });
  };

  const close = async ({ timeout = 10_000 }: { timeout?: number } = {}): Promise<void> => {
    closing = true;
    for (const res of listening) res.destroy();
    if (!(await idleWithin(timeout))) {
      calls.abortAll(new Error("The MCP server is shutting down."));
      running.abortAll(SHUTDOWN_REASON);
      // Aborted calls answer at once, and aborted tasks store their outcome: give that a moment.
      await idleWithin(ABORT_GRACE_MS + 500);
    }
    await modern?.close().catch(() => {});
  };

  return Object.defineProperties(handle, {
    activeRequests: { get: () => active, enumerable: true },
    resourceMetadataPaths: { value: resourceServer?.metadataPaths ?? Object.freeze([]), enumerable: true },
    close: { value: close, enumerable: true },
  }) as McpHttpHandler;
}

// ---- Checks --------------------------------------------------------------------------

interface Refusal {
  status: number;
  message: string;
  headers: Record<string, string>;
}

function checkHost(
  req: IncomingMessage,
  allowedHosts: readonly HostEntry[],
  allowedOrigins: readonly string[] | undefined,
): Refusal | undefined {
  const wrongHost = checkHostHeader(req, allowedHosts);
  if (wrongHost !== undefined) return wrongHost;
  const origin = req.headers.origin;
  if (origin === undefined) return undefined;
  const normalized = origin.toLowerCase().replace(/\/+$/, "");
  let ok: boolean;
  if (allowedOrigins !== undefined) ok = allowedOrigins.includes("*") || allowedOrigins.includes(normalized);
  else {
    try {
      ok = normalized !== "null" && hostAllowed(new URL(normalized).host, allowedHosts);
    } catch {
      ok = false;
    }
  }
  return ok
    ? undefined
    : {
        status: 403,
        message:
          `Origin "${origin}" is not allowed; add it to allowedOrigins if browsers on that origin may call ` +
          "these tools.",
        headers: {},
      };
}

function checkHostHeader(req: IncomingMessage, allowedHosts: readonly HostEntry[]): Refusal | undefined {
  const host = req.headers.host;
  if (hostAllowed(host, allowedHosts)) return undefined;
  return {
    status: 403,
    message:
      `Host "${host ?? ""}" is not allowed (DNS rebinding protection). If clients really reach this server ` +
      `under that name, add it to allowedHosts (toolnexus serve --allowed-host ${hostnameOf(host ?? "name")}).`,
    headers: {},
  };
}

/** The JSON-RPC methods whose scopes depend on what they name (`requiredScopes`). */
const SCOPED_METHODS: ReadonlySet<string> = new Set([
  "tools/call",
  "resources/read",
  "resources/subscribe",
  "prompts/get",
  "completion/complete",
]);

function checkToken(req: IncomingMessage, expected: Buffer | undefined): Refusal | undefined {
  if (expected === undefined) return undefined;
  const header = req.headers.authorization;
  const match = header === undefined ? null : /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  const challenge = { "www-authenticate": 'Bearer realm="toolnexus"' };
  if (match === null)
    return {
      status: 401,
      message: "Unauthorized: send the token as `Authorization: Bearer <token>`.",
      headers: challenge,
    };
  if (!timingSafeEqual(digest(match[1]!), expected)) {
    return {
      status: 401,
      message: "Unauthorized: the bearer token is not the one this server was started with.",
      headers: { "www-authenticate": 'Bearer realm="toolnexus", error="invalid_token"' },
    };
  }
  return undefined;
}

function checkMessages(body: unknown): string | undefined {
  const messages = [body].flat();
  if (messages.length === 0) return "Invalid Request: an empty batch.";
  for (const [index, message] of messages.entries()) {
    const parsed = JSONRPCMessageSchema.safeParse(message);
    if (!parsed.success) {
      const where = Array.isArray(body) ? ` (batch element ${index})` : "";
      return (
        `Invalid Request${where}: not a JSON-RPC 2.0 request, notification or response (it needs "jsonrpc": ` +
        `"2.0", and a string "method" or a "result"/"error" with an "id").`
      );
    }
  }
  return undefined;
}

type HostEntry = { hostname: string; port?: string } | "*";

function normalizeHostEntry(entry: string): HostEntry {
  const trimmed = entry.trim().toLowerCase();
  if (trimmed === "*") return "*";
  // A bare IPv6 address (more than one colon, no brackets) is a host name without a port.
  if (!trimmed.startsWith("[") && trimmed.split(":").length > 2) return { hostname: `[${trimmed}]` };
  return splitHost(trimmed);
}

function splitHost(host: string): { hostname: string; port?: string } {
  if (host.startsWith("[")) {
    const end = host.indexOf("]");
    const rest = host.slice(end + 1);
    return { hostname: host.slice(0, end + 1), ...(rest.startsWith(":") ? { port: rest.slice(1) } : {}) };
  }
  const colon = host.lastIndexOf(":");
  return colon === -1 ? { hostname: host } : { hostname: host.slice(0, colon), port: host.slice(colon + 1) };
}

function hostnameOf(host: string): string {
  return splitHost(host.toLowerCase()).hostname;
}

function hostAllowed(host: string | undefined, allowed: readonly HostEntry[]): boolean {
  if (allowed.includes("*")) return true;
  if (host === undefined || host.length === 0) return false;
  const { hostname, port } = splitHost(host.toLowerCase());
  return allowed.some(
    (entry) => entry !== "*" && entry.hostname === hostname && (entry.port === undefined || entry.port === port),
  );
}

function digest(text: string): Buffer {
  return createHash("sha256").update(text, "utf8").digest();
}

function tooLarge(limit: number): string {
  return `Request body too large: the limit is ${limit} bytes.`;
}

/**
 * Passed as `parsedBody` by a host whose body parser failed (the NestJS endpoint): the handler
 * runs its checks as for any request, then answers with this instead of reading a body.
 */
export class UnreadableBody {
  constructor(
    readonly status: number,
    readonly message: string,
    readonly code: number = ErrorCode.InvalidRequest,
  ) {}

  static notJson(detail: string): UnreadableBody {
    return new UnreadableBody(400, `Parse error: the body is not JSON (${detail}).`, ErrorCode.ParseError);
  }

  static tooLarge(limit: number): UnreadableBody {
    return new UnreadableBody(413, tooLarge(limit), ErrorCode.ConnectionClosed);
  }
}

const TOO_LARGE = Symbol("too large");
const ABORTED = Symbol("aborted");

/**
 * The body as text; TOO_LARGE once it passes `limit` (reading stops there); ABORTED when the client goes away first.
 */
function readBody(req: IncomingMessage, limit: number): Promise<string | typeof TOO_LARGE | typeof ABORTED> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.off("data", onData);
        req.pause();
        resolve(TOO_LARGE);
      } else chunks.push(chunk);
    };
    req.on("data", onData);
    req.once("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.once("close", () => resolve(ABORTED)); // after "end" this changes nothing: a promise settles once
    req.once("error", reject);
  });
}

function respond(res: ServerResponse, status: number, message: unknown, headers: Record<string, string> = {}): void {
  const body = JSON.stringify(message);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(body), ...headers });
  res.end(body);
}

/** A JSON-RPC error response with `id: null`, as JSON-RPC prescribes when no id can be known. */
function refuse(
  res: ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string> = {},
  code: number = ErrorCode.ConnectionClosed,
): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  respond(res, status, { jsonrpc: "2.0", error: { code, message }, id: null }, headers);
}

/**
 * A request the server sends the client on this POST's stream (an elicitation, a sampling
 * request) goes out under a wire id of the relay's, so that the response the client POSTs
 * later finds its way back to this server, under the request's own id.
 */
function relayRequests(
  transport: StreamableHTTPServerTransport,
  client: string,
  relay: SessionRelay,
  res: ServerResponse,
): void {
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    if (!isJSONRPCRequest(message)) return send(message, options);
    const { wireId, forget } = relay.send(client, (response: Record<string, unknown>) =>
      transport.onmessage?.({ ...response, id: message.id } as never),
    );
    res.once("close", forget);
    return send({ ...message, id: wireId }, options);
  };
}

// ---- Cancellation across requests -------------------------------------------------------

const SESSION_HEADER = "mcp-session-id";

/** The client's `Mcp-Session-Id`, when it is one (visible ASCII, as MCP defines it). */
function sessionOf(req: IncomingMessage): string | undefined {
  const value = req.headers[SESSION_HEADER];
  return typeof value === "string" && /^[\x21-\x7e]{1,256}$/.test(value) ? value : undefined;
}

/** Whose call it is: the session (a random id no other client knows) under the credentials that opened it. */
function clientKey(session: string, credentials: string): string {
  return `${session}\u0000${credentials}`;
}

/** With `auth`: the token's issuer, subject and client, as a digest; undefined when it names neither. */
function principalOf(info: McpAuthInfo): string | undefined {
  if (info.subject === undefined && info.clientId === undefined) return undefined;
  return digest(`oauth\u0000${info.issuer}\u0000${info.subject ?? ""}\u0000${info.clientId ?? ""}`).toString("hex");
}

/** The request's credentials, as a digest of its `Authorization` (the same for every request without one). */
function credentialsOf(req: IncomingMessage): string {
  return digest(req.headers.authorization ?? "").toString("hex");
}

/**
 * Stateless HTTP delivers `notifications/cancelled` in a request of its own, to a fresh
 * server that never saw the call. Calls running in this process are registered here by
 * client (MCP session and Authorization) and request id so that the notification can reach
 * them, and only them. A call without a session can be aborted only by its own connection
 * closing (and by shutdown).
 */
class CallRegistry {
  readonly #calls = new Map<string, Set<AbortController>>();
  readonly #all = new Set<AbortController>();

  add(client: string | undefined, requestId: RequestId, controller: AbortController): () => void {
    this.#all.add(controller);
    const key = client === undefined ? undefined : `${client}\u0000${JSON.stringify(requestId)}`;
    let set: Set<AbortController> | undefined;
    if (key !== undefined) {
      set = this.#calls.get(key);
      if (set === undefined) this.#calls.set(key, (set = new Set()));
      set.add(controller);
    }
    return () => {
      this.#all.delete(controller);
      if (key === undefined || set === undefined) return;
      set.delete(controller);
      if (set.size === 0 && this.#calls.get(key) === set) this.#calls.delete(key);
    };
  }

  cancel(client: string, requestId: RequestId, reason: string): void {
    for (const controller of this.#calls.get(`${client}\u0000${JSON.stringify(requestId)}`) ?? [])
      controller.abort(new Error(reason));
  }

  abortAll(reason: Error): void {
    for (const controller of this.#all) controller.abort(reason);
  }
}
