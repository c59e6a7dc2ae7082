/**
 * ToolnexusModule.forRoot({ mcp: { path } }): the streamable HTTP MCP endpoint mounted on the
 * Nest app's own Express adapter, answering the official MCP client.
 */
import "reflect-metadata";
import type { IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { Controller, Get, Inject, Injectable, Module, Scope, type INestApplication } from "@nestjs/common";
import { REQUEST } from "@nestjs/core";
import { Test } from "@nestjs/testing";
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from "@modelcontextprotocol/client";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { Ctx, Tool, type ToolCallContext, type ToolContext } from "toolnexus";
import { ToolnexusModule } from "toolnexus/nestjs";
import { BillingModule, CatalogModule, RecordingLogger } from "./fixtures";

@Injectable({ scope: Scope.REQUEST })
class WhoAmIService {
  constructor(@Inject(REQUEST) private readonly request: IncomingMessage) {}

  @Tool({ name: "whoami", description: "Who is calling, from the HTTP request", annotations: { readOnly: true } })
  whoami(@Ctx() ctx: ToolContext) {
    return {
      header: this.request.headers["x-user"],
      method: this.request.method,
      url: this.request.url,
      stateUser: ctx.state?.user,
    };
  }
}

@Injectable()
class ConfirmService {
  @Tool({ name: "confirm", description: "Asks the user to confirm" })
  async confirm(@Ctx() ctx: ToolCallContext) {
    const answer = await ctx.elicit({
      message: "Go ahead?",
      schema: { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] },
    });
    return answer.action === "accept" && answer.content?.ok === true ? "confirmed" : `not confirmed (${answer.action})`;
  }
}

@Controller("health")
class HealthController {
  @Get()
  health() {
    return { ok: true };
  }
}

@Module({ providers: [WhoAmIService, ConfirmService], controllers: [HealthController] })
class IdentityModule {}

describe("the MCP endpoint on the Nest HTTP adapter", () => {
  let app: INestApplication;
  let base: string;
  let logger: RecordingLogger;
  const clients: Client[] = [];
  const modernClients: ModernClient[] = [];

  beforeAll(async () => {
    logger = new RecordingLogger();
    const moduleRef = await Test.createTestingModule({
      imports: [
        ToolnexusModule.forRoot({
          prefix: true,
          mcp: { path: "/mcp", name: "shop-tools", state: (req) => ({ user: req.headers["x-user"] }) },
        }),
        CatalogModule,
        BillingModule,
        IdentityModule,
      ],
    })
      .setLogger(logger)
      .compile();
    app = moduleRef.createNestApplication();
    await app.listen(0, "127.0.0.1");
    base = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await Promise.all([...clients, ...modernClients].map((client) => client.close()));
    await app.close();
  });

  async function connect(user: string): Promise<Client> {
    const client = new Client({ name: "nest-test", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers: { "x-user": user } } }),
    );
    clients.push(client);
    return client;
  }

  it("lists every discovered tool to the official MCP client", async () => {
    const client = await connect("ada");
    expect(client.getServerVersion()?.name).toBe("shop-tools");
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      "billing_createInvoice",
      "catalog_findProduct",
      "catalog_list_products",
      "identity_confirm",
      "identity_whoami",
    ]);
    const find = tools.find((t) => t.name === "catalog_findProduct")!;
    expect(find.description).toBe("Find a product by SKU");
    expect(find.inputSchema).toMatchObject({
      type: "object",
      properties: { sku: { type: "string" } },
      required: ["sku"],
    });
    expect(logger.toolnexus("log")).toContain("MCP endpoint (streamable HTTP, stateless) at /mcp");
  });

  it("runs calls on the DI instances, with state from the request", async () => {
    const client = await connect("ada");
    const found = await client.callTool({ name: "catalog_findProduct", arguments: { sku: "TEA-02" } });
    expect(found.isError).toBe(false);
    expect(JSON.parse((found.content as Array<{ text: string }>)[0]!.text)).toEqual({
      sku: "TEA-02",
      name: "Darjeeling tea",
      price: 18,
    });

    const invoice = await client.callTool({ name: "billing_createInvoice", arguments: { sku: "TEA-01", quantity: 3 } });
    expect(JSON.parse((invoice.content as Array<{ text: string }>)[0]!.text)).toEqual({
      invoice: 1,
      total: 36,
      by: "ada",
    });
  });

  it("runs request-scoped tools with the HTTP request as REQUEST", async () => {
    const client = await connect("bob");
    const result = await client.callTool({ name: "identity_whoami", arguments: {} });
    expect(JSON.parse((result.content as Array<{ text: string }>)[0]!.text)).toEqual({
      header: "bob",
      method: "POST",
      url: "/mcp",
      stateUser: "bob",
    });
  });

  describe("to a client of revision 2026-07-28 (MCP SDK 2.x)", () => {
    async function connectModern(user: string): Promise<ModernClient> {
      const client = new ModernClient(
        { name: "nest-modern-test", version: "1.0.0" },
        { versionNegotiation: { mode: "auto" }, capabilities: { elicitation: { form: {} } } },
      );
      client.setRequestHandler("elicitation/create", async () => ({ action: "accept", content: { ok: true } }));
      await client.connect(
        new ModernTransport(new URL(`${base}/mcp`), { requestInit: { headers: { "x-user": user } } }),
      );
      modernClients.push(client);
      return client;
    }

    it("lists and calls the same tools in the modern era, request-scoped ones with the HTTP request", async () => {
      const client = await connectModern("cy");
      expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
      expect((await client.listTools()).tools.map((tool) => tool.name)).toContain("identity_whoami");
      const result = await client.callTool({ name: "identity_whoami", arguments: {} });
      expect(JSON.parse((result.content as Array<{ text: string }>)[0]!.text)).toEqual({
        header: "cy",
        method: "POST",
        url: "/mcp",
        stateUser: "cy",
      });
    });

    it("answers a tool's ctx.elicit by multi-round-trip", async () => {
      const client = await connectModern("cy");
      expect(await client.callTool({ name: "identity_confirm", arguments: {} })).toMatchObject({
        content: [{ type: "text", text: "confirmed" }],
      });
    });
  });

  it("a 2025-era client declaring elicitation answers a tool's ctx.elicit within the call", async () => {
    const client = new Client({ name: "nest-asked", version: "1.0.0" }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, async () => ({ action: "accept", content: { ok: true } }));
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
    clients.push(client);
    expect(await client.callTool({ name: "identity_confirm", arguments: {} })).toMatchObject({
      content: [{ type: "text", text: "confirmed" }],
    });
  });

  it("answers failures as tool errors", async () => {
    const client = await connect("ada");
    const missing = await client.callTool({ name: "catalog_findProduct", arguments: { sku: "NOPE" } });
    expect(missing.isError).toBe(true);
    expect((missing.content as Array<{ text: string }>)[0]!.text).toBe("No product with SKU NOPE");
  });

  it("leaves the app's own routes alone and refuses what a stateless endpoint does not serve", async () => {
    expect(await (await fetch(`${base}/health`)).json()).toEqual({ ok: true });
    const get = await fetch(`${base}/mcp`, { headers: { accept: "text/event-stream" } });
    expect(get.status).toBe(405);
    expect((await fetch(`${base}/nothing-here`)).status).toBe(404);
  });
});

describe("the mcp option without an HTTP application", () => {
  it("fails at startup saying it needs one", async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [ToolnexusModule.forRoot({ mcp: { path: "/mcp" } }), CatalogModule],
    })
      .setLogger(new RecordingLogger())
      .compile();
    await expect(moduleRef.init()).rejects.toThrow("the mcp option needs an HTTP application");
  });
});
