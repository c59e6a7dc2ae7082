/**
 * A prompt or resource asks the user (`ctx.elicit`) or the client's model (`ctx.sample`) as a
 * tool does: by multi-round-trip for clients of revision 2026-07-28 (`prompts/get` and
 * `resources/read` answer `input_required`, then the result once the answers come back), by
 * requests on the session for 2025-era clients. What a client cannot answer, and the body does
 * not do without, is MCP's missing-capability error in 2026-07-28.
 */
import "reflect-metadata";
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from "@modelcontextprotocol/client";
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as LegacyTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CreateMessageRequestSchema, ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { Ctx, Prompt, Resource, Toolkit, type ToolCallContext } from "toolnexus";
import { serveMcp, type McpServerHandle } from "toolnexus/mcp";
import { modernPost, modernRequest } from "./support";

const TEAM_FORM = {
  type: "object" as const,
  properties: { team: { type: "string" as const } },
  required: ["team"],
};

/** How often each body ran, across rounds. */
const runs = { briefing: 0, summary: 0 };

class Newsroom {
  @Prompt({ description: "A briefing for the reader's team" })
  async briefing(@Ctx() ctx: ToolCallContext) {
    runs.briefing++;
    const answer = await ctx.elicit({ key: "team", message: "Which team is the briefing for?", schema: TEAM_FORM });
    return answer.action === "accept" ? `Brief the ${String(answer.content?.team)} team.` : "Brief everyone.";
  }

  @Resource("news://summary", { mimeType: "text/plain" })
  async summary(@Ctx() ctx: ToolCallContext) {
    runs.summary++;
    const result = await ctx.sample({ messages: "Summarize today's news", maxTokens: 30 });
    return `Summary: ${String((result.content as { text?: unknown }).text)}`;
  }
}

let server: McpServerHandle;
const closers: Array<() => Promise<void>> = [];

beforeAll(async () => {
  server = await serveMcp(new Toolkit([new Newsroom()]), { transport: "http", port: 0 });
});

afterAll(async () => {
  await Promise.all(closers.map((close) => close()));
  await server.close();
});

const answers = {
  elicit: () => ({ action: "accept" as const, content: { team: "core" } }),
  sample: () => ({ role: "assistant" as const, content: { type: "text" as const, text: "all quiet" }, model: "m" }),
};

describe("a client of revision 2026-07-28", () => {
  async function modernClient(capabilities: {
    elicitation?: { form: Record<string, never> };
    sampling?: Record<string, never>;
  }): Promise<ModernClient> {
    const client = new ModernClient(
      { name: "reader", version: "1.0.0" },
      { versionNegotiation: { mode: "auto" }, capabilities },
    );
    if (capabilities.elicitation) client.setRequestHandler("elicitation/create", async () => answers.elicit());
    if (capabilities.sampling) client.setRequestHandler("sampling/createMessage", async () => answers.sample());
    await client.connect(new ModernTransport(new URL(server.url!)));
    closers.push(() => client.close());
    return client;
  }

  it("gets a prompt that asks the user once it answered: the prompt runs again with the answer", async () => {
    const client = await modernClient({ elicitation: { form: {} } });
    runs.briefing = 0;
    expect((await client.getPrompt({ name: "briefing" })).messages).toEqual([
      { role: "user", content: { type: "text", text: "Brief the core team." } },
    ]);
    expect(runs.briefing).toBe(2);
  });

  it("reads a resource that asks the client's model", async () => {
    const client = await modernClient({ sampling: {} });
    expect((await client.readResource({ uri: "news://summary" })).contents).toEqual([
      { uri: "news://summary", mimeType: "text/plain", text: "Summary: all quiet" },
    ]);
  });

  it("is asked the prompt's question under its key, with the form, and a signed state to come back with", async () => {
    const { result } = await modernRequest(
      server.url!,
      "prompts/get",
      { name: "briefing" },
      {
        capabilities: { elicitation: { form: {} } },
      },
    );
    expect(result).toMatchObject({
      resultType: "input_required",
      inputRequests: {
        team: {
          method: "elicitation/create",
          params: { message: "Which team is the briefing for?", requestedSchema: TEAM_FORM },
        },
      },
      requestState: expect.any(String),
    });
    const { result: done } = await modernRequest(
      server.url!,
      "prompts/get",
      {
        name: "briefing",
        requestState: result!.requestState,
        inputResponses: { team: { action: "accept", content: { team: "night" } } },
      },
      { capabilities: { elicitation: { form: {} } } },
    );
    expect(done).toMatchObject({ messages: [{ role: "user", content: { text: "Brief the night team." } }] });
  });

  it("cannot carry one request's state to another (a resource's to a prompt)", async () => {
    const { result } = await modernRequest(
      server.url!,
      "resources/read",
      { uri: "news://summary" },
      {
        capabilities: { sampling: {} },
        headers: { "mcp-name": "news://summary" },
      },
    );
    expect(result).toMatchObject({ resultType: "input_required" });
    const { error } = await modernRequest(
      server.url!,
      "prompts/get",
      { name: "briefing", requestState: result!.requestState, inputResponses: {} },
      { capabilities: { elicitation: { form: {} } } },
    );
    expect(error).toMatchObject({ code: -32602, message: expect.stringContaining("belongs to another request") });
  });

  it.each([
    ["prompts/get", { name: "briefing" }, { elicitation: { form: {} } }],
    ["resources/read", { uri: "news://summary" }, { sampling: {} }],
  ])(
    "answers %s from a client that cannot answer with MCP's missing-capability error (HTTP 400)",
    async (method, params, required) => {
      const uri = (params as { uri?: string }).uri;
      const response = await modernPost(server.url!, method, params, {
        id: 3,
        headers: uri !== undefined ? { "mcp-name": uri } : {},
      });
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({
        id: 3,
        error: { code: -32021, data: { requiredCapabilities: required } },
      });
    },
  );
});

describe("a client of the 2025 revisions", () => {
  it("is asked on its session, and the prompt and resource run once", async () => {
    const client = new LegacyClient(
      { name: "reader", version: "1.0.0" },
      { capabilities: { elicitation: {}, sampling: {} } },
    );
    client.setRequestHandler(ElicitRequestSchema, async () => answers.elicit());
    client.setRequestHandler(CreateMessageRequestSchema, async () => answers.sample());
    await client.connect(new LegacyTransport(new URL(server.url!)));
    closers.push(() => client.close());
    runs.briefing = 0;
    runs.summary = 0;
    expect((await client.getPrompt({ name: "briefing" })).messages).toEqual([
      { role: "user", content: { type: "text", text: "Brief the core team." } },
    ]);
    expect((await client.readResource({ uri: "news://summary" })).contents).toMatchObject([
      { text: "Summary: all quiet" },
    ]);
    expect(runs).toEqual({ briefing: 1, summary: 1 });
  });

  it("gets the body's failure, saying why, when it declared no elicitation", async () => {
    const client = new LegacyClient({ name: "mute", version: "1.0.0" });
    await client.connect(new LegacyTransport(new URL(server.url!)));
    closers.push(() => client.close());
    await expect(client.getPrompt({ name: "briefing" })).rejects.toThrow(/does not take form elicitation/);
  });
});
