import { ErrorCode } from "@modelcontextprotocol/sdk/types.js";
import { policyOf } from "../control/policy";
import { checkTimeout } from "../define-tool";
import { ToolDefinitionError } from "../errors";
import { acceptedBySomeProvider, PORTABLE_NAME, sanitizedName, type NameRule } from "../names";
import { DEFAULT_TIMEOUT_MS, invokeWithLimits, MAX_TIMER_MS, type Timeout } from "../runtime/invoke";
import { errorMessage, errorResult } from "../runtime/result";
import { canonicalSchema } from "../schema/canonical";
import { fromCallToolResult } from "./call-tool-result";
import { describesObjects } from "../schema/describes-objects";
import { selfContained } from "../schema/self-contained";
import { managedTool, type RunAccepted } from "../runtime/run-contract";
import type { JSONSchemaObject, RetryOption, Tool, ToolAnnotations, ToolCallContext, ToolErrorKind, ToolResult } from "../types";

/** A tool as an MCP server lists it in `tools/list` (the SDK's `Tool`, read loosely: servers differ). */
export interface McpListedTool {
  name: string;
  title?: string | undefined;
  description?: string | undefined;
  inputSchema: { [keyword: string]: unknown };
  outputSchema?: { [keyword: string]: unknown } | undefined;
  annotations?:
    | {
        title?: string | undefined;
        readOnlyHint?: boolean | undefined;
        destructiveHint?: boolean | undefined;
        idempotentHint?: boolean | undefined;
        openWorldHint?: boolean | undefined;
      }
    | undefined;
  execution?: { taskSupport?: string | undefined } | undefined;
}

/** What a call passes to `callTool`: the call's signal, its deadline and where progress goes. */
export interface McpCallOptions {
  signal?: AbortSignal;
  timeout?: number;
  onprogress?: (progress: { progress: number; total?: number | undefined; message?: string | undefined }) => void;
}

/**
 * What `fromMcp` uses of a connected `Client` of the official SDK
 * (`@modelcontextprotocol/sdk/client/index.js`). Written out rather than the class itself, so
 * that a client of the SDK's ES module build and one of its CommonJS build are both accepted.
 */
export interface McpToolsClient {
  listTools(params?: { cursor?: string }): Promise<{ tools: McpListedTool[]; nextCursor?: string | undefined }>;
  callTool(params: { name: string; arguments?: Record<string, unknown> }, resultSchema: undefined, options: McpCallOptions): Promise<unknown>;
  getServerVersion(): { name: string } | undefined;
  getServerCapabilities(): { tools?: object | undefined } | undefined;
}

/** Which of the server's tools to take: their names as the server lists them, or a test of each. */
export type McpToolFilter = readonly string[] | ((tool: McpListedTool) => boolean);

export interface FromMcpOptions {
  /** Put in front of every tool name (`"github_"`): tools of several servers stay apart. The server is still called by its own names. */
  namePrefix?: string;
  /**
   * `"exact"` (default): a tool name no provider accepts (spaces, `/`, over 128 characters)
   * makes `fromMcp` reject, naming it. `"sanitize"`: every name some provider rejects is mapped
   * to one every provider accepts (`files.read` → `files_read`); calls still reach the
   * server's tool by its own name.
   */
  names?: "exact" | "sanitize";
  /** Only these tools. A name the server does not have makes `fromMcp` reject (a typo would take nothing). */
  include?: McpToolFilter;
  /** All tools but these. A name the server does not have makes `fromMcp` reject (a typo would hide nothing). */
  exclude?: McpToolFilter;
  /** Each tool's deadline in milliseconds (`false` for none), unless the call sets one; else the toolkit's. */
  timeout?: number | false;
  /** Retries of failed calls, as for any tool. Left out, as for any tool: those the server hints `idempotentHint: true` get 3 attempts. */
  retry?: RetryOption;
  /** How descriptions and error texts name the server. Default: its `serverInfo.name`. */
  serverName?: string;
}

/** The names every provider accepts, the target of `names: "sanitize"`. */
const PORTABLE: NameRule = { max: 64, pattern: PORTABLE_NAME, text: "a letter first, then letters, digits, _ or -, at most 64 characters" };

/**
 * The tools of a connected MCP server as toolnexus `Tool`s, for a `Toolkit` beside local
 * ones. Lists every page of `tools/list` once, now; each tool's `execute` sends `tools/call`
 * with the call's signal (an abort or a timeout cancels the request), deadline and progress,
 * and answers with a `ToolResult`: the server's text as `output`, its images, audio, links
 * and files as `content`, its `structuredContent`, its `isError` as an `execution_failed`
 * result. A protocol error, a lost connection or a server that never answers is an error
 * result too: calls never reject. `fromMcp` itself rejects when the tools cannot be listed,
 * for a client that is not connected (`TypeError`), and for a tool name that cannot be used or
 * an `include`/`exclude` naming a tool the server does not have (`ToolDefinitionError`).
 */
export async function fromMcp(client: McpToolsClient, options: FromMcpOptions = {}): Promise<Tool[]> {
  checkClient(client);
  checkOptions(options);
  const server = options.serverName ?? client.getServerVersion()?.name ?? "MCP server";
  const listed = await listedTools(client, server);
  const chosen = chosenTools(listed, options, server);
  const names = toolNames(chosen, options, server);
  return chosen.map((tool, index) => remoteTool(client, tool, names[index]!, server, options));
}

function checkClient(client: McpToolsClient): void {
  const methods = ["listTools", "callTool", "getServerVersion", "getServerCapabilities"] as const;
  if (typeof client !== "object" || client === null || methods.some((method) => typeof client[method] !== "function")) {
    throw new TypeError("fromMcp takes a Client of @modelcontextprotocol/sdk (client/index.js), connected to the server: await client.connect(transport) first.");
  }
  if (client.getServerVersion() === undefined) throw new TypeError("fromMcp needs a connected client: await client.connect(transport) first.");
}

function checkOptions(options: FromMcpOptions): void {
  if (typeof options !== "object" || options === null) throw new TypeError(`fromMcp: options must be an object (got ${options === null ? "null" : typeof options}).`);
  const { namePrefix, names, include, exclude, timeout, retry, serverName } = options;
  if (namePrefix !== undefined && typeof namePrefix !== "string") throw new TypeError(`fromMcp: namePrefix must be a string (got ${typeof namePrefix}).`);
  if (serverName !== undefined && (typeof serverName !== "string" || serverName === "")) throw new TypeError("fromMcp: serverName must be a non-empty string.");
  if (names !== undefined && names !== "exact" && names !== "sanitize") throw new TypeError(`fromMcp: names must be "exact" or "sanitize" (got ${JSON.stringify(names)}).`);
  for (const [key, filter] of [["include", include] as const, ["exclude", exclude] as const]) {
    const valid = filter === undefined || typeof filter === "function" || (Array.isArray(filter) && filter.every((name) => typeof name === "string"));
    if (!valid) throw new TypeError(`fromMcp: ${key} must be a list of tool names or a function (tool) => boolean.`);
  }
  checkTimeout("fromMcp", timeout);
  if (retry !== undefined) policyOf("fromMcp", { retry });
}

/** Bounds on what one server may list: a server that pages on without end is an error, not a hang or a heap. */
const MAX_LIST_PAGES = 1_000;
const MAX_LISTED_TOOLS = 10_000;

/** Every page of `tools/list`. A server whose pages never end (a cursor seen twice, or past the bounds) is an error. */
async function listedTools(client: McpToolsClient, server: string): Promise<McpListedTool[]> {
  // A server without the tools capability has none (asking would be answered "method not found").
  if (client.getServerCapabilities()?.tools === undefined) return [];
  const tools: McpListedTool[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  let pages = 0;
  do {
    if (++pages > MAX_LIST_PAGES || tools.length > MAX_LISTED_TOOLS) {
      throw new Error(`fromMcp: the MCP server "${server}" listed more than ${MAX_LISTED_TOOLS} tools or ${MAX_LIST_PAGES} pages of them; toolnexus stops there.`);
    }
    let page: Awaited<ReturnType<McpToolsClient["listTools"]>>;
    try {
      page = await client.listTools(cursor === undefined ? undefined : { cursor });
    } catch (error) {
      throw new Error(`fromMcp: could not list the tools of the MCP server "${server}": ${withoutSdkPrefix(errorMessage(error))}`, { cause: error });
    }
    tools.push(...page.tools);
    cursor = page.nextCursor;
    if (cursor !== undefined && seen.has(cursor))
      throw new Error(`fromMcp: the MCP server "${server}" sent the tools/list cursor ${JSON.stringify(cursor)} twice; its pages never end.`);
    if (cursor !== undefined) seen.add(cursor);
  } while (cursor !== undefined);
  return tools;
}

/**
 * The tools `include` and `exclude` leave. Tools the server runs only as tasks
 * (`execution.taskSupport: "required"`) are left out: `callTool` cannot run them.
 */
function chosenTools(tools: McpListedTool[], { include, exclude }: FromMcpOptions, server: string): McpListedTool[] {
  const known = new Set(tools.map((tool) => tool.name));
  for (const [key, filter] of [["include", include] as const, ["exclude", exclude] as const]) {
    if (!Array.isArray(filter)) continue;
    const missing = filter.filter((name) => !known.has(name));
    if (missing.length > 0) {
      throw new ToolDefinitionError(
        `fromMcp: ${key} names ${missing.map((name) => `"${name}"`).join(", ")}, which the MCP server "${server}" does not have. Its tools: ${namesListed([...known])}.`,
      );
    }
  }
  const taskOnly = new Set(tools.filter((tool) => tool.execution?.taskSupport === "required").map((tool) => tool.name));
  const includedTaskOnly = Array.isArray(include) ? include.filter((name) => taskOnly.has(name)) : [];
  if (includedTaskOnly.length > 0) {
    throw new ToolDefinitionError(
      `fromMcp: include names ${includedTaskOnly.map((name) => `"${name}"`).join(", ")}, which the MCP server "${server}" runs only as tasks (execution.taskSupport "required"); fromMcp calls tools with tools/call, which cannot run them. Leave them out of include.`,
    );
  }
  const matches = (filter: McpToolFilter, tool: McpListedTool) => (typeof filter === "function" ? filter(tool) === true : filter.includes(tool.name));
  return tools.filter((tool) => !taskOnly.has(tool.name) && (include === undefined || matches(include, tool)) && (exclude === undefined || !matches(exclude, tool)));
}

/** The server's tool names for a message: the first 50, then how many more. */
function namesListed(names: string[]): string {
  if (names.length === 0) return "none";
  const shown = names.slice(0, 50).join(", ");
  return names.length > 50 ? `${shown} and ${names.length - 50} more` : shown;
}

/** Each tool's name in the toolkit: prefixed, then kept (`exact`) or made portable (`sanitize`); names no provider takes, or two tools under one name, throw. */
function toolNames(tools: McpListedTool[], { namePrefix = "", names = "exact" }: FromMcpOptions, server: string): string[] {
  const wanted = tools.map((tool) => `${namePrefix}${tool.name}`);
  if (names === "exact") {
    const unusable = wanted.filter((name) => !PORTABLE_NAME.test(name) && !acceptedBySomeProvider(name));
    if (unusable.length > 0) {
      const plural = unusable.length > 1 ? "s" : "";
      throw new ToolDefinitionError(
        `fromMcp: no provider accepts the tool name${plural} ${unusable.map((name) => JSON.stringify(name)).join(", ")} of the MCP server "${server}". ` +
          'Pass { names: "sanitize" } to map names to ones every provider accepts (calls still use the server\'s names), or leave the tool out with { exclude: [...] }.',
      );
    }
  }
  const made = names === "sanitize" ? wanted.map((name) => sanitizedName(name, PORTABLE)) : wanted;
  const firstOf = new Map<string, number>();
  made.forEach((name, index) => {
    const first = firstOf.get(name);
    if (first === undefined) return void firstOf.set(name, index);
    throw new ToolDefinitionError(
      `fromMcp: the MCP server "${server}" tools ${JSON.stringify(tools[first]!.name)} and ${JSON.stringify(tools[index]!.name)} would both be named "${name}". Leave one out with { exclude: [...] }.`,
    );
  });
  return made;
}

/** One listed tool as a toolnexus Tool whose calls go to the server. */
function remoteTool(client: McpToolsClient, listed: McpListedTool, name: string, server: string, options: FromMcpOptions): Tool {
  const annotations = annotationsOf(listed);
  const fields: Omit<Tool, "execute"> = {
    name,
    description: descriptionOf(listed, server),
    inputSchema: declaredSchema(listed, "inputSchema", server),
    ...(listed.outputSchema !== undefined ? { outputSchema: declaredSchema(listed, "outputSchema", server) } : {}),
    source: "mcp",
    annotations,
    ...(options.retry !== undefined ? { retry: options.retry } : {}),
    ...(options.timeout !== undefined ? { timeout: options.timeout } : {}),
  };
  const run: RunAccepted = (args, ctx, fallbackTimeout) => {
    const limit = options.timeout ?? fallbackTimeout;
    const deadline = ctx?.timeout ?? limit ?? DEFAULT_TIMEOUT_MS;
    return invokeWithLimits(name, (accepted: Record<string, unknown>, callCtx) => callRemote(client, listed.name, server, accepted, callCtx, deadline), args, ctx, limit);
  };
  // The server checks the arguments against its own schema; checking them here too could only disagree with it.
  return managedTool(fields, { run }, false);
}

/**
 * A schema the server listed, made self-contained as every toolnexus schema is (references
 * inlined, recursion unfolded then cut), so every exporter can write it. One that cannot be, or
 * that describes no object, makes `fromMcp` reject, naming the tool.
 */
function declaredSchema(listed: McpListedTool, key: "inputSchema" | "outputSchema", server: string): JSONSchemaObject {
  const unusable = (why: string) =>
    new ToolDefinitionError(`fromMcp: the ${key} the MCP server "${server}" lists for its tool "${listed.name}" ${why}. Leave the tool out with { exclude: ["${listed.name}"] }.`);
  let schema: JSONSchemaObject;
  try {
    schema = canonicalSchema(selfContained(listed[key] as JSONSchemaObject));
  } catch (error) {
    throw unusable(`cannot be used: ${errorMessage(error)}`);
  }
  if (!describesObjects(schema)) throw unusable("describes no object, which MCP requires");
  return schema;
}

/** The server's description; without one (toolnexus requires one), a text naming the tool and its server. */
function descriptionOf(listed: McpListedTool, server: string): string {
  if (typeof listed.description === "string" && listed.description.trim() !== "") return listed.description;
  const title = listed.title ?? listed.annotations?.title;
  const what = typeof title === "string" && title.trim() !== "" ? `${title} (tool "${listed.name}")` : `The tool "${listed.name}"`;
  return `${what} of the MCP server "${server}", which gives no description of it.`;
}

/** MCP's hint names and the annotations they become. */
const HINTS = [
  ["readOnlyHint", "readOnly"],
  ["destructiveHint", "destructive"],
  ["idempotentHint", "idempotent"],
  ["openWorldHint", "openWorld"],
] as const;

/**
 * The server's hints as annotations, with MCP's defaults for those it leaves out: a tool not
 * hinted read-only may change things, and is destructive unless hinted otherwise
 * (`destructiveHint` defaults to true), so `approveDestructive` asks before it runs.
 */
function annotationsOf(listed: McpListedTool): ToolAnnotations {
  const hints = listed.annotations ?? {};
  const title = listed.title ?? hints.title;
  const mapped: ToolAnnotations = typeof title === "string" ? { title } : {};
  for (const [hint, annotation] of HINTS) {
    const value = hints[hint];
    if (typeof value === "boolean") mapped[annotation] = value;
  }
  if (mapped.readOnly !== true && mapped.destructive === undefined) mapped.destructive = true;
  return mapped;
}

/**
 * The SDK's own request timeout (60 s by default) must not end a call before toolnexus's
 * deadline does: toolnexus ends it (and cancels the request through the signal), with the
 * SDK's timer set a little later as a backstop.
 */
const SDK_TIMEOUT_SLACK_MS = 1_000;

function sdkTimeout(deadline: Timeout): number {
  return deadline === false ? MAX_TIMER_MS : Math.min(deadline + SDK_TIMEOUT_SLACK_MS, MAX_TIMER_MS);
}

/** One `tools/call`, its outcome as a result. */
async function callRemote(client: McpToolsClient, tool: string, server: string, args: Record<string, unknown>, ctx: ToolCallContext, deadline: Timeout): Promise<ToolResult> {
  try {
    const answer = await client.callTool({ name: tool, arguments: args }, undefined, {
      signal: ctx.signal,
      timeout: sdkTimeout(deadline),
      onprogress: ({ progress, total, message }) => ctx.reportProgress(progress, total, message),
    });
    return fromCallToolResult(answer, tool, server);
  } catch (error) {
    return failureOf(error, tool, server);
  }
}

/**
 * The SDK's errors read `MCP error <code>: <text>`, twice over when a server built with the
 * SDK threw one (its message travels with the prefix); the code is reported apart.
 */
function withoutSdkPrefix(message: string): string {
  return message.replace(/^(?:MCP error -?\d+: )+/, "");
}

/** MCP has no error code for an unknown tool: servers answer invalid params naming it (the specification's example: "Unknown tool: x"). */
const UNKNOWN_TOOL = /\bunknown tool\b|\btool\b.{0,200}\bnot found\b/i;
/** The SDK client's own check of `structuredContent` against the listed output schema. */
const OUTPUT_SCHEMA = /\boutput schema\b|\bstructured content\b/i;
/** The SDK client's own check of the result against MCP's schema (reported as invalid params, though the arguments are not at fault). */
const INVALID_RESULT = /^Invalid tools\/call result\b/;

/**
 * A call that got no result: a protocol error, a closed connection, the SDK's timeout, a
 * transport failure. Reported as the kind of failure it is, naming the tool and the server.
 * An abort or toolnexus's own deadline never gets here: the call has ended already.
 */
function failureOf(error: unknown, tool: string, server: string): ToolResult {
  const code = typeof (error as { code?: unknown } | null)?.code === "number" ? (error as { code: number }).code : undefined;
  const text = withoutSdkPrefix(errorMessage(error));
  const fail = (kind: ToolErrorKind, message: string) => errorResult(kind, message, { tool, server, ...(code !== undefined ? { code } : {}) });
  if (code === ErrorCode.ConnectionClosed)
    return fail("execution_failed", `The MCP server "${server}" closed the connection before answering the call of "${tool}"; it may or may not have run.`);
  if (code === ErrorCode.RequestTimeout) return fail("timeout", `The MCP server "${server}" did not answer the call of "${tool}" in time: ${text}`);
  if (code === ErrorCode.InvalidParams || code === ErrorCode.InvalidRequest) {
    if (INVALID_RESULT.test(text)) {
      return fail(
        "execution_failed",
        `The MCP server "${server}" answered the call of "${tool}" with a result that does not follow the MCP schema, which the MCP SDK refuses: ${text}`,
      );
    }
    if (OUTPUT_SCHEMA.test(text))
      return fail("invalid_output", `The tool "${tool}" of the MCP server "${server}" answered with a result that does not match its output schema: ${text}`);
    if (code === ErrorCode.InvalidParams) {
      return fail(UNKNOWN_TOOL.test(text) ? "unknown_tool" : "invalid_arguments", `The MCP server "${server}" refused the call of "${tool}": ${text}`);
    }
  }
  if (code !== undefined) return fail("execution_failed", `The MCP server "${server}" answered the call of "${tool}" with an error (${code}): ${text}`);
  if (text === "Not connected") return fail("execution_failed", `The MCP server "${server}" is not connected (its client was closed), so "${tool}" was not called.`);
  return fail("execution_failed", `The call of "${tool}" to the MCP server "${server}" failed: ${text}`);
}
