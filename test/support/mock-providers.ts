/**
 * A local stand-in for the Gemini, OpenAI (Chat Completions and Responses) and Anthropic REST
 * APIs, good enough for their official SDK clients. node:http only, 127.0.0.1, an ephemeral port.
 *
 * Per conversation it replays a scripted model, decided from the request alone (so several
 * conversations can run at once): a request that carries no tool results is turn 1 and gets
 * the scripted parallel tool calls; a request that carries tool results is turn 2 and gets
 * plain text quoting every result it received. Before that, the declarations and the tool
 * results are checked with the dialect rules, and any violation is answered the way the
 * provider answers it: HTTP 400 with that provider's error JSON. Every request is recorded.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import {
  checkAnthropicToolResults,
  checkAnthropicTools,
  checkGeminiToolResults,
  checkGeminiTools,
  checkOpenAIChatToolResults,
  checkOpenAIChatTools,
  checkOpenAIResponsesToolResults,
  checkOpenAIResponsesTools,
  describeViolations,
  type Violation,
} from "./dialect-rules";

export type MockProvider = "gemini" | "openai-chat" | "openai-responses" | "anthropic";

/** One call the scripted model makes on turn 1. */
export interface ScriptedCall {
  name: string;
  args: Record<string, unknown>;
}

export interface MockOptions {
  /** The parallel calls of turn 1, in order (per provider when a function: a strict model sends null for optional values). */
  calls: ScriptedCall[] | ((provider: MockProvider) => ScriptedCall[]);
  /** Gemini: give each functionCall an `id` (newer models do; older ones and Vertex do not). Default true. */
  geminiCallIds?: boolean;
}

export interface RecordedRequest {
  provider: MockProvider | "unknown";
  method: string;
  path: string;
  headers: IncomingMessage["headers"];
  /** The parsed JSON body (undefined when it was not JSON). */
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  /** 1: answered with tool calls; 2: answered with the final text; undefined: refused. */
  turn?: 1 | 2;
  status: number;
  violations: Violation[];
  /** What the mock answered (JSON). */
  response: unknown;
}

export interface MockProviders {
  /** `http://127.0.0.1:<port>` (no trailing slash). */
  baseUrl: string;
  requests: RecordedRequest[];
  /** The recorded requests of one provider, in arrival order. */
  requestsOf(provider: MockProvider): RecordedRequest[];
  close(): Promise<void>;
}

/** The text turn 2 answers with: one line per tool result, in the order received. */
export function finalTextFor(results: Array<{ name: string; text: string; isError: boolean }>): string {
  return ["The tools returned:", ...results.map((r) => `- ${r.name}${r.isError ? " (error)" : ""}: ${r.text}`)].join("\n");
}

const USAGE = { prompt: 42, completion: 17 };

export async function startMockProviders(options: MockOptions): Promise<MockProviders> {
  const requests: RecordedRequest[] = [];
  let counter = 0;
  const nextId = () => (++counter).toString(36).padStart(6, "0");

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const path = (req.url ?? "").split("?")[0]!;
      const record: RecordedRequest = {
        provider: providerOf(req.method, path),
        method: req.method ?? "",
        path,
        headers: req.headers,
        body: undefined,
        status: 0,
        violations: [],
        response: undefined,
      };
      requests.push(record);
      const send = (status: number, payload: unknown) => {
        record.status = status;
        record.response = payload;
        res.writeHead(status, { "content-type": "application/json", "x-request-id": `req_${nextId()}` });
        res.end(JSON.stringify(payload));
      };
      const text = Buffer.concat(chunks).toString("utf8");
      try {
        record.body = text === "" ? undefined : JSON.parse(text);
      } catch {
        record.violations.push({ at: "body", message: "the request body is not valid JSON" });
      }
      try {
        handle(record, send, { options, nextId });
      } catch (error) {
        send(500, { error: { message: `mock failure: ${(error as Error).stack ?? String(error)}` } });
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    requestsOf: (provider) => requests.filter((r) => r.provider === provider),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

function providerOf(method: string | undefined, path: string): RecordedRequest["provider"] {
  if (method !== "POST") return "unknown";
  if (/^\/v1beta\/models\/[^/:]+:generateContent$/.test(path)) return "gemini";
  if (path === "/v1/chat/completions") return "openai-chat";
  if (path === "/v1/responses") return "openai-responses";
  if (path === "/v1/messages") return "anthropic";
  return "unknown";
}

type Send = (status: number, payload: unknown) => void;
interface Ctx {
  options: MockOptions;
  nextId: () => string;
}

function scriptFor(ctx: Ctx, provider: MockProvider): ScriptedCall[] {
  return typeof ctx.options.calls === "function" ? ctx.options.calls(provider) : ctx.options.calls;
}

function handle(record: RecordedRequest, send: Send, ctx: Ctx): void {
  switch (record.provider) {
    case "gemini":
      return gemini(record, send, ctx);
    case "openai-chat":
      return openAIChat(record, send, ctx);
    case "openai-responses":
      return openAIResponses(record, send, ctx);
    case "anthropic":
      return anthropic(record, send, ctx);
    default:
      return send(404, { error: { code: 404, message: `mock: no route for ${record.method} ${record.path}`, status: "NOT_FOUND" } });
  }
}

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

// ---- Gemini: POST /v1beta/models/{model}:generateContent -------------------------------------

function gemini(record: RecordedRequest, send: Send, ctx: Ctx): void {
  const fail = (status: number, message: string, code = "INVALID_ARGUMENT") => send(status, { error: { code: status, message, status: code } });
  const key = record.headers["x-goog-api-key"];
  if (typeof key !== "string" || key === "")
    return fail(
      403,
      "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.",
      "PERMISSION_DENIED",
    );
  const body: Json = record.body;
  const violations = record.violations;
  if (!isObj(body) || !Array.isArray(body.contents) || body.contents.length === 0) violations.push({ at: "contents", message: "contents is not specified" });
  if (isObj(body) && body.tools !== undefined) violations.push(...checkGeminiTools(body.tools));
  if (isObj(body) && Array.isArray(body.contents)) violations.push(...checkGeminiToolResults(body.contents));
  if (violations.length > 0) return fail(400, `Invalid JSON payload received.\n${describeViolations(violations)}`);

  const model = /models\/([^/:]+):/.exec(record.path)![1]!;
  const last = body.contents[body.contents.length - 1];
  const responses: Json[] = (last.parts as Json[]).filter((p) => isObj(p.functionResponse)).map((p) => p.functionResponse);
  let parts: Json[];
  if (responses.length > 0) {
    record.turn = 2;
    const text = finalTextFor(
      responses.map((r) => ({
        name: r.name,
        isError: "error" in r.response,
        text: stringify("error" in r.response ? r.response.error : r.response.output),
      })),
    );
    parts = [{ text }];
  } else {
    const declared = declaredNames(body.tools?.[0]?.functionDeclarations?.map((d: Json) => d.name));
    const missing = scriptProblem(scriptFor(ctx, "gemini"), declared);
    if (missing) return fail(400, missing);
    record.turn = 1;
    parts = scriptFor(ctx, "gemini").map((call) => ({
      functionCall: { ...(ctx.options.geminiCallIds === false ? {} : { id: `fc_${ctx.nextId()}` }), name: call.name, args: call.args },
    }));
  }
  send(200, {
    candidates: [{ content: { role: "model", parts }, finishReason: "STOP", index: 0 }],
    usageMetadata: { promptTokenCount: USAGE.prompt, candidatesTokenCount: USAGE.completion, totalTokenCount: USAGE.prompt + USAGE.completion },
    modelVersion: model,
    responseId: `resp_${ctx.nextId()}`,
  });
}

// ---- OpenAI: POST /v1/chat/completions -------------------------------------------------------

function openAIError(send: Send, status: number, message: string, param: string | null, code: string | null = null, type = "invalid_request_error") {
  send(status, { error: { message, type, param, code } });
}

function openAIAuth(record: RecordedRequest, send: Send): boolean {
  const auth = record.headers.authorization;
  if (typeof auth === "string" && /^Bearer \S+$/.test(auth)) return true;
  openAIError(
    send,
    401,
    "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).",
    null,
  );
  return false;
}

function openAIChat(record: RecordedRequest, send: Send, ctx: Ctx): void {
  if (!openAIAuth(record, send)) return;
  const body: Json = record.body;
  const violations = record.violations;
  if (!isObj(body) || typeof body.model !== "string") violations.push({ at: "model", message: "you must provide a model parameter" });
  if (!isObj(body) || !Array.isArray(body.messages) || body.messages.length === 0) violations.push({ at: "messages", message: "'messages' must be a non-empty array" });
  if (isObj(body) && body.tools !== undefined) violations.push(...checkOpenAIChatTools(body.tools));
  if (isObj(body) && Array.isArray(body.messages)) violations.push(...checkOpenAIChatToolResults(body.messages));
  if (violations.length > 0) {
    return openAIError(
      send,
      400,
      `Invalid request: ${describeViolations(violations)}`,
      violations[0]!.at,
      violations[0]!.at.startsWith("tools") ? "invalid_function_parameters" : null,
    );
  }

  const messages: Json[] = body.messages;
  const toolMessages: Json[] = [];
  for (let i = messages.length - 1; i >= 0 && messages[i].role === "tool"; i--) toolMessages.unshift(messages[i]);
  let message: Json;
  let finishReason: string;
  if (toolMessages.length > 0) {
    record.turn = 2;
    const assistant = messages[messages.length - toolMessages.length - 1];
    const names = new Map<string, string>((assistant.tool_calls as Json[]).map((c) => [c.id, c.function?.name]));
    const text = finalTextFor(
      toolMessages.map((m) => {
        const content = typeof m.content === "string" ? m.content : (m.content as Json[]).map((p) => p.text).join("");
        return { name: names.get(m.tool_call_id) ?? "?", isError: content.startsWith("Error:"), text: content };
      }),
    );
    message = { role: "assistant", content: text, refusal: null, annotations: [] };
    finishReason = "stop";
  } else {
    const declared = declaredNames((body.tools as Json[] | undefined)?.map((t) => t.function?.name));
    const missing = scriptProblem(scriptFor(ctx, "openai-chat"), declared);
    if (missing) return openAIError(send, 400, missing, "tools");
    record.turn = 1;
    message = {
      role: "assistant",
      content: null,
      refusal: null,
      annotations: [],
      tool_calls: scriptFor(ctx, "openai-chat").map((call) => ({
        id: `call_${ctx.nextId()}`,
        type: "function",
        function: { name: call.name, arguments: JSON.stringify(call.args) },
      })),
    };
    finishReason = "tool_calls";
  }
  send(200, {
    id: `chatcmpl-${ctx.nextId()}`,
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model: body.model,
    choices: [{ index: 0, message, finish_reason: finishReason, logprobs: null }],
    usage: { prompt_tokens: USAGE.prompt, completion_tokens: USAGE.completion, total_tokens: USAGE.prompt + USAGE.completion },
    service_tier: "default",
    system_fingerprint: "fp_mock",
  });
}

// ---- OpenAI: POST /v1/responses --------------------------------------------------------------

function openAIResponses(record: RecordedRequest, send: Send, ctx: Ctx): void {
  if (!openAIAuth(record, send)) return;
  const body: Json = record.body;
  const violations = record.violations;
  if (!isObj(body) || typeof body.model !== "string") violations.push({ at: "model", message: "Missing required parameter: 'model'." });
  if (!isObj(body) || (typeof body.input !== "string" && !Array.isArray(body.input))) violations.push({ at: "input", message: "input must be a string or an array of items" });
  if (isObj(body) && body.tools !== undefined) violations.push(...checkOpenAIResponsesTools(body.tools));
  if (isObj(body) && body.input !== undefined) violations.push(...checkOpenAIResponsesToolResults(body.input));
  if (violations.length > 0) return openAIError(send, 400, describeViolations(violations), violations[0]!.at);

  const input: Json[] = Array.isArray(body.input) ? body.input : [];
  const outputs = input.filter((item) => item?.type === "function_call_output");
  const now = Math.floor(Date.now() / 1000);
  let output: Json[];
  if (outputs.length > 0) {
    record.turn = 2;
    const names = new Map<string, string>(input.filter((item) => item?.type === "function_call").map((item) => [item.call_id, item.name]));
    const text = finalTextFor(
      outputs.map((o) => {
        const content = typeof o.output === "string" ? o.output : (o.output as Json[]).map((p) => p.text ?? "").join("");
        return { name: names.get(o.call_id) ?? "?", isError: content.startsWith("Error:"), text: content };
      }),
    );
    output = [
      {
        type: "message",
        id: `msg_${ctx.nextId()}`,
        status: "completed",
        role: "assistant",
        content: [{ type: "output_text", text, annotations: [], logprobs: [] }],
      },
    ];
  } else {
    const declared = declaredNames((body.tools as Json[] | undefined)?.map((t) => t.name));
    const missing = scriptProblem(scriptFor(ctx, "openai-responses"), declared);
    if (missing) return openAIError(send, 400, missing, "tools");
    record.turn = 1;
    output = scriptFor(ctx, "openai-responses").map((call) => {
      const id = ctx.nextId();
      return { type: "function_call", id: `fc_${id}`, call_id: `call_${id}`, name: call.name, arguments: JSON.stringify(call.args), status: "completed" };
    });
  }
  send(200, {
    id: `resp_${ctx.nextId()}`,
    object: "response",
    created_at: now,
    completed_at: now,
    status: "completed",
    background: false,
    error: null,
    incomplete_details: null,
    instructions: body.instructions ?? null,
    max_output_tokens: body.max_output_tokens ?? null,
    metadata: {},
    model: body.model,
    output,
    parallel_tool_calls: true,
    previous_response_id: body.previous_response_id ?? null,
    reasoning: { effort: null, summary: null },
    service_tier: "default",
    store: body.store ?? true,
    temperature: 1,
    text: { format: { type: "text" }, verbosity: "medium" },
    tool_choice: body.tool_choice ?? "auto",
    tools: body.tools ?? [],
    top_p: 1,
    truncation: "disabled",
    usage: {
      input_tokens: USAGE.prompt,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: USAGE.completion,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: USAGE.prompt + USAGE.completion,
    },
    user: null,
  });
}

// ---- Anthropic: POST /v1/messages ------------------------------------------------------------

function anthropic(record: RecordedRequest, send: Send, ctx: Ctx): void {
  const fail = (status: number, type: string, message: string) => send(status, { type: "error", error: { type, message }, request_id: `req_${ctx.nextId()}` });
  // The key comes as x-api-key, or (what @anthropic-ai/sdk 1.x sends for `apiKey`) as a Bearer token.
  const hasKey = (typeof record.headers["x-api-key"] === "string" && record.headers["x-api-key"] !== "") || /^Bearer \S+$/.test(record.headers.authorization ?? "");
  if (!hasKey) return fail(401, "authentication_error", "x-api-key header is required");
  if (typeof record.headers["anthropic-version"] !== "string") return fail(400, "invalid_request_error", "anthropic-version: header is required");
  const body: Json = record.body;
  const violations = record.violations;
  if (!isObj(body) || typeof body.model !== "string") violations.push({ at: "model", message: "Field required" });
  if (!isObj(body) || typeof body.max_tokens !== "number") violations.push({ at: "max_tokens", message: "Field required" });
  if (!isObj(body) || !Array.isArray(body.messages) || body.messages.length === 0) violations.push({ at: "messages", message: "at least one message is required" });
  if (isObj(body) && body.tools !== undefined) violations.push(...checkAnthropicTools(body.tools));
  if (isObj(body) && Array.isArray(body.messages)) violations.push(...checkAnthropicToolResults(body.messages));
  if (violations.length > 0) return fail(400, "invalid_request_error", describeViolations(violations));

  const messages: Json[] = body.messages;
  const last = messages[messages.length - 1];
  const results: Json[] = Array.isArray(last.content) ? last.content.filter((b: Json) => b?.type === "tool_result") : [];
  let content: Json[];
  let stopReason: string;
  if (results.length > 0) {
    record.turn = 2;
    const previous = messages[messages.length - 2];
    const names = new Map<string, string>((previous.content as Json[]).filter((b) => b.type === "tool_use").map((b) => [b.id, b.name]));
    const text = finalTextFor(
      results.map((r) => ({
        name: names.get(r.tool_use_id) ?? "?",
        isError: r.is_error === true,
        text: typeof r.content === "string" ? r.content : ((r.content ?? []) as Json[]).map((c) => c.text ?? "").join(""),
      })),
    );
    content = [{ type: "text", text, citations: null }];
    stopReason = "end_turn";
  } else {
    const declared = declaredNames((body.tools as Json[] | undefined)?.map((t) => t.name));
    const missing = scriptProblem(scriptFor(ctx, "anthropic"), declared);
    if (missing) return fail(400, "invalid_request_error", missing);
    record.turn = 1;
    content = [
      { type: "text", text: "Let me check both.", citations: null },
      ...scriptFor(ctx, "anthropic").map((call) => ({ type: "tool_use", id: `toolu_${ctx.nextId()}`, name: call.name, input: call.args })),
    ];
    stopReason = "tool_use";
  }
  send(200, {
    id: `msg_${ctx.nextId()}`,
    type: "message",
    role: "assistant",
    model: body.model,
    content,
    stop_reason: stopReason,
    stop_sequence: null,
    usage: {
      input_tokens: USAGE.prompt,
      output_tokens: USAGE.completion,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
      server_tool_use: null,
      service_tier: "standard",
    },
  });
}

// ---- helpers ----------------------------------------------------------------------------------

function isObj(value: unknown): value is Record<string, Json> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function stringify(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}

function declaredNames(names: unknown[] | undefined): string[] {
  return (names ?? []).filter((n): n is string => typeof n === "string");
}

/** The scripted model only calls tools it was given. */
function scriptProblem(calls: readonly ScriptedCall[], declared: readonly string[]): string | undefined {
  const missing = calls.filter((call) => !declared.includes(call.name)).map((call) => call.name);
  return missing.length > 0 ? `mock model: the script calls ${missing.join(", ")}, but the request declares only [${declared.join(", ")}]` : undefined;
}
