/**
 * A local stand-in for `POST /v1/chat/completions`, so examples/agent-loop.ts runs offline
 * with the real openai client. It listens on 127.0.0.1 on a free port and plays a scripted
 * model that reads the conversation it is sent:
 *
 *   round 1: two parallel tool calls, getWeather and place_order (with a mistyped email);
 *   round 2: if place_order came back as an error, it calls place_order again, corrected;
 *   then:    a plain answer built from the tool results it received.
 *
 * Like the real API it refuses (400) an assistant tool_calls message that is not followed by
 * one `tool` message per call id, and (401) a request without a Bearer key.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { send, startMockApi, type MockApi } from "./json-http";

export type MockOpenAI = MockApi;

type Message = {
  role: string;
  content?: unknown;
  tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }>;
  tool_call_id?: string;
};

export function startMockOpenAI(): Promise<MockOpenAI> {
  return startMockApi<{ model?: string; messages?: Message[] }>(answer);
}

function answer(
  req: IncomingMessage,
  res: ServerResponse,
  body: { model?: string; messages?: Message[] },
  n: number,
): void {
  const error = (status: number, message: string, param: string | null = null) =>
    send(res, status, { error: { message, type: "invalid_request_error", param, code: null } });
  if (req.method !== "POST" || req.url !== "/v1/chat/completions")
    return error(404, `Unknown route ${req.method} ${req.url}`);
  if (!/^Bearer \S+$/.test(req.headers.authorization ?? "")) return error(401, "You didn't provide an API key.");
  const messages = body.messages ?? [];
  const unanswered = unansweredCalls(messages);
  if (unanswered.length > 0) {
    return error(
      400,
      `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${unanswered.join(", ")}`,
      "messages",
    );
  }

  const results = toolResults(messages);
  const rounds = messages.filter((m) => m.role === "assistant" && m.tool_calls?.length).length;
  const lastOrder = [...results].reverse().find((r) => r.name === "place_order");
  let message: Record<string, unknown>;
  if (rounds === 0) {
    message = toolCalls(n, [
      ["getWeather", { city: "Chennai", units: "fahrenheit" }],
      // Strict mode: every property is sent, null for the optional ones.
      ["place_order", { customerEmail: "ada@example", lines: [{ sku: "TEA-01", quantity: 2 }], note: null }],
    ]);
  } else if (rounds === 1 && lastOrder?.failed) {
    message = toolCalls(n, [
      ["place_order", { customerEmail: "ada@example.com", lines: [{ sku: "TEA-01", quantity: 2 }], note: null }],
    ]);
  } else {
    const weather = parse(results.find((r) => r.name === "getWeather")?.content);
    const order = lastOrder && !lastOrder.failed ? parse(lastOrder.content) : undefined;
    const parts = [
      weather
        ? `It is ${weather.temperature}°${weather.units === "fahrenheit" ? "F" : "C"} in ${weather.city}.`
        : "I could not get the weather.",
      order ? `Order ${order.orderId} is placed (${order.units} units).` : "I could not place the order.",
    ];
    message = { role: "assistant", content: parts.join(" "), refusal: null, annotations: [] };
  }
  send(res, 200, {
    id: `chatcmpl-mock-${n}`,
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model: body.model ?? "gpt-4.1-mini",
    choices: [{ index: 0, message, finish_reason: message.tool_calls ? "tool_calls" : "stop", logprobs: null }],
    usage: { prompt_tokens: 50, completion_tokens: 20, total_tokens: 70 },
  });
}

function toolCalls(n: number, calls: Array<[string, Record<string, unknown>]>): Record<string, unknown> {
  return {
    role: "assistant",
    content: null,
    refusal: null,
    annotations: [],
    tool_calls: calls.map(([name, args], i) => ({
      id: `call_${n}_${i}`,
      type: "function",
      function: { name, arguments: JSON.stringify(args) },
    })),
  };
}

/** Every tool message with the name of the call it answers. */
function toolResults(messages: Message[]): Array<{ name: string; content: string; failed: boolean }> {
  const names = new Map(messages.flatMap((m) => m.tool_calls ?? []).map((c) => [c.id, c.function.name]));
  return messages
    .filter((m) => m.role === "tool")
    .map((m) => {
      const content = typeof m.content === "string" ? m.content : "";
      return { name: names.get(m.tool_call_id ?? "") ?? "", content, failed: content.startsWith("Error:") };
    });
}

function unansweredCalls(messages: Message[]): string[] {
  const missing: string[] = [];
  messages.forEach((m, i) => {
    if (m.role !== "assistant" || !m.tool_calls?.length) return;
    const answered = new Set<string>();
    for (let j = i + 1; j < messages.length && messages[j]!.role === "tool"; j++)
      answered.add(messages[j]!.tool_call_id ?? "");
    missing.push(...m.tool_calls.map((c) => c.id).filter((id) => !answered.has(id)));
  });
  return missing;
}

function parse(text: string | undefined): Record<string, unknown> | undefined {
  try {
    return text === undefined ? undefined : (JSON.parse(text) as Record<string, unknown>);
  } catch {
    return undefined;
  }
}
