import type { ElicitAnswer, ElicitRequest, SampleRequest, SampleResult } from "./input-requests";
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
export type ToolErrorKind =
  | "invalid_arguments"
  | "unknown_tool"
  | "execution_failed"
  | "timeout"
  | "aborted"
  | "denied"
  | "forbidden"
  | "invalid_output";

export interface ToolResult {
  /** The text form of the result: what a provider that takes only text gets, and what a model reads first. */
  output: string;
  isError: boolean;
  metadata?: Record<string, unknown>;
  /** The result's parts (text, images, audio, files, links), for providers that carry them. */
  content?: ToolContent[];
  /** The result as a JSON object matching the tool's `outputSchema`; `output` is its JSON text. */
  structuredContent?: Record<string, unknown>;
}

/** One part of a tool's result. Binary `data` is base64 (helpers: `image(...)`, `audio(...)`, `file(...)`). */
export type ToolContent = TextContent | ImageContent | AudioContent | FileContent | ResourceLinkContent;

/**
 * MCP's hints about a part, for the client: who it is for, how much it matters, when it last
 * changed. Carried where a result format has a place for them: over MCP (`toMcpResult`, and
 * from a remote server by `fromMcp`). The other providers' tool results, and the agent
 * frameworks' (AI SDK, LangChain, OpenAI Agents), have no such field, so their replies leave the
 * hints out: they are metadata for a client, not text for a model.
 */
export interface ContentAnnotations {
  /** Who the part is meant for. */
  audience?: Array<"user" | "assistant">;
  /** How much the part matters, from 0 (least) to 1 (most). */
  priority?: number;
  /** When the part's content last changed: an RFC 3339 date-time (`2025-01-12T15:00:58Z`). */
  lastModified?: string;
}

export interface TextContent {
  type: "text";
  text: string;
  annotations?: ContentAnnotations;
}

/** An image, inline (`data`, base64, with its `mimeType`) or by `url`. */
export type ImageContent =
  | { type: "image"; data: string; mimeType: string; annotations?: ContentAnnotations }
  | { type: "image"; url: string; mimeType?: string; annotations?: ContentAnnotations };

export interface AudioContent {
  type: "audio";
  /** Base64. */
  data: string;
  mimeType: string;
  annotations?: ContentAnnotations;
}

/** A document (PDF, text, CSV ...), inline (`data`, base64) or by `url`. */
export type FileContent =
  | { type: "file"; data: string; mimeType: string; name?: string; annotations?: ContentAnnotations }
  | { type: "file"; url: string; mimeType: string; name?: string; annotations?: ContentAnnotations };

/** A link to a resource the client can fetch (MCP's `resource_link`). */
export interface ResourceLinkContent {
  type: "resource_link";
  uri: string;
  name?: string;
  mimeType?: string;
  description?: string;
  annotations?: ContentAnnotations;
}

/** What a tool sees about the call it serves. Always an object inside a tool. */
export interface ToolContext {
  signal?: AbortSignal;
  /** Milliseconds before the call is ended with a `timeout` result; `false` for no deadline. */
  timeout?: number | false;
  callId?: string;
  provider?: string;
  /** The MCP task this call runs for, when a client called a `task: true` tool as a task. */
  taskId?: string;
  /** Host data (user, request, tenant ...); never shown to the model. */
  state?: Record<string, unknown>;
  /**
   * Tells the caller how far the call has got: MCP progress notifications when the client
   * asked for them (sent a progress token), nothing elsewhere. Always present inside a tool.
   */
  reportProgress?: (progress: number, total?: number, message?: string) => void;
  /**
   * Asks the user a question from inside the tool (a form of flat fields, or a URL to open) and
   * resolves with the answer: over MCP the client asks, elsewhere the toolkit's `elicit` hook.
   * Rejects with `InputUnavailableError` when nobody can answer. Always present inside a tool.
   */
  elicit?: (request: ElicitRequest) => Promise<ElicitAnswer>;
  /**
   * Asks a model from inside the tool: over MCP the client's (sampling), elsewhere the toolkit's
   * `sample` hook. Rejects with `InputUnavailableError` when there is none. Always present inside a tool.
   */
  sample?: (request: SampleRequest) => Promise<SampleResult>;
  /**
   * Logs from inside the call: over MCP a `notifications/message` to the client at or above the
   * level it set (`logging/setLevel`), elsewhere the toolkit's `log` hook. Always present inside a tool.
   */
  log?: (level: LogLevel, message: string, data?: unknown) => void;
}

/** The syslog severities MCP logs with, least severe first. */
export type LogLevel = "debug" | "info" | "notice" | "warning" | "error" | "critical" | "alert" | "emergency";

/** One `ctx.log(...)` entry, as the toolkit's `log` hook receives it. */
export interface LogEntry {
  level: LogLevel;
  message: string;
  data?: unknown;
  /** The tool, resource or prompt that logged. */
  source: string;
}

/**
 * An icon a client may show beside a tool, resource, prompt or server (MCP `icons`): an
 * `https:` or `data:` URL, with its media type and sizes (`"48x48"`, `"any"`) when known.
 */
export interface Icon {
  src: string;
  mimeType?: string;
  sizes?: string[];
  /** The background it is drawn for. */
  theme?: "light" | "dark";
}

/**
 * The ctx a tool body receives: the caller's, with `reportProgress` (a no-op where nobody
 * listens), `elicit` and `sample` (rejecting where nobody answers) always there.
 */
export interface ToolCallContext extends ToolContext {
  reportProgress: (progress: number, total?: number, message?: string) => void;
  elicit: (request: ElicitRequest) => Promise<ElicitAnswer>;
  sample: (request: SampleRequest) => Promise<SampleResult>;
  log: (level: LogLevel, message: string, data?: unknown) => void;
}

/** How often a failed call is tried again: a number of attempts in all, `false` for never, or a policy. */
export type RetryOption = number | false | RetryPolicy;

export interface RetryPolicy {
  /** Attempts in all, the first included (2 or more to retry at all). */
  attempts: number;
  /** Milliseconds before the first retry (default 100); each later wait doubles, up to `maxDelayMs`. */
  delayMs?: number;
  /** The longest wait between attempts (default 2,000 ms). */
  maxDelayMs?: number;
}

/** Who may see and run a tool, and what it takes before it runs. Set on `@Tool` or `defineTool`. */
export interface ToolPolicy {
  /**
   * Whether a call needs a person's approval before it runs: `true`, or a function of the
   * arguments and ctx. The toolkit's `approve` decides; without one, run* hand the call back
   * as a pending approval. A function that throws asks; one that does not answer within the
   * call's deadline ends the call as a `timeout`.
   */
  needsApproval?: boolean | ((args: Record<string, unknown>, ctx: ToolContext) => boolean | Promise<boolean>);
  /**
   * Whether the tool exists for this ctx (user, tenant ...): hidden tools are neither declared
   * nor run. It answers synchronously: anything but `true` (a promise too) and a throw hide it.
   */
  visible?: (ctx: ToolContext) => boolean;
  /**
   * Whether this call may run; `false` gives a `forbidden` result. Waited for at most the call's deadline (then
   * `timeout`).
   */
  authorize?: (ctx: ToolContext, args: Record<string, unknown>) => boolean | Promise<boolean>;
  /**
   * Retries of calls that fail (`execution_failed`), within the call's deadline. Tools annotated `idempotent` get 3
   * attempts unless set.
   */
  retry?: RetryOption;
  /** The tool's own deadline in milliseconds (`false` for none), unless the call sets one. */
  timeout?: number | false;
  /**
   * OAuth scopes a caller's access token must carry (MCP over HTTP with `auth`): a call without
   * them is refused with `403 insufficient_scope` naming them, so the client can ask for them.
   */
  scopes?: readonly string[];
}

/** MCP tool annotations (hints to clients, not guarantees). */
export interface ToolAnnotations {
  title?: string;
  readOnly?: boolean;
  destructive?: boolean;
  idempotent?: boolean;
  openWorld?: boolean;
}

/**
 * A tool as a toolkit holds it: its name, description and input schema, what runs it, and its
 * policy. `defineTool` makes one from a function; the scanner makes one per `@Tool` method.
 */
export interface Tool extends ToolPolicy {
  /** Provider-safe, unique in a toolkit. */
  name: string;
  /** Never empty. */
  description: string;
  /** `{ type: "object", properties, required?, ... }`, self-contained (no `$ref`). */
  inputSchema: JSONSchemaObject;
  /** What a structured result looks like: an object schema. Results are checked against it (`invalid_output`). */
  outputSchema?: JSONSchemaObject;
  source: "native" | "decorator" | (string & {});
  annotations?: ToolAnnotations;
  /**
   * A long-running tool: an MCP server (`toolnexus/mcp`) lets clients call it as a task
   * (`execution.taskSupport: "optional"`), answering at once with a task to poll while the call
   * runs on. Calls that are not tasks (`execute`, `run*`, a plain `tools/call`) run it as usual.
   */
  task?: boolean;
  /**
   * Not declared up front: the model finds the tool by searching (the provider's own tool search
   * where it has one, toolnexus's `search_tools` elsewhere). It stays a real tool: a call runs.
   */
  defer?: boolean;
  /** A group of related tools (e.g. one service class), declared together where a provider groups tools. */
  namespace?: string;
  /** Example arguments, each valid for `inputSchema`: Anthropic's `input_examples`, elsewhere on request. */
  examples?: ReadonlyArray<Record<string, unknown>>;
  /** Declared in the provider's strict form where it has one (OpenAI, Anthropic, Bedrock), whatever the export says. */
  strict?: boolean;
  /**
   * A free-text tool: its input is one string (the `input` property of `inputSchema`), declared as
   * OpenAI's custom tool with its grammar, and as a function of one string parameter elsewhere.
   */
  freeText?: FreeTextInput;
  /** Icons a client may show beside the tool (MCP). */
  icons?: readonly Icon[];
  /** Runs the tool. Implementations made by toolnexus never reject. */
  execute(args: Record<string, unknown>, ctx?: ToolContext): Promise<ToolResult>;
}

/** What a free-text tool's input may be. */
export interface FreeTextInput {
  /** The grammar its input follows, passed on to OpenAI; a `regex` is also checked when the call runs. */
  grammar?: TextGrammar;
}

/** A grammar as OpenAI's custom tools take it: Lark, or a regular expression the whole input matches. */
export interface TextGrammar {
  syntax: "lark" | "regex";
  definition: string;
}

/*
 * Standard Schema (standardschema.dev), the interface zod 4, valibot, arktype and others
 * implement, copied here as its authors ask: toolnexus depends on no schema library.
 */

/** A schema that validates values (`~standard.validate`): zod 4, valibot, arktype ... */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  readonly "~standard": StandardSchemaV1.Props<Input, Output>;
}

// eslint-disable-next-line @typescript-eslint/no-namespace -- the spec's own shape, so its helper types read the same here
export declare namespace StandardSchemaV1 {
  interface Props<Input = unknown, Output = Input> {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (value: unknown, options?: Options | undefined) => Result<Output> | Promise<Result<Output>>;
    readonly types?: Types<Input, Output> | undefined;
    /** Standard JSON Schema (spec 1.1): the schema's JSON Schema, where the library writes one. */
    readonly jsonSchema?: JSONSchemaConverter | undefined;
  }
  interface Options {
    readonly libraryOptions?: Record<string, unknown> | undefined;
  }
  type Result<Output> = SuccessResult<Output> | FailureResult;
  interface SuccessResult<Output> {
    readonly value: Output;
    readonly issues?: undefined;
  }
  interface FailureResult {
    readonly issues: ReadonlyArray<Issue>;
  }
  interface Issue {
    readonly message: string;
    readonly path?: ReadonlyArray<PropertyKey | PathSegment> | undefined;
  }
  interface PathSegment {
    readonly key: PropertyKey;
  }
  interface Types<Input = unknown, Output = Input> {
    readonly input: Input;
    readonly output: Output;
  }
  interface JSONSchemaConverter {
    readonly input: (options: {
      readonly target: string;
      readonly libraryOptions?: Record<string, unknown> | undefined;
    }) => Record<string, unknown>;
  }
  type InferInput<Schema extends StandardSchemaV1> = NonNullable<Schema["~standard"]["types"]>["input"];
  type InferOutput<Schema extends StandardSchemaV1> = NonNullable<Schema["~standard"]["types"]>["output"];
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
