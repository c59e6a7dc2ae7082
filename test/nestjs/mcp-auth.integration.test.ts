/**
 * ToolnexusModule.forRoot({ mcp: { path, auth } }) on Express and on Fastify, behind a global
 * prefix and a global guard: the protected-resource metadata is served at the well-known path
 * of `auth.resource` on the adapter itself (outside the prefix and the guards), the endpoint
 * answers 401 with the challenge, and the official SDK client's OAuth flow (oidc-provider, the
 * client credentials grant) reaches a provider's tool, whose ctx.state has the caller's token
 * (`auth`) beside Nest's request.
 */
import "reflect-metadata";
import { Injectable, Module, type CanActivate, type ExecutionContext, type INestApplication } from "@nestjs/common";
import { APP_GUARD } from "@nestjs/core";
import { FastifyAdapter } from "@nestjs/platform-fastify";
import { Test } from "@nestjs/testing";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ClientCredentialsProvider } from "@modelcontextprotocol/sdk/client/auth-extensions.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Ctx, Tool, type ToolContext } from "toolnexus";
import type { McpAuthInfo } from "toolnexus/mcp";
import { ToolnexusModule } from "toolnexus/nestjs";
import { INITIALIZE, textOf } from "../mcp/support";
import { onFreePort, post, startAuthorizationServer, type AuthorizationServer } from "../mcp/auth/support";

/** Global: every HTTP request needs an x-tenant header (the MCP endpoint's too; tool calls pass). */
@Injectable()
class TenantGuard implements CanActivate {
  canActivate(context: ExecutionContext) {
    if (context.getType() !== "http") return true;
    const request = context.switchToHttp().getRequest<{ headers: Record<string, string | undefined> }>();
    return request.headers["x-tenant"] === "acme";
  }
}

@Injectable()
class AccountService {
  @Tool("Who is calling")
  whoami(@Ctx() ctx: ToolContext) {
    const auth = ctx.state?.auth as McpAuthInfo | undefined;
    return { clientId: auth?.clientId, scopes: auth?.scopes, hasRequest: ctx.state?.request !== undefined };
  }

  @Tool({ description: "Closes an account", scopes: ["accounts:write"] })
  close(accountId: string) {
    return `closed ${accountId}`;
  }
}

@Module({ providers: [AccountService, { provide: APP_GUARD, useClass: TenantGuard }] })
class AccountsModule {}

const agent = {
  client_id: "nest-agent",
  client_secret: "nest-agent-secret-0123456789abcdef",
  scope: "accounts:read accounts:write",
};

describe.each(["express", "fastify"] as const)("the MCP endpoint with auth on %s", (adapter) => {
  let as: AuthorizationServer;
  let app: INestApplication;
  let resource: string;
  let metadataUrl: string;

  beforeAll(async () => {
    as = await startAuthorizationServer({
      clients: [agent],
      resources: { "/api/mcp": { scope: "accounts:read accounts:write" } },
    });
    app = await onFreePort(async (port) => {
      resource = `http://127.0.0.1:${port}/api/mcp`;
      metadataUrl = `http://127.0.0.1:${port}/.well-known/oauth-protected-resource/api/mcp`;
      const moduleRef = await Test.createTestingModule({
        imports: [
          ToolnexusModule.forRoot({
            mcp: { path: "/mcp", auth: { issuer: as.issuer, resource, scopesSupported: ["accounts:read"] } },
          }),
          AccountsModule,
        ],
      }).compile();
      const made =
        adapter === "fastify"
          ? moduleRef.createNestApplication(new FastifyAdapter())
          : moduleRef.createNestApplication();
      made.useLogger(false);
      made.setGlobalPrefix("api");
      try {
        await made.listen(port, "127.0.0.1");
      } catch (error) {
        await made.close().catch(() => {});
        throw error;
      }
      return made;
    });
  });
  afterAll(async () => {
    await app?.close();
    await as?.close();
  });

  it("serves the metadata at the resource's well-known path, outside the prefix and the global guard", async () => {
    const response = await fetch(metadataUrl);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      resource,
      authorization_servers: [as.issuer],
      scopes_supported: ["accounts:read"],
      bearer_methods_supported: ["header"],
    });
  });

  it("answers a request without a token 401 with the challenge", async () => {
    const response = await post(resource, JSON.parse(INITIALIZE), { "x-tenant": "acme" });
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toBe(`Bearer resource_metadata="${metadataUrl}"`);
  });

  it("lets the SDK's OAuth flow in; the tool reads ctx.state.auth beside Nest's request; scopes step up", async () => {
    const provider = new ClientCredentialsProvider({
      clientId: agent.client_id,
      clientSecret: agent.client_secret,
      scope: "accounts:read",
      expectedIssuer: as.issuer,
    });
    const client = new Client({ name: "nest-oauth-test", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(resource), {
        authProvider: provider,
        requestInit: { headers: { "x-tenant": "acme" } },
      }),
    );
    try {
      const who = JSON.parse(textOf(await client.callTool({ name: "whoami", arguments: {} })));
      expect(who).toEqual({ clientId: agent.client_id, scopes: ["accounts:read"], hasRequest: true });
      const token = provider.tokens()!.access_token;
      const refused = await post(
        resource,
        { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "close", arguments: { accountId: "a-1" } } },
        { authorization: `Bearer ${token}`, "x-tenant": "acme", "mcp-protocol-version": "2025-06-18" },
      );
      expect(refused.status).toBe(403);
      expect(refused.headers.get("www-authenticate")).toContain('error="insufficient_scope", scope="accounts:write"');
    } finally {
      await client.close();
    }
  });
});
