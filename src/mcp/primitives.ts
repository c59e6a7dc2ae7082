import { PrimitiveError } from "../core/errors";
import { logLevelRank } from "../core/log-levels";
import type {
  Completion,
  Prompt,
  PromptResult,
  Resource,
  ResourceContents,
  ResourceTemplate,
} from "../core/primitives";
import type { Icon, LogLevel, ToolContext } from "../core/types";
import type { CompletionReference } from "../toolkit/primitive-registry";
import type { McpToolkit } from "./declarations";

/** The toolkit's resources and prompts, as an MCP server serves them (a `Toolkit` has them all). */
export interface McpPrimitives {
  resources(ctx?: ToolContext): Resource[];
  resourceTemplates(ctx?: ToolContext): ResourceTemplate[];
  prompts(ctx?: ToolContext): Prompt[];
  readResource(uri: string, ctx?: ToolContext): Promise<ResourceContents[]>;
  getPrompt(name: string, args?: Record<string, unknown>, ctx?: ToolContext): Promise<PromptResult>;
  complete(
    ref: CompletionReference,
    argument: { name: string; value: string },
    context?: Record<string, string>,
    ctx?: ToolContext,
  ): Promise<Completion>;
  /** Whether a resource visible to `ctx` serves `uri`. */
  servesResource(uri: string, ctx?: ToolContext): boolean;
  /** The OAuth scopes of a resource or prompt (the HTTP server's `auth` checks them). */
  scopesFor(kind: "resource" | "prompt", key: string, ctx?: ToolContext): readonly string[] | undefined;
  /** Listens for resources that changed; the returned function stops listening. */
  onResourceUpdated?(listener: (uri: string) => void): () => void;
}

/** A failure to answer with a JSON-RPC error: each era's server throws it as its SDK's error. */
export class WireError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: Record<string, unknown>,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

const INVALID_PARAMS = -32602;
const INTERNAL_ERROR = -32603;

/** The primitives a toolkit serves, or undefined when it is a toolkit-shaped object without them. */
export function primitivesOf(kit: McpToolkit): McpPrimitives | undefined {
  const candidate = kit as Partial<McpPrimitives>;
  return typeof candidate.resources === "function" &&
    typeof candidate.resourceTemplates === "function" &&
    typeof candidate.prompts === "function" &&
    typeof candidate.readResource === "function" &&
    typeof candidate.getPrompt === "function" &&
    typeof candidate.complete === "function" &&
    typeof candidate.servesResource === "function" &&
    typeof candidate.scopesFor === "function"
    ? (candidate as McpPrimitives)
    : undefined;
}

/**
 * The capabilities a server declares for what it serves beside tools: from what the toolkit has,
 * whoever asks (a caller who sees none of its resources still gets "not found", not "no such method").
 */
export function primitiveCapabilities(primitives: McpPrimitives | undefined) {
  if (primitives === undefined) return { logging: {} };
  const hasResources = primitives.resources().length > 0 || primitives.resourceTemplates().length > 0;
  const hasPrompts = primitives.prompts().length > 0;
  return {
    logging: {},
    ...(hasResources ? { resources: { subscribe: true, listChanged: false } } : {}),
    ...(hasPrompts ? { prompts: { listChanged: false } } : {}),
    ...(hasResources || hasPrompts ? { completions: {} } : {}),
  };
}

/** The MCP methods for resources, prompts and completions, era-independent: params in, result out, `WireError` thrown. */
export class PrimitiveMethods {
  constructor(
    private readonly primitives: McpPrimitives,
    private readonly pageSize: number | undefined,
  ) {}

  listResources(params: { cursor?: unknown } | undefined, ctx: ToolContext) {
    const { items, nextCursor } = page(this.primitives.resources(ctx), params?.cursor, this.pageSize, "resources");
    return {
      resources: items.map((resource) => ({
        uri: resource.uri,
        ...described(resource),
        ...(resource.mimeType !== undefined ? { mimeType: resource.mimeType } : {}),
        ...(resource.size !== undefined ? { size: resource.size } : {}),
        ...(resource.annotations !== undefined ? { annotations: resource.annotations } : {}),
      })),
      ...(nextCursor !== undefined ? { nextCursor } : {}),
    };
  }

  listResourceTemplates(params: { cursor?: unknown } | undefined, ctx: ToolContext) {
    const templates = this.primitives.resourceTemplates(ctx);
    const { items, nextCursor } = page(templates, params?.cursor, this.pageSize, "resourceTemplates");
    return {
      resourceTemplates: items.map((template) => ({
        uriTemplate: template.uriTemplate,
        ...described(template),
        ...(template.mimeType !== undefined ? { mimeType: template.mimeType } : {}),
        ...(template.annotations !== undefined ? { annotations: template.annotations } : {}),
      })),
      ...(nextCursor !== undefined ? { nextCursor } : {}),
    };
  }

  async readResource(params: { uri?: unknown } | undefined, ctx: ToolContext) {
    const uri = params?.uri;
    if (typeof uri !== "string") throw new WireError(INVALID_PARAMS, 'Invalid params: resources/read needs a "uri".');
    try {
      return { contents: await this.primitives.readResource(uri, ctx) };
    } catch (error) {
      throw wireErrorOf(error, { uri });
    }
  }

  listPrompts(params: { cursor?: unknown } | undefined, ctx: ToolContext) {
    const { items, nextCursor } = page(this.primitives.prompts(ctx), params?.cursor, this.pageSize, "prompts");
    return {
      prompts: items.map((prompt) => ({
        ...described(prompt),
        arguments: prompt.arguments.map((argument) => ({ ...argument })),
      })),
      ...(nextCursor !== undefined ? { nextCursor } : {}),
    };
  }

  async getPrompt(params: { name?: unknown; arguments?: unknown } | undefined, ctx: ToolContext) {
    const name = params?.name;
    if (typeof name !== "string") throw new WireError(INVALID_PARAMS, 'Invalid params: prompts/get needs a "name".');
    const args = params?.arguments ?? {};
    if (typeof args !== "object" || args === null || Array.isArray(args))
      throw new WireError(INVALID_PARAMS, 'Invalid params: prompts/get "arguments" must be an object of strings.');
    try {
      return await this.primitives.getPrompt(name, { ...(args as Record<string, unknown>) }, ctx);
    } catch (error) {
      throw wireErrorOf(error, { name });
    }
  }

  async complete(
    params:
      { ref?: { type?: unknown; name?: unknown; uri?: unknown }; argument?: unknown; context?: unknown } | undefined,
    ctx: ToolContext,
  ) {
    const ref = params?.ref;
    const argument = params?.argument as { name?: unknown; value?: unknown } | undefined;
    const reference: CompletionReference | undefined =
      ref?.type === "ref/prompt" && typeof ref.name === "string"
        ? { type: "ref/prompt", name: ref.name }
        : ref?.type === "ref/resource" && typeof ref.uri === "string"
          ? { type: "ref/resource", uri: ref.uri }
          : undefined;
    if (reference === undefined || typeof argument?.name !== "string" || typeof argument.value !== "string")
      throw new WireError(
        INVALID_PARAMS,
        'Invalid params: completion/complete needs a ref ({ type: "ref/prompt", name } or { type: "ref/resource", uri }) ' +
          "and an argument { name, value }.",
      );
    const given = (params?.context as { arguments?: unknown } | undefined)?.arguments;
    const context = typeof given === "object" && given !== null ? (given as Record<string, string>) : {};
    try {
      const completion = await this.primitives.complete(
        reference,
        { name: argument.name, value: argument.value },
        context,
        ctx,
      );
      return { completion };
    } catch (error) {
      throw wireErrorOf(error, {});
    }
  }
}

function described(primitive: {
  name: string;
  title?: string;
  description?: string;
  icons?: readonly Icon[];
}): Record<string, unknown> {
  return {
    name: primitive.name,
    ...(primitive.title !== undefined ? { title: primitive.title } : {}),
    ...(primitive.description !== undefined ? { description: primitive.description } : {}),
    ...(primitive.icons !== undefined ? { icons: primitive.icons.map((icon) => ({ ...icon })) } : {}),
  };
}

/** A PrimitiveError as JSON-RPC has it: what is missing or does not fit is the client's to fix (invalid params). */
function wireErrorOf(error: unknown, data: Record<string, unknown>): WireError {
  if (!(error instanceof PrimitiveError)) return new WireError(INTERNAL_ERROR, "Internal error.");
  const clients = error.kind === "not_found" || error.kind === "invalid_arguments";
  return new WireError(clients ? INVALID_PARAMS : INTERNAL_ERROR, error.message, clients ? data : undefined, {
    cause: error,
  });
}

/**
 * One page of a list in its stable (registration) order, `pageSize` long (all of it without
 * one); the cursor of the next is opaque to clients: which list, from where.
 */
export function page<T>(
  items: readonly T[],
  cursor: unknown,
  pageSize: number | undefined,
  list: string,
): { items: readonly T[]; nextCursor?: string } {
  let start = 0;
  if (cursor !== undefined) {
    const offset = offsetOf(cursor, list);
    if (offset === undefined || offset > items.length)
      throw new WireError(INVALID_PARAMS, `Invalid params: the cursor is not one this server gave for ${list}.`);
    start = offset;
  }
  if (pageSize === undefined) return { items: items.slice(start) };
  const end = start + pageSize;
  return {
    items: items.slice(start, end),
    ...(end < items.length ? { nextCursor: Buffer.from(JSON.stringify([list, end])).toString("base64url") } : {}),
  };
}

function offsetOf(cursor: unknown, list: string): number | undefined {
  if (typeof cursor !== "string" || cursor.length > 200) return undefined;
  try {
    const [named, offset] = JSON.parse(Buffer.from(cursor, "base64url").toString()) as [unknown, unknown];
    return named === list && Number.isSafeInteger(offset) && (offset as number) >= 0 ? (offset as number) : undefined;
  } catch {
    return undefined;
  }
}

/** Refuses a page size that is not a whole number from 1. */
export function checkPageSize(pageSize: unknown): void {
  if (pageSize !== undefined && !(Number.isSafeInteger(pageSize) && (pageSize as number) >= 1))
    throw new TypeError(`pageSize must be a whole number of entries, 1 or more (got ${String(pageSize)}).`);
}

/** Sends one log notification: MCP's `notifications/message` params, each era its own way. */
export type LogEmitter = (level: LogLevel, data: unknown, logger: string) => Promise<void>;

/**
 * `ctx.log` for a call: `emit`s at or above `threshold()` (every level while the client set
 * none); `data` is the message, or `{ message, data }`. A level that is not one of MCP's throws.
 */
export function mcpLog(
  emit: LogEmitter,
  logger: string,
  threshold: () => LogLevel | undefined = () => undefined,
): (level: LogLevel, message: string, data?: unknown) => void {
  return (level, message, data) => {
    const rank = logLevelRank(level);
    const least = threshold();
    if (least !== undefined && rank < logLevelRank(least)) return;
    void emit(level, data === undefined ? message : { message, data }, logger).catch(() => {});
  };
}

/**
 * What one client's session keeps between its requests: the log level it set, and, where updates
 * can reach it (stdio), the resources it subscribed to.
 */
export interface SessionState {
  logLevel?: LogLevel;
  subscriptions?: Set<string>;
}

/** The most resources one session may subscribe to. */
export const MAX_SUBSCRIPTIONS = 1_000;
