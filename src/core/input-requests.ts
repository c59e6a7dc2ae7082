import { InputUnavailableError } from "./errors";
import type { JSONSchemaObject, ToolContext } from "./types";

/**
 * A question for the user, asked from inside a tool with `ctx.elicit(...)`: a form of flat
 * fields (`schema`, an object schema whose properties are strings, numbers, integers,
 * booleans or enums), or a URL for the user to open (sign-in, payment) outside the chat.
 */
export type ElicitRequest = ElicitFormRequest | ElicitUrlRequest;

/** What every question a tool asks may carry. */
export interface InputQuestion {
  /**
   * The question's name in MCP's multi-round-trip exchange (the `inputRequests` key the client
   * answers under): letters, digits, `_`, `-`, `.`, up to 64. Default: its position among the
   * call's questions, "0", "1", ... A name stands for one question of the call.
   */
  key?: string;
}

export interface ElicitFormRequest extends InputQuestion {
  /** What the user is asked, and why. */
  message: string;
  /** The form: `{ type: "object", properties: { name: { type: "string" } }, required? }`, flat fields only. */
  schema: JSONSchemaObject;
}

export interface ElicitUrlRequest extends InputQuestion {
  /** What the user is asked to do on the page, and why. */
  message: string;
  /** An absolute `https:` (or `http:`) URL the user opens. */
  url: string;
}

/**
 * The user's answer: `accept` with the form's values (checked against its schema), or
 * `decline` / `cancel`, which the tool acts on as it sees fit (they are answers, not errors).
 */
export type ElicitAnswer =
  { action: "accept"; content?: Record<string, unknown> } | { action: "decline" } | { action: "cancel" };

/** A message of a sampling request or result, as MCP carries it (`content` a text, image or audio block). */
export interface SamplingMessage {
  role: "user" | "assistant";
  content: Record<string, unknown> | Record<string, unknown>[];
}

/**
 * A request for the client's model, asked from inside a tool with `ctx.sample(...)`: MCP's
 * `sampling/createMessage` parameters. `messages` may be one string (a single user message);
 * `tools` and `toolChoice` are sent when the client supports tools in sampling.
 */
export interface SampleRequest extends InputQuestion {
  /** The conversation so far: one string is a single user message. */
  messages: string | readonly SamplingMessage[];
  /** The most tokens the model may answer with. */
  maxTokens: number;
  systemPrompt?: string;
  temperature?: number;
  stopSequences?: string[];
  modelPreferences?: Record<string, unknown>;
  tools?: readonly Record<string, unknown>[];
  toolChoice?: Record<string, unknown>;
  metadata?: Record<string, unknown>;
}

/** What the client's model answered. */
export interface SampleResult {
  role: "assistant" | "user";
  content: Record<string, unknown> | Record<string, unknown>[];
  model: string;
  stopReason?: string;
  [key: string]: unknown;
}

/** Where a call's `ctx.elicit` / `ctx.sample` go when it does not run over MCP: the host's own UI or model. */
export interface InputHooks {
  /** Answers `ctx.elicit(...)` outside MCP (a CLI prompt, a web form ...). */
  elicit?: (request: ElicitRequest, ctx: ToolContext) => ElicitAnswer | Promise<ElicitAnswer>;
  /** Answers `ctx.sample(...)` outside MCP (a model the host calls). */
  sample?: (request: SampleRequest, ctx: ToolContext) => SampleResult | Promise<SampleResult>;
}

/** The default `ctx.elicit` of a call whose caller brought none. */
export function noElicitation(): Promise<never> {
  return Promise.reject(
    new InputUnavailableError(
      "ctx.elicit: nobody can answer here. Over MCP the client answers (2026-07-28 clients, and 2025 clients " +
        "on stdio that declare elicitation); elsewhere pass the toolkit option `elicit`: " +
        "new Toolkit(tools, { elicit: (request, ctx) => askTheUser(request) }).",
    ),
  );
}

/** The default `ctx.sample` of a call whose caller brought none. */
export function noSampling(): Promise<never> {
  return Promise.reject(
    new InputUnavailableError(
      "ctx.sample: no model to ask here. Over MCP the client's model answers (clients that declare sampling); " +
        "elsewhere pass the toolkit option `sample`: new Toolkit(tools, { sample: (request, ctx) => callAModel(request) }).",
    ),
  );
}

/** Field types a form may have: MCP elicitation forms are flat. */
const FIELD_TYPES: ReadonlySet<unknown> = new Set(["string", "number", "integer", "boolean"]);

/** A question's `key`, when it has one that cannot name it. */
function keyProblem(method: string, key: unknown): string | undefined {
  return key === undefined || (typeof key === "string" && /^[\w.-]{1,64}$/.test(key))
    ? undefined
    : `${method}: key must be 1 to 64 letters, digits, "_", "-" or "."; got ${JSON.stringify(key)}.`;
}

/**
 * The problem with an elicitation request, or `undefined` when it can be sent: a message,
 * and either a flat object schema or an absolute http(s) URL.
 */
export function elicitRequestProblem(request: unknown): string | undefined {
  if (typeof request !== "object" || request === null)
    return "ctx.elicit takes { message, schema } (a form) or { message, url } (a page to open).";
  const { message, schema, url, key } = request as Record<string, unknown>;
  const badKey = keyProblem("ctx.elicit", key);
  if (badKey !== undefined) return badKey;
  if (typeof message !== "string" || message.trim() === "") return "ctx.elicit needs a `message` for the user.";
  if ((schema === undefined) === (url === undefined))
    return "ctx.elicit takes either `schema` (a form) or `url` (a page to open), exactly one of them.";
  if (url !== undefined) {
    if (typeof url !== "string" || !/^https?:\/\//i.test(url) || !URL.canParse(url))
      return `ctx.elicit: url must be an absolute http(s) URL; got ${JSON.stringify(url)}.`;
    return undefined;
  }
  const form = schema as JSONSchemaObject;
  if (typeof form !== "object" || form === null || form.type !== "object" || typeof form.properties !== "object")
    return 'ctx.elicit: schema must be { type: "object", properties: { ... } } with flat fields.';
  for (const [field, property] of Object.entries(form.properties ?? {})) {
    const kind = (property as JSONSchemaObject | undefined)?.type;
    const isEnum = Array.isArray((property as JSONSchemaObject | undefined)?.enum);
    const items = (property as JSONSchemaObject).items as JSONSchemaObject | undefined;
    const isMultiSelect =
      kind === "array" && (Array.isArray(items?.enum) || Array.isArray(items?.anyOf) || Array.isArray(items?.oneOf));
    if (!FIELD_TYPES.has(kind) && !isEnum && !isMultiSelect)
      return (
        `ctx.elicit: field "${field}" must be a string, number, integer, boolean or enum (forms are flat); ` +
        `got ${JSON.stringify(kind ?? null)}.`
      );
  }
  return undefined;
}

/** A sampling request as MCP's `sampling/createMessage` params: a string becomes one user text message. */
export function samplingParams(request: SampleRequest): Record<string, unknown> {
  const { messages, key: _key, ...rest } = request;
  return {
    ...rest,
    messages: typeof messages === "string" ? [{ role: "user", content: { type: "text", text: messages } }] : messages,
  };
}

/** Throws a `TypeError` saying what is wrong with an elicitation request nobody could answer (no message, a nested form). */
export function assertElicitRequest(request: unknown): asserts request is ElicitRequest {
  const problem = elicitRequestProblem(request);
  if (problem !== undefined) throw new TypeError(problem);
}

/** Throws a `TypeError` saying what is wrong with a sampling request no model could answer (no messages, no budget). */
export function assertSampleRequest(request: unknown): asserts request is SampleRequest {
  const problem = sampleRequestProblem(request);
  if (problem !== undefined) throw new TypeError(problem);
}

/** The problem with a sampling request, or `undefined` when it can be sent. */
export function sampleRequestProblem(request: unknown): string | undefined {
  if (typeof request !== "object" || request === null)
    return "ctx.sample takes { messages, maxTokens, systemPrompt?, tools? ... }.";
  const { messages, maxTokens, key } = request as Record<string, unknown>;
  const badKey = keyProblem("ctx.sample", key);
  if (badKey !== undefined) return badKey;
  if (!(typeof messages === "string" ? messages !== "" : Array.isArray(messages) && messages.length > 0))
    return "ctx.sample needs `messages`: a string, or [{ role, content }, ...].";
  if (!(Number.isSafeInteger(maxTokens) && (maxTokens as number) > 0))
    return `ctx.sample needs \`maxTokens\`, a whole number above 0; got ${String(maxTokens)}.`;
  return undefined;
}
