import { Option, type Command } from "commander";
import type * as Mcp from "../../mcp";
import { divertStdout } from "../../core/stdout";
import { CliError, messageOf } from "../errors";
import { finish, loadToolkit, note, wholeNumber, withModuleOptions, type ModuleOptions } from "../command-support";

interface ServeOptions extends ModuleOptions {
  stdio?: boolean;
  http?: string | true;
  token?: string;
  authIssuer?: string;
  authResource?: string;
  authAudience?: string[];
  authScopes?: string[];
  authJwksUri?: string;
  allowedHost?: string[];
  path: string;
  maxBody: number;
  jsonResponse?: boolean;
  shutdownTimeout: number;
  name: string;
}

/**
 * serveMcp's defaults, restated so that `--help` can show them without loading the MCP SDK
 * (test/cli/serve-defaults.test.ts holds them equal to the library's).
 */
export const SERVE_DEFAULTS = {
  address: "127.0.0.1:3000",
  path: "/mcp",
  maxBodyBytes: 1_048_576,
  shutdownTimeout: 10_000,
  name: "toolnexus",
} as const;

const AUTH = ["authIssuer", "authResource", "authAudience", "authScopes", "authJwksUri"] as const;
const HTTP_ONLY = ["token", ...AUTH, "allowedHost", "path", "maxBody", "jsonResponse"] as const;
const LOOPBACK = new Set(["127.0.0.1", "localhost", "::1", "[::1]"]);

/**
 * `toolnexus serve <module>`: an MCP server over stdio (default) or streamable HTTP. Each default shows once in
 * `--help`, as commander's "(default: ...)".
 */
export function registerServe(program: Command): Command {
  const command = program
    .command("serve")
    .description("serve the tools as an MCP server over stdio, or over streamable HTTP (stateless) with --http")
    .argument("<module>", "a .ts or .js module that exports tools")
    .option("--stdio", "serve over stdin/stdout (the default)")
    .option(
      "--http [address]",
      `serve over streamable HTTP at [host:]port; port 0 picks a free one (--http alone: ${SERVE_DEFAULTS.address})`,
    )
    .addOption(new Option("--token <token>", "HTTP: require Authorization: Bearer <token>").env("TOOLNEXUS_TOKEN"))
    .option(
      "--auth-issuer <url>",
      "HTTP: require OAuth access tokens from this authorization server (its issuer URL); with --auth-resource",
    )
    .option(
      "--auth-resource <url>",
      "HTTP, OAuth: this server's URL as clients reach it (e.g. https://tools.example.com/mcp): the tokens' audience",
    )
    .option(
      "--auth-audience <aud>",
      "HTTP, OAuth: accept tokens for this audience instead of --auth-resource (repeatable)",
      (value: string, all: string[] = []) => [...all, value],
    )
    .option(
      "--auth-scopes <scopes>",
      "HTTP, OAuth: scopes every request's token needs, space- or comma-separated (repeatable)",
      (value: string, all: string[] = []) => [...all, ...value.split(/[\s,]+/).filter(Boolean)],
    )
    .option(
      "--auth-jwks-uri <url>",
      "HTTP, OAuth: the issuer's signing keys (default: found from the issuer's metadata)",
    )
    .option(
      "--allowed-host <host>",
      "HTTP: also answer this Host header (repeatable); localhost, 127.0.0.1 and [::1] are always answered",
      (value: string, all: string[] = []) => [...all, value],
    )
    .option("--path <path>", "HTTP: the endpoint path", SERVE_DEFAULTS.path)
    .option(
      "--max-body <bytes>",
      "HTTP: request-size limit in bytes",
      wholeNumber("--max-body", { min: 1 }),
      SERVE_DEFAULTS.maxBodyBytes,
    )
    .option("--json-response", "HTTP: answer with JSON bodies, never SSE streams")
    .option(
      "--shutdown-timeout <ms>",
      "on Ctrl-C/SIGTERM, wait this long for calls in flight before aborting them",
      wholeNumber("--shutdown-timeout"),
      SERVE_DEFAULTS.shutdownTimeout,
    )
    .option("--name <name>", "the server name sent to clients", SERVE_DEFAULTS.name);
  return withModuleOptions(command).action(async (specifier: string, options: ServeOptions, self: Command) => {
    const verbose = Boolean(self.optsWithGlobals().verbose);
    if (options.stdio && options.http !== undefined)
      throw new CliError("--stdio and --http exclude each other. Pick one.");
    if (options.http === undefined) {
      const given = HTTP_ONLY.filter((key) => self.getOptionValueSource(key) === "cli");
      if (given.length > 0) {
        throw new CliError(
          `${given.map((key) => `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`).join(", ")} ` +
            `${given.length === 1 ? "applies" : "apply"} to HTTP only. Add --http [host:]port, or drop ` +
            `${given.length === 1 ? "it" : "them"}.`,
        );
      }
      // stdout carries the protocol: whatever the module logs, from loading on, goes to stderr
      // instead. The process ends with the server, so the diversion is never undone.
      divertStdout();
    }
    const address = options.http === undefined ? undefined : parseAddress(options.http);
    const auth = authOptions(options, self);
    const toolkit = await loadToolkit(specifier, self);
    const mcp = loadMcp();
    const onError = verbose ? (error: Error) => note(`mcp: ${messageOf(error)}`) : undefined;
    const common = { name: options.name, shutdownTimeout: options.shutdownTimeout, ...(onError ? { onError } : {}) };
    const allowedHosts = options.allowedHost ?? [];
    let handle: Mcp.McpServerHandle;
    try {
      handle =
        address === undefined
          ? await mcp.serveMcp(toolkit, { transport: "stdio", ...common })
          : await mcp.serveMcp(toolkit, {
              transport: "http",
              host: address.host,
              port: address.port,
              path: options.path,
              ...(options.token !== undefined ? { token: options.token } : {}),
              ...(auth !== undefined ? { auth } : {}),
              ...(allowedHosts.length > 0
                ? { allowedHosts: [...mcp.defaultAllowedHosts(address.host), ...allowedHosts] }
                : {}),
              maxBodyBytes: options.maxBody,
              ...(options.jsonResponse ? { jsonResponse: true } : {}),
              ...common,
            });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const where = address ? `${address.host}:${address.port}` : "stdio";
      if (code === "EADDRINUSE")
        throw new CliError(
          `cannot listen on ${where}: the port is in use. Pick another port (--http ${address!.host}:<port>, or 0 ` +
            "for a free one) or stop the other server.",
          2,
          {
            cause: error,
          },
        );
      if (code === "EACCES")
        throw new CliError(`cannot listen on ${where}: permission denied. Use a port above 1023.`, 2, { cause: error });
      if (code === "EADDRNOTAVAIL" || code === "ENOTFOUND")
        throw new CliError(
          `cannot listen on ${where}: no such address on this machine. Use 127.0.0.1, 0.0.0.0, or one of this ` +
            "machine's addresses.",
          2,
          { cause: error },
        );
      throw new CliError(`cannot serve ${specifier}: ${messageOf(error)}`, 2, { cause: error });
    }

    const count = toolkit.tools().length;
    const tools = `${count} tool${count === 1 ? "" : "s"}`;
    if (handle.transport === "http") {
      note(`serving ${tools} over MCP at ${handle.url} (streamable HTTP, stateless; Ctrl-C to stop)`);
      if (auth !== undefined) note(`requiring OAuth access tokens issued by ${auth.issuer} for ${auth.resource}`);
      if (!LOOPBACK.has(address!.host) && options.token === undefined && auth === undefined)
        note(
          "warning: listening beyond this machine without --token or --auth-issuer: anyone who can reach the port " +
            "can run these tools.",
        );
      if ((address!.host === "0.0.0.0" || address!.host === "::") && allowedHosts.length === 0) {
        note(
          "note: only the Host headers localhost, 127.0.0.1 and [::1] are answered; add --allowed-host <name> for " +
            "each name clients use.",
        );
      }
    } else {
      note(`serving ${tools} over MCP on stdio`);
    }

    let stopping = false;
    const stop = () => {
      if (stopping) process.exit(130);
      stopping = true;
      note("stopping: finishing the calls in flight (press Ctrl-C again to quit at once)");
      void handle.close();
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
    await handle.closed;
    return finish(0);
  });
}

/** The `auth` option from the --auth-* flags; undefined when none is given. */
function authOptions(options: ServeOptions, self: Command): Mcp.McpAuthOptions | undefined {
  const given = AUTH.filter((key) => self.getOptionValueSource(key) === "cli");
  if (given.length === 0) return undefined;
  if (options.authIssuer === undefined || options.authResource === undefined)
    throw new CliError(
      "OAuth needs both --auth-issuer <the authorization server's issuer URL> and --auth-resource <this server's " +
        "URL as clients reach it, e.g. https://tools.example.com/mcp>.",
    );
  if (options.token !== undefined)
    throw new CliError(
      "--token and --auth-issuer exclude each other (TOOLNEXUS_TOKEN counts as --token): one shared secret, or " +
        "OAuth access tokens. Keep one.",
    );
  return {
    issuer: options.authIssuer,
    resource: options.authResource,
    ...(options.authAudience !== undefined ? { audience: options.authAudience } : {}),
    ...(options.authScopes !== undefined && options.authScopes.length > 0
      ? { requiredScopes: options.authScopes }
      : {}),
    ...(options.authJwksUri !== undefined ? { jwksUri: options.authJwksUri } : {}),
  };
}

function parseAddress(value: string | true): { host: string; port: number } {
  if (value === true) return parseAddress(SERVE_DEFAULTS.address);
  const match = /^(?:(\[[^\]]+\]|[^:[\]]+):)?(\d{1,5})$/.exec(value.trim());
  const port = match ? Number(match[2]) : NaN;
  if (match === null || port > 65535)
    throw new CliError(`--http takes [host:]port, e.g. 3000, 127.0.0.1:3000 or [::1]:3000; got "${value}".`);
  return { host: match[1] ? match[1].replace(/^\[|\]$/g, "") : "127.0.0.1", port };
}

/**
 * The MCP entry, which serves with the optional peer dependency @modelcontextprotocol/sdk: its
 * absence is told now, before the module is served, rather than when the server is made.
 */
function loadMcp(): typeof Mcp {
  try {
    require.resolve("@modelcontextprotocol/sdk/server/index.js");
  } catch (error) {
    throw new CliError(
      "serving MCP needs @modelcontextprotocol/sdk, an optional peer dependency that is not installed. Install it: " +
        "npm install @modelcontextprotocol/sdk (and @modelcontextprotocol/server @modelcontextprotocol/node for " +
        "clients of revision 2026-07-28)",
      2,
      { cause: error },
    );
  }
  return require("../../mcp") as typeof Mcp;
}
