/**
 * A service class's resources, templates and prompts served over MCP to the official SDK
 * clients of both protocol eras: listed (paginated, with icons), read, got, completed, hidden
 * per user; logs from inside a call at the level the client asked for; subscribed resources
 * announced when they change.
 */
import "reflect-metadata";
import { PassThrough } from "node:stream";
import { setTimeout as sleep } from "node:timers/promises";
import {
  Client as ModernClient,
  LOG_LEVEL_META_KEY,
  StreamableHTTPClientTransport as ModernTransport,
} from "@modelcontextprotocol/client";
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as LegacyTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import {
  LoggingMessageNotificationSchema,
  ResourceUpdatedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { Ctx, Param, Prompt, Resource, ResourceTemplate, Tool, Toolkit, type ToolCallContext } from "toolnexus";
import { createMcpHttpHandler, serveMcp, type McpServerHandle } from "toolnexus/mcp";
import { z } from "zod";
import { eventually, modernRequest } from "./support";

interface Page {
  tools?: unknown[];
  resources?: unknown[];
  prompts?: unknown[];
  nextCursor?: string;
}

const PageSchema = z.object({}).passthrough();

const ICON = { src: "https://example.com/icon.png", mimeType: "image/png", sizes: ["48x48"] };

class Notes {
  @Resource("notes://index", { description: "Every note", mimeType: "text/markdown", icons: [ICON] })
  index() {
    return "# Notes";
  }

  @Resource("notes://private", { visible: (ctx) => ctx.state?.user === "ada" })
  secret() {
    return "ada's note";
  }

  @ResourceTemplate("notes://{id}", { complete: { id: ["1", "10", "2"] } })
  note(@Param("id", { integer: true, minimum: 1 }) id: number) {
    return `note ${id}`;
  }

  @Prompt({ description: "Summarize a note", icons: [ICON], complete: { style: ["brief", "bullet points"] } })
  summarize(@Param("id") id: string, @Param("style", { optional: true }) style?: string) {
    return `Summarize note ${id}${style ? ` as ${style}` : ""}.`;
  }

  @Tool({ description: "Reindexes the notes", icons: [ICON] })
  reindex(@Ctx() ctx: ToolCallContext) {
    ctx.log("debug", "looking");
    ctx.log("info", "reindexing", { notes: 3 });
    ctx.log("error", "one note was unreadable");
    return "done";
  }

  @Tool("Counts the notes")
  count() {
    return 3;
  }
}

const userOf = (req: { headers: Record<string, unknown> }) => ({ user: req.headers["x-user"] });

describe("resources and prompts over streamable HTTP", () => {
  let server: McpServerHandle;
  beforeAll(async () => {
    server = await serveMcp(new Toolkit([new Notes()]), {
      transport: "http",
      port: 0,
      pageSize: 1,
      icons: [ICON],
      state: userOf as never,
    });
  });
  afterAll(() => server.close());

  async function legacy(user = "bob") {
    const client = new LegacyClient({ name: "legacy", version: "1.0.0" });
    await client.connect(new LegacyTransport(new URL(server.url!), { requestInit: { headers: { "x-user": user } } }));
    return client;
  }

  async function modern(user = "bob") {
    const client = new ModernClient({ name: "modern", version: "1.0.0" }, { versionNegotiation: { mode: "auto" } });
    await client.connect(new ModernTransport(new URL(server.url!), { requestInit: { headers: { "x-user": user } } }));
    return client;
  }

  it("declares what it serves and its icons (2025 era)", async () => {
    const client = await legacy();
    expect(client.getServerCapabilities()).toMatchObject({
      tools: {},
      resources: { subscribe: true },
      prompts: {},
      completions: {},
      logging: {},
    });
    expect(client.getServerVersion()?.icons).toEqual([ICON]);
    await client.close();
  });

  it.each(["2025", "2026"])("pages through every list in a stable order, icons included (%s era)", async (era) => {
    const client = await legacy();
    // One page as the wire has it: the SDK 2.x client follows cursors itself.
    const pageOf = async (method: string, cursor?: string) => {
      const params = cursor === undefined ? {} : { cursor };
      if (era === "2025") return (await client.request({ method, params } as never, PageSchema)) as unknown as Page;
      const answer = await modernRequest(server.url!, method, params, { headers: { "x-user": "bob" } });
      if (answer.error !== undefined) throw Object.assign(new Error(answer.error.message), answer.error);
      return answer.result as Page;
    };
    const all = async (method: string) => {
      const items: unknown[] = [];
      let cursor: string | undefined;
      do {
        const page = await pageOf(method, cursor);
        const listed = (page.tools ?? page.resources ?? page.prompts)!;
        expect(listed.length).toBeLessThanOrEqual(1);
        items.push(...listed);
        cursor = page.nextCursor;
      } while (cursor !== undefined);
      return items;
    };
    expect(await all("tools/list")).toEqual([
      expect.objectContaining({ name: "reindex", icons: [ICON] }),
      expect.objectContaining({ name: "count" }),
    ]);
    // bob does not see the private note.
    expect(await all("resources/list")).toEqual([
      { uri: "notes://index", name: "index", description: "Every note", mimeType: "text/markdown", icons: [ICON] },
    ]);
    expect(await all("prompts/list")).toEqual([
      {
        name: "summarize",
        description: "Summarize a note",
        icons: [ICON],
        arguments: [
          { name: "id", required: true },
          { name: "style", required: false },
        ],
      },
    ]);
    await expect(pageOf("tools/list", "not-a-cursor")).rejects.toMatchObject({ code: -32602 });
    await client.close();
  });

  it.each(["2025", "2026"])("reads, gets and completes (%s era)", async (era) => {
    const client = (era === "2025" ? await legacy() : await modern()) as LegacyClient;
    expect((await client.listResourceTemplates()).resourceTemplates).toEqual([
      { uriTemplate: "notes://{id}", name: "note" },
    ]);
    expect((await client.readResource({ uri: "notes://7" })).contents).toEqual([
      { uri: "notes://7", mimeType: "text/plain", text: "note 7" },
    ]);
    expect((await client.readResource({ uri: "notes://index" })).contents).toEqual([
      { uri: "notes://index", mimeType: "text/markdown", text: "# Notes" },
    ]);
    // A variable that does not fit, and a URI only someone else may read: the client's error, naming the URI.
    await expect(client.readResource({ uri: "notes://0" })).rejects.toMatchObject({ code: -32602 });
    await expect(client.readResource({ uri: "notes://private" })).rejects.toMatchObject({
      code: -32602,
      data: { uri: "notes://private" },
    });
    expect((await client.getPrompt({ name: "summarize", arguments: { id: "7", style: "brief" } })).messages).toEqual([
      { role: "user", content: { type: "text", text: "Summarize note 7 as brief." } },
    ]);
    await expect(client.getPrompt({ name: "summarize", arguments: {} })).rejects.toMatchObject({ code: -32602 });
    expect(
      (
        await client.complete({
          ref: { type: "ref/prompt", name: "summarize" },
          argument: { name: "style", value: "b" },
        })
      ).completion,
    ).toEqual({ values: ["brief", "bullet points"], total: 2, hasMore: false });
    expect(
      (
        await client.complete({
          ref: { type: "ref/resource", uri: "notes://{id}" },
          argument: { name: "id", value: "1" },
        })
      ).completion.values,
    ).toEqual(["1", "10"]);
    await client.close();
  });

  it("shows a user the resources visible to them", async () => {
    const client = await legacy("ada");
    expect((await client.listResources({ cursor: (await client.listResources()).nextCursor })).resources).toEqual([
      expect.objectContaining({ uri: "notes://private" }),
    ]);
    expect((await client.readResource({ uri: "notes://private" })).contents).toMatchObject([{ text: "ada's note" }]);
    await client.close();
  });

  it("sends a tool's logs at or above the level a 2025 session set", async () => {
    const client = await legacy();
    const logs: unknown[] = [];
    client.setNotificationHandler(
      LoggingMessageNotificationSchema,
      (notification) => void logs.push(notification.params),
    );
    await client.setLoggingLevel("info");
    await client.callTool({ name: "reindex", arguments: {} });
    expect(logs).toEqual([
      { level: "info", logger: "reindex", data: { message: "reindexing", data: { notes: 3 } } },
      { level: "error", logger: "reindex", data: "one note was unreadable" },
    ]);
    await client.close();
  });

  it("sends a tool's logs at or above the level a 2026-07-28 request carries, and none without one", async () => {
    const client = await modern();
    const logs: unknown[] = [];
    client.setNotificationHandler("notifications/message", (notification) => void logs.push(notification.params));
    await client.callTool({ name: "reindex", arguments: {} });
    expect(logs).toEqual([]);
    await client.callTool({ name: "reindex", arguments: {}, _meta: { [LOG_LEVEL_META_KEY]: "error" } });
    expect(logs).toEqual([{ level: "error", logger: "reindex", data: "one note was unreadable" }]);
    await client.close();
  });
});

describe("resource subscriptions on a 2026-07-28 listen stream", () => {
  it("announces the resources the client listens for when they change", async () => {
    const toolkit = new Toolkit([new Notes()]);
    const server = await serveMcp(toolkit, { transport: "http", port: 0 });
    const client = new ModernClient({ name: "listener", version: "1.0.0" }, { versionNegotiation: { mode: "auto" } });
    const updates: string[] = [];
    client.setNotificationHandler("notifications/resources/updated", (notification) => {
      updates.push(notification.params.uri);
    });
    await client.connect(new ModernTransport(new URL(server.url!)));
    const subscription = await client.listen({ resourceSubscriptions: ["notes://index"] });
    toolkit.resourceUpdated("notes://index");
    toolkit.resourceUpdated("notes://7");
    await eventually("the update", async () => (updates.length > 0 ? updates : undefined));
    await sleep(50);
    expect(updates).toEqual(["notes://index"]);
    await subscription.close();
    await client.close();
    await server.close();
  });
});

describe("resource subscriptions over stdio", () => {
  it("announces the subscribed resources that change, until unsubscribed", async () => {
    const toolkit = new Toolkit([new Notes()]);
    const toServer = new PassThrough();
    const fromServer = new PassThrough();
    const server = await serveMcp(toolkit, { transport: "stdio", stdin: toServer, stdout: fromServer });
    const client = new LegacyClient({ name: "stdio", version: "1.0.0" });
    const updates: string[] = [];
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
      updates.push(notification.params.uri);
    });
    await client.connect(new StdioServerTransport(fromServer, toServer));
    await client.subscribeResource({ uri: "notes://index" });
    // The same resource spelled with an unreserved character percent-encoded: one subscription, one update.
    await client.subscribeResource({ uri: "notes://%69ndex" });
    toolkit.resourceUpdated("notes://index");
    toolkit.resourceUpdated("notes://7");
    await sleep(50);
    expect(updates).toEqual(["notes://index"]);
    await client.unsubscribeResource({ uri: "notes://index" });
    toolkit.resourceUpdated("notes://index");
    await sleep(50);
    expect(updates).toEqual(["notes://index"]);
    await client.close();
    await server.close();
  });

  it("refuses a subscription to a resource the caller cannot read, as it refuses reading it", async () => {
    const toServer = new PassThrough();
    const fromServer = new PassThrough();
    const server = await serveMcp(new Toolkit([new Notes()]), {
      transport: "stdio",
      stdin: toServer,
      stdout: fromServer,
    });
    const client = new LegacyClient({ name: "stdio", version: "1.0.0" });
    await client.connect(new StdioServerTransport(fromServer, toServer));
    for (const uri of ["notes://private", "memo://nowhere"]) {
      await expect(client.subscribeResource({ uri })).rejects.toMatchObject({ code: -32602, data: { uri } });
    }
    await client.close();
    await server.close();
  });
});

describe("a page size", () => {
  it.each([0, -1, 1.5, Number.NaN])(
    "of %p is refused when the server is set up, not at its first list",
    async (pageSize) => {
      const toolkit = new Toolkit([new Notes()]);
      const error = /pageSize must be a whole number of entries, 1 or more/;
      expect(() => createMcpHttpHandler(toolkit, { pageSize })).toThrow(error);
      await expect(serveMcp(toolkit, { transport: "http", port: 0, pageSize })).rejects.toThrow(error);
      await expect(
        serveMcp(toolkit, { transport: "stdio", stdin: new PassThrough(), stdout: new PassThrough(), pageSize }),
      ).rejects.toThrow(error);
    },
  );
});
