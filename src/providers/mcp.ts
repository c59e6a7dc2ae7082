import type { NameRule } from "../core/names";
import { fileNameOfUri } from "../runtime/content";
import { invalidOutput } from "../runtime/result";
import { ChangeLog, plainObjectRoot, rootWithoutRef } from "../schema/lowering";
import { describesObjects } from "../schema/describes-objects";
import { mapSubschemas } from "../core/subschemas";
import type { ContentAnnotations, Icon, JSONSchemaObject, Tool, ToolContent, ToolResult } from "../core/types";
import { callFrom, type ExportOptions, type Provider } from "./adapter";

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
  /** What the tool's `structuredContent` looks like (clients check results against it). */
  outputSchema?: JSONSchemaObject & { type: "object" };
  annotations?: McpToolAnnotations;
  /** Icons a client may show beside the tool. */
  icons?: Icon[];
};

// ---- Results out (`tools/call`) --------------------------------------------------------

/**
 * A content block of a `CallToolResult`, with the part's `annotations` (audience, priority, lastModified) when it has
 * them.
 */
export type McpContent =
  | { type: "text"; text: string; annotations?: ContentAnnotations }
  | { type: "image"; data: string; mimeType: string; annotations?: ContentAnnotations }
  | { type: "audio"; data: string; mimeType: string; annotations?: ContentAnnotations }
  | { type: "resource"; resource: McpEmbeddedResource; annotations?: ContentAnnotations }
  | {
      type: "resource_link";
      uri: string;
      name: string;
      mimeType?: string;
      description?: string;
      annotations?: ContentAnnotations;
    };

/** A file carried in the result itself: its text (for readable text files) or its bytes as base64 `blob`. */
export type McpEmbeddedResource =
  { uri: string; mimeType: string; text: string } | { uri: string; mimeType: string; blob: string };

export type McpCallToolResult = {
  content: McpContent[];
  structuredContent?: Record<string, unknown>;
  isError: boolean;
};

/**
 * `tool`'s result as the `CallToolResult` an MCP server answers with. A tool that declares an
 * output schema must answer every success with `structuredContent` (the client refuses the
 * response otherwise, as a protocol error). Tools made by toolnexus do; a hand-written `Tool`
 * that does not is told it is at fault, as an `invalid_output` result.
 */
export function mcpCallResult(tool: Tool | undefined, result: ToolResult): McpCallToolResult {
  const missing = tool?.outputSchema !== undefined && !result.isError && result.structuredContent === undefined;
  return toMcpResult(missing ? invalidOutput(tool.name, ["the result has no structuredContent"]) : result);
}

/**
 * A result as MCP's `CallToolResult`: its parts as content blocks (inline images and audio as
 * such, inline files as embedded resources, anything by URL as a `resource_link`), each with
 * the part's `annotations`, or its text; `structuredContent` with its JSON text beside it. A
 * tool failure is a result with `isError: true`, never a JSON-RPC error.
 */
export function toMcpResult(result: ToolResult): McpCallToolResult {
  const content =
    result.content !== undefined && result.content.length > 0
      ? result.content.map(mcpContent)
      : [textBlock(result.output)];
  // Clients check any structuredContent against the tool's output schema, and an error's need not match it.
  if (result.structuredContent === undefined || result.isError) return { content, isError: result.isError };
  return {
    content: withJsonText(content, result.structuredContent),
    structuredContent: result.structuredContent,
    isError: false,
  };
}

function mcpContent(part: ToolContent, index: number): McpContent {
  const block = contentBlock(part, index);
  return part.annotations !== undefined ? { ...block, annotations: part.annotations } : block;
}

function contentBlock(part: ToolContent, index: number): McpContent {
  switch (part.type) {
    case "text":
      return textBlock(part.text);
    case "image":
      return "data" in part
        ? { type: "image", data: part.data, mimeType: part.mimeType }
        : resourceLinkBlock(part.url, undefined, part.mimeType);
    case "audio":
      return { type: "audio", data: part.data, mimeType: part.mimeType };
    case "file":
      return "data" in part
        ? { type: "resource", resource: embeddedFile(part, index) }
        : resourceLinkBlock(part.url, part.name, part.mimeType);
    case "resource_link":
      return {
        ...resourceLinkBlock(part.uri, part.name, part.mimeType),
        ...(part.description !== undefined ? { description: part.description } : {}),
      };
  }
}

function textBlock(text: string): McpContent {
  return { type: "text", text };
}

/** MCP requires a link's `name`: the part's, else the last segment of its address. */
function resourceLinkBlock(
  uri: string,
  name: string | undefined,
  mimeType: string | undefined,
): Extract<McpContent, { type: "resource_link" }> {
  return {
    type: "resource_link",
    uri,
    name: name ?? fileNameOfUri(uri) ?? uri,
    ...(mimeType !== undefined ? { mimeType } : {}),
  };
}

/**
 * An inline file as an embedded resource, under an address stable for the result: its name,
 * else its position. Text files go as text when their bytes are UTF-8.
 */
function embeddedFile(part: { data: string; mimeType: string; name?: string }, index: number): McpEmbeddedResource {
  const uri = `toolnexus://result/${encodeURIComponent(part.name ?? String(index))}`;
  const text = part.mimeType.startsWith("text/") ? utf8Text(part.data) : undefined;
  return text !== undefined
    ? { uri, mimeType: part.mimeType, text }
    : { uri, mimeType: part.mimeType, blob: part.data };
}

const UTF8 = new TextDecoder("utf-8", { fatal: true });

/** The base64 data as text, or undefined when its bytes are not UTF-8. */
function utf8Text(data: string): string | undefined {
  try {
    return UTF8.decode(Buffer.from(data, "base64"));
  } catch {
    return undefined;
  }
}

/**
 * The MCP specification asks for structured content's JSON text in a text block too: added unless a text block already
 * is it.
 */
function withJsonText(content: McpContent[], structured: Record<string, unknown>): McpContent[] {
  const json = JSON.stringify(structured);
  return content.some((block) => block.type === "text" && block.text === json)
    ? content
    : [...content, textBlock(json)];
}

// ---- The adapter -----------------------------------------------------------------------

/**
 * For a dialect that takes full JSON Schema with an object at the root (MCP): the root as it
 * is, combinators and all, when it is an object schema (a root `$ref` resolved first; a root
 * without a type whose `allOf` / `anyOf` / `oneOf` branches all describe objects gets
 * `type: "object"`, which says nothing new). Any other root is made a plain object, as
 * `plainObjectRoot` makes it.
 */
function objectRoot(input: JSONSchemaObject, log: ChangeLog): JSONSchemaObject & { type: "object" } {
  const schema = rootWithoutRef(input, log);
  if (schema.type === "object") return schema as JSONSchemaObject & { type: "object" };
  if (schema.type === undefined && describesObjects(schema)) {
    log.add("/type", "type", "added", 'root type "object" (every branch describes an object)');
    return { ...schema, type: "object" };
  }
  return plainObjectRoot(schema, log);
}

const NAMES: NameRule = {
  max: 128,
  pattern: /^[A-Za-z0-9._-]{1,128}$/,
  text: "1-128 characters from A-Z a-z 0-9 . _ -",
};

/**
 * MCP takes full JSON Schema with an object at the root; the SDK's `Tool` schema wants every
 * property's schema to be an object, so boolean subschemas are written as the schemas they
 * mean (`true` → `{}`, `false` → `{ not: {} }`). Annotations come from `@Tool`. A call is a
 * `tools/call` request's `params`; the reply is its `CallToolResult`.
 */
export const mcp: Provider<
  "mcp",
  "Mcp",
  { declarations: McpTool[]; options: ExportOptions; reply: McpCallToolResult | undefined }
> = {
  id: "mcp",
  name: "Mcp",
  answersCalls: false,
  names: NAMES,
  readsDialect: true,
  lower: (schema, log) => ({ schema: withSchemaObjects(objectRoot(schema, log), log), codec: undefined }),
  loweringOptions: [],
  declare: (tools) =>
    tools.map(({ tool, name, description, lowering }) => {
      const annotations = mcpAnnotations(tool);
      return {
        name,
        ...(tool.annotations?.title !== undefined ? { title: tool.annotations.title } : {}),
        description,
        inputSchema: lowering.schema as McpTool["inputSchema"],
        ...(tool.outputSchema !== undefined ? { outputSchema: mcpOutputSchema(tool.name, tool.outputSchema) } : {}),
        ...(annotations !== undefined ? { annotations } : {}),
        ...(tool.icons !== undefined ? { icons: tool.icons.map((icon) => ({ ...icon })) } : {}),
      };
    }),
  readCalls: (params) => [callFrom(params, { name: "name", args: "arguments" })],
  reply: (_calls, results) => (results[0] === undefined ? undefined : toMcpResult(results[0])),
  // Every kind of part has its content block.
  carries: () => undefined,
};

/**
 * An output schema as MCP declares it: `type: "object"` at the root (an output schema always
 * describes objects, possibly through a root reference or combinators, which stay as they are
 * so that clients check results exactly), boolean subschemas in maps and lists as schemas.
 */
function mcpOutputSchema(tool: string, schema: JSONSchemaObject): McpTool["outputSchema"] & object {
  // Nothing here changes what the schema accepts, so there is nothing to report.
  return withSchemaObjects({ ...schema, type: "object" }, new ChangeLog(tool, undefined)) as McpTool["outputSchema"] &
    object;
}

/**
 * Boolean subschemas in maps and lists (where clients expect schema objects) written as
 * schemas; `additionalProperties: false` and the other single-schema keywords keep their
 * idiomatic booleans.
 */
function withSchemaObjects(schema: JSONSchemaObject, log: ChangeLog): JSONSchemaObject {
  return mapSubschemas(schema, (node, pointer, inCollection) => {
    if (typeof node !== "boolean" || !inCollection) return node;
    log.add(
      pointer(),
      "schema",
      "rewritten",
      node ? "true → {} (the same: any value)" : "false → { not: {} } (the same: no value)",
    );
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
