import { createServer, type Server as HttpServer, type ServerOptions } from "node:http";
import type { AddressInfo } from "node:net";
import type { Readable, Writable } from "node:stream";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import {
  ErrorCode,
  isJSONRPCNotification,
  isJSONRPCRequest,
  type JSONRPCMessage,
  type RequestId,
} from "@modelcontextprotocol/sdk/types.js";
import type { ToolSource } from "../toolkit";
import { createMcpHttpHandler, type McpHttpOptions } from "./http";
import { DEFAULT_HTTP_LIMITS, DEFAULT_SHUTDOWN_TIMEOUT, defaultAllowedHosts } from "./defaults";
import { asToolkit, type McpToolkit } from "./declarations";
import { serverFor, type McpServerOptions } from "./server";
import { checkPageSize, primitivesOf } from "./primitives";
import { normalizedUri } from "../toolkit/primitive-registry";
import { divertStdout } from "../core/stdout";
import { ABORT_GRACE_MS, resolvedTaskOptions, RunningTasks, SHUTDOWN_REASON } from "./tasks";
import { claimsModernEra, modernSdk, unsupportedRevision } from "./modern-era";
import { checkRequestStateKey, ModernServers } from "./modern-server";
import { modernStdio, type ModernStdio } from "./modern-stdio";

export interface ServeStdioOptions extends McpServerOptions {
  transport?: "stdio";
  /** Default `process.stdin` / `process.stdout`. */
  stdin?: Readable;
  /**
   * Where the protocol goes. Default `process.stdout`: then, until the server has stopped,
   * everything else written to `process.stdout` (every `console` method, `process.stdout.write`)
   * goes to stderr instead, so that only the protocol reaches stdout.
   */
  stdout?: Writable;
  /** Host data for every call (`ctx.state`). */
  state?: Record<string, unknown>;
  /** Milliseconds `close()` waits for calls in flight before aborting them. Default 10 000. */
  shutdownTimeout?: number;
}

export interface ServeHttpOptions extends McpHttpOptions {
  transport: "http";
  /**
   * Interface to bind. Default "127.0.0.1" (this machine only). "0.0.0.0" binds every interface: set `token` and
   * `allowedHosts` then.
   */
  host?: string;
  /** Default 3000; 0 picks a free port (read it from the handle). */
  port?: number;
  /**
   * Where the endpoint lives. Default "/mcp"; other paths get 404, but for the protected-resource
   * metadata with `auth` (`/.well-known/oauth-protected-resource` and `auth.resource`'s path).
   */
  path?: string;
  /** Milliseconds `close()` waits for calls in flight before aborting them. Default 10 000. */
  shutdownTimeout?: number;
  /**
   * Open connections at most (idle keep-alive ones count). Past it, a new connection is closed
   * at once, unanswered, until one ends. Default 1000; `Infinity` for no cap.
   */
  maxConnections?: number;
  /**
   * Milliseconds a client has to send a request's headers (at most `requestTimeout`); then it gets 408 and is
   * disconnected. Default 10 000; 0 for none.
   */
  headersTimeout?: number;
  /**
   * Milliseconds a client has to send a whole request, headers and body; then it gets 408 and
   * is disconnected. Default 30 000; 0 for none. It ends once the request is in: a tool call
   * runs for as long as the toolkit's own `timeout` allows, however long that is.
   */
  requestTimeout?: number;
  /**
   * Milliseconds an idle keep-alive connection stays open for the client's next request.
   * Default 65 000: longer than the usual 60 s idle timeout of load balancers, so the server
   * never closes a connection the proxy is about to reuse. 0 for none (idle connections stay open).
   */
  keepAliveTimeout?: number;
}

export type ServeMcpOptions = ServeStdioOptions | ServeHttpOptions;

/** A running MCP server. */
export interface McpServerHandle {
  readonly transport: "stdio" | "http";
  /** HTTP: the endpoint, e.g. `http://127.0.0.1:3000/mcp`. */
  readonly url?: string;
  /** HTTP: the port actually bound (useful with `port: 0`). */
  readonly port?: number;
  /** HTTP: the interface bound. */
  readonly host?: string;
  /** Settles when the server has stopped: after `close()`, or (stdio) when the client closed stdin. */
  readonly closed: Promise<void>;
  /**
   * Graceful stop: takes no new calls, waits for the calls in flight and the task calls running (up to
   * `shutdownTimeout`), aborts those left (a task ends `failed`, saying the server shut down), then releases
   * everything.
   */
  close(): Promise<void>;
}

/**
 * Serves a toolkit as an MCP server over stdio (default) or streamable HTTP (stateless; see
 * `createMcpHttpHandler` for the checks every request passes). Resolves once the server is
 * listening.
 *
 * ```ts
 * const server = await serveMcp(toolkit, { transport: "http", port: 3000, token: process.env.MCP_TOKEN });
 * console.log(server.url); // http://127.0.0.1:3000/mcp
 * ```
 */
export async function serveMcp(
  toolkit: McpToolkit | readonly ToolSource[],
  options: ServeMcpOptions = {},
): Promise<McpServerHandle> {
  const kit = asToolkit(toolkit);
  return options.transport === "http" ? serveHttp(kit, options) : serveStdio(kit, options);
}

// ---- stdio ---------------------------------------------------------------------------

async function serveStdio(kit: McpToolkit, options: ServeStdioOptions): Promise<McpServerHandle> {
  checkRequestStateKey(options.requestStateKey);
  checkPageSize(options.pageSize);
  const tasks = resolvedTaskOptions(options.tasks);
  const stdin = options.stdin ?? process.stdin;
  const onError = options.onError ?? (() => {});
  // On the process's own stdout, whatever the tools print would land in the protocol stream.
  const diverted = options.stdout === undefined || options.stdout === process.stdout ? divertStdout() : undefined;
  const stdout = diverted?.protocol ?? options.stdout!;
  // Task calls run on after their tools/call is answered: closing waits for them too.
  let idle: (() => void) | undefined;
  const running = new RunningTasks(() => idle?.());
  // One scope for both eras' servers: the same state, and one task store whichever era a client speaks.
  const scope = {
    ...(options.state !== undefined ? { state: options.state } : {}),
    tasks,
    trackTask: running.track,
    session: { subscriptions: new Set<string>() },
  };
  const server = serverFor(kit, { ...options, onError: undefined }, scope);
  const transport = new StdioServerTransport(stdin, stdout);
  // The connection's client hears of the resources it subscribed to.
  const stopUpdates = primitivesOf(kit)?.onResourceUpdated?.((uri) => {
    if (scope.session.subscriptions.has(normalizedUri(uri))) void server.sendResourceUpdated({ uri }).catch(onError);
  });

  // A line that is not JSON, or not JSON-RPC, is answered with a JSON-RPC error (no id can be
  // known); the SDK itself would only report it. Either way the server keeps reading.
  server.onerror = (error) => {
    const code =
      error instanceof SyntaxError ? ErrorCode.ParseError : isSchemaError(error) ? ErrorCode.InvalidRequest : undefined;
    if (code !== undefined) {
      const message =
        code === ErrorCode.ParseError
          ? `Parse error: ${error.message}`
          : "Invalid Request: not a JSON-RPC 2.0 message.";
      void transport.send({ jsonrpc: "2.0", error: { code, message } } as JSONRPCMessage).catch(() => {});
    }
    onError(error);
  };

  try {
    await server.connect(transport);
  } catch (error) {
    diverted?.restore();
    throw error;
  }

  // In-flight accounting: a request is in flight from the moment it is read until its response is written.
  const pending = new Set<RequestId>();
  let closing = false;
  const receive = transport.onmessage!;
  // The connection's 2026-07-28 messages go to an SDK 2.x server, made when the first one arrives.
  let modern: ModernStdio | Error | undefined;
  const serveModern = (message: JSONRPCMessage) => {
    if (modern === undefined) {
      const sdk = modernSdk();
      if (sdk instanceof Error) onError(sdk);
      modern =
        sdk instanceof Error
          ? sdk
          : modernStdio(
              new ModernServers(sdk, kit, options),
              scope,
              (reply) => transport.send(reply as JSONRPCMessage),
              onError,
            );
    }
    if (!(modern instanceof Error)) return modern.deliver(message as never);
    if (isJSONRPCRequest(message))
      void transport.send(unsupportedRevision(message, modern) as JSONRPCMessage).catch(() => {});
  };
  transport.onmessage = (message: JSONRPCMessage) => {
    if (closing && isJSONRPCRequest(message)) {
      void transport
        .send({
          jsonrpc: "2.0",
          id: message.id,
          error: { code: ErrorCode.ConnectionClosed, message: "The server is shutting down." },
        })
        .catch(() => {});
      return;
    }
    if (isJSONRPCRequest(message)) pending.add(message.id);
    if (claimsModernEra(message, {})) serveModern(message);
    else receive(message);
    // A cancelled request gets no response: it is no longer in flight.
    if (isJSONRPCNotification(message) && message.method === "notifications/cancelled") {
      const id = (message.params as { requestId?: RequestId } | undefined)?.requestId;
      if (id !== undefined && pending.delete(id) && pending.size === 0) idle?.();
    }
  };
  const send = transport.send.bind(transport);
  transport.send = async (message: JSONRPCMessage) => {
    await send(message);
    if (
      "id" in message &&
      message.id !== undefined &&
      !("method" in message) &&
      pending.delete(message.id) &&
      pending.size === 0
    )
      idle?.();
  };

  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => (resolveClosed = resolve));
  let closePromise: Promise<void> | undefined;
  const close = (): Promise<void> =>
    (closePromise ??= (async () => {
      closing = true;
      stdin.pause();
      await waitUntil(
        () => pending.size === 0 && running.size === 0,
        (resolve) => (idle = resolve),
        options.shutdownTimeout ?? DEFAULT_SHUTDOWN_TIMEOUT,
      );
      stdin.off("end", onEnd);
      stopUpdates?.();
      try {
        running.abortAll(SHUTDOWN_REASON);
        if (modern !== undefined && !(modern instanceof Error)) await modern.close();
        await server.close(); // aborts the requests that still run
        // Aborted task calls store their outcome (within the grace they have) before the store may be closed.
        await waitUntil(
          () => running.size === 0,
          (resolve) => (idle = resolve),
          ABORT_GRACE_MS + 500,
        );
      } finally {
        diverted?.restore();
        resolveClosed();
      }
    })());
  const onEnd = () => void close();
  stdin.once("end", onEnd);

  return { transport: "stdio", closed, close };
}

function isSchemaError(error: Error): boolean {
  return error.name === "ZodError" || Array.isArray((error as { issues?: unknown }).issues);
}

/** Resolves when `done()` holds (re-checked whenever `register`'s callback is called) or after `timeout` ms. */
async function waitUntil(done: () => boolean, register: (wake: () => void) => void, timeout: number): Promise<void> {
  if (done()) return;
  let timer: NodeJS.Timeout | undefined;
  await new Promise<void>((resolve) => {
    register(() => {
      if (done()) resolve();
    });
    timer = setTimeout(resolve, timeout);
  });
  clearTimeout(timer);
}

// ---- HTTP ----------------------------------------------------------------------------

async function serveHttp(kit: McpToolkit, options: ServeHttpOptions): Promise<McpServerHandle> {
  const host = options.host ?? "127.0.0.1";
  const path = options.path ?? "/mcp";
  if (!path.startsWith("/")) throw new TypeError(`path must start with "/"; got "${path}".`);
  const port = options.port ?? 3000;
  if (!(Number.isInteger(port) && port >= 0 && port <= 65535))
    throw new TypeError(`port must be a whole number from 0 to 65535; got ${String(options.port)}.`);

  const limits = httpLimits(options);
  const allowedHosts = options.allowedHosts ?? defaultAllowedHosts(host);
  const handler = createMcpHttpHandler(kit, { ...options, allowedHosts });
  const server: HttpServer = createServer(limits, (req, res) => {
    // Only the path matters, and a malformed request target must not throw in this listener.
    const pathname = (req.url ?? "/").split("?")[0]!;
    // With auth, the handler answers the protected-resource metadata too (RFC 9728's well-known path).
    if (pathname !== path && !handler.resourceMetadataPaths.includes(pathname)) {
      const body = JSON.stringify({
        jsonrpc: "2.0",
        error: { code: ErrorCode.ConnectionClosed, message: `Not found: the MCP endpoint is ${path}.` },
        id: null,
      });
      res.writeHead(404, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
      res.end(body);
      return;
    }
    handler(req, res).catch(() => {
      if (!res.headersSent) res.statusCode = 500;
      res.end();
    });
  });
  server.maxConnections = limits.maxConnections;

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const urlHost = address.family === "IPv6" || address.address.includes(":") ? `[${address.address}]` : address.address;
  const shownHost = host === "0.0.0.0" || host === "::" ? "127.0.0.1" : urlHost;

  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => (resolveClosed = resolve));
  let closePromise: Promise<void> | undefined;
  const close = (): Promise<void> =>
    (closePromise ??= (async () => {
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      await handler.close({ timeout: options.shutdownTimeout ?? DEFAULT_SHUTDOWN_TIMEOUT });
      server.closeAllConnections();
      await stopped;
      resolveClosed();
    })());

  return {
    transport: "http",
    url: `http://${shownHost}:${address.port}${path}`,
    port: address.port,
    host: address.address,
    closed,
    close,
  };
}

/** The limits with their defaults, checked, as `createServer` options. */
function httpLimits(options: ServeHttpOptions): { maxConnections: number } & ServerOptions {
  const limits = {
    maxConnections: options.maxConnections ?? DEFAULT_HTTP_LIMITS.maxConnections,
    headersTimeout: options.headersTimeout ?? DEFAULT_HTTP_LIMITS.headersTimeout,
    requestTimeout: options.requestTimeout ?? DEFAULT_HTTP_LIMITS.requestTimeout,
    keepAliveTimeout: options.keepAliveTimeout ?? DEFAULT_HTTP_LIMITS.keepAliveTimeout,
  };
  if (!(
    limits.maxConnections === Infinity ||
    (Number.isSafeInteger(limits.maxConnections) && limits.maxConnections > 0)
  )) {
    throw new TypeError(
      `maxConnections must be a whole number above 0, or Infinity; got ${String(options.maxConnections)}.`,
    );
  }
  for (const name of ["headersTimeout", "requestTimeout", "keepAliveTimeout"] as const) {
    if (!(Number.isSafeInteger(limits[name]) && limits[name] >= 0))
      throw new TypeError(`${name} must be a whole number of milliseconds, 0 or more; got ${String(options[name])}.`);
  }
  if (limits.requestTimeout > 0 && limits.headersTimeout > limits.requestTimeout) {
    throw new TypeError(
      `headersTimeout (${limits.headersTimeout}) must not exceed requestTimeout (${limits.requestTimeout}): the ` +
        "headers are part of the request.",
    );
  }
  // Node checks the timeouts every 30 s by default, which would let a 10 s timeout run to 40 s.
  const shortest = Math.min(...[limits.headersTimeout, limits.requestTimeout].filter((timeout) => timeout > 0));
  return {
    ...limits,
    ...(Number.isFinite(shortest)
      ? { connectionsCheckingInterval: Math.max(10, Math.min(1_000, Math.floor(shortest / 4))) }
      : {}),
  };
}
