/**
 * The MCP server's defaults, in a module of their own: `toolnexus/mcp` exports them without
 * loading the MCP SDK, which the servers load only when one is made.
 */

/** Hosts a local server answers to by default (any port). */
export const LOCAL_HOSTS: readonly string[] = ["localhost", "127.0.0.1", "[::1]"];

/** Default request-size limit: 1 MiB. */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

/** How long `close()` waits for calls in flight before aborting them. */
export const DEFAULT_SHUTDOWN_TIMEOUT = 10_000;

/**
 * The HTTP server's defaults for `maxConnections`, `headersTimeout`, `requestTimeout` and `keepAliveTimeout`
 * (milliseconds).
 */
export const DEFAULT_HTTP_LIMITS: Readonly<{
  maxConnections: number;
  headersTimeout: number;
  requestTimeout: number;
  keepAliveTimeout: number;
}> = Object.freeze({
  maxConnections: 1_000,
  headersTimeout: 10_000,
  requestTimeout: 30_000,
  keepAliveTimeout: 65_000,
});

/** Loopback names always; the bound address too when it is a specific one. */
export function defaultAllowedHosts(host: string): string[] {
  const hosts = [...LOCAL_HOSTS];
  const wildcard = host === "0.0.0.0" || host === "::" || host === "";
  if (!wildcard && !hosts.includes(host.toLowerCase()))
    hosts.push(host.includes(":") && !host.startsWith("[") ? `[${host}]` : host);
  return hosts;
}

/** Milliseconds a task and its result are kept when the client asks for no `ttl` (1 hour). */
export const DEFAULT_TASK_TTL = 60 * 60 * 1_000;
/** The longest `ttl` a client may ask for (24 hours). */
export const DEFAULT_MAX_TASK_TTL = 24 * 60 * 60 * 1_000;
/** Milliseconds clients are told to wait between polls. */
export const DEFAULT_TASK_POLL_INTERVAL = 1_000;
