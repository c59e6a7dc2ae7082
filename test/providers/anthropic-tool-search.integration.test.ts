import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import Anthropic from "@anthropic-ai/sdk";
import type { ContentBlock, MessageParam } from "@anthropic-ai/sdk/resources/messages";
import { defineTool, Toolkit, type Tool } from "../../src";

/** What the model answers first: a tool search (run by Anthropic), what it found, and two calls of the found tool. */
const SEARCH_THEN_CALLS: ContentBlock[] = [
  { type: "text", text: "Let me find a refund tool.", citations: null },
  {
    type: "server_tool_use",
    id: "srvtoolu_01",
    name: "tool_search_tool_bm25",
    input: { query: "refund an order" },
    caller: { type: "direct" },
  },
  {
    type: "tool_search_tool_result",
    tool_use_id: "srvtoolu_01",
    content: {
      type: "tool_search_tool_search_result",
      tool_references: [{ type: "tool_reference", tool_name: "refund_order" }],
    },
  },
  { type: "tool_use", id: "toolu_01", name: "refund_order", input: { order: "A-1" }, caller: { type: "direct" } },
  { type: "tool_use", id: "toolu_02", name: "refund_order", input: { order: "B-2" }, caller: { type: "direct" } },
];

/** A Messages API stand-in: the first request gets SEARCH_THEN_CALLS, the next a closing text; every body is kept. */
function messagesServer(bodies: unknown[]): Server {
  return createServer((request, response) => {
    let text = "";
    request.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")));
    request.on("end", () => {
      bodies.push(JSON.parse(text));
      const first = bodies.length === 1;
      response.writeHead(200, { "content-type": "application/json" });
      response.end(
        JSON.stringify({
          id: `msg_${bodies.length}`,
          type: "message",
          role: "assistant",
          model: "claude-sonnet-4-5",
          content: first ? SEARCH_THEN_CALLS : [{ type: "text", text: "Both refunded.", citations: null }],
          stop_reason: first ? "tool_use" : "end_turn",
          stop_sequence: null,
          usage: { input_tokens: 10, output_tokens: 5 },
        }),
      );
    });
  });
}

describe("Anthropic tool search through @anthropic-ai/sdk", () => {
  const bodies: unknown[] = [];
  const server = messagesServer(bodies);
  let baseURL = "";
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("answers each tool_use once, and neither answers nor loses the server's search blocks", async () => {
    const refunded: string[] = [];
    const refund: Tool = {
      ...defineTool({
        name: "refund_order",
        description: "Refunds an order",
        inputSchema: { type: "object", properties: { order: { type: "string" } }, required: ["order"] },
        execute: ({ order }) => {
          refunded.push(String(order));
          return `refunded ${String(order)}`;
        },
      }),
      defer: true,
    };
    const weather = defineTool({ name: "get_weather", description: "Weather", execute: () => "sunny" });
    const toolkit = new Toolkit([weather, refund]);
    const client = new Anthropic({ apiKey: "test-key", baseURL });
    const messages: MessageParam[] = [{ role: "user", content: "Refund orders A-1 and B-2." }];

    const message = await client.messages.create({
      model: "claude-sonnet-4-5",
      max_tokens: 1024,
      messages,
      tools: toolkit.toAnthropic(),
    });
    const reply = await toolkit.runAnthropic(message);
    expect(refunded.sort()).toEqual(["A-1", "B-2"]);
    expect(reply!.content.map((block) => [block.tool_use_id, block.content, block.is_error])).toEqual([
      ["toolu_01", "refunded A-1", undefined],
      ["toolu_02", "refunded B-2", undefined],
    ]);

    const final = await client.messages.create({
      model: "claude-sonnet-4-5",
      max_tokens: 1024,
      messages: [...messages, { role: "assistant", content: message.content }, reply!],
      tools: toolkit.toAnthropic(),
    });
    expect(final.stop_reason).toBe("end_turn");
    const [first, second] = bodies as Array<{ tools: unknown[]; messages: Array<{ content: unknown }> }>;
    expect(first!.tools).toEqual([
      expect.objectContaining({ name: "get_weather" }),
      expect.objectContaining({ name: "refund_order", defer_loading: true }),
      { type: "tool_search_tool_bm25_20251119", name: "tool_search_tool_bm25" },
    ]);
    // The assistant turn goes back as the model wrote it; the user turn answers the two tool_use blocks only.
    expect(second!.messages[1]!.content).toEqual(JSON.parse(JSON.stringify(SEARCH_THEN_CALLS)));
    expect(second!.messages[2]!.content).toEqual([
      { type: "tool_result", tool_use_id: "toolu_01", content: "refunded A-1" },
      { type: "tool_result", tool_use_id: "toolu_02", content: "refunded B-2" },
    ]);
  });
});
