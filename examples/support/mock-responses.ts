/**
 * A local stand-in for `POST /v1/responses` (the OpenAI Responses API, which the Agents SDK's
 * OpenAI provider uses by default), so examples/openai-agents.ts runs offline with the real
 * SDK. It listens on 127.0.0.1 on a free port and plays a scripted model that reads the
 * conversation it is sent:
 *
 *   round 1: two parallel calls, getWeather and place_order (with a mistyped email);
 *   round 2: place_order again, corrected, if it came back as an error, and refund_payment
 *            for 900 EUR;
 *   then:    a plain answer built from the tool results it received.
 *
 * Like the real API it refuses (400) a function_call without its function_call_output, and
 * (401) a request without a Bearer key.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { send, startMockApi, type MockApi } from "./json-http";

export type MockResponses = MockApi;

type Item = { type?: string; call_id?: string; name?: string; arguments?: string; output?: unknown };

export function startMockResponses(): Promise<MockResponses> {
  return startMockApi<{ model?: string; input?: string | Item[] }>(answer);
}

function answer(
  req: IncomingMessage,
  res: ServerResponse,
  body: { model?: string; input?: string | Item[] },
  n: number,
): void {
  const error = (status: number, message: string) =>
    send(res, status, { error: { message, type: "invalid_request_error", param: null, code: null } });
  if (req.method !== "POST" || req.url !== "/v1/responses") return error(404, `Unknown route ${req.method} ${req.url}`);
  if (!/^Bearer \S+$/.test(req.headers.authorization ?? "")) return error(401, "You didn't provide an API key.");
  const items = Array.isArray(body.input) ? body.input : [];
  const unanswered = items.filter(
    (item) =>
      item.type === "function_call" &&
      !items.some((o) => o.type === "function_call_output" && o.call_id === item.call_id),
  );
  if (unanswered.length > 0) return error(400, `No tool output found for function call ${unanswered[0]!.call_id}.`);

  const results = toolResults(items);
  // Each response's calls share an id prefix (call_<response>_<index>).
  const rounds = new Set(
    items.filter((item) => item.type === "function_call").map((item) => item.call_id?.replace(/_\d+$/, "")),
  ).size;
  let output: unknown[];
  if (rounds === 0) {
    output = calls(n, [
      ["getWeather", { city: "Chennai", units: "fahrenheit" }],
      // Strict mode: every property is sent, null for the optional ones.
      ["place_order", { customerEmail: "ada@example", lines: [{ sku: "TEA-01", quantity: 2 }], note: null }],
    ]);
  } else if (rounds === 1) {
    const orderFailed = results.some((r) => r.name === "place_order" && r.failed);
    output = calls(n, [
      ...(orderFailed
        ? [
            [
              "place_order",
              { customerEmail: "ada@example.com", lines: [{ sku: "TEA-01", quantity: 2 }], note: null },
            ] as [string, Record<string, unknown>],
          ]
        : []),
      ["refund_payment", { paymentId: "pay_1002", amountCents: 90_000 }],
    ]);
  } else {
    const weather = parse(results.find((r) => r.name === "getWeather")?.text);
    const order = parse(results.find((r) => r.name === "place_order" && !r.failed)?.text);
    const refund = results.find((r) => r.name === "refund_payment");
    const parts = [
      weather
        ? `It is ${weather.temperature}°${weather.units === "fahrenheit" ? "F" : "C"} in ${weather.city}.`
        : "I could not get the weather.",
      order ? `Order ${order.orderId} is placed (${order.units} units).` : "I could not place the order.",
      refund && !refund.failed ? refund.text : "The refund did not go through.",
    ];
    output = [
      {
        type: "message",
        id: `msg_${n}`,
        status: "completed",
        role: "assistant",
        content: [{ type: "output_text", text: parts.join(" "), annotations: [] }],
      },
    ];
  }
  send(res, 200, {
    id: `resp_mock_${n}`,
    object: "response",
    created_at: Math.floor(Date.now() / 1000),
    status: "completed",
    model: body.model ?? "gpt-4.1-mini",
    output,
    usage: {
      input_tokens: 50,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: 20,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: 70,
    },
  });
}

function calls(n: number, list: Array<[string, Record<string, unknown>]>): unknown[] {
  return list.map(([name, args], i) => ({
    type: "function_call",
    id: `fc_${n}_${i}`,
    call_id: `call_${n}_${i}`,
    name,
    arguments: JSON.stringify(args),
    status: "completed",
  }));
}

/** Every tool result with the name of the call it answers. */
function toolResults(items: Item[]): Array<{ name: string; text: string; failed: boolean }> {
  const names = new Map(items.filter((item) => item.type === "function_call").map((item) => [item.call_id, item.name]));
  return items
    .filter((item) => item.type === "function_call_output")
    .map((item) => {
      const text = typeof item.output === "string" ? item.output : "";
      return { name: names.get(item.call_id) ?? "", text, failed: text.startsWith("Error:") };
    });
}

function parse(text: string | undefined): Record<string, unknown> | undefined {
  try {
    return text === undefined ? undefined : (JSON.parse(text) as Record<string, unknown>);
  } catch {
    return undefined;
  }
}
