/**
 * A local stand-in for the OpenAI Responses API (`POST /v1/responses`, node:http, 127.0.0.1)
 * for the Agents SDK's own OpenAI provider, playing a scripted model: each request is answered
 * by `script(request)`, which reads the conversation the SDK sent (the tool results so far)
 * and returns the next tool calls or the final text. Before that, the declarations and tool
 * results are held to the Responses API's rules (test/support/dialect-rules.ts), and a
 * request that breaks them is answered 400 as the API answers it. Tracing export is off.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { OpenAIProvider, setTracingDisabled, type Model } from "@openai/agents";
import {
  checkOpenAIResponsesToolResults,
  checkOpenAIResponsesTools,
  describeViolations,
  type Violation,
} from "../support/dialect-rules";

// Nothing leaves the machine: the SDK would otherwise export traces to OpenAI.
setTracingDisabled(true);

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

/** A tool result the SDK sent back, with the call it answers. */
export interface SentOutput {
  callId: string;
  name: string;
  arguments: string;
  /** The output as sent: a string, or a list of input_text / input_image / input_file items. */
  output: string | Json[];
  /** The output's text: the string, or the list's texts with images and files as [image ...] / [file ...]. */
  text: string;
}

export interface ModelRequest {
  body: Json;
  /** The function tools declared in this request. */
  tools: Json[];
  /** Every tool result in the conversation so far, in order. */
  outputs: SentOutput[];
}

/** What the scripted model answers: tool calls (arguments as an object, or raw text), or the final text. */
export type ModelTurn =
  { calls: Array<{ name: string; arguments: Record<string, unknown> | string }> } | { text: string };

export interface ScriptedModel {
  /** The Agents SDK's model for `new Agent({ model })`: its OpenAI provider pointed at this server. */
  model: Model;
  /** Every request body the SDK sent, in order. */
  requests: Json[];
  close(): Promise<void>;
}

export async function startScriptedModel(script: (request: ModelRequest) => ModelTurn): Promise<ScriptedModel> {
  const requests: Json[] = [];
  let counter = 0;
  const nextId = () => (++counter).toString(36).padStart(4, "0");
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const send = (status: number, payload: unknown) => {
        res.writeHead(status, { "content-type": "application/json", "x-request-id": `req_${nextId()}` });
        res.end(JSON.stringify(payload));
      };
      const fail = (status: number, message: string) =>
        send(status, { error: { message, type: "invalid_request_error", param: null, code: null } });
      if (req.method !== "POST" || req.url !== "/v1/responses")
        return fail(404, `mock: no route for ${req.method} ${req.url}`);
      if (!/^Bearer \S+$/.test(req.headers.authorization ?? "")) return fail(401, "You didn't provide an API key.");
      let body: Json;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      } catch {
        return fail(400, "We could not parse the JSON body of your request.");
      }
      requests.push(body);
      const violations = [
        ...checkOpenAIResponsesTools(body.tools ?? []),
        ...checkOpenAIResponsesToolResults(body.input),
        ...checkOutputItems(body.input),
      ];
      if (violations.length > 0) return fail(400, describeViolations(violations));
      try {
        send(200, response(body, script({ body, tools: body.tools ?? [], outputs: outputsOf(body.input) }), nextId));
      } catch (error) {
        fail(500, `mock failure: ${(error as Error).stack ?? String(error)}`);
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const provider = new OpenAIProvider({ apiKey: "test", baseURL: `http://127.0.0.1:${port}/v1` });
  return {
    model: await provider.getModel("gpt-4.1-mini"),
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

function response(body: Json, turn: ModelTurn, nextId: () => string): Json {
  const output =
    "text" in turn
      ? [
          {
            type: "message",
            id: `msg_${nextId()}`,
            status: "completed",
            role: "assistant",
            content: [{ type: "output_text", text: turn.text, annotations: [], logprobs: [] }],
          },
        ]
      : turn.calls.map((call) => {
          const id = nextId();
          const args = typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments);
          return {
            type: "function_call",
            id: `fc_${id}`,
            call_id: `call_${id}`,
            name: call.name,
            arguments: args,
            status: "completed",
          };
        });
  const now = Math.floor(Date.now() / 1000);
  return {
    id: `resp_${nextId()}`,
    object: "response",
    created_at: now,
    status: "completed",
    error: null,
    incomplete_details: null,
    model: body.model,
    output,
    parallel_tool_calls: true,
    tool_choice: body.tool_choice ?? "auto",
    tools: body.tools ?? [],
    usage: {
      input_tokens: 42,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: 17,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: 59,
    },
  };
}

function outputsOf(input: unknown): SentOutput[] {
  const items: Json[] = Array.isArray(input) ? input : [];
  const calls = new Map<string, Json>(
    items.filter((item) => item?.type === "function_call").map((item) => [item.call_id, item]),
  );
  return items
    .filter((item) => item?.type === "function_call_output")
    .map((item) => ({
      callId: item.call_id,
      name: calls.get(item.call_id)?.name ?? "?",
      arguments: calls.get(item.call_id)?.arguments ?? "",
      output: item.output,
      text: typeof item.output === "string" ? item.output : (item.output as Json[]).map(itemText).join("\n"),
    }));
}

function itemText(item: Json): string {
  if (item.type === "input_text") return item.text;
  if (item.type === "input_image") return `[image ${String(item.image_url ?? item.file_id).slice(0, 22)}]`;
  return `[file ${item.filename ?? item.file_url ?? item.file_id}]`;
}

const DATA_URL = /^data:[\w.+-]+\/[\w.+-]+;base64,[A-Za-z0-9+/]*={0,2}$/;

/** A function_call_output given as a list holds input_text, input_image and input_file items in their documented shapes. */
function checkOutputItems(input: unknown): Violation[] {
  if (!Array.isArray(input)) return [];
  const out: Violation[] = [];
  input.forEach((item: Json, i) => {
    if (item?.type !== "function_call_output" || !Array.isArray(item.output)) return;
    (item.output as Json[]).forEach((part, j) => {
      const at = `input[${i}].output[${j}]`;
      if (part?.type === "input_text") {
        if (typeof part.text !== "string")
          out.push({ at: `${at}.text`, message: "Invalid type for text: expected a string" });
      } else if (part?.type === "input_image") {
        if (
          typeof part.image_url !== "string" ||
          !(DATA_URL.test(part.image_url) || /^https?:\/\//.test(part.image_url))
        )
          out.push({
            at: `${at}.image_url`,
            message: "Invalid image_url: expected an http(s) URL or a base64 data URL",
          });
      } else if (part?.type === "input_file") {
        const given = ["file_data", "file_url", "file_id"].filter(
          (key) => part[key] !== undefined && part[key] !== null,
        );
        if (given.length !== 1) out.push({ at, message: "Provide exactly one of file_data, file_url or file_id" });
        else if (given[0] === "file_data" && (!DATA_URL.test(part.file_data) || typeof part.filename !== "string"))
          out.push({ at, message: "Invalid file_data: expected a base64 data URL and a filename" });
      } else
        out.push({
          at: `${at}.type`,
          message: `Invalid value: ${JSON.stringify(part?.type)}. Supported values are: 'input_text', 'input_image', and 'input_file'.`,
        });
    });
  });
  return out;
}
