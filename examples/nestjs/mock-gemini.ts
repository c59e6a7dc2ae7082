/**
 * A local stand-in for Gemini's `POST /v1beta/models/{model}:generateContent`, so the NestJS
 * example runs offline with the official @google/genai client. It listens on 127.0.0.1 on a
 * free port and plays a scripted shop assistant that reads the conversation it is sent:
 *
 *   turn 1: calls catalog_search_products with the tea the user named;
 *   turn 2: calls orders_place_order with the first SKU found and the quantity the user asked for;
 *   then:   answers in text from the order it received (or the error it received).
 *
 * Like the real API it refuses a request without an API key (403) and a conversation that
 * declares none of the tools it wants to call (400).
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { readJson, send } from "../support/json-http";

export interface MockGemini {
  /** Pass as `httpOptions.baseUrl` of `new GoogleGenAI(...)`. */
  baseUrl: string;
  /** The JSON bodies received, in order. */
  requests: unknown[];
  close(): Promise<void>;
}

type Part = {
  text?: string;
  functionCall?: { id?: string; name: string; args: unknown };
  functionResponse?: { name: string; response: { output?: string; error?: string } };
};
type Content = { role?: string; parts?: Part[] };
type Body = { contents?: Content[]; tools?: Array<{ functionDeclarations?: Array<{ name: string }> }> };

export async function startMockGemini(): Promise<MockGemini> {
  const requests: unknown[] = [];
  let calls = 0;
  const server = createServer((req, res) => {
    readJson(req).then(
      (body) => {
        requests.push(body);
        answer(req, res, body as Body, () => `call-${++calls}`);
      },
      () =>
        send(res, 400, { error: { code: 400, message: "Invalid JSON payload received.", status: "INVALID_ARGUMENT" } }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

function answer(req: IncomingMessage, res: ServerResponse, body: Body, nextId: () => string): void {
  const fail = (status: number, message: string, code: string) =>
    send(res, status, { error: { code: status, message, status: code } });
  const model = /^\/v1beta\/models\/([^/:]+):generateContent$/.exec(req.url ?? "")?.[1];
  if (req.method !== "POST" || model === undefined)
    return fail(404, `Unknown route ${req.method} ${req.url}`, "NOT_FOUND");
  if (!req.headers["x-goog-api-key"])
    return fail(403, "Method doesn't allow unregistered callers. Please use API Key.", "PERMISSION_DENIED");
  const contents = body.contents ?? [];
  const declared = new Set(
    (body.tools ?? []).flatMap((tool) => tool.functionDeclarations ?? []).map((declaration) => declaration.name),
  );
  const userText = contents.find((content) => content.role === "user")?.parts?.find((part) => part.text)?.text ?? "";
  const last = contents[contents.length - 1]?.parts?.find((part) => part.functionResponse)?.functionResponse;

  const call = (name: string, args: Record<string, unknown>) => {
    if (!declared.has(name))
      return fail(
        400,
        `The scripted model wants the tool "${name}", but the request declares ${[...declared].join(", ") || "no tools"}.`,
        "INVALID_ARGUMENT",
      );
    reply(res, model, [{ functionCall: { id: nextId(), name, args } }]);
  };
  if (last === undefined) {
    const tea = /(\w+)\s+tea/i.exec(userText)?.[1] ?? "tea";
    return call("catalog_search_products", { query: tea.toLowerCase() });
  }
  if (last.name === "catalog_search_products") {
    const found =
      last.response.output === undefined ? [] : (JSON.parse(last.response.output) as Array<{ sku: string }>);
    if (found.length === 0) return reply(res, model, [{ text: "I could not find that tea in the catalogue." }]);
    const quantity = Number(/\b(\d+)\b/.exec(userText)?.[1] ?? 1);
    return call("orders_place_order", { sku: found[0]!.sku, quantity });
  }
  if (last.response.error !== undefined)
    return reply(res, model, [{ text: `I could not place the order: ${last.response.error}` }]);
  const order = JSON.parse(last.response.output ?? "{}") as {
    orderId: number;
    customer: string;
    quantity: number;
    name: string;
    total: number;
  };
  reply(res, model, [
    {
      text: `Order ${order.orderId} is placed for ${order.customer}: ${order.quantity} × ${order.name}, ${order.total} EUR in total.`,
    },
  ]);
}

function reply(res: ServerResponse, model: string, parts: Part[]): void {
  send(res, 200, {
    candidates: [{ content: { role: "model", parts }, finishReason: "STOP", index: 0 }],
    usageMetadata: { promptTokenCount: 40, candidatesTokenCount: 12, totalTokenCount: 52 },
    modelVersion: model,
  });
}
