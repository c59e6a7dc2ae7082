/**
 * Ollama's `answersIn`: what the `tool` messages of an `/api/chat` message list answered
 * to calls of one tool, oldest first, as the messages hold them. It is how an export finds what an
 * earlier `search_tools` answer loaded, so it reads what clients send and never throws.
 */
import { defineTool, toOllama } from "../../src";
import { ollama } from "../../src/providers/ollama";

const FOUND = JSON.stringify({ query: "refund", tools: [{ name: "refund_order", description: "Refunds an order" }] });

const hostile = new Proxy(
  {},
  {
    get() {
      throw new Error("unreadable");
    },
  },
);

describe("Ollama answersIn", () => {
  const call = (name: string, id?: string) => ({
    ...(id !== undefined ? { id } : {}),
    function: { name, arguments: {} },
  });

  it("gives the content of each tool message naming the tool, oldest first", () => {
    const messages = [
      { role: "user", content: "Refund order 7" },
      { role: "assistant", content: "", tool_calls: [call("lookup"), call("search_tools")] },
      { role: "tool", content: "order 7", tool_name: "lookup" },
      { role: "tool", content: FOUND, tool_name: "search_tools" },
    ];
    expect(ollama.answersIn!(messages, "search_tools")).toEqual([FOUND]);
    expect(ollama.answersIn!({ model: "llama3.2", messages }, "lookup")).toEqual(["order 7"]);
  });

  it("matches a tool message without tool_name to its call by tool_call_id, else by order", () => {
    const messages = [
      { role: "assistant", content: "", tool_calls: [call("lookup", "c1"), call("search_tools", "c2")] },
      { role: "tool", content: FOUND, tool_call_id: "c2" },
      { role: "tool", content: "order 7" },
      { role: "assistant", content: "", tool_calls: [call("search_tools"), call("lookup")] },
      { role: "tool", content: "second search" },
      { role: "tool", content: "second lookup" },
    ];
    expect(ollama.answersIn!(messages, "search_tools")).toEqual([FOUND, "second search"]);
    expect(ollama.answersIn!(messages, "lookup")).toEqual(["order 7", "second lookup"]);
  });

  it("passes over what it cannot read, and reads no answer out of anything else", () => {
    const messages = [
      hostile,
      { role: "assistant", content: "", tool_calls: [hostile, call("search_tools")] },
      { role: "tool", content: FOUND, tool_name: "search_tools" },
    ];
    expect(ollama.answersIn!(messages, "search_tools")).toEqual([FOUND]);
    for (const conversation of [undefined, null, "text", hostile, { messages: hostile }])
      expect(ollama.answersIn!(conversation, "search_tools")).toEqual([]);
  });

  it("makes an export with the conversation declare the deferred tools a search_tools answer found", () => {
    const refund = {
      ...defineTool({ name: "refund_order", description: "Refunds", execute: () => "ok" }),
      defer: true,
    };
    const cancel = {
      ...defineTool({ name: "cancel_order", description: "Cancels", execute: () => "ok" }),
      defer: true,
    };
    const conversation = [
      { role: "assistant", content: "", tool_calls: [call("search_tools")] },
      { role: "tool", content: FOUND, tool_name: "search_tools" },
    ];
    const names = (options: Parameters<typeof toOllama>[1]) =>
      toOllama([refund, cancel], options).map((tool) => tool.function.name);
    expect(names({})).toEqual(["search_tools"]);
    expect(names({ conversation })).toEqual(["refund_order", "search_tools"]);
  });
});
