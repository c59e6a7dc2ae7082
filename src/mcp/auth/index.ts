/**
 * The OAuth 2.1 resource server of the MCP HTTP handler (`auth`). Only `toolnexus/mcp`'s
 * serving modules reach it, and it loads `jose` only when a server with `auth` is made.
 */
export type { McpAuthInfo, McpAuthOptions, McpTokenClaims } from "./options";
export { ResourceServer, RESOURCE_METADATA_PATH, type AuthRefusal } from "./resource-server";
export { requiredScopes } from "./required-scopes";
