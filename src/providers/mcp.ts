import type { NameRule } from "../names";
import { plainObjectRoot, type ChangeLog } from "../schema/lowering";
import { mapSubschemas } from "../subschemas";
import type { JSONSchemaObject, Tool, ToolResult } from "../types";
import { callFrom, type ExportOptions, type ProviderAdapter } from "./adapter";

// ---- Declarations (`tools/list`) -------------------------------------------------------

export type McpToolAnnotations = {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
};

export type McpTool = {
  name: string;
  title?: string;
  description: string;
  inputSchema: JSONSchemaObject & { type: "object" };
  annotations?: McpToolAnnotations;
};

// ---- Results out (`tools/call`) --------------------------------------------------------

export type McpCallToolResult = { content: Array<{ type: "text"; text: string }>; isError: boolean };

/** A tool failure is a result with `isError: true`, never a JSON-RPC error. */
export function toMcpResult(result: ToolResult): McpCallToolResult {
  return { content: [{ type: "text", text: result.output }], isError: result.isError };
}

// ---- The adapter -----------------------------------------------------------------------

const NAMES: NameRule = { max: 128, pattern: /^[A-Za-z0-9._-]{1,128}$/, text: "1-128 characters from A-Z a-z 0-9 . _ -" };

/**
 * MCP takes full JSON Schema with an object at the root; the SDK's `Tool` schema wants every
 * property's schema to be an object, so boolean subschemas are written as the schemas they
 * mean (`true` → `{}`, `false` → `{ not: {} }`). Annotations come from `@Tool`. A call is a
 * `tools/call` request's `params`; the reply is its `CallToolResult`.
 */
export const mcp: ProviderAdapter<McpTool[], ExportOptions, McpCallToolResult | undefined> = {
  id: "mcp",
  names: NAMES,
  lower: (schema, log) => ({ schema: withSchemaObjects(plainObjectRoot(schema, log), log), codec: undefined }),
  declare: (tools) =>
    tools.map(({ tool, name, lowering }) => {
      const annotations = mcpAnnotations(tool);
      return {
        name,
        ...(tool.annotations?.title !== undefined ? { title: tool.annotations.title } : {}),
        description: tool.description,
        inputSchema: lowering.schema as McpTool["inputSchema"],
        ...(annotations !== undefined ? { annotations } : {}),
      };
    }),
  readCalls: (params) => [callFrom(params, { name: "name", args: "arguments" })],
  reply: (_calls, results) => (results[0] === undefined ? undefined : toMcpResult(results[0])),
};

/**
 * Boolean subschemas in maps and lists (where clients expect schema objects) written as
 * schemas; `additionalProperties: false` and the other single-schema keywords keep their
 * idiomatic booleans.
 */
function withSchemaObjects(schema: JSONSchemaObject, log: ChangeLog): JSONSchemaObject {
  return mapSubschemas(schema, (node, pointer, inCollection) => {
    if (typeof node !== "boolean" || !inCollection) return node;
    log.add(pointer(), "schema", "rewritten", node ? "true → {} (the same: any value)" : "false → { not: {} } (the same: no value)");
    return node ? {} : { not: {} };
  }) as JSONSchemaObject;
}

function mcpAnnotations(tool: Tool): McpToolAnnotations | undefined {
  const a = tool.annotations;
  if (a === undefined) return undefined;
  const hints: McpToolAnnotations = {};
  if (a.title !== undefined) hints.title = a.title;
  if (a.readOnly !== undefined) hints.readOnlyHint = a.readOnly;
  if (a.destructive !== undefined) hints.destructiveHint = a.destructive;
  if (a.idempotent !== undefined) hints.idempotentHint = a.idempotent;
  if (a.openWorld !== undefined) hints.openWorldHint = a.openWorld;
  return Object.keys(hints).length > 0 ? hints : undefined;
}
