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
  return ["The tools returned:", ...results.map((r) => `- ${r.name}${r.isError ? " (error)" : ""}: ${r.text}`)].join(
    "\n",
  );
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
      return send(404, {
        error: { code: 404, message: `mock: no route for ${record.method} ${record.path}`, status: "NOT_FOUND" },
      });
  }
}

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

// ---- Gemini: POST /v1beta/models/{model}:generateContent -------------------------------------

function gemini(record: RecordedRequest, send: Send, ctx: Ctx): void {
  const fail = (status: number, message: string, code = "INVALID_ARGUMENT") =>
    send(status, { error: { code: status, message, status: code } });
  const key = record.headers["x-goog-api-key"];
  if (typeof key !== "string" || key === "")
    return fail(
      403,
      "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.",
      "PERMISSION_DENIED",
    );
  const body: Json = record.body;
  const violations = record.violations;
  if (!isObj(body) || !Array.isArray(body.contents) || body.contents.length === 0)
    violations.push({ at: "contents", message: "contents is not specified" });
  if (isObj(body) && body.tools !== undefined) violations.push(...checkGeminiTools(body.tools));
  if (isObj(body) && Array.isArray(body.contents))
    violations.push(...checkGeminiToolResults(body.contents), ...checkGeminiFunctionResponseMedia(body.contents));
  if (violations.length > 0) return fail(400, `Invalid JSON payload received.\n${describeViolations(violations)}`);

  const model = /models\/([^/:]+):/.exec(record.path)![1]!;
  // Media in function responses is a Gemini 3 feature; earlier models refuse the request.
  if (!/^gemini-([3-9]|\d\d)/.test(model) && hasFunctionResponseMedia(body.contents))
    return fail(400, "Multimodal function responses are not supported for this model.");
  const last = body.contents[body.contents.length - 1];
  const responses: Json[] = (last.parts as Json[])
    .filter((p) => isObj(p.functionResponse))
    .map((p) => p.functionResponse);
  let parts: Json[];
  if (responses.length > 0) {
    record.turn = 2;
    const text = finalTextFor(
      responses.map((r) => ({
        name: r.name,
        isError: "error" in r.response,
        text: stringify("error" in r.response ? r.response.error : r.response.output) + mediaReceived(r),
      })),
    );
    parts = [{ text }];
  } else {
    const declared = declaredNames(body.tools?.[0]?.functionDeclarations?.map((d: Json) => d.name));
    const missing = scriptProblem(scriptFor(ctx, "gemini"), declared);
    if (missing) return fail(400, missing);
    record.turn = 1;
    parts = scriptFor(ctx, "gemini").map((call) => ({
      functionCall: {
        ...(ctx.options.geminiCallIds === false ? {} : { id: `fc_${ctx.nextId()}` }),
        name: call.name,
        args: call.args,
      },
    }));
  }
  send(200, {
    candidates: [{ content: { role: "model", parts }, finishReason: "STOP", index: 0 }],
    usageMetadata: {
      promptTokenCount: USAGE.prompt,
      candidatesTokenCount: USAGE.completion,
      totalTokenCount: USAGE.prompt + USAGE.completion,
    },
    modelVersion: model,
    responseId: `resp_${ctx.nextId()}`,
  });
}

const MEDIA_FIELDS: Record<string, readonly string[]> = {
  inlineData: ["mimeType", "data", "displayName"],
  fileData: ["fileUri", "mimeType", "displayName"],
};

/**
 * `functionResponse.parts` as Gemini documents them: a list of parts, each exactly one of
 * `inlineData` { mimeType, data (base64) } or `fileData` { fileUri, mimeType }; unknown fields refused.
 */
function checkGeminiFunctionResponseMedia(contents: Json[]): Violation[] {
  const out: Violation[] = [];
  contents.forEach((content, c) => {
    const parts: Json[] = isObj(content) && Array.isArray(content.parts) ? content.parts : [];
    parts.forEach((part, p) => {
      const media = isObj(part) && isObj(part.functionResponse) ? part.functionResponse.parts : undefined;
      const at = `contents[${c}].parts[${p}].functionResponse.parts`;
      if (media === undefined) return;
      if (!Array.isArray(media)) return void out.push({ at, message: "parts must be a list of FunctionResponsePart" });
      media.forEach((item: Json, m: number) => out.push(...mediaProblems(item, `${at}[${m}]`)));
    });
  });
  return out;
}

function mediaProblems(item: Json, at: string): Violation[] {
  const kinds = isObj(item) ? Object.keys(item) : [];
  if (kinds.length !== 1 || !(kinds[0]! in MEDIA_FIELDS))
    return [
      { at, message: `a FunctionResponsePart holds exactly one of inlineData or fileData, got [${kinds.join(", ")}]` },
    ];
  const kind = kinds[0]!;
  const fields = item[kind];
  if (!isObj(fields)) return [{ at: `${at}.${kind}`, message: `${kind} must be an object` }];
  const out: Violation[] = Object.keys(fields)
    .filter((key) => !MEDIA_FIELDS[kind]!.includes(key))
    .map((key) => ({ at: `${at}.${kind}.${key}`, message: `Unknown name "${key}"` }));
  if (typeof fields.mimeType !== "string" || !/^[\w.+-]+\/[\w.+-]+$/.test(fields.mimeType))
    out.push({ at: `${at}.${kind}.mimeType`, message: "mimeType is required (an IANA type/subtype)" });
  if (
    kind === "inlineData" &&
    (typeof fields.data !== "string" || !/^[A-Za-z0-9+/]*={0,2}$/.test(fields.data) || fields.data.length % 4 !== 0)
  )
    out.push({ at: `${at}.inlineData.data`, message: "data must be base64" });
  if (kind === "fileData" && (typeof fields.fileUri !== "string" || fields.fileUri === ""))
    out.push({ at: `${at}.fileData.fileUri`, message: "fileUri is required" });
  return out;
}

function hasFunctionResponseMedia(contents: Json[]): boolean {
  return contents.some(
    (content) =>
      isObj(content) &&
      Array.isArray(content.parts) &&
      content.parts.some(
        (part: Json) => Array.isArray(part?.functionResponse?.parts) && part.functionResponse.parts.length > 0,
      ),
  );
}

/** What the final answer says a function response carried beside its response: " (with image/png inline, application/pdf at <uri>)". */
function mediaReceived(response: Json): string {
  const media: Json[] = Array.isArray(response.parts) ? response.parts : [];
  if (media.length === 0) return "";
  const described = media.map((item) =>
    item.inlineData !== undefined
      ? `${item.inlineData.mimeType} inline`
      : `${item.fileData.mimeType} at ${item.fileData.fileUri}`,
  );
  return ` (with ${described.join(", ")})`;
}

// ---- OpenAI: POST /v1/chat/completions -------------------------------------------------------

function openAIError(
  send: Send,
  status: number,
  message: string,
  param: string | null,
  code: string | null = null,
  type = "invalid_request_error",
) {
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
  if (!isObj(body) || typeof body.model !== "string")
    violations.push({ at: "model", message: "you must provide a model parameter" });
  if (!isObj(body) || !Array.isArray(body.messages) || body.messages.length === 0)
    violations.push({ at: "messages", message: "'messages' must be a non-empty array" });
  if (isObj(body) && body.tools !== undefined) violations.push(...checkOpenAIChatTools(body.tools));
  if (isObj(body) && Array.isArray(body.messages))
    violations.push(...checkOpenAIChatToolResults(body.messages), ...checkOpenAIChatUserParts(body.messages));
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
  // The tool messages end the request, or come right before one user message (what tool messages cannot carry).
  const last = messages[messages.length - 1];
  const attachments: Json | undefined =
    last?.role === "user" && messages[messages.length - 2]?.role === "tool" ? last : undefined;
  const toolMessages: Json[] = [];
  for (let i = messages.length - (attachments ? 2 : 1); i >= 0 && messages[i].role === "tool"; i--)
    toolMessages.unshift(messages[i]);
  let message: Json;
  let finishReason: string;
  if (toolMessages.length > 0) {
    record.turn = 2;
    const assistant = messages[messages.length - toolMessages.length - (attachments ? 2 : 1)];
    const names = new Map<string, string>((assistant.tool_calls as Json[]).map((c) => [c.id, c.function?.name]));
    const text = finalTextFor(
      toolMessages.map((m) => {
        const content = typeof m.content === "string" ? m.content : (m.content as Json[]).map((p) => p.text).join("");
        return { name: names.get(m.tool_call_id) ?? "?", isError: content.startsWith("Error:"), text: content };
      }),
    );
    message = {
      role: "assistant",
      content: attachments ? `${text}\nThen: ${describeChatParts(attachments.content)}` : text,
      refusal: null,
      annotations: [],
    };
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
    usage: {
      prompt_tokens: USAGE.prompt,
      completion_tokens: USAGE.completion,
      total_tokens: USAGE.prompt + USAGE.completion,
    },
    service_tier: "default",
    system_fingerprint: "fp_mock",
  });
}

// ---- OpenAI: POST /v1/responses --------------------------------------------------------------

function openAIResponses(record: RecordedRequest, send: Send, ctx: Ctx): void {
  if (!openAIAuth(record, send)) return;
  const body: Json = record.body;
  const violations = record.violations;
  if (!isObj(body) || typeof body.model !== "string")
    violations.push({ at: "model", message: "Missing required parameter: 'model'." });
  if (!isObj(body) || (typeof body.input !== "string" && !Array.isArray(body.input)))
    violations.push({ at: "input", message: "input must be a string or an array of items" });
  if (isObj(body) && body.tools !== undefined) violations.push(...checkOpenAIResponsesTools(body.tools));
  if (isObj(body) && body.input !== undefined)
    violations.push(...checkOpenAIResponsesToolResults(body.input), ...checkFunctionCallOutputItems(body.input));
  if (violations.length > 0) return openAIError(send, 400, describeViolations(violations), violations[0]!.at);

  const input: Json[] = Array.isArray(body.input) ? body.input : [];
  const outputs = input.filter((item) => item?.type === "function_call_output");
  const now = Math.floor(Date.now() / 1000);
  let output: Json[];
  if (outputs.length > 0) {
    record.turn = 2;
    const names = new Map<string, string>(
      input.filter((item) => item?.type === "function_call").map((item) => [item.call_id, item.name]),
    );
    const text = finalTextFor(
      outputs.map((o) => {
        const content = typeof o.output === "string" ? o.output : describeOutputItems(o.output);
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
      return {
        type: "function_call",
        id: `fc_${id}`,
        call_id: `call_${id}`,
        name: call.name,
        arguments: JSON.stringify(call.args),
        status: "completed",
      };
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

// ---- OpenAI: images, audio and files ---------------------------------------------------------
// What the API takes, per its docs (vision, audio and file inputs; the Responses function
// call output list): anything else is a 400 naming the field, as OpenAI answers.

const OPENAI_IMAGE_DATA = /^data:image\/(png|jpeg|webp|gif);base64,[A-Za-z0-9+/]+={0,2}$/;
const PDF_DATA = /^data:application\/pdf;base64,[A-Za-z0-9+/]+={0,2}$/;
const ANY_DATA = /^data:[\w.+-]+\/[\w.+-]+;base64,[A-Za-z0-9+/]+={0,2}$/;
const BASE64_ONLY = /^[A-Za-z0-9+/]+={0,2}$/;
const HTTP_URL = /^https?:\/\/\S+$/;

/** Chat `messages`: every user message's parts are text, image_url, input_audio or file, each in its documented shape. */
function checkOpenAIChatUserParts(messages: Json[]): Violation[] {
  const out: Violation[] = [];
  messages.forEach((message, i) => {
    if (!isObj(message) || message.role !== "user" || !Array.isArray(message.content)) return;
    (message.content as Json[]).forEach((part, j) =>
      out.push(...chatPartProblems(part, `messages[${i}].content[${j}]`)),
    );
  });
  return out;
}

function chatPartProblems(part: Json, at: string): Violation[] {
  const problem = (where: string, message: string): Violation[] => [{ at: `${at}${where}`, message }];
  switch (isObj(part) ? part.type : undefined) {
    case "text":
      return typeof part.text === "string" ? [] : problem(".text", "Invalid type for text: expected a string");
    case "image_url": {
      const url = part.image_url?.url;
      if (typeof url !== "string" || !(HTTP_URL.test(url) || OPENAI_IMAGE_DATA.test(url)))
        return problem(
          ".image_url.url",
          "Invalid image_url: expected an http(s) URL or a base64 data URL of a PNG, JPEG, WebP or GIF image",
        );
      return ["auto", "low", "high", undefined].includes(part.image_url.detail)
        ? []
        : problem(".image_url.detail", "Invalid value for detail");
    }
    case "input_audio": {
      const audio = part.input_audio;
      if (!isObj(audio) || !["wav", "mp3"].includes(audio.format))
        return problem(".input_audio.format", "Invalid value: supported formats are 'wav' and 'mp3'");
      return typeof audio.data === "string" && BASE64_ONLY.test(audio.data)
        ? []
        : problem(".input_audio.data", "Invalid audio data: expected base64 (no data: prefix)");
    }
    case "file": {
      const file = part.file;
      if (!isObj(file) || (file.file_data === undefined) === (file.file_id === undefined))
        return problem(".file", "Provide exactly one of file_data or file_id");
      if (file.file_data === undefined) return [];
      if (typeof file.file_data !== "string" || !PDF_DATA.test(file.file_data))
        return problem(
          ".file.file_data",
          "Invalid file data: Chat Completions takes PDF files only, as a base64 data URL",
        );
      return typeof file.filename === "string" && file.filename !== ""
        ? []
        : problem(".file.filename", "Missing required parameter: filename");
    }
    default:
      return problem(
        ".type",
        `Invalid value: ${JSON.stringify(isObj(part) ? part.type : part)}. Supported values are: 'text', 'image_url', 'input_audio', 'refusal', 'audio', and 'file'.`,
      );
  }
}

/** Responses `input`: a function_call_output's list holds input_text, input_image and input_file items, each in its documented shape. */
function checkFunctionCallOutputItems(input: unknown): Violation[] {
  if (!Array.isArray(input)) return [];
  const out: Violation[] = [];
  input.forEach((item, i) => {
    if (!isObj(item) || item.type !== "function_call_output" || !Array.isArray(item.output)) return;
    (item.output as Json[]).forEach((part, j) => out.push(...outputItemProblems(part, `input[${i}].output[${j}]`)));
  });
  return out;
}

function outputItemProblems(part: Json, at: string): Violation[] {
  const problem = (where: string, message: string): Violation[] => [{ at: `${at}${where}`, message }];
  const sources = (...keys: string[]) =>
    keys.filter((key) => isObj(part) && part[key] !== undefined && part[key] !== null);
  switch (isObj(part) ? part.type : undefined) {
    case "input_text":
      return typeof part.text === "string" ? [] : problem(".text", "Invalid type for text: expected a string");
    case "input_image": {
      if (sources("image_url", "file_id").length !== 1)
        return problem("", "Provide exactly one of image_url or file_id");
      if (part.image_url !== undefined && !(HTTP_URL.test(part.image_url) || OPENAI_IMAGE_DATA.test(part.image_url)))
        return problem(
          ".image_url",
          "Invalid image_url: expected an http(s) URL or a base64 data URL of a PNG, JPEG, WebP or GIF image",
        );
      return ["auto", "low", "high", "original", undefined, null].includes(part.detail)
        ? []
        : problem(".detail", "Invalid value for detail");
    }
    case "input_file": {
      const given = sources("file_data", "file_url", "file_id");
      if (given.length !== 1) return problem("", "Provide exactly one of file_data, file_url or file_id");
      if (given[0] === "file_url")
        return HTTP_URL.test(part.file_url) ? [] : problem(".file_url", "Invalid file_url: expected an http(s) URL");
      if (given[0] === "file_data" && !ANY_DATA.test(part.file_data))
        return problem(".file_data", "Invalid file_data: expected a base64 data URL");
      return given[0] === "file_data" && !(typeof part.filename === "string" && part.filename !== "")
        ? problem(".filename", "Missing required parameter: filename")
        : [];
    }
    default:
      return problem(
        ".type",
        `Invalid value: ${JSON.stringify(isObj(part) ? part.type : part)}. Supported values are: 'input_text', 'input_image', and 'input_file'.`,
      );
  }
}

/** What the scripted model quotes of a user message's parts: the texts, and what each other part is. */
function describeChatParts(parts: Json): string {
  if (!Array.isArray(parts)) return String(parts);
  return parts
    .map((part: Json) => {
      if (part.type === "text") return part.text;
      if (part.type === "image_url") return `[image ${mediaOf(part.image_url.url)}]`;
      if (part.type === "input_audio") return `[${part.input_audio.format} audio]`;
      return `[file ${part.file.filename}]`;
    })
    .join(" ");
}

/** What the scripted model quotes of a function call output list. */
function describeOutputItems(items: Json[]): string {
  return items
    .map((item) => {
      if (item.type === "input_text") return item.text;
      if (item.type === "input_image") return `[image ${mediaOf(item.image_url)}]`;
      return `[file ${item.filename ?? item.file_url}]`;
    })
    .join("\n");
}

/** "image/png data" for a data URL, the URL itself otherwise. */
function mediaOf(url: string): string {
  return url.startsWith("data:") ? `${url.slice(5, url.indexOf(";"))} data` : url;
}

// ---- Anthropic: POST /v1/messages ------------------------------------------------------------

function anthropic(record: RecordedRequest, send: Send, ctx: Ctx): void {
  const fail = (status: number, type: string, message: string) =>
    send(status, { type: "error", error: { type, message }, request_id: `req_${ctx.nextId()}` });
  // The key comes as x-api-key, or (what @anthropic-ai/sdk 1.x sends for `apiKey`) as a Bearer token.
  const hasKey =
    (typeof record.headers["x-api-key"] === "string" && record.headers["x-api-key"] !== "") ||
    /^Bearer \S+$/.test(record.headers.authorization ?? "");
  if (!hasKey) return fail(401, "authentication_error", "x-api-key header is required");
  if (typeof record.headers["anthropic-version"] !== "string")
    return fail(400, "invalid_request_error", "anthropic-version: header is required");
  const body: Json = record.body;
  const violations = record.violations;
  if (!isObj(body) || typeof body.model !== "string") violations.push({ at: "model", message: "Field required" });
  if (!isObj(body) || typeof body.max_tokens !== "number")
    violations.push({ at: "max_tokens", message: "Field required" });
  if (!isObj(body) || !Array.isArray(body.messages) || body.messages.length === 0)
    violations.push({ at: "messages", message: "at least one message is required" });
  if (isObj(body) && body.tools !== undefined) violations.push(...checkAnthropicTools(body.tools));
  if (isObj(body) && Array.isArray(body.messages))
    violations.push(...checkAnthropicToolResults(body.messages), ...checkAnthropicToolResultContent(body.messages));
  if (violations.length > 0) return fail(400, "invalid_request_error", describeViolations(violations));

  const messages: Json[] = body.messages;
  const last = messages[messages.length - 1];
  const results: Json[] = Array.isArray(last.content)
    ? last.content.filter((b: Json) => b?.type === "tool_result")
    : [];
  let content: Json[];
  let stopReason: string;
  if (results.length > 0) {
    record.turn = 2;
    const previous = messages[messages.length - 2];
    const names = new Map<string, string>(
      (previous.content as Json[]).filter((b) => b.type === "tool_use").map((b) => [b.id, b.name]),
    );
    const text = finalTextFor(
      results.map((r) => ({
        name: names.get(r.tool_use_id) ?? "?",
        isError: r.is_error === true,
        text:
          typeof r.content === "string" ? r.content : ((r.content ?? []) as Json[]).map(anthropicBlockText).join(""),
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
      ...scriptFor(ctx, "anthropic").map((call) => ({
        type: "tool_use",
        id: `toolu_${ctx.nextId()}`,
        name: call.name,
        input: call.args,
      })),
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

/** How the scripted model quotes a block of a tool_result: text as it is, an image or a document by what it is. */
function anthropicBlockText(block: Json): string {
  if (block?.type === "image") return `[image ${block.source?.media_type ?? block.source?.url}]`;
  if (block?.type === "document") return `[document ${block.title ?? block.source?.media_type ?? block.source?.url}]`;
  return block?.text ?? "";
}

const ANTHROPIC_RESULT_BLOCKS = ["text", "image", "search_result", "document"];
const ANTHROPIC_IMAGE_TYPES = ["image/jpeg", "image/png", "image/gif", "image/webp"];
/** The first bytes of each image type: Anthropic refuses an image whose bytes are not of its media_type. */
const ANTHROPIC_IMAGE_SIGNATURES: Record<string, number[]> = {
  "image/jpeg": [0xff, 0xd8, 0xff],
  "image/png": [0x89, 0x50, 0x4e, 0x47],
  "image/gif": [0x47, 0x49, 0x46, 0x38],
  "image/webp": [0x52, 0x49, 0x46, 0x46],
};
const ANTHROPIC_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * Anthropic `tool_result` content given as blocks: only text, image, search_result and
 * document blocks; text never empty; images base64 (JPEG, PNG, GIF, WebP, bytes of that type)
 * or by URL; documents a base64 PDF, plain text, or a URL.
 */
function checkAnthropicToolResultContent(messages: Json[]): Violation[] {
  const out: Violation[] = [];
  messages.forEach((message, i) => {
    if (!isObj(message) || !Array.isArray(message.content)) return;
    (message.content as Json[]).forEach((block, b) => {
      if (!isObj(block) || block.type !== "tool_result" || !Array.isArray(block.content)) return;
      (block.content as Json[]).forEach((inner, c) =>
        out.push(...checkAnthropicResultBlock(inner, `messages.${i}.content.${b}.content.${c}`)),
      );
    });
  });
  return out;
}

function checkAnthropicResultBlock(block: Json, at: string): Violation[] {
  if (!isObj(block) || !ANTHROPIC_RESULT_BLOCKS.includes(block.type)) {
    const tags = ANTHROPIC_RESULT_BLOCKS.map((tag) => `'${tag}'`).join(", ");
    return [
      {
        at,
        message: `Input tag '${isObj(block) ? block.type : typeof block}' found using 'type' does not match any of the expected tags: ${tags}`,
      },
    ];
  }
  if (block.type === "text")
    return typeof block.text === "string" && block.text !== ""
      ? []
      : [{ at: `${at}.text`, message: "text content blocks must be non-empty" }];
  if (block.type === "image") return checkAnthropicImageSource(block.source, `${at}.source`);
  if (block.type === "document") return checkAnthropicDocumentSource(block.source, `${at}.source`);
  return [];
}

function checkAnthropicImageSource(source: Json, at: string): Violation[] {
  if (isObj(source) && source.type === "url")
    return typeof source.url === "string" ? [] : [{ at: `${at}.url`, message: "Field required" }];
  if (!isObj(source) || source.type !== "base64")
    return [
      {
        at: `${at}.type`,
        message: "Input tag found using 'type' does not match any of the expected tags: 'base64', 'url'",
      },
    ];
  if (!ANTHROPIC_IMAGE_TYPES.includes(source.media_type))
    return [
      { at: `${at}.media_type`, message: "Input should be 'image/jpeg', 'image/png', 'image/gif' or 'image/webp'" },
    ];
  if (typeof source.data !== "string" || source.data === "" || !ANTHROPIC_BASE64.test(source.data))
    return [{ at: `${at}.data`, message: "Image data is not valid base64" }];
  const head = Buffer.from(source.data.slice(0, 16), "base64");
  const matches = ANTHROPIC_IMAGE_SIGNATURES[source.media_type]!.every((byte, i) => head[i] === byte);
  return matches ? [] : [{ at, message: `Image does not match the provided media type ${source.media_type}` }];
}

function checkAnthropicDocumentSource(source: Json, at: string): Violation[] {
  if (!isObj(source)) return [{ at, message: "Field required" }];
  switch (source.type) {
    case "base64":
      if (source.media_type !== "application/pdf")
        return [{ at: `${at}.media_type`, message: "Input should be 'application/pdf'" }];
      return typeof source.data === "string" && ANTHROPIC_BASE64.test(source.data) && source.data !== ""
        ? []
        : [{ at: `${at}.data`, message: "PDF data is not valid base64" }];
    case "text":
      if (source.media_type !== "text/plain")
        return [{ at: `${at}.media_type`, message: "Input should be 'text/plain'" }];
      return typeof source.data === "string" ? [] : [{ at: `${at}.data`, message: "Input should be a valid string" }];
    case "url":
      return typeof source.url === "string" ? [] : [{ at: `${at}.url`, message: "Field required" }];
    default:
      return [
        {
          at: `${at}.type`,
          message:
            "Input tag found using 'type' does not match any of the expected tags: 'base64', 'text', 'url', 'content', 'file'",
        },
      ];
  }
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
  return missing.length > 0
    ? `mock model: the script calls ${missing.join(", ")}, but the request declares only [${declared.join(", ")}]`
    : undefined;
}
