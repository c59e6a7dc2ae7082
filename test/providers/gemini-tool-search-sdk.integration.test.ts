/**
 * Deferred tools on Gemini, through the official @google/genai client against a local server
 * that records each request: the first request declares the tools not deferred and
 * `search_tools`; once the conversation holds a `search_tools` answer that found a deferred
 * tool, the next export (`toGemini({ conversation: contents })`) declares it too. The host keeps
 * no state of its own: the conversation says what was found.
 */
import "../support/share-undici-dispatcher"; // jest only: see the file
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Content } from "@google/genai" with { "resolution-mode": "import" };
import { defineTool, Toolkit } from "toolnexus";

// @google/genai's `require` entry is typed by an ES-module .d.ts: require() it, typed as the module it is.
const genai: typeof import("@google/genai", { with: { "resolution-mode": "import" } }) = require("@google/genai");

const MODEL = "gemini-2.5-flash";

/** The `tools` of each request the server received, in order. */
const received: unknown[] = [];
let server: Server;
let baseUrl: string;

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    request.on("end", () => {
      received.push((JSON.parse(body) as { tools?: unknown }).tools);
      response.writeHead(200, { "content-type": "application/json" });
      response.end(
        JSON.stringify({
          candidates: [{ content: { role: "model", parts: [{ text: "ok" }] }, finishReason: "STOP", index: 0 }],
          modelVersion: MODEL,
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

const lookup = defineTool({
  name: "lookup",
  description: "Looks an order up",
  inputSchema: { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
  execute: ({ id }) => `order ${String(id)}`,
});
const found = {
  ...defineTool({ name: "found_tool", description: "Refunds an order", execute: () => "refunded" }),
  defer: true,
};
const unfound = {
  ...defineTool({ name: "unfound_tool", description: "Cancels a subscription", execute: () => "cancelled" }),
  defer: true,
};

/** The names of the functions a request's `tools` declared. */
function declaredNames(tools: unknown): string[] {
  const [wrapper] = tools as Array<{ functionDeclarations: Array<{ name: string }> }>;
  return wrapper!.functionDeclarations.map((declaration) => declaration.name);
}

describe("deferred tools on Gemini, through the official SDK", () => {
  it("declares search_tools first, and a tool once a search_tools answer in the conversation found it", async () => {
    const toolkit = new Toolkit([lookup, found, unfound]);
    const ai = new genai.GoogleGenAI({ apiKey: "test-key", httpOptions: { baseUrl } });
    const contents: Content[] = [{ role: "user", parts: [{ text: "Refund order 7" }] }];
    await ai.models.generateContent({
      model: MODEL,
      contents,
      config: { tools: toolkit.toGemini({ conversation: contents }) },
    });

    const answer = JSON.stringify({ query: "x", tools: [{ name: "found_tool", description: "Refunds an order" }] });
    const later: Content[] = [
      ...contents,
      { role: "model", parts: [{ functionCall: { name: "search_tools", args: { query: "x" } } }] },
      { role: "user", parts: [{ functionResponse: { name: "search_tools", response: { output: answer } } }] },
    ];
    await ai.models.generateContent({
      model: MODEL,
      contents: later,
      config: { tools: toolkit.toGemini({ conversation: later }) },
    });

    expect(received.map(declaredNames)).toEqual([
      ["lookup", "search_tools"],
      ["lookup", "found_tool", "search_tools"],
    ]);
  });
});
