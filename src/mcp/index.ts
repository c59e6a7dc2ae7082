/**
 * `toolnexus/mcp`: serve a toolkit as an MCP server, and use an MCP server's tools as
 * toolnexus tools (official `@modelcontextprotocol/sdk`, an optional peer dependency: install
 * it to use this entry point). The core entry never imports this file.
 */
export {
  serveMcp,
  defaultAllowedHosts,
  DEFAULT_SHUTDOWN_TIMEOUT,
  DEFAULT_HTTP_LIMITS,
  type ServeMcpOptions,
  type ServeStdioOptions,
  type ServeHttpOptions,
  type McpServerHandle,
} from "./serve";
export {
  createMcpHttpHandler,
  DEFAULT_MAX_BODY_BYTES,
  LOCAL_HOSTS,
  type McpHttpHandler,
  type McpHttpOptions,
} from "./http";
export { createMcpServer, type McpServerOptions, type McpToolkit } from "./server";
export { DEFAULT_MAX_TASK_TTL, DEFAULT_TASK_POLL_INTERVAL, DEFAULT_TASK_TTL, type McpTaskOptions } from "./tasks";
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
