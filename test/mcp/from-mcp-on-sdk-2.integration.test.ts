/**
 * `fromMcp` with a `Client` of the MCP SDK 2.x (`@modelcontextprotocol/client`): against a
 * server of the SDK 2.x speaking protocol revision 2026-07-28 (no handshake, each request
 * carrying its version; the client negotiates it with `versionNegotiation`), and against
 * toolnexus's own `serveMcp`, which answers that revision too. Calls carry
 * toolnexus's signal, deadline and progress as with the SDK 1.x, and every failure is a result.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { toNodeHandler } from "@modelcontextprotocol/node";
import { createMcpHandler, fromJsonSchema, McpServer } from "@modelcontextprotocol/server";
import { defineTool, Toolkit, type JSONSchemaObject, type ToolResult } from "toolnexus";
import { fromMcp, serveMcp, type McpServerHandle } from "toolnexus/mcp";

const CITY: JSONSchemaObject = { type: "object", properties: { city: { type: "string" } }, required: ["city"] };

/** What the SDK 2.x server's slow tool saw: whether its request was cancelled. */
const seen = { slowAborted: false };

/** The weather tool as a server of the SDK 2.x registers it. */
function withWeatherTool(server: McpServer): McpServer {
  server.registerTool(
    "get_weather",
    {
      description: "Current weather for a city",
      inputSchema: fromJsonSchema<{ city: string }>({
        type: "object",
        properties: { city: { type: "string" } },
        required: ["city"],
      }),
    },
    async ({ city }) => ({ content: [{ type: "text", text: `sunny in ${city}` }] }),
  );
  return server;
}

/** A server of the SDK 2.x, as its README builds one: a factory of McpServer per request, for both eras. */
function weatherServer(): McpServer {
  const server = withWeatherTool(new McpServer({ name: "weather-2026", version: "2.0.0" }));
  server.registerTool(
    "forecast",
    {
      description: "A three-step forecast",
      inputSchema: fromJsonSchema<{ city: string }>({
        type: "object",
        properties: { city: { type: "string" } },
        required: ["city"],
      }),
    },
    async ({ city }, ctx) => {
      const progressToken = ctx.mcpReq._meta?.progressToken;
      for (const step of [1, 2, 3]) {
        if (progressToken !== undefined)
          await ctx.mcpReq.notify({
            method: "notifications/progress",
            params: { progressToken, progress: step, total: 3, message: `day ${step}` },
          });
        await sleep(10);
      }
      return { content: [{ type: "text", text: `three sunny days in ${city}` }] };
    },
  );
  server.registerTool(
    "slow",
    { description: "Answers after a minute", inputSchema: fromJsonSchema({ type: "object", properties: {} }) },
    async (_args, ctx) => {
      await sleep(60_000, undefined, { signal: ctx.mcpReq.signal }).catch(() => (seen.slowAborted = true));
      return { content: [{ type: "text", text: "too late" }] };
    },
  );
  server.registerTool(
    "broken",
    { description: "Fails", inputSchema: fromJsonSchema({ type: "object", properties: {} }) },
    async () => ({ content: [{ type: "text", text: "the weather service is down" }], isError: true }),
  );
  return server;
}

let http: Server;
let modernUrl: string;
let served: McpServerHandle;
const clients: Client[] = [];

async function connect(url: string): Promise<Client> {
  const client = new Client({ name: "toolnexus-test", version: "1.0.0" }, { versionNegotiation: { mode: "auto" } });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  clients.push(client);
  return client;
}

beforeAll(async () => {
  http = createServer(toNodeHandler(createMcpHandler(weatherServer)));
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  modernUrl = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
  served = await serveMcp(
    [
      defineTool({
        name: "get_weather",
        description: "Current weather for a city",
        inputSchema: CITY,
        execute: ({ city }) => `cloudy in ${String(city)}`,
      }),
    ],
    { transport: "http", port: 0 },
  );
});

afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  await served?.close();
  http?.closeAllConnections();
  await new Promise((resolve) => http?.close(resolve));
});

describe("against a server of protocol revision 2026-07-28", () => {
  let toolkit: Toolkit;
  let client: Client;

  beforeAll(async () => {
    client = await connect(modernUrl);
    toolkit = new Toolkit(await fromMcp(client, { timeout: 2_000 }));
  });

  it("negotiates the modern era (the test's premise)", () => {
    expect([client.getProtocolEra(), client.getNegotiatedProtocolVersion()]).toEqual(["modern", "2026-07-28"]);
  });

  it("lists the server's tools with their schemas and the server's name", () => {
    expect(toolkit.tools().map((tool) => tool.name)).toEqual(["get_weather", "forecast", "slow", "broken"]);
    expect(toolkit.get("get_weather")!.inputSchema).toMatchObject(CITY);
    expect(toolkit.get("get_weather")!.description).toContain("Current weather for a city");
  });

  it("calls a tool", async () => {
    expect(await toolkit.execute("get_weather", { city: "Oslo" })).toEqual({ output: "sunny in Oslo", isError: false });
  });

  it("forwards the server's progress to ctx.reportProgress", async () => {
    const steps: unknown[] = [];
    const result = await toolkit.execute(
      "forecast",
      { city: "Oslo" },
      {
        reportProgress: (progress, total, message) => steps.push({ progress, total, message }),
      },
    );
    expect(result).toEqual({ output: "three sunny days in Oslo", isError: false });
    expect(steps).toEqual([1, 2, 3].map((day) => ({ progress: day, total: 3, message: `day ${day}` })));
  });

  it("ends a call at toolnexus's deadline, as a timeout result, and the server's request is cancelled", async () => {
    seen.slowAborted = false;
    const result = await toolkit.execute("slow", {}, { timeout: 200 });
    expect(result).toMatchObject({ isError: true, metadata: { error: "timeout" } });
    for (let waited = 0; !seen.slowAborted && waited < 5_000; waited += 50) await sleep(50);
    expect(seen.slowAborted).toBe(true);
  });

  it("ends a call when its signal aborts, as an aborted result", async () => {
    const controller = new AbortController();
    const pending = toolkit.execute("slow", {}, { signal: controller.signal });
    setTimeout(() => controller.abort(), 100);
    expect(await pending).toMatchObject({ isError: true, metadata: { error: "aborted" } });
  });

  it("answers a tool's own failure as an execution_failed result with the server's text", async () => {
    const result: ToolResult = await toolkit.execute("broken", {});
    expect(result).toMatchObject({ isError: true, metadata: { error: "execution_failed" } });
    expect(result.output).toContain("the weather service is down");
  });

  it("answers a call on a closed client as an error result that says so", async () => {
    const closing = await connect(modernUrl);
    const tools = await fromMcp(closing);
    await closing.close();
    const result = await new Toolkit(tools).execute("get_weather", { city: "Oslo" });
    expect(result).toMatchObject({ isError: true, metadata: { error: "execution_failed" } });
    expect(result.output).toContain("not connected");
  });
});

describe("a server's questions (2026-07-28 multi-round-trip), answered by the calling toolkit", () => {
  const asking = defineTool({
    name: "deploy",
    description: "Deploys once the user confirms, with a note from a model",
    inputSchema: { type: "object", properties: { env: { type: "string" } }, required: ["env"] },
    execute: async ({ env }, ctx) => {
      const answer = await ctx.elicit({
        message: `Deploy to ${String(env)}?`,
        schema: { type: "object", properties: { confirm: { type: "boolean" } }, required: ["confirm"] },
      });
      if (answer.action !== "accept") return `not deployed (${answer.action})`;
      const note = await ctx.sample({ messages: "a release note", maxTokens: 20 });
      return `deployed to ${String(env)}: ${(note.content as { text: string }).text}`;
    },
  });
  let remote: McpServerHandle;

  beforeAll(async () => {
    remote = await serveMcp([asking], { transport: "http", port: 0 });
  });
  afterAll(() => remote.close());

  async function remoteTools(): Promise<Awaited<ReturnType<typeof fromMcp>>> {
    const client = new Client(
      { name: "toolnexus-asking", version: "1.0.0" },
      { versionNegotiation: { mode: "auto" }, capabilities: { elicitation: { form: {} }, sampling: {} } },
    );
    await client.connect(new StreamableHTTPClientTransport(new URL(remote.url!)));
    clients.push(client);
    return fromMcp(client);
  }

  it("asks the toolkit's elicit and sample hooks, and the call finishes with the answers", async () => {
    const asked: string[] = [];
    const toolkit = new Toolkit(await remoteTools(), {
      elicit: (request) => {
        asked.push(request.message);
        return { action: "accept", content: { confirm: true } };
      },
      sample: () => ({ role: "assistant", content: { type: "text", text: "all good" }, model: "local" }),
    });
    expect(await toolkit.execute("deploy", { env: "prod" })).toEqual({
      output: "deployed to prod: all good",
      isError: false,
    });
    expect(asked).toEqual(["Deploy to prod?"]);
  });

  it("fails the call, saying why, when nobody here can answer", async () => {
    const result = await new Toolkit(await remoteTools()).execute("deploy", { env: "prod" });
    expect(result).toMatchObject({ isError: true, metadata: { error: "execution_failed" } });
    expect(result.output).toContain(
      'The MCP server "toolnexus" needed input to run "deploy": it asked the user ("Deploy to prod?"), and nobody here could answer',
    );
    expect(result.output).toContain("pass the toolkit option `elicit`");
  });
});

describe("a server's cache hints (2026-07-28)", () => {
  it("listing again within the tools/list ttlMs is answered from the client's cache, without a request", async () => {
    let listed = 0;
    const cached = createServer(
      toNodeHandler(
        createMcpHandler(() =>
          withWeatherTool(
            new McpServer(
              { name: "cached", version: "1.0.0" },
              { cacheHints: { "tools/list": { ttlMs: 60_000, cacheScope: "private" } } },
            ),
          ),
        ),
      ),
    );
    cached.on("request", (req) => {
      if (req.headers["mcp-method"] === "tools/list") listed++;
    });
    await new Promise<void>((resolve) => cached.listen(0, "127.0.0.1", resolve));
    try {
      const client = await connect(`http://127.0.0.1:${(cached.address() as AddressInfo).port}/mcp`);
      const first = await fromMcp(client);
      const again = await fromMcp(client);
      expect(again.map((tool) => tool.name)).toEqual(first.map((tool) => tool.name));
      expect(listed).toBe(1);
    } finally {
      cached.closeAllConnections();
      await new Promise((resolve) => cached.close(resolve));
    }
  });
});

describe("against toolnexus's serveMcp, which serves both eras", () => {
  it("negotiates 2026-07-28, lists and calls", async () => {
    const client = await connect(served.url!);
    expect([client.getProtocolEra(), client.getNegotiatedProtocolVersion()]).toEqual(["modern", "2026-07-28"]);
    const toolkit = new Toolkit(await fromMcp(client));
    expect(toolkit.tools().map((tool) => tool.name)).toEqual(["get_weather"]);
    expect(await toolkit.execute("get_weather", { city: "Pune" })).toEqual({
      output: "cloudy in Pune",
      isError: false,
    });
  });
});
