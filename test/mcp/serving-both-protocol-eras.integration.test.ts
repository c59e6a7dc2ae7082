/**
 * One `serveMcp` over HTTP answers clients of both protocol eras: MCP SDK 2.x clients that
 * negotiate revision 2026-07-28 (no handshake, each request carrying its version, answered by
 * the SDK 2.x server) and SDK 1.x clients of the 2025 revisions (served as before). Both see
 * the same tools, per-user visibility, results, progress and failures; a tool that asks the
 * user (`ctx.elicit`) or the client's model (`ctx.sample`) gets its answers in both, by
 * multi-round-trip in 2026-07-28.
 */
import { PassThrough } from "node:stream";
import { setTimeout as sleep } from "node:timers/promises";
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from "@modelcontextprotocol/client";
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as LegacyTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
// The SDK's stdio transport speaks the same lines either way round: a client can talk through it too.
import { StdioServerTransport as ModernStdioTransport } from "@modelcontextprotocol/server/stdio";
import { CreateMessageRequestSchema, ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { defineTool, type JSONSchemaObject, type ToolContext } from "toolnexus";
import { serveMcp, type McpServerHandle } from "toolnexus/mcp";
import { modernPost, modernRequest, type ModernAnswer } from "./support";

const CITY: JSONSchemaObject = { type: "object", properties: { city: { type: "string" } }, required: ["city"] };
const NONE: JSONSchemaObject = { type: "object", properties: {} };

/** How often the deploy tool's body ran up to and past its question, across every round. */
const runs = { deploy: 0, deployed: 0, slowAborted: false, actedWithoutAnswer: 0 };

const tools = [
  defineTool({
    name: "get_weather",
    description: "Current weather for a city",
    inputSchema: CITY,
    execute: ({ city }) => `sunny in ${String(city)}`,
  }),
  defineTool({
    name: "admin_report",
    description: "Only for admins",
    inputSchema: NONE,
    visible: (ctx: ToolContext) => ctx.state?.role === "admin",
    execute: () => "the report",
  }),
  defineTool({
    name: "forecast",
    description: "A three-day forecast, reported as it goes",
    inputSchema: CITY,
    execute: async ({ city }, ctx) => {
      for (const day of [1, 2, 3]) {
        ctx.reportProgress(day, 3, `day ${day}`);
        await sleep(5);
      }
      return `three sunny days in ${String(city)}`;
    },
  }),
  defineTool({
    name: "broken",
    description: "Fails",
    inputSchema: NONE,
    execute: () => {
      throw new Error("the weather service is down");
    },
  }),
  defineTool({
    name: "slow",
    description: "Answers after a minute",
    inputSchema: NONE,
    execute: async (_args, ctx) => {
      await sleep(60_000, undefined, { signal: ctx.signal }).catch(() => (runs.slowAborted = true));
      return "too late";
    },
  }),
  defineTool({
    name: "deploy",
    description: "Deploys after the user confirms, with a note from the client's model",
    inputSchema: { type: "object", properties: { env: { type: "string" } }, required: ["env"] },
    execute: async ({ env }, ctx) => {
      runs.deploy++;
      const answer = await ctx.elicit({
        message: `Deploy to ${String(env)}?`,
        schema: { type: "object", properties: { confirm: { type: "boolean" } }, required: ["confirm"] },
      });
      if (answer.action !== "accept" || answer.content?.confirm !== true) return `not deployed (${answer.action})`;
      const note = await ctx.sample({ messages: `Write a release note for ${String(env)}`, maxTokens: 50 });
      runs.deployed++;
      const text = (note.content as { text?: string }).text;
      return `deployed to ${String(env)}: ${text}`;
    },
  }),
];

tools.push(
  defineTool({
    name: "catching_question",
    description: "Catches what asking throws and would act anyway",
    inputSchema: NONE,
    execute: async (_args, ctx) => {
      try {
        const answer = await ctx.elicit({
          message: "Go?",
          schema: { type: "object", properties: { go: { type: "boolean" } } },
        });
        return `answered ${answer.action}`;
      } catch {
        runs.actedWithoutAnswer++;
        return "acted without an answer";
      }
    },
  }),
  defineTool({
    name: "named_question",
    description: "Asks the user's name under the key user_name",
    inputSchema: NONE,
    execute: async (_args, ctx) => {
      const answer = await ctx.elicit({
        key: "user_name",
        message: "What is your name?",
        schema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
      });
      return answer.action === "accept" ? `Hello, ${String(answer.content?.name)}!` : answer.action;
    },
  }),
);

let server: McpServerHandle;
const closers: Array<() => Promise<void>> = [];

beforeAll(async () => {
  server = await serveMcp(tools, {
    transport: "http",
    port: 0,
    state: (req) => ({ role: req.headers["x-role"] }),
  });
});

afterAll(async () => {
  await Promise.all(closers.map((close) => close()));
  await server.close();
});

interface Answers {
  confirm?: boolean | "decline";
}

async function modernClient(headers: Record<string, string> = {}, answers: Answers = {}): Promise<ModernClient> {
  const client = new ModernClient(
    { name: "modern-test", version: "1.0.0" },
    {
      versionNegotiation: { mode: "auto" },
      capabilities: { elicitation: { form: {} }, sampling: {} },
    },
  );
  client.setRequestHandler("elicitation/create", async () =>
    answers.confirm === "decline"
      ? { action: "decline" }
      : { action: "accept", content: { confirm: answers.confirm ?? true } },
  );
  client.setRequestHandler("sampling/createMessage", async (request) => ({
    role: "assistant",
    content: { type: "text", text: `notes on ${JSON.stringify(request.params.messages[0]?.content)}`.slice(0, 60) },
    model: "test-model",
  }));
  await client.connect(new ModernTransport(new URL(server.url!), { requestInit: { headers } }));
  closers.push(() => client.close());
  return client;
}

async function legacyClient(headers: Record<string, string> = {}): Promise<LegacyClient> {
  const client = new LegacyClient({ name: "legacy-test", version: "1.0.0" });
  await client.connect(new LegacyTransport(new URL(server.url!), { requestInit: { headers } }));
  closers.push(() => client.close());
  return client;
}

describe("a client of revision 2026-07-28 (MCP SDK 2.x)", () => {
  it("negotiates the modern era", async () => {
    const client = await modernClient();
    expect([client.getProtocolEra(), client.getNegotiatedProtocolVersion()]).toEqual(["modern", "2026-07-28"]);
  });

  it("lists the tools its user may see, with their schemas", async () => {
    const guest = await modernClient();
    const admin = await modernClient({ "x-role": "admin" });
    const names = async (client: ModernClient) => (await client.listTools()).tools.map((tool) => tool.name);
    expect(await names(guest)).toEqual([
      "get_weather",
      "forecast",
      "broken",
      "slow",
      "deploy",
      "catching_question",
      "named_question",
    ]);
    expect(await names(admin)).toContain("admin_report");
    expect((await guest.listTools()).tools[0]!.inputSchema).toMatchObject(CITY);
  });

  it("calls a tool", async () => {
    const client = await modernClient();
    expect(await client.callTool({ name: "get_weather", arguments: { city: "Oslo" } })).toMatchObject({
      content: [{ type: "text", text: "sunny in Oslo" }],
    });
  });

  it("gets a tool's failure as an error result, and an unknown tool as an invalid-params error", async () => {
    const client = await modernClient();
    const failed = await client.callTool({ name: "broken", arguments: {} });
    expect(failed).toMatchObject({
      isError: true,
      content: [{ type: "text", text: expect.stringContaining("the weather service is down") }],
    });
    await expect(client.callTool({ name: "admin_report", arguments: {} })).rejects.toThrow(
      /Unknown tool "admin_report"/,
    );
  });

  it("receives the tool's progress", async () => {
    const client = await modernClient();
    const seen: unknown[] = [];
    const result = await client.callTool(
      { name: "forecast", arguments: { city: "Oslo" } },
      { onprogress: (progress) => seen.push(progress) },
    );
    expect(result).toMatchObject({ content: [{ type: "text", text: "three sunny days in Oslo" }] });
    expect(seen).toEqual([1, 2, 3].map((day) => ({ progress: day, total: 3, message: `day ${day}` })));
  });

  it("cancels the tool when it gives up on the call", async () => {
    const client = await modernClient();
    runs.slowAborted = false;
    const controller = new AbortController();
    const call = client.callTool({ name: "slow", arguments: {} }, { signal: controller.signal });
    setTimeout(() => controller.abort(), 200);
    await expect(call).rejects.toThrow();
    for (let waited = 0; !runs.slowAborted && waited < 5_000; waited += 50) await sleep(50);
    expect(runs.slowAborted).toBe(true);
  });

  it("answers ctx.elicit and ctx.sample by multi-round-trip: the tool runs again with the answers", async () => {
    const client = await modernClient();
    runs.deploy = 0;
    runs.deployed = 0;
    const result = await client.callTool({ name: "deploy", arguments: { env: "staging" } });
    expect(result).toMatchObject({
      content: [{ type: "text", text: expect.stringMatching(/^deployed to staging: notes on/) }],
    });
    // Round 1 asks the user, round 2 the model, round 3 finishes: the part after the last question ran once.
    expect([runs.deploy, runs.deployed]).toEqual([3, 1]);
  });

  it("hands a declined elicitation to the tool as an answer", async () => {
    const client = await modernClient({}, { confirm: "decline" });
    expect(await client.callTool({ name: "deploy", arguments: { env: "prod" } })).toMatchObject({
      content: [{ type: "text", text: "not deployed (decline)" }],
    });
  });

  describe("a client that cannot answer (it declared no elicitation)", () => {
    async function muteClient(): Promise<ModernClient> {
      const client = new ModernClient({ name: "mute", version: "1.0.0" }, { versionNegotiation: { mode: "auto" } });
      await client.connect(new ModernTransport(new URL(server.url!)));
      closers.push(() => client.close());
      return client;
    }

    it("gets MCP's missing-capability error, naming what to declare, when the tool cannot do without the answer", async () => {
      const client = await muteClient();
      await expect(client.callTool({ name: "deploy", arguments: { env: "prod" } })).rejects.toMatchObject({
        code: -32021,
        message: expect.stringContaining("elicitation.form"),
        data: { requiredCapabilities: { elicitation: { form: {} } } },
      });
    });

    it("gets it with HTTP status 400", async () => {
      const response = await modernPost(
        server.url!,
        "tools/call",
        { name: "deploy", arguments: { env: "prod" } },
        {
          id: 7,
        },
      );
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ id: 7, error: { code: -32021 } });
    });

    it("lets a tool that catches the refusal go on without the answer", async () => {
      const client = await muteClient();
      runs.actedWithoutAnswer = 0;
      expect(await client.callTool({ name: "catching_question", arguments: {} })).toMatchObject({
        content: [{ type: "text", text: "acted without an answer" }],
      });
      expect(runs.actedWithoutAnswer).toBe(1);
    });
  });

  describe("the signed state a call waits with", () => {
    const answered = { "0": { action: "accept", content: { confirm: true } } };

    /** The first round of a deploy: the input_required result with its questions and state. */
    async function firstRound(env: string): Promise<{ requestState: string; inputRequests: Record<string, unknown> }> {
      const { result } = await modernCall(1, { name: "deploy", arguments: { env } });
      expect(result).toMatchObject({ resultType: "input_required" });
      return result as { requestState: string; inputRequests: Record<string, unknown> };
    }

    it("asks the form the tool gave, under a key the answer comes back with", async () => {
      expect((await firstRound("a")).inputRequests).toEqual({
        "0": {
          method: "elicitation/create",
          params: {
            mode: "form",
            message: "Deploy to a?",
            requestedSchema: { type: "object", properties: { confirm: { type: "boolean" } }, required: ["confirm"] },
          },
        },
      });
    });

    it("is refused for another call (other arguments)", async () => {
      const { requestState } = await firstRound("a");
      const { error } = await modernCall(2, {
        name: "deploy",
        arguments: { env: "b" },
        requestState,
        inputResponses: answered,
      });
      expect(error).toMatchObject({ code: -32602, message: expect.stringContaining("belongs to another request") });
    });

    it("is refused when altered", async () => {
      const { requestState } = await firstRound("a");
      const { error } = await modernCall(2, {
        name: "deploy",
        arguments: { env: "a" },
        requestState: `${requestState.slice(0, -2)}xx`,
        inputResponses: answered,
      });
      expect(error).toMatchObject({ code: -32602, message: "Invalid or expired requestState" });
    });

    it("lets the answer come back to another instance that has the same key", async () => {
      const key = "a shared secret of thirty-two bytes or more";
      const [first, second, stranger] = await Promise.all(
        ["same", "same", "other"].map((which) =>
          serveMcp(tools, { transport: "http", port: 0, requestStateKey: which === "same" ? key : `${key}!` }),
        ),
      );
      closers.push(
        () => first!.close(),
        () => second!.close(),
        () => stranger!.close(),
      );
      runs.deploy = 0;
      const { result } = await modernCall(1, { name: "deploy", arguments: { env: "qa" } }, first!.url);
      const { requestState } = result as { requestState: string };
      const declined = { "0": { action: "decline" } };
      const onSecond = await modernCall(
        2,
        { name: "deploy", arguments: { env: "qa" }, requestState, inputResponses: declined },
        second!.url,
      );
      expect(onSecond.result).toMatchObject({ content: [{ text: "not deployed (decline)" }] });
      expect(runs.deploy).toBe(2);
      const onStranger = await modernCall(
        2,
        { name: "deploy", arguments: { env: "qa" }, requestState, inputResponses: declined },
        stranger!.url,
      );
      expect(onStranger.error).toMatchObject({ code: -32602, message: "Invalid or expired requestState" });
    });

    it("needs a key long enough to sign with", async () => {
      await expect(serveMcp(tools, { transport: "http", port: 0, requestStateKey: "short" })).rejects.toThrow(
        /requestStateKey must be a string or bytes of 32 bytes or more \(got 5 bytes\)/,
      );
    });

    it("asks again when the answer does not fit the form (the tool never sees it)", async () => {
      runs.deployed = 0;
      const { requestState } = await firstRound("a");
      const { result } = await modernCall(2, {
        name: "deploy",
        arguments: { env: "a" },
        requestState,
        inputResponses: { "0": { action: "accept", content: { confirm: "yes" } } },
      });
      expect(result).toMatchObject({
        resultType: "input_required",
        inputRequests: { "0": { method: "elicitation/create" } },
      });
      expect(runs.deployed).toBe(0);
    });

    it("stops a round at its question: a tool that catches around ctx.elicit does not act before the answer", async () => {
      runs.actedWithoutAnswer = 0;
      const { result } = await modernCall(1, { name: "catching_question", arguments: {} });
      expect(result).toMatchObject({ resultType: "input_required" });
      const { requestState } = result as { requestState: string };
      const answered = await modernCall(2, {
        name: "catching_question",
        arguments: {},
        requestState,
        inputResponses: { "0": { action: "accept", content: { go: true } } },
      });
      expect(answered.result).toMatchObject({ content: [{ text: "answered accept" }] });
      expect(runs.actedWithoutAnswer).toBe(0);
    });

    it("names a question by its key when the tool gives one", async () => {
      const { result } = await modernCall(1, { name: "named_question", arguments: {} });
      expect(Object.keys((result as { inputRequests: object }).inputRequests)).toEqual(["user_name"]);
      const { requestState } = result as { requestState: string };
      const answered = await modernCall(2, {
        name: "named_question",
        arguments: {},
        requestState,
        inputResponses: { user_name: { action: "accept", content: { name: "Alice" } }, extra: { action: "decline" } },
      });
      expect(answered.result).toMatchObject({ content: [{ type: "text", text: "Hello, Alice!" }] });
    });
  });
});

/** A 2026-07-28 tools/call by hand, from a client that takes form elicitation. */
function modernCall(
  id: number,
  params: Record<string, unknown>,
  url = server.url!,
  headers: Record<string, string> = {},
): Promise<ModernAnswer> {
  return modernRequest(url, "tools/call", params, { id, headers, capabilities: { elicitation: { form: {} } } });
}

describe("the HTTP guarantees, for 2026-07-28 requests as for 2025 ones", () => {
  it("checks the token, the Host and the Origin before anything else", async () => {
    const guarded = await serveMcp(tools, { transport: "http", port: 0, token: "s3cret-token" });
    closers.push(() => guarded.close());
    const call = (headers: Record<string, string>) =>
      modernCall(1, { name: "get_weather", arguments: { city: "Oslo" } }, guarded.url, headers);
    expect((await call({})).error).toMatchObject({ message: expect.stringContaining("Unauthorized") });
    expect((await call({ authorization: "Bearer s3cret-token", origin: "https://evil.example" })).error).toMatchObject({
      message: expect.stringContaining('Origin "https://evil.example" is not allowed'),
    });
    expect((await call({ authorization: "Bearer s3cret-token" })).result).toMatchObject({
      content: [{ type: "text", text: "sunny in Oslo" }],
    });
  });

  it("shuts down gracefully: a call still running at the deadline is aborted and answered", async () => {
    const stopping = await serveMcp(tools, { transport: "http", port: 0, shutdownTimeout: 200 });
    runs.slowAborted = false;
    const call = modernCall(1, { name: "slow", arguments: {} }, stopping.url);
    await sleep(100);
    await stopping.close();
    expect((await call).result).toMatchObject({
      isError: true,
      content: [{ text: expect.stringContaining("The MCP server is shutting down") }],
    });
    expect(runs.slowAborted).toBe(true);
  });
});

describe("a client of the 2025 revisions (MCP SDK 1.x) on the same server", () => {
  it("lists and calls the same tools", async () => {
    const client = await legacyClient({ "x-role": "admin" });
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain("admin_report");
    expect(await client.callTool({ name: "get_weather", arguments: { city: "Pune" } })).toMatchObject({
      content: [{ type: "text", text: "sunny in Pune" }],
    });
  });

  it("answers ctx.elicit and ctx.sample over HTTP: the server asks on the call's stream, the answers come back", async () => {
    const client = new LegacyClient(
      { name: "legacy-asked", version: "1.0.0" },
      { capabilities: { elicitation: {}, sampling: {} } },
    );
    client.setRequestHandler(ElicitRequestSchema, async () => ({ action: "accept", content: { confirm: true } }));
    client.setRequestHandler(CreateMessageRequestSchema, async () => ({
      role: "assistant",
      content: { type: "text", text: "an HTTP note" },
      model: "test-model",
    }));
    await client.connect(new LegacyTransport(new URL(server.url!)));
    closers.push(() => client.close());
    runs.deploy = 0;
    expect(await client.callTool({ name: "deploy", arguments: { env: "web" } })).toMatchObject({
      content: [{ type: "text", text: "deployed to web: an HTTP note" }],
    });
    // One run: the session's requests are answered within the call, not by running it again.
    expect(runs.deploy).toBe(1);
  });

  it("tells the tool when the client declared no elicitation at initialize", async () => {
    const client = await legacyClient();
    const result = await client.callTool({ name: "deploy", arguments: { env: "prod" } });
    expect(result).toMatchObject({
      isError: true,
      content: [{ text: expect.stringContaining("does not take form elicitation") }],
    });
  });

  it("tells the tool, for a request without a session, that nobody can be asked there", async () => {
    const response = await fetch(server.url!, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "deploy", arguments: { env: "x" } },
      }),
    });
    expect(await response.text()).toContain("without a session this server instance opened");
  });
});

describe("a client of the 2025 revisions over stdio, where the session lets the server ask", () => {
  async function stdioSession(capabilities: Record<string, unknown>): Promise<LegacyClient> {
    const toServer = new PassThrough();
    const fromServer = new PassThrough();
    const served = await serveMcp(tools, { transport: "stdio", stdin: toServer, stdout: fromServer });
    const client = new LegacyClient({ name: "stdio-test", version: "1.0.0" }, { capabilities });
    client.setRequestHandler(ElicitRequestSchema, async () => ({ action: "accept", content: { confirm: true } }));
    if (capabilities.sampling !== undefined)
      client.setRequestHandler(CreateMessageRequestSchema, async () => ({
        role: "assistant",
        content: { type: "text", text: "a stdio note" },
        model: "test-model",
      }));
    // The SDK's stdio transport speaks the same lines either way round.
    await client.connect(new StdioServerTransport(fromServer, toServer));
    closers.push(async () => {
      await client.close();
      toServer.end();
      await served.close();
    });
    return client;
  }

  it("answers ctx.elicit and ctx.sample with requests to the client, in one run of the tool", async () => {
    const client = await stdioSession({ elicitation: { form: {} }, sampling: {} });
    runs.deploy = 0;
    expect(await client.callTool({ name: "deploy", arguments: { env: "edge" } })).toMatchObject({
      content: [{ type: "text", text: "deployed to edge: a stdio note" }],
    });
    expect(runs.deploy).toBe(1);
  });

  it("tells the tool when the client declared no sampling", async () => {
    const client = await stdioSession({ elicitation: {} });
    const result = await client.callTool({ name: "deploy", arguments: { env: "edge" } });
    expect(result).toMatchObject({
      isError: true,
      content: [{ text: expect.stringContaining("does not take sampling") }],
    });
  });
});

describe("a client of revision 2026-07-28 over stdio", () => {
  async function modernStdioSession(): Promise<ModernClient> {
    const toServer = new PassThrough();
    const fromServer = new PassThrough();
    const served = await serveMcp(tools, { transport: "stdio", stdin: toServer, stdout: fromServer });
    const client = new ModernClient(
      { name: "modern-stdio-test", version: "1.0.0" },
      { versionNegotiation: { mode: "auto" }, capabilities: { elicitation: { form: {} }, sampling: {} } },
    );
    client.setRequestHandler("elicitation/create", async () => ({ action: "accept", content: { confirm: true } }));
    client.setRequestHandler("sampling/createMessage", async () => ({
      role: "assistant",
      content: { type: "text", text: "a modern stdio note" },
      model: "test-model",
    }));
    await client.connect(new ModernStdioTransport(fromServer, toServer));
    closers.push(async () => {
      await client.close();
      toServer.end();
      await served.close();
    });
    return client;
  }

  it("negotiates the modern era, lists, calls and gets progress", async () => {
    const client = await modernStdioSession();
    expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual([
      "get_weather",
      "forecast",
      "broken",
      "slow",
      "deploy",
      "catching_question",
      "named_question",
    ]);
    const seen: unknown[] = [];
    const result = await client.callTool(
      { name: "forecast", arguments: { city: "Lima" } },
      { onprogress: (progress) => seen.push(progress) },
    );
    expect(result).toMatchObject({ content: [{ type: "text", text: "three sunny days in Lima" }] });
    expect(seen).toHaveLength(3);
  });

  it("answers ctx.elicit and ctx.sample by multi-round-trip on the same connection", async () => {
    const client = await modernStdioSession();
    runs.deploy = 0;
    expect(await client.callTool({ name: "deploy", arguments: { env: "edge" } })).toMatchObject({
      content: [{ type: "text", text: "deployed to edge: a modern stdio note" }],
    });
    expect(runs.deploy).toBe(3);
  });
});
