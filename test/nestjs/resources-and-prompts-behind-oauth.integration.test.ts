/**
 * A decorated NestJS provider serves a tool, a resource template and a prompt behind OAuth to
 * the official SDK client (its client-credentials flow against a real authorization server):
 * the provider's guard and interceptor apply to resource reads and prompt gets as to tool
 * calls, the caller's token is in ctx.state.auth, and a resource needing a scope the token
 * lacks is refused 403 with the scope to ask for.
 */
import "reflect-metadata";
import {
  Injectable,
  Module,
  UseGuards,
  UseInterceptors,
  type CallHandler,
  type CanActivate,
  type ExecutionContext,
  type INestApplication,
  type NestInterceptor,
} from "@nestjs/common";
import { Test } from "@nestjs/testing";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ClientCredentialsProvider } from "@modelcontextprotocol/sdk/client/auth-extensions.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { map } from "rxjs";
import { Ctx, Param, Prompt, ResourceTemplate, Tool, type ToolContext } from "toolnexus";
import type { McpAuthInfo } from "toolnexus/mcp";
import { ToolnexusModule } from "toolnexus/nestjs";
import { textOf } from "../mcp/support";
import { onFreePort, post, startAuthorizationServer, type AuthorizationServer } from "../mcp/auth/support";

const seen: string[] = [];

/** Runs for every tool call, resource read and prompt get of the provider, telling them apart by handler. */
@Injectable()
class AuditGuard implements CanActivate {
  canActivate(context: ExecutionContext) {
    seen.push(`${context.getType()}:${context.getHandler().name}`);
    return true;
  }
}

@Injectable()
class Shouting implements NestInterceptor {
  intercept(_context: ExecutionContext, next: CallHandler) {
    return next.handle().pipe(map((value: unknown) => (typeof value === "string" ? value.toUpperCase() : value)));
  }
}

@Injectable()
@UseGuards(AuditGuard)
class DocsService {
  @Tool("Searches the docs")
  search(@Param("query") query: string, @Ctx() ctx: ToolContext) {
    return `results for ${query}, asked by ${(ctx.state?.auth as McpAuthInfo | undefined)?.clientId}`;
  }

  @ResourceTemplate("docs://pages/{slug}", { mimeType: "text/plain", complete: { slug: ["intro", "install"] } })
  @UseInterceptors(Shouting)
  page(@Param("slug") slug: string) {
    return `page ${slug}`;
  }

  @ResourceTemplate("docs://drafts/{slug}", { scopes: ["docs:write"] })
  draft(@Param("slug") slug: string) {
    return `draft ${slug}`;
  }

  @Prompt({ description: "Explains a page" })
  explain(@Param("slug") slug: string, @Ctx() ctx: ToolContext) {
    const auth = ctx.state?.auth as McpAuthInfo | undefined;
    return `Explain ${slug} to ${auth?.clientId} (scopes: ${auth?.scopes.join(" ")}).`;
  }
}

@Module({ providers: [DocsService] })
class DocsModule {}

const agent = {
  client_id: "docs-agent",
  client_secret: "docs-agent-secret-0123456789abcdef",
  scope: "docs:read docs:write",
};

describe("a NestJS provider's tool, resource template and prompt behind OAuth", () => {
  let as: AuthorizationServer;
  let app: INestApplication;
  let resource: string;
  let client: Client;
  let provider: ClientCredentialsProvider;

  beforeAll(async () => {
    as = await startAuthorizationServer({ clients: [agent], resources: { "/mcp": { scope: "docs:read docs:write" } } });
    app = await onFreePort(async (port) => {
      resource = `http://127.0.0.1:${port}/mcp`;
      const moduleRef = await Test.createTestingModule({
        imports: [
          ToolnexusModule.forRoot({ mcp: { path: "/mcp", auth: { issuer: as.issuer, resource } } }),
          DocsModule,
        ],
      }).compile();
      const made = moduleRef.createNestApplication();
      made.useLogger(false);
      try {
        await made.listen(port, "127.0.0.1");
      } catch (error) {
        await made.close().catch(() => {});
        throw error;
      }
      return made;
    });
    provider = new ClientCredentialsProvider({
      clientId: agent.client_id,
      clientSecret: agent.client_secret,
      scope: "docs:read",
      expectedIssuer: as.issuer,
    });
    client = new Client({ name: "docs-client", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(resource), { authProvider: provider }));
  });
  afterAll(async () => {
    await client?.close();
    await app?.close();
    await as?.close();
  });

  it("lists the three, each discovered on the provider", async () => {
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["search"]);
    expect((await client.listResourceTemplates()).resourceTemplates.map((template) => template.uriTemplate)).toEqual([
      "docs://pages/{slug}",
      "docs://drafts/{slug}",
    ]);
    expect((await client.listPrompts()).prompts).toEqual([
      { name: "explain", description: "Explains a page", arguments: [{ name: "slug", required: true }] },
    ]);
  });

  it("runs each through the provider's guard and interceptors, with the caller's token in ctx.state.auth", async () => {
    seen.length = 0;
    expect(textOf(await client.callTool({ name: "search", arguments: { query: "setup" } }))).toBe(
      "results for setup, asked by docs-agent",
    );
    expect((await client.readResource({ uri: "docs://pages/intro" })).contents).toEqual([
      { uri: "docs://pages/intro", mimeType: "text/plain", text: "PAGE INTRO" },
    ]);
    expect((await client.getPrompt({ name: "explain", arguments: { slug: "install" } })).messages).toEqual([
      { role: "user", content: { type: "text", text: "Explain install to docs-agent (scopes: docs:read)." } },
    ]);
    expect(seen).toEqual(["toolnexus:search", "toolnexus:page", "toolnexus:explain"]);
    expect(
      (
        await client.complete({
          ref: { type: "ref/resource", uri: "docs://pages/{slug}" },
          argument: { name: "slug", value: "in" },
        })
      ).completion.values,
    ).toEqual(["intro", "install"]);
  });

  it("refuses a resource whose scope the token lacks 403, naming the scope to ask for", async () => {
    const refused = await post(
      resource,
      { jsonrpc: "2.0", id: 1, method: "resources/read", params: { uri: "docs://drafts/plan" } },
      { authorization: `Bearer ${provider.tokens()!.access_token}`, "mcp-protocol-version": "2025-06-18" },
    );
    expect(refused.status).toBe(403);
    expect(refused.headers.get("www-authenticate")).toContain('error="insufficient_scope", scope="docs:write"');
  });
});
