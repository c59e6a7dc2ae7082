/**
 * `toolnexus/mcp`: serve a toolkit as an MCP server, and use an MCP server's tools as
 * toolnexus tools. The official MCP SDK is an optional peer: the 2025 revisions are served with
 * `@modelcontextprotocol/sdk` 1.x, revision 2026-07-28 with `@modelcontextprotocol/server` and
 * `@modelcontextprotocol/node` 2.x; `fromMcp` takes a client of either. Nothing here loads an
 * SDK until a server is made, so `fromMcp` works with whichever the app has. The core entry
 * never imports this file.
 */
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { McpHttpHandler, McpHttpOptions } from "./http";
import type { McpServerHandle, ServeMcpOptions } from "./serve";
import type { McpServerOptions } from "./server";
import type { McpToolkit } from "./declarations";
import type { ToolSource } from "../toolkit";

export {
  DEFAULT_HTTP_LIMITS,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_MAX_TASK_TTL,
  DEFAULT_SHUTDOWN_TIMEOUT,
  DEFAULT_TASK_POLL_INTERVAL,
  DEFAULT_TASK_TTL,
  LOCAL_HOSTS,
  defaultAllowedHosts,
} from "./defaults";
export type { ServeMcpOptions, ServeStdioOptions, ServeHttpOptions, McpServerHandle } from "./serve";
export type { McpHttpHandler, McpHttpOptions } from "./http";
export type { McpAuthInfo, McpAuthOptions, McpTokenClaims } from "./auth";
export type { McpServerOptions } from "./server";
export type { McpToolkit } from "./declarations";
export type { McpTaskOptions } from "./tasks";
export { inMemoryTaskStore, type McpTaskStore } from "../tasks/task-store";
export { FROM_MCP_LIMITS } from "./from-mcp-limits";
export {
  fromMcp,
  type FromMcpOptions,
  type McpCallOptions,
  type McpListedTool,
  type McpToolFilter,
  type McpToolsClient,
  type McpToolsClientV1,
  type McpToolsClientV2,
} from "./from-mcp";
// A result as MCP's `CallToolResult`, for a server of your own (its type: `McpCallToolResult` from
// toolnexus/providers).
export { toMcpResult } from "../providers/mcp";

/**
 * Serves a toolkit as an MCP server over stdio (default) or streamable HTTP, to clients of
 * revision 2026-07-28 and of the 2025 revisions alike. Resolves once the server is listening.
 *
 * ```ts
 * const server = await serveMcp(toolkit, { transport: "http", port: 3000, token: process.env.MCP_TOKEN });
 * console.log(server.url); // http://127.0.0.1:3000/mcp
 * ```
 */
export async function serveMcp(
  toolkit: McpToolkit | readonly ToolSource[],
  options?: ServeMcpOptions,
): Promise<McpServerHandle> {
  return serving<typeof import("./serve")>("serveMcp", () => require("./serve")).serveMcp(toolkit, options);
}

/**
 * A framework-free Node `(req, res, parsedBody?)` handler for MCP's streamable HTTP transport,
 * stateless, for both protocol eras; see `McpHttpOptions` for the checks every request passes.
 */
export function createMcpHttpHandler(
  toolkit: McpToolkit | readonly ToolSource[],
  options?: McpHttpOptions,
): McpHttpHandler {
  return serving<typeof import("./http")>("createMcpHttpHandler", () => require("./http")).createMcpHttpHandler(
    toolkit,
    options,
  );
}

/**
 * A low-level MCP `Server` of the SDK 1.x (2025 revisions) with the toolkit's tools, to connect
 * to any SDK 1.x transport yourself.
 */
export function createMcpServer(
  toolkit: McpToolkit | readonly ToolSource[],
  options?: McpServerOptions & { state?: Record<string, unknown> },
): Server {
  return serving<typeof import("./server")>("createMcpServer", () => require("./server")).createMcpServer(
    toolkit,
    options,
  );
}

/** A serving module, or an error naming what to install when the MCP SDK 1.x it is built on is missing. */
function serving<T>(what: string, load: () => T): T {
  try {
    return load();
  } catch (error) {
    const missing =
      (error as NodeJS.ErrnoException).code === "MODULE_NOT_FOUND" &&
      String((error as Error).message).includes("@modelcontextprotocol/sdk");
    if (!missing) throw error;
    throw new Error(
      `${what} needs @modelcontextprotocol/sdk (1.x), an optional peer dependency that is not installed: it serves ` +
        "the 2025 protocol revisions, beside @modelcontextprotocol/server 2.x for revision 2026-07-28. Install it: " +
        "npm install @modelcontextprotocol/sdk",
      { cause: error },
    );
  }
}
