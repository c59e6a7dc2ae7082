import { checkTimeout, policyOf } from "../core/checks";
import { ToolDefinitionError } from "../core/errors";
import { acceptedBySomeProvider, PORTABLE_NAME, sanitizedName, type NameRule } from "../core/names";
import { MAX_TIMER_MS } from "../core/timers";
import { DEFAULT_TIMEOUT_MS, invokeWithLimits, type Timeout } from "../runtime/invoke";
import { cutText, errorMessage, errorResult } from "../runtime/result";
import { canonicalSchema } from "../schema/canonical";
import { fromCallToolResult } from "./call-tool-result";
import { describesObjects } from "../schema/describes-objects";
import { selfContained } from "../schema/self-contained";
import { managedTool, type RunAccepted } from "../runtime/run-contract";
import {
  isObject,
  type JSONSchemaObject,
  type RetryOption,
  type Tool,
  type ToolAnnotations,
  type ToolCallContext,
  type ToolErrorKind,
  type ToolResult,
} from "../core/types";
import { cursorKey, FROM_MCP_LIMITS, jsonLength, namesListed, quoted } from "./from-mcp-limits";
import { answerInputRequests, isInputRequired, MAX_INPUT_ROUNDS } from "./remote-input";

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
  /** SDK 2.x: hand an `input_required` result back (the call answers it) rather than fulfil or refuse it. */
  allowInputRequired?: boolean;
  timeout?: number;
  onprogress?: (progress: { progress: number; total?: number | undefined; message?: string | undefined }) => void;
}

/** What `fromMcp` uses of a connected client of either major of the official SDK. */
interface McpClientBase {
  listTools(params?: { cursor?: string }): Promise<{ tools: McpListedTool[]; nextCursor?: string | undefined }>;
  getServerVersion(): { name: string } | undefined;
  getServerCapabilities(): { tools?: object | undefined } | undefined;
}

/** A `Client` of `@modelcontextprotocol/sdk` 1.x (`client/index.js`): a call's options come after its result schema. */
export interface McpToolsClientV1 extends McpClientBase {
  callTool(
    params: { name: string; arguments?: Record<string, unknown> },
    resultSchema: undefined,
    options: McpCallOptions,
  ): Promise<unknown>;
}

/**
 * A `Client` of `@modelcontextprotocol/client` 2.x, in either protocol era it negotiated (2025
 * servers, and 2026-07-28 ones with `versionNegotiation`): a call's options come second.
 */
export interface McpToolsClientV2 extends McpClientBase {
  callTool(
    params: {
      name: string;
      arguments?: Record<string, unknown>;
      inputResponses?: Record<string, unknown>;
      requestState?: string;
    },
    options?: McpCallOptions,
  ): Promise<unknown>;
  /** Which era the connection speaks (`"legacy"` or `"modern"`): what tells a 2.x client from a 1.x one. */
  getProtocolEra(): string | undefined;
}

/**
 * What `fromMcp` uses of a connected `Client` of the official SDK, 1.x or 2.x. Written out
 * rather than the classes themselves, so that a client of either SDK's ES module build and one
 * of its CommonJS build are all accepted.
 */
export type McpToolsClient = McpToolsClientV1 | McpToolsClientV2;

const isV2Client = (client: McpToolsClient): client is McpToolsClientV2 =>
  typeof (client as Partial<McpToolsClientV2>).getProtocolEra === "function";

/** Which of the server's tools to take: their names as the server lists them, or a test of each. */
export type McpToolFilter = readonly string[] | ((tool: McpListedTool) => boolean);

export interface FromMcpOptions {
  /**
   * Put in front of every tool name (`"github_"`): tools of several servers stay apart. The server is still called by
   * its own names.
   */
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
  /**
   * Retries of failed calls, as for any tool. Left out, as for any tool: those the server hints `idempotentHint: true`
   * get 3 attempts.
   */
  retry?: RetryOption;
  /** How descriptions and error texts name the server. Default: its `serverInfo.name`. */
  serverName?: string;
  /**
   * Tools not declared up front, found by the model's tool search (see `Tool.defer`): `true` for
   * every tool of the server, or the ones a list names or a function picks (by the server's names).
   */
  defer?: boolean | McpToolFilter;
  /** The namespace of every tool of the server, where a provider groups tools (OpenAI Responses). */
  namespace?: string;
}

/** The names every provider accepts, the target of `names: "sanitize"`. */
const PORTABLE: NameRule = {
  max: 64,
  pattern: PORTABLE_NAME,
  text: "a letter first, then letters, digits, _ or -, at most 64 characters",
};

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
  const server = options.serverName ?? serverNameOf(client);
  const listed = await listedTools(client, server);
  const chosen = chosenTools(listed, options, server);
  checkNameLengths(chosen, server);
  const names = toolNames(chosen, options, server);
  return chosen.map((tool, index) => remoteTool(client, tool, names[index]!, server, options));
}

function checkClient(client: McpToolsClient): void {
  const methods = ["listTools", "callTool", "getServerVersion", "getServerCapabilities"] as const;
  if (typeof client !== "object" || client === null || methods.some((method) => typeof client[method] !== "function")) {
    throw new TypeError(
      "fromMcp takes a Client of @modelcontextprotocol/client (2.x) or @modelcontextprotocol/sdk (1.x, " +
        "client/index.js), connected to the server: await client.connect(transport) first.",
    );
  }
  if (client.getServerVersion() === undefined)
    throw new TypeError("fromMcp needs a connected client: await client.connect(transport) first.");
}

/** The name the server gives itself, which texts quote: cut like any free text a server sends. */
function serverNameOf(client: McpToolsClient): string {
  const name = client.getServerVersion()?.name;
  return typeof name === "string" && name !== "" ? cutText(name, FROM_MCP_LIMITS.nameLength) : "MCP server";
}

function checkOptions(options: FromMcpOptions): void {
  if (typeof options !== "object" || options === null)
    throw new TypeError(`fromMcp: options must be an object (got ${options === null ? "null" : typeof options}).`);
  const { namePrefix, names, include, exclude, timeout, retry, serverName } = options;
  if (namePrefix !== undefined && typeof namePrefix !== "string")
    throw new TypeError(`fromMcp: namePrefix must be a string (got ${typeof namePrefix}).`);
  if (serverName !== undefined && (typeof serverName !== "string" || serverName === ""))
    throw new TypeError("fromMcp: serverName must be a non-empty string.");
  if (names !== undefined && names !== "exact" && names !== "sanitize")
    throw new TypeError(`fromMcp: names must be "exact" or "sanitize" (got ${JSON.stringify(names)}).`);
  for (const [key, filter] of [["include", include] as const, ["exclude", exclude] as const]) {
    if (filter !== undefined && !isToolFilter(filter))
      throw new TypeError(`fromMcp: ${key} must be a list of tool names or a function (tool) => boolean.`);
  }
  checkTimeout("fromMcp", timeout);
  if (retry !== undefined) policyOf("fromMcp", { retry });
  const { defer, namespace } = options;
  if (defer !== undefined && typeof defer !== "boolean" && !isToolFilter(defer))
    throw new TypeError("fromMcp: defer must be true, false, a list of tool names or a function (tool) => boolean.");
  if (namespace !== undefined && (typeof namespace !== "string" || !PORTABLE_NAME.test(namespace)))
    throw new TypeError(
      "fromMcp: namespace must be a name providers accept: a letter first, then letters, digits, _ or -, at most 64 " +
        `characters (got ${JSON.stringify(namespace)}).`,
    );
}

function isToolFilter(filter: unknown): filter is McpToolFilter {
  return typeof filter === "function" || (Array.isArray(filter) && filter.every((name) => typeof name === "string"));
}

/**
 * Every page of `tools/list`, each counted as it arrives: more than `FROM_MCP_LIMITS.tools`
 * tools in all, more than `FROM_MCP_LIMITS.pages` pages, or a cursor seen before (its pages
 * would never end) is an error, so a server can neither grow the heap nor keep the listing going.
 */
async function listedTools(client: McpToolsClient, server: string): Promise<McpListedTool[]> {
  // A server without the tools capability has none (asking would be answered "method not found").
  if (client.getServerCapabilities()?.tools === undefined) return [];
  const { tools: maxTools, pages: maxPages } = FROM_MCP_LIMITS;
  const tools: McpListedTool[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let pages = 1; ; pages++) {
    const page = await listedPage(client, server, cursor);
    const total = tools.length + page.tools.length;
    if (total > maxTools) {
      const where = `${total} in ${pages} page${pages > 1 ? "s" : ""} of tools/list`;
      throw new Error(
        `fromMcp: the MCP server "${server}" lists more than ${maxTools} tools (${where}); toolnexus takes at most ` +
          `${maxTools} from one server.`,
      );
    }
    // One by one: spreading a page of a hundred thousand tools into push() overflows the stack.
    for (const tool of page.tools) tools.push(tool);
    cursor = page.nextCursor;
    if (cursor === undefined) return tools;
    const key = cursorKey(cursor);
    if (seen.has(key))
      throw new Error(
        `fromMcp: the MCP server "${server}" sent the tools/list cursor ${quoted(cursor)} twice; its pages never end.`,
      );
    seen.add(key);
    if (pages === maxPages)
      throw new Error(
        `fromMcp: the MCP server "${server}" went on past ${maxPages} pages of tools/list; toolnexus stops there.`,
      );
  }
}

/** One page of `tools/list`; a failure, or an answer that is no page of tools, is an error naming the server. */
async function listedPage(
  client: McpToolsClient,
  server: string,
  cursor: string | undefined,
): Promise<{ tools: McpListedTool[]; nextCursor?: string | undefined }> {
  let page: unknown;
  try {
    page = await client.listTools(cursor === undefined ? undefined : { cursor });
  } catch (error) {
    throw new Error(
      `fromMcp: could not list the tools of the MCP server "${server}": ${withoutSdkPrefix(errorMessage(error))}`,
      { cause: error },
    );
  }
  if (
    !isObject(page) ||
    !Array.isArray(page.tools) ||
    (page.nextCursor !== undefined && typeof page.nextCursor !== "string")
  ) {
    throw new Error(
      `fromMcp: the MCP server "${server}" answered tools/list with something that is not a list of tools.`,
    );
  }
  return page as { tools: McpListedTool[]; nextCursor?: string | undefined };
}

/** Names are refused past `FROM_MCP_LIMITS.nameLength`, not cut: calls must send the server its name whole. */
function checkNameLengths(tools: McpListedTool[], server: string): void {
  const max = FROM_MCP_LIMITS.nameLength;
  const long = tools.filter((tool) => tool.name.length > max).map((tool) => tool.name);
  if (long.length === 0) return;
  throw new ToolDefinitionError(
    `fromMcp: the MCP server "${server}" lists tool names longer than ${max} characters, which toolnexus does not ` +
      `take: ${namesListed(long, quoted)}. ` +
      `Leave them out with { exclude: (tool) => tool.name.length > ${max} }.`,
  );
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
        `fromMcp: ${key} names ${missing.map((name) => `"${name}"`).join(", ")}, which the MCP server "${server}" ` +
          `does not have. Its tools: ${namesListed([...known])}.`,
      );
    }
  }
  const taskOnly = new Set(tools.filter((tool) => tool.execution?.taskSupport === "required").map((tool) => tool.name));
  const includedTaskOnly = Array.isArray(include) ? include.filter((name) => taskOnly.has(name)) : [];
  if (includedTaskOnly.length > 0) {
    throw new ToolDefinitionError(
      `fromMcp: include names ${includedTaskOnly.map((name) => `"${name}"`).join(", ")}, which the MCP server ` +
        `"${server}" runs only as tasks (execution.taskSupport "required"); fromMcp calls tools with tools/call, ` +
        "which cannot run them. Leave them out of include.",
    );
  }
  const matches = (filter: McpToolFilter, tool: McpListedTool) =>
    typeof filter === "function" ? filter(tool) === true : filter.includes(tool.name);
  return tools.filter(
    (tool) =>
      !taskOnly.has(tool.name) &&
      (include === undefined || matches(include, tool)) &&
      (exclude === undefined || !matches(exclude, tool)),
  );
}

/**
 * Each tool's name in the toolkit: prefixed, then kept (`exact`) or made portable (`sanitize`); names no provider
 * takes, or two tools under one name, throw.
 */
function toolNames(
  tools: McpListedTool[],
  { namePrefix = "", names = "exact" }: FromMcpOptions,
  server: string,
): string[] {
  const wanted = tools.map((tool) => `${namePrefix}${tool.name}`);
  if (names === "exact") {
    const unusable = wanted.filter((name) => !PORTABLE_NAME.test(name) && !acceptedBySomeProvider(name));
    if (unusable.length > 0) {
      const plural = unusable.length > 1 ? "s" : "";
      throw new ToolDefinitionError(
        `fromMcp: no provider accepts the tool name${plural} ${namesListed(unusable, quoted)} of the MCP server ` +
          `"${server}". ` +
          'Pass { names: "sanitize" } to map names to ones every provider accepts (calls still use the server\'s ' +
          "names), or leave the tool out with { exclude: [...] }.",
      );
    }
  }
  const made = names === "sanitize" ? wanted.map((name) => sanitizedName(name, PORTABLE)) : wanted;
  const firstOf = new Map<string, number>();
  made.forEach((name, index) => {
    const first = firstOf.get(name);
    if (first === undefined) return void firstOf.set(name, index);
    throw new ToolDefinitionError(
      `fromMcp: the MCP server "${server}" tools ${JSON.stringify(tools[first]!.name)} and ` +
        `${JSON.stringify(tools[index]!.name)} would both be named "${name}". Leave one out with { exclude: [...] }.`,
    );
  });
  return made;
}

function deferred(defer: FromMcpOptions["defer"], tool: McpListedTool): boolean {
  if (defer === undefined || typeof defer === "boolean") return defer === true;
  return typeof defer === "function" ? defer(tool) === true : defer.includes(tool.name);
}

/** One listed tool as a toolnexus Tool whose calls go to the server. */
function remoteTool(
  client: McpToolsClient,
  listed: McpListedTool,
  name: string,
  server: string,
  options: FromMcpOptions,
): Tool {
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
    ...(deferred(options.defer, listed) ? { defer: true } : {}),
    ...(options.namespace !== undefined ? { namespace: options.namespace } : {}),
  };
  const remoteName = listed.name;
  const run: RunAccepted = (args, ctx, fallbackTimeout) => {
    const limit = options.timeout ?? fallbackTimeout;
    const deadline = ctx?.timeout ?? limit ?? DEFAULT_TIMEOUT_MS;
    return invokeWithLimits(
      name,
      (accepted: Record<string, unknown>, callCtx) =>
        callRemote(client, remoteName, server, accepted, callCtx, deadline),
      args,
      ctx,
      limit,
    );
  };
  // The server checks the arguments against its own schema; checking them here too could only disagree with it.
  return managedTool(fields, { run }, false);
}

/**
 * A schema the server listed, made self-contained as every toolnexus schema is (references
 * inlined, recursion unfolded then cut), so every exporter can write it. One that cannot be, or
 * that describes no object, or that is larger as JSON than `FROM_MCP_LIMITS.schemaLength` (its
 * descriptions, enums and defaults go into every export), makes `fromMcp` reject, naming the tool.
 */
function declaredSchema(listed: McpListedTool, key: "inputSchema" | "outputSchema", server: string): JSONSchemaObject {
  const unusable = (why: string) =>
    new ToolDefinitionError(
      `fromMcp: the ${key} the MCP server "${server}" lists for its tool "${listed.name}" ${why}. Leave the tool out ` +
        `with { exclude: ["${listed.name}"] }.`,
    );
  const length = jsonLength(listed[key]);
  if (length > FROM_MCP_LIMITS.schemaLength)
    throw unusable(`is ${length} characters of JSON, more than the ${FROM_MCP_LIMITS.schemaLength} toolnexus takes`);
  let schema: JSONSchemaObject;
  try {
    schema = canonicalSchema(selfContained(listed[key] as JSONSchemaObject));
  } catch (error) {
    throw unusable(`cannot be used: ${errorMessage(error)}`);
  }
  if (!describesObjects(schema)) throw unusable("describes no object, which MCP requires");
  return schema;
}

/**
 * The server's description, cut to `FROM_MCP_LIMITS.descriptionLength`; without one (toolnexus
 * requires one), a text naming the tool and its server.
 */
function descriptionOf(listed: McpListedTool, server: string): string {
  if (typeof listed.description === "string" && listed.description.trim() !== "")
    return cutText(listed.description, FROM_MCP_LIMITS.descriptionLength);
  const title = titleOf(listed);
  const what =
    title !== undefined && title.trim() !== "" ? `${title} (tool "${listed.name}")` : `The tool "${listed.name}"`;
  return `${what} of the MCP server "${server}", which gives no description of it.`;
}

/** The tool's title (its own, else its annotations'), cut to `FROM_MCP_LIMITS.titleLength`. */
function titleOf(listed: McpListedTool): string | undefined {
  const title = listed.title ?? listed.annotations?.title;
  return typeof title === "string" ? cutText(title, FROM_MCP_LIMITS.titleLength) : undefined;
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
  const title = titleOf(listed);
  const mapped: ToolAnnotations = title !== undefined ? { title } : {};
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
async function callRemote(
  client: McpToolsClient,
  tool: string,
  server: string,
  args: Record<string, unknown>,
  ctx: ToolCallContext,
  deadline: Timeout,
): Promise<ToolResult> {
  try {
    const params = { name: tool, arguments: args };
    const options: McpCallOptions = {
      signal: ctx.signal,
      timeout: sdkTimeout(deadline),
      onprogress: ({ progress, total, message }) => ctx.reportProgress(progress, total, message),
    };
    if (!isV2Client(client)) return fromCallToolResult(await client.callTool(params, undefined, options), tool, server);
    // A 2026-07-28 server asks for input by answering input_required: the local call's ctx answers, and the call goes
    // again with the answers and the server's state, round after round.
    let answer = await client.callTool(params, { ...options, allowInputRequired: true });
    for (let round = 1; isInputRequired(answer); round++) {
      if (round > MAX_INPUT_ROUNDS)
        return errorResult(
          "execution_failed",
          `The MCP server "${server}" kept asking for input: "${tool}" was given up after ${MAX_INPUT_ROUNDS} rounds.`,
          { tool, server },
        );
      let inputResponses: Record<string, unknown>;
      try {
        inputResponses = await answerInputRequests(answer.inputRequests ?? {}, ctx);
      } catch (error) {
        return errorResult(
          "execution_failed",
          `The MCP server "${server}" needed input to run "${tool}": ${errorMessage(error)}`,
          { tool, server },
        );
      }
      answer = await client.callTool(
        {
          ...params,
          inputResponses,
          ...(answer.requestState !== undefined ? { requestState: answer.requestState } : {}),
        },
        { ...options, allowInputRequired: true },
      );
    }
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

/**
 * MCP has no error code for an unknown tool: servers answer invalid params naming it (the specification's example:
 * "Unknown tool: x").
 */
const UNKNOWN_TOOL = /\bunknown tool\b|\btool\b.{0,200}\bnot found\b/i;
/** The SDK client's own check of `structuredContent` against the listed output schema. */
const OUTPUT_SCHEMA = /\boutput schema\b|\bstructured content\b/i;
/**
 * The SDK client's own check of the result against MCP's schema (reported as invalid params, though the arguments are
 * not at fault).
 */
const INVALID_RESULT = /^Invalid tools\/call result\b/;

/** JSON-RPC error codes, the SDK 1.x's own (connection closed, timeout) among them. */
const RPC = { connectionClosed: -32000, requestTimeout: -32001, invalidRequest: -32600, invalidParams: -32602 };

/** The SDK 2.x's codes of failures of its own (strings, where the protocol's are numbers). */
const SDK_2 = {
  connectionClosed: "CONNECTION_CLOSED",
  requestTimeout: "REQUEST_TIMEOUT",
  notConnected: "NOT_CONNECTED",
  invalidResult: "INVALID_RESULT",
};

/**
 * A call that got no result: a protocol error, a closed connection, the SDK's timeout, a
 * transport failure. Reported as the kind of failure it is, naming the tool and the server.
 * An abort or toolnexus's own deadline never gets here: the call has ended already.
 */
function failureOf(error: unknown, tool: string, server: string): ToolResult {
  const raw = (error as { code?: unknown } | null)?.code;
  const code = typeof raw === "number" ? raw : undefined;
  const sdkCode = typeof raw === "string" ? raw : undefined;
  const text = withoutSdkPrefix(errorMessage(error));
  const fail = (kind: ToolErrorKind, message: string) =>
    errorResult(kind, message, { tool, server, ...(code !== undefined ? { code } : {}) });
  if (sdkCode === SDK_2.notConnected || text === "Not connected")
    return fail(
      "execution_failed",
      `The MCP server "${server}" is not connected (its client was closed), so "${tool}" was not called.`,
    );
  if (code === RPC.connectionClosed || sdkCode === SDK_2.connectionClosed)
    return fail(
      "execution_failed",
      `The MCP server "${server}" closed the connection before answering the call of "${tool}"; it may or may not ` +
        "have run.",
    );
  if (code === RPC.requestTimeout || sdkCode === SDK_2.requestTimeout)
    return fail("timeout", `The MCP server "${server}" did not answer the call of "${tool}" in time: ${text}`);
  // The SDK 2.x refuses a result that breaks MCP's schema with INVALID_RESULT; the 1.x with invalid params.
  if (code === RPC.invalidParams || code === RPC.invalidRequest || sdkCode === SDK_2.invalidResult) {
    if (INVALID_RESULT.test(text) || sdkCode === SDK_2.invalidResult) {
      return fail(
        "execution_failed",
        `The MCP server "${server}" answered the call of "${tool}" with a result that does not follow the MCP ` +
          `schema, which the MCP SDK refuses: ${text}`,
      );
    }
    if (OUTPUT_SCHEMA.test(text))
      return fail(
        "invalid_output",
        `The tool "${tool}" of the MCP server "${server}" answered with a result that does not match its output ` +
          `schema: ${text}`,
      );
    if (code === RPC.invalidParams) {
      return fail(
        UNKNOWN_TOOL.test(text) ? "unknown_tool" : "invalid_arguments",
        `The MCP server "${server}" refused the call of "${tool}": ${text}`,
      );
    }
  }
  if (code !== undefined)
    return fail(
      "execution_failed",
      `The MCP server "${server}" answered the call of "${tool}" with an error (${code}): ${text}`,
    );
  return fail("execution_failed", `The call of "${tool}" to the MCP server "${server}" failed: ${text}`);
}
