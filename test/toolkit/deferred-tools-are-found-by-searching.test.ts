import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { defineTool, Toolkit, ToolDefinitionError, type Tool, type ToolContext } from "../../src";
import { createMcpServer } from "../../src/mcp";
import { describeExport, toOllama } from "../../src/providers/exporters";

const tool = (name: string, description: string, extra: Partial<Parameters<typeof defineTool>[0]> = {}): Tool =>
  defineTool({
    name,
    description,
    inputSchema: {
      type: "object",
      properties: { id: { type: "string", description: "the record's id" } },
      required: ["id"],
    },
    execute: ({ id }) => `${name} ${String(id)}`,
    ...extra,
  } as Parameters<typeof defineTool>[0]);

function services(): Tool[] {
  return [
    tool("get_weather", "Current weather for a city"),
    tool("refund_order", "Refund a customer's order and notify them", { defer: true }),
    tool("cancelSubscription", "Cancel a customer's subscription at the end of the period", { defer: true }),
    tool("create_invoice", "Create an invoice for a customer", { defer: true }),
    tool("list_invoices", "List a customer's invoices, newest first", { defer: true }),
    tool("ship_parcel", "Book a courier for a parcel", { defer: true }),
  ];
}

const answerOf = (output: string) => JSON.parse(output) as { query: string; tools: Array<{ name: string }> };

describe("deferred tools, where the provider cannot search them", () => {
  it("are left out of the declarations, and search_tools is declared after the tools that are", () => {
    const names = new Toolkit(services()).toOllama().map((t) => t.function.name);
    expect(names).toEqual(["get_weather", "search_tools"]);
    expect(toOllama(services()).map((t) => t.function.name)).toEqual(["get_weather", "search_tools"]);
  });

  it("are all declared when none is deferred: no search_tools", () => {
    const names = toOllama([tool("a", "A"), tool("b", "B")]).map((t) => t.function.name);
    expect(names).toEqual(["a", "b"]);
  });

  it("are found by search_tools, ranked by names, descriptions and parameters", async () => {
    const toolkit = new Toolkit(services());
    const invoices = await toolkit.execute("search_tools", { query: "invoice" });
    expect(invoices.isError).toBe(false);
    const found = answerOf(invoices.output);
    expect(found.query).toBe("invoice");
    expect(found.tools.map((t) => t.name).sort()).toEqual(["create_invoice", "list_invoices"]);
    // camelCase names are searched by their words; prefixes and small typos still match.
    expect(answerOf((await toolkit.execute("search_tools", { query: "subscription" })).output).tools[0]!.name).toBe(
      "cancelSubscription",
    );
    expect(answerOf((await toolkit.execute("search_tools", { query: "refnd" })).output).tools[0]!.name).toBe(
      "refund_order",
    );
    expect(answerOf((await toolkit.execute("search_tools", { query: "courier" })).output).tools).toEqual([
      { name: "ship_parcel", description: "Book a courier for a parcel" },
    ]);
  });

  it("answer at most `limit` tools, and never the tools declared up front", async () => {
    const toolkit = new Toolkit(services());
    const found = answerOf((await toolkit.execute("search_tools", { query: "customer", limit: 2 })).output);
    expect(found.tools).toHaveLength(2);
    const weather = answerOf((await toolkit.execute("search_tools", { query: "weather" })).output);
    expect(weather.tools).toEqual([]);
  });

  it("answer a bad search with invalid_arguments, as any tool's call", async () => {
    const toolkit = new Toolkit(services());
    for (const args of [{}, { query: "" }, { query: "x", limit: 0 }, { query: "x", limit: 21 }, { query: 3 }])
      await expect(toolkit.execute("search_tools", args)).resolves.toMatchObject({
        isError: true,
        metadata: { error: "invalid_arguments" },
      });
  });

  it("find only the tools the caller may see", async () => {
    const hidden = tool("delete_account", "Delete a customer's account", {
      defer: true,
      visible: (ctx: ToolContext) => ctx.state?.admin === true,
    });
    const toolkit = new Toolkit([...services(), hidden]);
    const asUser = answerOf((await toolkit.execute("search_tools", { query: "account" }, { state: {} })).output);
    expect(asUser.tools).toEqual([]);
    const asAdmin = answerOf(
      (await toolkit.execute("search_tools", { query: "account" }, { state: { admin: true } })).output,
    );
    expect(asAdmin.tools.map((t) => t.name)).toEqual(["delete_account"]);
  });

  it("include tools added after the first search", async () => {
    const toolkit = new Toolkit(services());
    await toolkit.execute("search_tools", { query: "x" });
    toolkit.register(tool("translate_text", "Translate a text into another language", { defer: true }));
    const found = answerOf((await toolkit.execute("search_tools", { query: "translate" })).output);
    expect(found.tools.map((t) => t.name)).toEqual(["translate_text"]);
  });

  it("still run when called without being found, unless the toolkit refuses unfound deferred calls", async () => {
    const call = {
      message: {
        role: "assistant",
        content: "",
        tool_calls: [{ function: { name: "ship_parcel", arguments: { id: "7" } } }],
      },
    };
    const running = new Toolkit(services());
    running.toOllama();
    expect(await running.runOllama(call)).toEqual([
      { role: "tool", tool_name: "ship_parcel", content: "ship_parcel 7" },
    ]);
    const refusing = new Toolkit(services(), { unfoundDeferredCalls: "refuse" });
    refusing.toOllama();
    const [answer] = await refusing.runOllama(call);
    expect(answer!.content).toMatch(/Tool "ship_parcel" is not declared yet: find it with search_tools first/);
    // Through execute (no export in sight) it runs: only a provider's round trip knows what was declared.
    await expect(refusing.execute("ship_parcel", { id: "7" })).resolves.toMatchObject({ isError: false });
    expect(() => new Toolkit([], { unfoundDeferredCalls: "never" as "run" })).toThrow(ToolDefinitionError);
  });

  it("leave search_tools to a tool of the toolkit's own that takes its name, and refuse to export both", async () => {
    const own = tool("search_tools", "The app's own search");
    const toolkit = new Toolkit([own, ...services()]);
    await expect(toolkit.execute("search_tools", { id: "1" })).resolves.toMatchObject({ output: "search_tools 1" });
    expect(() => toolkit.toOllama()).toThrow(/takes the name of the search toolnexus adds/);
  });

  it("are reported in describeExport as left out, with search_tools declared", () => {
    const { declarations } = describeExport("gemini", services());
    const declared = (declarations as Array<{ functionDeclarations: Array<{ name: string }> }>)[0]!
      .functionDeclarations;
    expect(declared.map((d) => d.name)).toEqual(["get_weather", "search_tools"]);
  });
});

describe("deferred tools over MCP", () => {
  async function connect(toolkit: Toolkit) {
    const server = createMcpServer(toolkit);
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: "test", version: "1.0.0" });
    await client.connect(clientSide);
    return { client, close: () => Promise.all([client.close(), server.close()]) };
  }

  it("are absent from tools/list, found by search_tools with full declarations, and callable by name", async () => {
    const { client, close } = await connect(new Toolkit(services()));
    try {
      const listed = await client.listTools();
      expect(listed.tools.map((t) => t.name)).toEqual(["get_weather", "search_tools"]);
      const search = await client.callTool({ name: "search_tools", arguments: { query: "parcel" } });
      const text = (search.content as Array<{ text: string }>)[0]!.text;
      expect(JSON.parse(text)).toEqual({
        query: "parcel",
        tools: [
          {
            name: "ship_parcel",
            description: "Book a courier for a parcel",
            inputSchema: {
              type: "object",
              properties: { id: { type: "string", description: "the record's id" } },
              required: ["id"],
            },
          },
        ],
      });
      const shipped = await client.callTool({ name: "ship_parcel", arguments: { id: "9" } });
      expect(shipped).toMatchObject({ isError: false, content: [{ type: "text", text: "ship_parcel 9" }] });
    } finally {
      await close();
    }
  });
});
