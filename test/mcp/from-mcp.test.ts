/**
 * fromMcp over the SDK's InMemoryTransport: the tools of a toolnexus MCP server (and of
 * servers written with the SDK alone) become toolnexus Tools. Listed as the server declares
 * them; called with the call's signal, deadline and progress; every failure (the server's
 * error result, a protocol error, a closed connection, a server that never answers) an error
 * result, never a rejection; gathered with local tools in one toolkit and exported.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type ListToolsResult,
} from "@modelcontextprotocol/sdk/types.js";
import type { ChatCompletion } from "openai/resources/chat/completions";
import { z } from "zod";
import {
  audio,
  defineTool,
  file,
  image,
  resourceLink,
  Toolkit,
  ToolDefinitionError,
  type Tool,
  type ToolResult,
} from "toolnexus";
import { createMcpServer, fromMcp, type McpToolsClient } from "toolnexus/mcp";

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
const WAV = Buffer.concat([Buffer.from("RIFF"), Buffer.from([36, 0, 0, 0]), Buffer.from("WAVEfmt ")]);
const PDF = Buffer.from("%PDF-1.7\n%EOF\n");
const b64 = (bytes: Buffer) => bytes.toString("base64");

/** What the remote `wait` tool saw, in order. */
const events: string[] = [];
let secretVisible = true;

const remoteTools = [
  defineTool({
    name: "get_weather",
    description: "Current weather for a city",
    inputSchema: {
      type: "object",
      properties: { city: { type: "string", minLength: 1 } },
      required: ["city"],
      additionalProperties: false,
    },
    validate: true,
    annotations: { title: "Weather", readOnly: true, openWorld: false },
    execute: ({ city }) => `sunny in ${String(city)}`,
  }),
  defineTool({
    name: "charge",
    description: "Charges a card",
    inputSchema: { type: "object", properties: { cents: { type: "integer" } }, required: ["cents"] },
    annotations: { destructive: true },
    execute: ({ cents }) => {
      throw new Error(`payment provider unavailable (charging ${String(cents)} cents)`);
    },
  }),
  defineTool({
    name: "quote",
    description: "Quotes a price",
    inputSchema: { type: "object", properties: { sku: { type: "string" } }, required: ["sku"] },
    outputSchema: {
      type: "object",
      properties: { sku: { type: "string" }, price: { type: "number" } },
      required: ["sku", "price"],
    },
    execute: ({ sku }) => ({ sku, price: 12.5 }),
  }),
  defineTool({
    name: "chart",
    description: "A chart with its caption",
    execute: () => [{ type: "text", text: "Sales by month" }, image(PNG)],
  }),
  defineTool({
    name: "media",
    description: "Every other kind of part",
    execute: () => [
      audio(WAV),
      file(PDF, "application/pdf", "report.pdf"),
      file(Buffer.from("a,b\n1,2\n"), "text/csv", "table.csv"),
      resourceLink("https://example.com/logs/today", {
        name: "today.log",
        mimeType: "text/plain",
        description: "Today's log",
      }),
    ],
  }),
  defineTool({
    name: "wait",
    description: "Waits until the call is cancelled",
    inputSchema: { type: "object", properties: { label: { type: "string" } }, required: ["label"] },
    execute: ({ label }, ctx) =>
      new Promise((resolve) => {
        events.push(`started ${String(label)}`);
        ctx.signal?.addEventListener("abort", () => {
          events.push(`aborted ${String(label)}`);
          resolve("aborted");
        });
      }),
  }),
  defineTool({
    name: "countdown",
    description: "Counts three steps, reporting each",
    execute: async (_args, ctx) => {
      for (const step of [1, 2, 3]) {
        ctx.reportProgress(step, 3, `step ${step}`);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      return "counted";
    },
  }),
  defineTool({
    name: "secret",
    description: "Shown until it is hidden",
    visible: () => secretVisible,
    execute: () => "the secret",
  }),
];

/** A client connected in memory to `server`, and the way to close the server's end. */
async function connect(server: Server | McpServer): Promise<{ client: Client; closeServer: () => Promise<void> }> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "from-mcp-test", version: "1.0.0" });
  await client.connect(clientSide);
  return { client, closeServer: () => server.close() };
}

/** A low-level SDK server: `tools/list` answers with `pages` (one per cursor), `tools/call` with `call`. */
function sdkServer(
  pages: ListToolsResult[],
  call: (name: string, args: unknown, signal: AbortSignal) => unknown = () => ({ content: [] }),
): Server {
  const server = new Server({ name: "hand-made", version: "1.0.0" }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, (request) => pages[Number(request.params?.cursor ?? 0)]!);
  server.setRequestHandler(
    CallToolRequestSchema,
    async (request, extra) => (await call(request.params.name, request.params.arguments, extra.signal)) as never,
  );
  return server;
}

const byName = (tools: Tool[], name: string) => tools.find((tool) => tool.name === name)!;

describe("fromMcp with a toolnexus server (createMcpServer, in memory)", () => {
  let client: Client;
  let closeServer: () => Promise<void>;
  let tools: Tool[];

  beforeAll(async () => {
    ({ client, closeServer } = await connect(createMcpServer(new Toolkit(remoteTools), { name: "shop" })));
    tools = await fromMcp(client);
  });

  afterAll(async () => {
    await client.close();
    await closeServer();
  });

  describe("listing", () => {
    it("declares each tool as the server lists it: name, description, inputSchema, outputSchema", async () => {
      const { tools: listed } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(listed.map((tool) => tool.name));
      for (const tool of listed) {
        expect(byName(tools, tool.name)).toMatchObject({
          description: tool.description,
          inputSchema: tool.inputSchema,
          source: "mcp",
        });
        expect(byName(tools, tool.name).outputSchema).toEqual(tool.outputSchema);
      }
      expect(byName(tools, "quote").outputSchema).toMatchObject({ type: "object", required: ["sku", "price"] });
    });

    it("turns the server's hints into annotations", () => {
      expect(byName(tools, "get_weather").annotations).toEqual({ title: "Weather", readOnly: true, openWorld: false });
      expect(byName(tools, "charge").annotations).toEqual({ destructive: true });
      // MCP's defaults for a tool with no hints: it may change things, destructively.
      expect(byName(tools, "chart").annotations).toEqual({ destructive: true });
    });

    it("prefixes names, and calls the server by its own", async () => {
      const prefixed = await fromMcp(client, { namePrefix: "shop_", include: ["get_weather", "charge"] });
      expect(prefixed.map((tool) => tool.name)).toEqual(["shop_get_weather", "shop_charge"]);
      expect(await prefixed[0]!.execute({ city: "Oslo" })).toEqual({ output: "sunny in Oslo", isError: false });
    });

    it("takes the tools include names or picks, leaves out those exclude names or picks", async () => {
      expect((await fromMcp(client, { include: ["quote", "chart"] })).map((tool) => tool.name)).toEqual([
        "quote",
        "chart",
      ]);
      expect(
        (await fromMcp(client, { include: (tool) => tool.annotations?.readOnlyHint === true })).map(
          (tool) => tool.name,
        ),
      ).toEqual(["get_weather"]);
      const withoutWrites = await fromMcp(client, { exclude: (tool) => tool.annotations?.destructiveHint === true });
      expect(withoutWrites.map((tool) => tool.name)).not.toContain("charge");
      expect((await fromMcp(client, { exclude: ["wait", "countdown", "secret"] })).length).toBe(remoteTools.length - 3);
    });

    it("defers every tool, or those a list names or a function picks, and puts them in a namespace", async () => {
      const all = await fromMcp(client, { defer: true, namespace: "shop" });
      expect(all.every((tool) => tool.defer === true && tool.namespace === "shop")).toBe(true);
      const some = await fromMcp(client, { defer: ["charge"] });
      expect(some.filter((tool) => tool.defer === true).map((tool) => tool.name)).toEqual(["charge"]);
      const picked = await fromMcp(client, { defer: (tool) => tool.annotations?.readOnlyHint !== true });
      expect(byName(picked, "get_weather").defer).toBeUndefined();
      expect(byName(picked, "charge").defer).toBe(true);
      expect((await fromMcp(client)).some((tool) => "defer" in tool || "namespace" in tool)).toBe(false);
      await expect(fromMcp(client, { defer: "yes" as never })).rejects.toThrow(/fromMcp: defer must be true, false/);
      await expect(fromMcp(client, { namespace: "my shop" })).rejects.toThrow(/fromMcp: namespace must be a name/);
    });

    it("refuses an include or exclude naming a tool the server does not have (a typo would take or hide nothing)", async () => {
      await expect(fromMcp(client, { include: ["get_wether"] })).rejects.toThrow(
        /include names "get_wether", which the MCP server "shop" does not have\. Its tools: get_weather, charge, quote/,
      );
      await expect(fromMcp(client, { exclude: ["charg"] })).rejects.toThrow(ToolDefinitionError);
    });

    it("refuses a client that is not connected, and what is not a client", async () => {
      await expect(fromMcp(new Client({ name: "idle", version: "1" }))).rejects.toThrow(
        "fromMcp needs a connected client: await client.connect(transport) first.",
      );
      await expect(fromMcp({} as McpToolsClient)).rejects.toThrow(
        /fromMcp takes a Client of @modelcontextprotocol\/client \(2\.x\) or @modelcontextprotocol\/sdk \(1\.x/,
      );
      await expect(fromMcp(client, { names: "loose" as "exact" })).rejects.toThrow(
        'fromMcp: names must be "exact" or "sanitize" (got "loose").',
      );
      await expect(fromMcp(client, { timeout: -1 })).rejects.toThrow(/fromMcp: timeout must be a positive number/);
    });
  });

  describe("calls", () => {
    it("answers with the server's text", async () => {
      expect(await byName(tools, "get_weather").execute({ city: "Chennai" })).toEqual({
        output: "sunny in Chennai",
        isError: false,
      });
    });

    it("a tool that throws on the server is an execution_failed result with the server's text", async () => {
      expect(await byName(tools, "charge").execute({ cents: 100 })).toEqual({
        output: "payment provider unavailable (charging 100 cents)",
        isError: true,
        metadata: { error: "execution_failed", tool: "charge", server: "shop" },
      });
    });

    it("arguments the server refuses are an error result with the server's explanation", async () => {
      const result = await byName(tools, "get_weather").execute({ city: "" });
      expect(result).toMatchObject({ isError: true, metadata: { error: "execution_failed" } });
      expect(result.output).toMatch(/^Invalid arguments for tool "get_weather"/);
      expect(result.output).toContain("city");
    });

    it("a tool the server no longer has is an unknown_tool result (the server's protocol error, as data)", async () => {
      const secret = byName(tools, "secret");
      expect(await secret.execute({})).toEqual({ output: "the secret", isError: false });
      secretVisible = false;
      try {
        const result = await secret.execute({});
        expect(result).toMatchObject({
          isError: true,
          metadata: { error: "unknown_tool", tool: "secret", server: "shop", code: ErrorCode.InvalidParams },
        });
        expect(result.output).toMatch(/^The MCP server "shop" refused the call of "secret": Unknown tool "secret"\./);
      } finally {
        secretVisible = true;
      }
    });

    it("a structured result keeps structuredContent, with its JSON as output", async () => {
      expect(await byName(tools, "quote").execute({ sku: "A-1" })).toEqual({
        output: '{"sku":"A-1","price":12.5}',
        isError: false,
        structuredContent: { sku: "A-1", price: 12.5 },
      });
    });

    it("images come back as image parts beside the text", async () => {
      expect(await byName(tools, "chart").execute({})).toEqual({
        output: "Sales by month\n[image/png image, 16 B]",
        isError: false,
        content: [
          { type: "text", text: "Sales by month" },
          { type: "image", data: b64(PNG), mimeType: "image/png" },
        ],
      });
    });

    it("audio, embedded files and links come back as parts; an embedded text file as its text", async () => {
      const result = await byName(tools, "media").execute({});
      expect(result.content).toEqual([
        { type: "audio", data: b64(WAV), mimeType: "audio/wav" },
        { type: "file", data: b64(PDF), mimeType: "application/pdf", name: "report.pdf" },
        { type: "text", text: "a,b\n1,2\n" },
        {
          type: "resource_link",
          uri: "https://example.com/logs/today",
          name: "today.log",
          mimeType: "text/plain",
          description: "Today's log",
        },
      ]);
      expect(result.output).toBe(
        "[audio/wav audio, 16 B]\n[file report.pdf (application/pdf, 14 B)]\na,b\n1,2\n\n[resource today.log at https://example.com/logs/today (text/plain)]",
      );
    });

    it("forwards the server's progress notifications to ctx.reportProgress", async () => {
      const seen: unknown[] = [];
      const result = await byName(tools, "countdown").execute(
        {},
        { reportProgress: (...progress) => void seen.push(progress) },
      );
      expect(result).toEqual({ output: "counted", isError: false });
      expect(seen).toEqual([
        [1, 3, "step 1"],
        [2, 3, "step 2"],
        [3, 3, "step 3"],
      ]);
    });

    it("an abort of ctx.signal ends the call at once and cancels it on the server", async () => {
      const controller = new AbortController();
      const pending = byName(tools, "wait").execute({ label: "abort-me" }, { signal: controller.signal });
      await until(() => events.includes("started abort-me"));
      controller.abort(new Error("the user left"));
      expect(await pending).toEqual({
        output: 'Tool "wait" was aborted: the user left',
        isError: true,
        metadata: { error: "aborted" },
      });
      await until(() => events.includes("aborted abort-me"));
    });

    it("a call past its deadline is a timeout result, and the server's call is cancelled", async () => {
      const result = await byName(tools, "wait").execute({ label: "too-slow" }, { timeout: 100 });
      expect(result).toMatchObject({
        output: 'Tool "wait" timed out after 100 ms',
        isError: true,
        metadata: { error: "timeout" },
      });
      await until(() => events.includes("aborted too-slow"));
    });
  });

  describe("in a toolkit with local tools", () => {
    const local = defineTool({
      name: "convert",
      description: "Converts Celsius to Fahrenheit",
      inputSchema: { type: "object", properties: { celsius: { type: "number" } }, required: ["celsius"] },
      execute: ({ celsius }) => String((Number(celsius) * 9) / 5 + 32),
    });

    it("exports local and remote tools alike to every provider", async () => {
      const toolkit = new Toolkit([local, ...(await fromMcp(client, { include: ["get_weather", "quote", "chart"] }))]);
      const names = ["convert", "get_weather", "quote", "chart"];
      expect(toolkit.toGemini()[0]!.functionDeclarations.map((declaration) => declaration.name)).toEqual(names);
      expect(
        toolkit.toOpenAI({ strict: true }).map((tool) => (tool.type === "function" ? tool.function.name : tool.type)),
      ).toEqual(names);
      expect(toolkit.toOpenAI({ strict: true })[1]).toMatchObject({
        type: "function",
        function: {
          description: "Current weather for a city",
          parameters: {
            type: "object",
            properties: { city: { type: "string", minLength: 1 } },
            required: ["city"],
            additionalProperties: false,
          },
          strict: true,
        },
      });
      expect(toolkit.toAnthropic().map((tool) => tool.name)).toEqual(names);
      expect(toolkit.toBedrock().tools.map((tool) => tool.toolSpec.name)).toEqual(names);
      expect(toolkit.toOpenAIResponses().map((tool) => (tool.type === "function" ? tool.name : tool.type))).toEqual(
        names,
      );
      expect(toolkit.toMcp().find((tool) => tool.name === "quote")!.outputSchema).toMatchObject({
        required: ["sku", "price"],
      });
    });

    it("answers a model's calls of both for OpenAI and Gemini, the remote image where Gemini takes it", async () => {
      const toolkit = new Toolkit([local, ...(await fromMcp(client))]);
      const completion = openAiTurn([
        ["call_1", "convert", { celsius: 20 }],
        ["call_2", "get_weather", { city: "Lima" }],
        ["call_3", "charge", { cents: 5 }],
      ]);
      expect(await toolkit.runOpenAI(completion)).toEqual([
        { role: "tool", tool_call_id: "call_1", content: "68" },
        { role: "tool", tool_call_id: "call_2", content: "sunny in Lima" },
        { role: "tool", tool_call_id: "call_3", content: "Error: payment provider unavailable (charging 5 cents)" },
      ]);
      const reply = await toolkit.runGemini({
        parts: [
          { functionCall: { name: "chart", args: {} } },
          { functionCall: { name: "convert", args: { celsius: 0 } } },
        ],
      });
      expect(reply?.parts).toEqual([
        {
          functionResponse: {
            name: "chart",
            response: { output: "Sales by month\n[image/png image, 16 B]" },
            parts: [{ inlineData: { mimeType: "image/png", data: b64(PNG) } }],
          },
        },
        { functionResponse: { name: "convert", response: { output: "32" } } },
      ]);
    });

    it("runs remote calls under the toolkit's timeout and onError like any tool", async () => {
      const failures: string[] = [];
      const toolkit = new Toolkit(await fromMcp(client, { include: ["wait", "charge"] }), {
        timeout: 50,
        onError: (failure) => void failures.push(`${failure.tool}: ${failure.kind}`),
      });
      expect(await toolkit.execute("wait", { label: "toolkit-deadline" })).toMatchObject({
        isError: true,
        metadata: { error: "timeout" },
      });
      await toolkit.execute("charge", { cents: 1 });
      expect(failures).toEqual(["wait: timeout", "charge: execution_failed"]);
    });

    it("serves them again over MCP: a toolkit of remote tools is a proxy", async () => {
      const proxy = await connect(
        createMcpServer(new Toolkit([local, ...(await fromMcp(client, { namePrefix: "shop_" }))]), { name: "proxy" }),
      );
      try {
        const listed = (await proxy.client.listTools()).tools.map((tool) => tool.name);
        expect(listed).toEqual(["convert", ...remoteTools.map((tool) => `shop_${tool.name}`)]);
        expect(await proxy.client.callTool({ name: "shop_quote", arguments: { sku: "B" } })).toMatchObject({
          structuredContent: { sku: "B", price: 12.5 },
          isError: false,
        });
        const progress: number[] = [];
        await proxy.client.callTool({ name: "shop_countdown", arguments: {} }, undefined, {
          onprogress: ({ progress: step }) => void progress.push(step),
        });
        expect(progress).toEqual([1, 2, 3]);
      } finally {
        await proxy.client.close();
        await proxy.closeServer();
      }
    });
  });
});

describe("fromMcp with servers written with the SDK alone", () => {
  it("follows nextCursor through every page of tools/list", async () => {
    const tool = (name: string) => ({ name, description: `Tool ${name}`, inputSchema: { type: "object" as const } });
    const { client } = await connect(
      sdkServer([
        { tools: [tool("a"), tool("b")], nextCursor: "1" },
        { tools: [tool("c")], nextCursor: "2" },
        { tools: [tool("d")] },
      ]),
    );
    expect((await fromMcp(client)).map((listed) => listed.name)).toEqual(["a", "b", "c", "d"]);
    await client.close();
  });

  it("stops when a server's pages never end", async () => {
    const { client } = await connect(
      sdkServer([
        { tools: [], nextCursor: "1" },
        { tools: [], nextCursor: "1" },
      ]),
    );
    await expect(fromMcp(client)).rejects.toThrow(
      'fromMcp: the MCP server "hand-made" sent the tools/list cursor "1" twice; its pages never end.',
    );
    await client.close();
  });

  it("stops when a server pages on past 1,000 pages, with new cursors each time", async () => {
    const server = new Server({ name: "endless", version: "1.0.0" }, { capabilities: { tools: {} } });
    let page = 0;
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [], nextCursor: String(++page) }));
    const { client } = await connect(server);
    await expect(fromMcp(client)).rejects.toThrow(
      'fromMcp: the MCP server "endless" went on past 1000 pages of tools/list; toolnexus stops there.',
    );
    expect(page).toBe(1_000);
    await client.close();
  });

  it("makes a listed schema self-contained, so every exporter writes it: recursion unfolded, references inlined", async () => {
    const tree = {
      type: "object" as const,
      properties: { node: { $ref: "#/$defs/node" } },
      $defs: {
        node: {
          type: "object",
          properties: { label: { type: "string" }, children: { type: "array", items: { $ref: "#/$defs/node" } } },
        },
      },
    };
    const { client } = await connect(
      sdkServer([{ tools: [{ name: "outline", description: "Outline", inputSchema: tree }] }]),
    );
    const [outline] = await fromMcp(client);
    expect(JSON.stringify(outline!.inputSchema)).not.toContain("$ref");
    expect(outline!.inputSchema.properties!.node).toMatchObject({
      type: "object",
      properties: { label: { type: "string" } },
    });
    const kit = new Toolkit([outline!]);
    expect(() => [kit.toGemini(), kit.toOpenAI({ strict: true }), kit.toAnthropic(), kit.toBedrock()]).not.toThrow();
    await client.close();
  });

  it("refuses a listed schema it cannot use, naming the tool and how to leave it out", async () => {
    const { client } = await connect(
      sdkServer([
        {
          tools: [
            {
              name: "broken",
              description: "Broken",
              inputSchema: { type: "object", properties: { a: { $ref: "#/$defs/missing" } } },
            },
          ],
        },
      ]),
    );
    await expect(fromMcp(client)).rejects.toThrow(
      /^fromMcp: the inputSchema the MCP server "hand-made" lists for its tool "broken" cannot be used: .*Leave the tool out with \{ exclude: \["broken"\] \}\.$/,
    );
    await client.close();
  });

  it("gives a tool without a description one that names it and its server (toolnexus needs one)", async () => {
    const { client } = await connect(
      sdkServer([
        {
          tools: [
            { name: "bare", inputSchema: { type: "object" } },
            { name: "titled", title: "Look things up", description: "  ", inputSchema: { type: "object" } },
          ],
        },
      ]),
    );
    const [bare, titled] = await fromMcp(client);
    expect(bare!.description).toBe('The tool "bare" of the MCP server "hand-made", which gives no description of it.');
    expect(titled!.description).toBe(
      'Look things up (tool "titled") of the MCP server "hand-made", which gives no description of it.',
    );
    expect(titled!.annotations).toEqual({ title: "Look things up", destructive: true });
    expect((await fromMcp(client, { serverName: "lookup" }))[0]!.description).toContain('of the MCP server "lookup"');
    new Toolkit([bare!, titled!]);
    await client.close();
  });

  describe("names", () => {
    const listing = (...names: string[]) => [
      { tools: names.map((name) => ({ name, description: name, inputSchema: { type: "object" as const } })) },
    ];

    it("a name no provider accepts throws, naming it and the ways out", async () => {
      const { client } = await connect(sdkServer(listing("search", "read file", "files/list")));
      const refused = await fromMcp(client).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(ToolDefinitionError);
      expect((refused as Error).message).toBe(
        'fromMcp: no provider accepts the tool names "read file", "files/list" of the MCP server "hand-made". Pass { names: "sanitize" } to map names to ones every provider accepts (calls still use the server\'s names), or leave the tool out with { exclude: [...] }.',
      );
      expect((await fromMcp(client, { exclude: ["read file", "files/list"] })).map((tool) => tool.name)).toEqual([
        "search",
      ]);
      await client.close();
    });

    it('names: "sanitize" maps names to ones every provider accepts; calls reach the server by its own', async () => {
      const called: string[] = [];
      const { client } = await connect(
        sdkServer(listing("search", "read file", "files.list", "9lives"), (name) => {
          called.push(name);
          return { content: [{ type: "text", text: `ran ${name}` }] };
        }),
      );
      const tools = await fromMcp(client, { names: "sanitize" });
      expect(tools.map((tool) => tool.name)).toEqual(["search", "read_file", "files_list", "t_9lives"]);
      expect(await byName(tools, "files_list").execute({})).toEqual({ output: "ran files.list", isError: false });
      expect(called).toEqual(["files.list"]);
      // Exported to every provider without names: "sanitize" on the export.
      expect(
        new Toolkit(tools).toOpenAI().map((tool) => (tool.type === "function" ? tool.function.name : tool.type)),
      ).toEqual(["search", "read_file", "files_list", "t_9lives"]);
      await client.close();
    });

    it("keeps a name some provider accepts as it is (exact), as a toolkit does", async () => {
      const { client } = await connect(sdkServer(listing("files.list")));
      const toolkit = new Toolkit(await fromMcp(client));
      expect(toolkit.toGemini()[0]!.functionDeclarations[0]!.name).toBe("files.list");
      expect(() => toolkit.toOpenAI()).toThrow(/openai rejects the tool name "files\.list"/);
      expect(toolkit.toOpenAI({ names: "sanitize" })[0]).toMatchObject({
        type: "function",
        function: { name: "files_list" },
      });
      await client.close();
    });

    it("two tools that would share a name throw", async () => {
      const { client } = await connect(sdkServer(listing("read.file", "read_file")));
      await expect(fromMcp(client, { names: "sanitize" })).rejects.toThrow(
        'fromMcp: the MCP server "hand-made" tools "read.file" and "read_file" would both be named "read_file". Leave one out with { exclude: [...] }.',
      );
      await client.close();
    });
  });

  it("leaves out tools the server runs only as tasks (callTool cannot run them)", async () => {
    const { client } = await connect(
      sdkServer([
        {
          tools: [
            { name: "plain", description: "plain", inputSchema: { type: "object" } },
            {
              name: "batch",
              description: "batch",
              inputSchema: { type: "object" },
              execution: { taskSupport: "required" },
            },
            {
              name: "either",
              description: "either",
              inputSchema: { type: "object" },
              execution: { taskSupport: "optional" },
            },
          ],
        },
      ]),
    );
    expect((await fromMcp(client)).map((tool) => tool.name)).toEqual(["plain", "either"]);
    await expect(fromMcp(client, { include: ["plain", "batch"] })).rejects.toThrow(
      'fromMcp: include names "batch", which the MCP server "hand-made" runs only as tasks (execution.taskSupport "required"); fromMcp calls tools with tools/call, which cannot run them. Leave them out of include.',
    );
    await client.close();
  });

  it("names an embedded file after the last segment of its address, never with a path a server encoded into it", async () => {
    const blob = (uri: string) => ({
      type: "resource",
      resource: { uri, mimeType: "application/pdf", blob: b64(PDF) },
    });
    const { client } = await connect(
      sdkServer([{ tools: [{ name: "files", description: "Files", inputSchema: { type: "object" } }] }], () => ({
        content: [
          blob("file:///srv/..%2F..%2Fetc%2Fpasswd"),
          blob("file:///srv/a%5C..%5Cboot.ini"),
          blob("file:///srv/report%201.pdf"),
          blob("file:///srv/%2E%2E"),
        ],
      })),
    );
    const [files] = await fromMcp(client);
    const { content } = await files!.execute({});
    expect(content!.map((part) => (part.type === "file" ? part.name : part.type))).toEqual([
      "passwd",
      "boot.ini",
      "report 1.pdf",
      undefined,
    ]);
    await client.close();
  });

  it("takes MCP's defaults for hints a server leaves out: a tool not hinted read-only or non-destructive waits for approveDestructive", async () => {
    const ran: string[] = [];
    const { client } = await connect(
      sdkServer(
        [
          {
            tools: [
              { name: "unhinted", description: "No hints", inputSchema: { type: "object" } },
              {
                name: "reader",
                description: "Reads",
                inputSchema: { type: "object" },
                annotations: { readOnlyHint: true },
              },
              {
                name: "adder",
                description: "Adds",
                inputSchema: { type: "object" },
                annotations: { destructiveHint: false },
              },
            ],
          },
        ],
        (name) => {
          ran.push(name);
          return { content: [{ type: "text", text: "done" }] };
        },
      ),
    );
    const kit = new Toolkit(await fromMcp(client), { approveDestructive: true });
    expect((await kit.execute("unhinted", {})).metadata?.error).toBe("denied");
    expect(await kit.execute("reader", {})).toMatchObject({ output: "done", isError: false });
    expect(await kit.execute("adder", {})).toMatchObject({ output: "done", isError: false });
    expect(ran).toEqual(["reader", "adder"]);
    await client.close();
  });

  it("a tool the server hints idempotent is retried like a local one, unless retry says otherwise", async () => {
    let calls = 0;
    const { client } = await connect(
      sdkServer(
        [
          {
            tools: [
              {
                name: "flaky",
                description: "Fails",
                inputSchema: { type: "object" },
                annotations: { idempotentHint: true },
              },
            ],
          },
        ],
        () => {
          calls += 1;
          return { content: [{ type: "text", text: "busy" }], isError: true };
        },
      ),
    );
    const [retried] = await fromMcp(client);
    expect(await new Toolkit([retried!]).execute("flaky", {})).toMatchObject({
      output: "busy",
      metadata: { error: "execution_failed", attempts: 3 },
    });
    expect(calls).toBe(3);
    const [once] = await fromMcp(client, { retry: false });
    expect(await new Toolkit([once!]).execute("flaky", {})).toMatchObject({ output: "busy", isError: true });
    expect(calls).toBe(4);
    await expect(fromMcp(client, { retry: 0 })).rejects.toThrow(/fromMcp: retry takes a number of attempts/);
    await client.close();
  });

  it("a call that runs out of time states its deadline in whole milliseconds, rounded up (a retried call's is what is left of it)", async () => {
    const { client } = await connect(
      sdkServer(
        [
          {
            tools: [
              {
                name: "stuck",
                description: "Never answers",
                inputSchema: { type: "object" },
                annotations: { idempotentHint: true },
              },
            ],
          },
        ],
        () => new Promise(() => {}),
      ),
    );
    const toolkit = new Toolkit(await fromMcp(client));
    expect(await toolkit.execute("stuck", {}, { timeout: 120 })).toMatchObject({
      output: 'Tool "stuck" timed out after 120 ms',
      metadata: { error: "timeout", timeoutMs: 120 },
    });
    expect(await byName(await fromMcp(client), "stuck").execute({}, { timeout: 80.25 })).toMatchObject({
      output: 'Tool "stuck" timed out after 81 ms',
      metadata: { timeoutMs: 81 },
    });
    expect(await byName(await fromMcp(client, { timeout: 60.5 }), "stuck").execute({})).toMatchObject({
      output: 'Tool "stuck" timed out after 61 ms',
      metadata: { timeoutMs: 61 },
    });
    await client.close();
  });

  it("a server without the tools capability has no tools", async () => {
    const server = new Server({ name: "prompts-only", version: "1" }, { capabilities: { prompts: {} } });
    const { client } = await connect(server);
    expect(await fromMcp(client)).toEqual([]);
    await client.close();
  });

  it("a listing the server refuses rejects fromMcp, naming the server", async () => {
    const server = new Server({ name: "broken", version: "1" }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, () => {
      throw new McpError(ErrorCode.InternalError, "database down");
    });
    const { client } = await connect(server);
    await expect(fromMcp(client)).rejects.toThrow(
      'fromMcp: could not list the tools of the MCP server "broken": database down',
    );
    await client.close();
  });

  describe("failures are results", () => {
    const hung: AbortSignal[] = [];
    let client: Client;
    let closeServer: () => Promise<void>;
    let tools: Tool[];

    beforeAll(async () => {
      const schema = { type: "object" as const, properties: { n: { type: "number" } } };
      ({ client, closeServer } = await connect(
        sdkServer(
          [
            {
              tools: [
                { name: "hang", description: "Never answers", inputSchema: { type: "object" } },
                { name: "crash", description: "A protocol error", inputSchema: { type: "object" } },
                {
                  name: "liar",
                  description: "Breaks its output schema",
                  inputSchema: { type: "object" },
                  outputSchema: schema,
                },
                { name: "silent", description: "Fails without a word", inputSchema: { type: "object" } },
              ],
            },
          ],
          (name, _args, signal) => {
            if (name === "hang") return new Promise(() => void hung.push(signal));
            if (name === "crash") throw new McpError(ErrorCode.InternalError, "the disk is full");
            if (name === "liar")
              return { content: [{ type: "text", text: '{"n":"one"}' }], structuredContent: { n: "one" } };
            return { content: [], isError: true };
          },
        ),
      ));
      tools = await fromMcp(client);
    });

    afterAll(async () => {
      await client.close();
      await closeServer();
    });

    it("a server that never answers is a timeout result, and the request is cancelled", async () => {
      const started = performance.now();
      const result = await byName(tools, "hang").execute({}, { timeout: 80 });
      expect(result).toMatchObject({
        output: 'Tool "hang" timed out after 80 ms',
        isError: true,
        metadata: { error: "timeout" },
      });
      expect(performance.now() - started).toBeLessThan(1_000);
      await until(() => hung.at(-1)?.aborted === true);
    });

    it("a protocol error is an execution_failed result naming the server and the code", async () => {
      expect(await byName(tools, "crash").execute({})).toEqual({
        output: 'The MCP server "hand-made" answered the call of "crash" with an error (-32603): the disk is full',
        isError: true,
        metadata: { error: "execution_failed", tool: "crash", server: "hand-made", code: ErrorCode.InternalError },
      });
    });

    it("a structured result that breaks the listed output schema is invalid_output", async () => {
      const result = await byName(tools, "liar").execute({});
      expect(result).toMatchObject({ isError: true, metadata: { error: "invalid_output" } });
      expect(result.output).toMatch(
        /^The tool "liar" of the MCP server "hand-made" answered with a result that does not match its output schema: /,
      );
    });

    it("an error result without text still says what failed", async () => {
      expect(await byName(tools, "silent").execute({})).toMatchObject({
        output: 'The tool "silent" of the MCP server "hand-made" failed without saying why.',
        isError: true,
      });
    });

    it("a connection closed mid-call is an error result at once, and so is every later call", async () => {
      const pending = byName(tools, "hang").execute({}, { timeout: 10_000 });
      await until(() => hung.length >= 2);
      const started = performance.now();
      await closeServer();
      expect(await pending).toEqual({
        output:
          'The MCP server "hand-made" closed the connection before answering the call of "hang"; it may or may not have run.',
        isError: true,
        metadata: { error: "execution_failed", tool: "hang", server: "hand-made", code: ErrorCode.ConnectionClosed },
      });
      expect(performance.now() - started).toBeLessThan(1_000);
      expect(await byName(tools, "crash").execute({})).toEqual({
        output: 'The MCP server "hand-made" is not connected (its client was closed), so "crash" was not called.',
        isError: true,
        metadata: { error: "execution_failed", tool: "crash", server: "hand-made" },
      });
    });
  });

  it("a server built with the SDK's McpServer and zod: its schemas export, its errors are results", async () => {
    const server = new McpServer({ name: "zod-server", version: "1.0.0" });
    server.registerTool(
      "add",
      {
        description: "Adds two numbers",
        inputSchema: { a: z.number(), b: z.number() },
        outputSchema: { sum: z.number() },
        annotations: { readOnlyHint: true },
      },
      ({ a, b }) => ({ content: [{ type: "text", text: String(a + b) }], structuredContent: { sum: a + b } }),
    );
    const { client, closeServer } = await connect(server);
    const [add] = await fromMcp(client);
    const toolkit = new Toolkit([add!]);
    expect(toolkit.toGemini()[0]!.functionDeclarations[0]).toMatchObject({
      name: "add",
      parameters: { type: "object", required: ["a", "b"] },
    });
    expect(toolkit.toOpenAI({ strict: true })[0]).toMatchObject({
      type: "function",
      function: { name: "add", strict: true, parameters: { required: ["a", "b"] } },
    });
    // The text block says more than the JSON ("3"), so the parts are kept beside structuredContent.
    expect(await toolkit.execute("add", { a: 1, b: 2 })).toEqual({
      output: '{"sum":3}',
      isError: false,
      structuredContent: { sum: 3 },
      content: [{ type: "text", text: "3" }],
    });
    const refused = await toolkit.execute("add", { a: "one", b: 2 });
    expect(refused).toMatchObject({ isError: true, metadata: { error: "execution_failed" } });
    expect(refused.output).toMatch(/Input validation error: Invalid arguments for tool add/);
    await client.close();
    await closeServer();
  });
});

describe("fromMcp with a client whose calls fail in the SDK", () => {
  /** A stand-in client: its one tool's calls reject with `error`. */
  function failingClient(error: unknown): McpToolsClient {
    return {
      listTools: async () => ({ tools: [{ name: "t", description: "t", inputSchema: { type: "object" } }] }),
      callTool: () => Promise.reject(error),
      getServerVersion: () => ({ name: "remote" }),
      getServerCapabilities: () => ({ tools: {} }),
    };
  }

  it.each<[string, unknown, Partial<ToolResult>]>([
    [
      "the SDK's own timeout",
      new McpError(ErrorCode.RequestTimeout, "Request timed out"),
      {
        output: 'The MCP server "remote" did not answer the call of "t" in time: Request timed out',
        metadata: { error: "timeout", tool: "t", server: "remote", code: -32001 },
      },
    ],
    [
      "a transport failure",
      new TypeError("fetch failed"),
      {
        output: 'The call of "t" to the MCP server "remote" failed: fetch failed',
        metadata: { error: "execution_failed", tool: "t", server: "remote" },
      },
    ],
    [
      "invalid params",
      new McpError(ErrorCode.InvalidParams, "n must be a number"),
      {
        output: 'The MCP server "remote" refused the call of "t": n must be a number',
        metadata: { error: "invalid_arguments", tool: "t", server: "remote", code: -32602 },
      },
    ],
    ["a string", "gone", { output: 'The call of "t" to the MCP server "remote" failed: gone' }],
  ])("%s is an error result", async (_what, error, expected) => {
    const [tool] = await fromMcp(failingClient(error));
    expect(await tool!.execute({})).toMatchObject({ isError: true, ...expected });
  });

  /** The SDK 2.x's error for failures of its own: a string code, where the protocol's are numbers. */
  const sdk2Error = (code: string, message: string) => Object.assign(new Error(message), { name: "SdkError", code });

  it.each<[string, unknown, Partial<ToolResult>]>([
    [
      "REQUEST_TIMEOUT",
      sdk2Error("REQUEST_TIMEOUT", "Request timed out"),
      {
        output: 'The MCP server "remote" did not answer the call of "t" in time: Request timed out',
        metadata: { error: "timeout", tool: "t", server: "remote" },
      },
    ],
    [
      "CONNECTION_CLOSED",
      sdk2Error("CONNECTION_CLOSED", "Connection closed"),
      {
        output:
          'The MCP server "remote" closed the connection before answering the call of "t"; it may or may not have run.',
        metadata: { error: "execution_failed" },
      },
    ],
    [
      "NOT_CONNECTED",
      sdk2Error("NOT_CONNECTED", "Transport is not connected"),
      {
        output: 'The MCP server "remote" is not connected (its client was closed), so "t" was not called.',
        metadata: { error: "execution_failed" },
      },
    ],
    [
      "INVALID_RESULT",
      sdk2Error("INVALID_RESULT", "Invalid result for tools/call: not an object"),
      {
        output:
          'The MCP server "remote" answered the call of "t" with a result that does not follow the MCP schema, which ' +
          "the MCP SDK refuses: Invalid result for tools/call: not an object",
        metadata: { error: "execution_failed" },
      },
    ],
  ])("the SDK 2.x's %s is an error result", async (_code, error, expected) => {
    const v2Client: McpToolsClient = { ...failingClient(error), getProtocolEra: () => "modern" };
    const [tool] = await fromMcp(v2Client);
    expect(await tool!.execute({})).toMatchObject({ isError: true, ...expected });
  });

  it("a client that answers with something else than a tool result", async () => {
    const client: McpToolsClient = { ...failingClient(undefined), callTool: async () => null };
    const [tool] = await fromMcp(client);
    expect(await tool!.execute({})).toMatchObject({
      output: 'The MCP server "remote" answered the call of "t" with something that is not a tool result.',
      isError: true,
    });
  });
});

function openAiTurn(calls: Array<[string, string, object]>): ChatCompletion {
  return {
    id: "chatcmpl-1",
    object: "chat.completion",
    created: 0,
    model: "gpt-4.1-mini",
    choices: [
      {
        index: 0,
        finish_reason: "tool_calls",
        logprobs: null,
        message: {
          role: "assistant",
          content: null,
          refusal: null,
          tool_calls: calls.map(([id, name, args]) => ({
            id,
            type: "function",
            function: { name, arguments: JSON.stringify(args) },
          })),
        },
      },
    ],
  };
}

/** Waits (polling) until `condition` holds. */
async function until(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("gave up waiting");
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
