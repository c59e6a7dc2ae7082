import { plainObjectRoot } from "../schema/lowering";
import type { JSONSchemaObject, Tool, ToolResult } from "../types";
import { lowerTools, type ExportOptions, type ExportReport } from "./shared";

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

export function toMcp(tools: readonly Tool[], options: ExportOptions = {}): McpTool[] {
  return exportMcp(tools, options).declarations;
}

/** MCP takes full JSON Schema; only the root must be an object. Annotations come from `@Tool`. */
export function exportMcp(tools: readonly Tool[], options: ExportOptions = {}): ExportReport<McpTool[]> {
  const { lowered, changes } = lowerTools("mcp", tools, options, (tool, log) => plainObjectRoot(tool.inputSchema, log));
  const declarations = lowered.map(({ tool, name, schema: inputSchema }) => {
    const annotations = mcpAnnotations(tool);
    return {
      name,
      ...(tool.annotations?.title !== undefined ? { title: tool.annotations.title } : {}),
      description: tool.description,
      inputSchema,
      ...(annotations !== undefined ? { annotations } : {}),
    };
  });
  return { declarations, changes };
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

// ---- Results out (`tools/call`) --------------------------------------------------------

export type McpCallToolResult = { content: Array<{ type: "text"; text: string }>; isError: boolean };

/** A tool failure is a result with `isError: true`, never a JSON-RPC error. */
export function toMcpResult(result: ToolResult): McpCallToolResult {
  return { content: [{ type: "text", text: result.output }], isError: result.isError };
}
