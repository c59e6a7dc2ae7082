/**
 * MCP's two other primitives beside tools, as a toolkit holds them: resources (data a client
 * reads by URI, fixed or from a URI template) and prompts (message templates a user picks).
 * Made by `@Resource`, `@ResourceTemplate`, `@Prompt` or `defineResource`,
 * `defineResourceTemplate`, `definePrompt`; served by `toolnexus/mcp`.
 */
import type { ContentAnnotations, Icon, JSONSchemaObject, ToolContext } from "./types";

/** Who may see and use a resource or prompt: `visible`, `authorize` and `scopes`, as a tool's policy has them. */
export interface PrimitivePolicy {
  /** Whether it exists for this ctx: a hidden resource or prompt is as absent as a missing one. */
  visible?: (ctx: ToolContext) => boolean;
  /** Whether this read or get may run; `false` refuses it. */
  authorize?: (ctx: ToolContext, args: Record<string, unknown>) => boolean | Promise<boolean>;
  /** OAuth scopes the caller's access token must carry (MCP over HTTP with `auth`). */
  scopes?: readonly string[];
}

/** Completions for one argument: a fixed list, or a function of what the user has typed so far. */
export type Completer =
  readonly string[] | ((value: string, context: CompletionContext) => readonly string[] | Promise<readonly string[]>);

export interface CompletionContext {
  /** The other arguments already filled in. */
  arguments: Record<string, string>;
  ctx: ToolContext;
}

/** At most this many completions go back (MCP's limit); `total` and `hasMore` say the rest. */
export const MAX_COMPLETIONS = 100;

/** The completions of one argument: the best first, at most `MAX_COMPLETIONS`. */
export interface Completion {
  values: string[];
  total: number;
  hasMore: boolean;
}

/** What reading a resource gives: text, or bytes as base64 `blob`. */
export type ResourceContents = TextResourceContents | BlobResourceContents;

export interface TextResourceContents {
  uri: string;
  mimeType?: string;
  text: string;
  annotations?: ContentAnnotations;
}

export interface BlobResourceContents {
  uri: string;
  mimeType?: string;
  /** Base64. */
  blob: string;
  annotations?: ContentAnnotations;
}

interface ResourceDescription extends PrimitivePolicy {
  /** Its name, unique among the toolkit's resources and templates. */
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  icons?: readonly Icon[];
  annotations?: ContentAnnotations;
}

/** A resource at one URI. */
export interface Resource extends ResourceDescription {
  uri: string;
  /** Size in bytes, when known ahead. */
  size?: number;
  /** Reads it. Rejects with a `PrimitiveError`. */
  read(ctx?: ToolContext): Promise<ResourceContents[]>;
}

/** Resources whose URIs follow an RFC 6570 template (`file:///logs/{date}`): its variables are the read's arguments. */
export interface ResourceTemplate extends ResourceDescription {
  uriTemplate: string;
  /** The variables, as an object schema (typed, and validated on each read as tool parameters are). */
  variablesSchema: JSONSchemaObject;
  /** Completions per variable. */
  complete?: Readonly<Record<string, Completer>>;
  /** The variables of a URI this template makes, or undefined when it makes no such URI. */
  match(uri: string): Record<string, string> | undefined;
  /** Reads the resource at `uri` with its variables. Rejects with a `PrimitiveError`. */
  read(uri: string, variables: Record<string, string>, ctx?: ToolContext): Promise<ResourceContents[]>;
}

export interface PromptArgument {
  name: string;
  title?: string;
  description?: string;
  required: boolean;
}

/** A message of a prompt. */
export interface PromptMessage {
  role: "user" | "assistant";
  content: PromptContent;
}

export type PromptContent =
  | { type: "text"; text: string; annotations?: ContentAnnotations }
  | { type: "image"; data: string; mimeType: string; annotations?: ContentAnnotations }
  | { type: "audio"; data: string; mimeType: string; annotations?: ContentAnnotations }
  | { type: "resource"; resource: ResourceContents; annotations?: ContentAnnotations }
  | {
      type: "resource_link";
      uri: string;
      name: string;
      title?: string;
      description?: string;
      mimeType?: string;
      annotations?: ContentAnnotations;
    };

export interface PromptResult {
  description?: string;
  messages: PromptMessage[];
}

/** A prompt: messages made from its arguments. */
export interface Prompt extends PrimitivePolicy {
  name: string;
  title?: string;
  description?: string;
  icons?: readonly Icon[];
  arguments: PromptArgument[];
  /** The arguments as an object schema (typed, and validated on each get as tool parameters are). */
  argumentsSchema: JSONSchemaObject;
  /** Completions per argument. */
  complete?: Readonly<Record<string, Completer>>;
  /** Its messages for these arguments. Rejects with a `PrimitiveError`. */
  get(args: Record<string, unknown>, ctx?: ToolContext): Promise<PromptResult>;
}
