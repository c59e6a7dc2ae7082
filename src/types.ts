/** A JSON Schema node. Index signature so it is assignable wherever SDKs expect `Record<string, unknown>`. */
export interface JSONSchemaObject {
  type?: JSONSchemaTypeName | JSONSchemaTypeName[];
  description?: string;
  properties?: Record<string, JSONSchemaObject>;
  required?: string[];
  /** One schema for every element, or (draft 7 tuples) one per position. */
  items?: JSONSchemaObject | JSONSchemaObject[];
  enum?: unknown[];
  [keyword: string]: unknown;
}

export type JSONSchemaTypeName = "string" | "number" | "integer" | "boolean" | "object" | "array" | "null";

/** Why a call failed; carried in `ToolResult.metadata.error`. */
export type ToolErrorKind = "invalid_arguments" | "unknown_tool" | "execution_failed" | "timeout" | "aborted";

export interface ToolResult {
  output: string;
  isError: boolean;
  metadata?: Record<string, unknown>;
}

/** What a tool sees about the call it serves. Always an object inside a tool. */
export interface ToolContext {
  signal?: AbortSignal;
  /** Milliseconds before the call is ended with a `timeout` result; `false` for no deadline. */
  timeout?: number | false;
  callId?: string;
  provider?: string;
  /** Host data (user, request, tenant ...); never shown to the model. */
  state?: Record<string, unknown>;
}

/** MCP tool annotations (hints to clients, not guarantees). */
export interface ToolAnnotations {
  title?: string;
  readOnly?: boolean;
  destructive?: boolean;
  idempotent?: boolean;
  openWorld?: boolean;
}

export interface Tool {
  /** Provider-safe, unique in a toolkit. */
  name: string;
  /** Never empty. */
  description: string;
  /** `{ type: "object", properties, required?, ... }`, self-contained (no `$ref`). */
  inputSchema: JSONSchemaObject;
  source: "native" | "decorator" | (string & {});
  annotations?: ToolAnnotations;
  /** Runs the tool. Implementations made by toolnexus never reject. */
  execute(args: Record<string, unknown>, ctx?: ToolContext): Promise<ToolResult>;
}

/** A JSON object (not null, not an array). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A schema written as an object (not a boolean schema, not an array). */
export const isSchemaObject = isObject as (value: unknown) => value is JSONSchemaObject;

/** The schema of the element at `index` of an array described by `schema` (tuple items included). */
export function elementSchema(schema: JSONSchemaObject, index: number): JSONSchemaObject | undefined {
  return Array.isArray(schema.items) ? schema.items[index] : schema.items;
}
