/**
 * serveMcp with `auth`: an OAuth 2.1 resource server in front of the MCP endpoint, against a
 * real authorization server (oidc-provider, client credentials grant, RFC 8707 resource
 * indicators, JWT access tokens), over real HTTP on 127.0.0.1. The official SDK clients of both
 * eras run their own OAuth flow (the 401 challenge, the protected-resource metadata, the
 * authorization server's metadata, the token request, the 403 step-up).
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ClientCredentialsProvider } from "@modelcontextprotocol/sdk/client/auth-extensions.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  Client as ModernClient,
  ClientCredentialsProvider as ModernClientCredentialsProvider,
  StreamableHTTPClientTransport as ModernTransport,
} from "@modelcontextprotocol/client";
import { defineTool, Toolkit, type ToolContext } from "../../../src";
import { serveMcp, type McpAuthInfo, type McpAuthOptions, type McpServerHandle } from "../../../src/mcp";
import { INITIALIZE, textOf } from "../support";
import {
  modernBody,
  modernHeaders,
  now,
  onFreePort,
  post,
  signedToken,
  startAuthorizationServer,
  unsecuredToken,
  type AuthorizationServer,
  type ClientRegistration,
} from "./support";

const agent: ClientRegistration = {
  client_id: "billing-agent",
  client_secret: "billing-agent-secret-0123456789abcdef",
  scope: "tools:read invoices:write",
};
const reader: ClientRegistration = {
  client_id: "report-reader",
  client_secret: "report-reader-secret-0123456789abcdef",
  scope: "tools:read",
};

const authOf = (ctx: ToolContext | undefined) => ctx?.state?.auth as McpAuthInfo | undefined;

/** What the tools saw of the caller, per call. */
const seen: Array<{ tool: string; auth: McpAuthInfo | undefined; tenant: unknown }> = [];
const toolkit = new Toolkit([
  defineTool({
    name: "whoami",
    description: "Who is calling",
    execute: (_args, ctx) => ({ auth: authOf(ctx), tenant: ctx?.state?.tenant }),
  }),
  defineTool({
    name: "list_invoices",
    description: "Lists invoices",
    execute: () => ["inv-1", "inv-2"],
  }),
  defineTool({
    name: "void_invoice",
    description: "Voids an invoice",
    inputSchema: { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
    scopes: ["invoices:write"],
    execute: ({ id }, ctx) => {
      seen.push({ tool: "void_invoice", auth: authOf(ctx), tenant: ctx?.state?.tenant });
      return `voided ${String(id)}`;
    },
  }),
  defineTool({
    name: "admin_console",
    description: "Only for administrators",
    scopes: ["admin"],
    visible: (ctx) => authOf(ctx)?.scopes.includes("admin") === true,
    execute: () => "admin",
  }),
  defineTool({
    name: "agent_only",
    description: "Only the billing agent's client may run it",
    authorize: (ctx) => authOf(ctx)?.clientId === agent.client_id,
    execute: () => "ran for the agent",
  }),
]);

let as: AuthorizationServer;
let otherAs: AuthorizationServer;
let server: McpServerHandle;
let port: number;
let resource: string;
let otherResource: string;
let metadataUrl: string;
let auth: McpAuthOptions;

beforeAll(async () => {
  // This MCP server at /mcp, and another API (/other-api) the same server issues tokens for.
  const resources = {
    "/mcp": { scope: "tools:read invoices:write" },
    "/other-api": { scope: "tools:read invoices:write" },
  };
  [as, otherAs] = await Promise.all([
    startAuthorizationServer({ clients: [agent, reader], resources }),
    startAuthorizationServer({ clients: [agent], resources }),
  ]);
  server = await onFreePort((free) => {
    port = free;
    resource = `http://127.0.0.1:${port}/mcp`;
    otherResource = `http://127.0.0.1:${port}/other-api`;
    metadataUrl = `http://127.0.0.1:${port}/.well-known/oauth-protected-resource/mcp`;
    auth = {
      issuer: as.issuer,
      resource,
      // What a client asks for at first; invoices:write is asked for when a tool needs it (step-up).
      scopesSupported: ["tools:read"],
      resourceName: "Invoices",
      resourceDocumentation: "https://docs.example.com/invoices-mcp",
    };
    return serveMcp(toolkit, { transport: "http", port, auth, state: () => ({ tenant: "acme" }) });
  });
});

afterAll(async () => {
  await server?.close();
  await Promise.all([as?.close(), otherAs?.close()]);
});

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const call = (id: number, name: string, args: Record<string, unknown> = {}) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name, arguments: args },
});
const legacy = { "mcp-protocol-version": "2025-06-18" };

/** The response says nothing of the token: not the token, not its signature, not one of these claim values. */
function expectNothingOf(
  response: { text: string; headers: Headers },
  token: string,
  claimValues: readonly string[] = [],
): void {
  const said = `${response.text}\n${[...response.headers].map(([name, value]) => `${name}: ${value}`).join("\n")}`;
  expect(said).not.toContain(token);
  for (const part of token.split(".").filter((piece) => piece.length > 8)) expect(said).not.toContain(part);
  for (const value of claimValues) expect(said).not.toContain(value);
}

/** The payload of a JWT, decoded (no check): what the response must not echo. */
function claimsOf(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString("utf8")) as Record<string, unknown>;
}

describe("the protected-resource metadata (RFC 9728)", () => {
  it("is served at the well-known path plus the resource's path, to GET, for any origin", async () => {
    const response = await fetch(metadataUrl, { headers: { origin: "https://inspector.example.com" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(await response.json()).toEqual({
      resource,
      authorization_servers: [as.issuer],
      scopes_supported: ["tools:read"],
      bearer_methods_supported: ["header"],
      resource_name: "Invoices",
      resource_documentation: "https://docs.example.com/invoices-mcp",
    });
  });

  it("is GET only, and the bare well-known path is not it when the resource has a path", async () => {
    const postResponse = await fetch(metadataUrl, { method: "POST", body: "{}" });
    expect(postResponse.status).toBe(405);
    expect(postResponse.headers.get("allow")).toBe("GET");
    const bare = await fetch(`http://127.0.0.1:${port}/.well-known/oauth-protected-resource`);
    expect(bare.status).toBe(404);
  });
});

describe("requests without a valid access token: 401", () => {
  it("no token: a challenge naming the metadata, no error code", async () => {
    for (const response of [
      await post(resource, JSON.parse(INITIALIZE)),
      await post(resource, JSON.parse(INITIALIZE), { authorization: "Basic dXNlcjpwYXNz" }),
    ]) {
      expect(response.status).toBe(401);
      expect(response.headers.get("www-authenticate")).toBe(`Bearer resource_metadata="${metadataUrl}"`);
      expect(response.json()).toMatchObject({ jsonrpc: "2.0", id: null, error: { message: expect.any(String) } });
    }
    // Any method: the token is checked before anything else.
    expect((await fetch(resource)).status).toBe(401);
  });

  it("a token for another resource (audience), from oidc-provider itself", async () => {
    const token = await as.token(agent, { resource: otherResource });
    expect(claimsOf(token).aud).toBe(otherResource);
    const response = await post(resource, JSON.parse(INITIALIZE), bearer(token));
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toBe(
      `Bearer error="invalid_token", error_description="the access token was not issued for this server", ` +
        `resource_metadata="${metadataUrl}"`,
    );
    expectNothingOf(response, token, [otherResource, String(claimsOf(token).jti)]);
  });

  it("a token of another issuer: a second oidc-provider's, and one signed with the trusted key but another iss", async () => {
    const foreign = await otherAs.token(agent, { resource });
    const forged = await signedToken(
      { iss: otherAs.issuer, aud: resource, sub: "mallory-subject", exp: now() + 300, iat: now() },
      { key: as.privateKey, kid: as.kid },
    );
    for (const token of [foreign, forged]) {
      const response = await post(resource, JSON.parse(INITIALIZE), bearer(token));
      expect(response.status).toBe(401);
      expect(response.headers.get("www-authenticate")).toContain('error="invalid_token"');
      expectNothingOf(response, token, [otherAs.issuer, "mallory-subject", String(claimsOf(token).jti)]);
    }
  });

  it("expired beyond the clock tolerance (30 s by default); within it, accepted", async () => {
    const claims = { iss: as.issuer, aud: resource, sub: "expired-subject", client_id: "expired-client" };
    const expired = await signedToken(
      { ...claims, exp: now() - 120, iat: now() - 720 },
      {
        key: as.privateKey,
        kid: as.kid,
      },
    );
    const response = await post(resource, JSON.parse(INITIALIZE), bearer(expired));
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toBe(
      `Bearer error="invalid_token", error_description="the access token has expired", ` +
        `resource_metadata="${metadataUrl}"`,
    );
    expectNothingOf(response, expired, ["expired-subject", "expired-client"]);

    const justExpired = await signedToken(
      { ...claims, exp: now() - 10, iat: now() - 600 },
      {
        key: as.privateKey,
        kid: as.kid,
      },
    );
    expect((await post(resource, JSON.parse(INITIALIZE), bearer(justExpired))).status).toBe(200);

    const withoutExp = await signedToken({ ...claims, iat: now() }, { key: as.privateKey, kid: as.kid });
    expect((await post(resource, JSON.parse(INITIALIZE), bearer(withoutExp))).status).toBe(401);
  });

  it("malformed, unsigned (alg none), HMAC-signed and signed by an unknown key", async () => {
    const claims = { iss: as.issuer, aud: resource, sub: "attacker-subject", exp: now() + 300, scope: "admin" };
    const tokens = [
      "not-a-jwt",
      "eyJhbGciOiJSUzI1NiJ9.bm90IGpzb24.c2lnbmF0dXJl",
      unsecuredToken(claims),
      await signedToken(claims, { key: new TextEncoder().encode("a-shared-secret-of-32-bytes-long!"), alg: "HS256" }),
      await signedToken(claims, { kid: as.kid }), // a key nobody published, under the real key's id
      await signedToken(claims), // no kid at all
    ];
    for (const token of tokens) {
      const response = await post(resource, JSON.parse(INITIALIZE), bearer(token));
      expect({ token, status: response.status }).toEqual({ token, status: 401 });
      expect(response.headers.get("www-authenticate")).toMatch(
        /^Bearer error="invalid_token", error_description="the access token is (invalid|malformed)"/,
      );
      expectNothingOf(response, token, ["attacker-subject"]);
    }
    // A header that is no bearer token at all (a space inside): malformed, and not echoed.
    const spaced = await post(resource, JSON.parse(INITIALIZE), { authorization: "Bearer two words" });
    expect(spaced.status).toBe(401);
    expect(spaced.text).not.toContain("two words");
  });
});

describe("with a valid access token", () => {
  it("the caller's claims reach every call as ctx.state.auth, merged with the state option's, never the token", async () => {
    const token = await as.token(agent, { resource, scope: "tools:read" });
    const init = await post(resource, JSON.parse(INITIALIZE), bearer(token));
    expect(init.status).toBe(200);
    const response = await post(resource, call(2, "whoami"), { ...bearer(token), ...legacy });
    expect(response.status).toBe(200);
    const { auth: who, tenant } = JSON.parse(textOf((response.json() as { result: unknown }).result)) as {
      auth: McpAuthInfo;
      tenant: string;
    };
    expect(tenant).toBe("acme");
    const claims = claimsOf(token);
    expect(who).toEqual({
      subject: agent.client_id,
      clientId: agent.client_id,
      scopes: ["tools:read"],
      issuer: as.issuer,
      audience: [resource],
      expiresAt: claims.exp,
      claims,
    });
    expect(JSON.stringify(who)).not.toContain(token.split(".")[2]);
  });

  it("visible(ctx) and authorize(ctx, args) read ctx.state.auth", async () => {
    const agentToken = await as.token(agent, { resource, scope: "tools:read" });
    const readerToken = await as.token(reader, { resource, scope: "tools:read" });
    const listed = await post(
      resource,
      { jsonrpc: "2.0", id: 1, method: "tools/list" },
      {
        ...bearer(agentToken),
        ...legacy,
      },
    );
    const names = (listed.json() as { result: { tools: Array<{ name: string }> } }).result.tools.map((t) => t.name);
    expect(names).toEqual(["whoami", "list_invoices", "void_invoice", "agent_only"]); // admin_console hidden

    const asAgent = await post(resource, call(2, "agent_only"), { ...bearer(agentToken), ...legacy });
    expect(textOf((asAgent.json() as { result: unknown }).result)).toBe("ran for the agent");
    const asReader = await post(resource, call(3, "agent_only"), { ...bearer(readerToken), ...legacy });
    expect(asReader.json()).toMatchObject({ result: { isError: true } });
  });

  it("a tool's scopes: 403 insufficient_scope naming them without the scope (step-up), runs with it", async () => {
    const narrow = await as.token(agent, { resource, scope: "tools:read" });
    const refused = await post(resource, call(1, "void_invoice", { id: "inv-1" }), { ...bearer(narrow), ...legacy });
    expect(refused.status).toBe(403);
    expect(refused.headers.get("www-authenticate")).toBe(
      `Bearer error="insufficient_scope", scope="invoices:write", resource_metadata="${metadataUrl}", ` +
        'error_description="the access token lacks a scope this request needs"',
    );
    expect(refused.json()).toMatchObject({ error: { message: expect.stringContaining("invoices:write") } });
    expectNothingOf(refused, narrow, [String(claimsOf(narrow).jti)]);

    // In a batch, every request counts.
    const batch = await post(resource, [call(1, "list_invoices"), call(2, "void_invoice", { id: "inv-1" })], {
      ...bearer(narrow),
      ...legacy,
    });
    expect(batch.status).toBe(403);

    const wide = await as.token(agent, { resource, scope: "tools:read invoices:write" });
    const ran = await post(resource, call(1, "void_invoice", { id: "inv-2" }), { ...bearer(wide), ...legacy });
    expect(ran.status).toBe(200);
    expect(textOf((ran.json() as { result: unknown }).result)).toBe("voided inv-2");
    expect(seen.at(-1)).toMatchObject({
      tool: "void_invoice",
      tenant: "acme",
      auth: { scopes: ["tools:read", "invoices:write"] },
    });
  });

  it("a hidden tool's scopes are not told: calling it is the unknown tool it is to this caller", async () => {
    const token = await as.token(agent, { resource, scope: "tools:read" });
    const response = await post(resource, call(1, "admin_console"), { ...bearer(token), ...legacy });
    expect(response.status).toBe(200);
    expect(response.json()).toMatchObject({
      error: { code: -32602, message: expect.stringContaining("Unknown tool") },
    });
    expect(response.headers.get("www-authenticate")).toBeNull();
  });

  it("revision 2026-07-28 requests are checked the same, before the era's server", async () => {
    const narrow = await as.token(agent, { resource, scope: "tools:read" });
    const params = { name: "void_invoice", arguments: { id: "inv-3" } };
    const unauthenticated = await post(
      resource,
      modernBody(1, "tools/call", params),
      modernHeaders("tools/call", "void_invoice"),
    );
    expect(unauthenticated.status).toBe(401);
    expect(unauthenticated.headers.get("www-authenticate")).toBe(`Bearer resource_metadata="${metadataUrl}"`);

    const refused = await post(resource, modernBody(2, "tools/call", params), {
      ...modernHeaders("tools/call", "void_invoice"),
      ...bearer(narrow),
    });
    expect(refused.status).toBe(403);
    expect(refused.headers.get("www-authenticate")).toContain('scope="invoices:write"');

    const wide = await as.token(agent, { resource, scope: "invoices:write" });
    const ran = await post(resource, modernBody(3, "tools/call", { name: "whoami", arguments: {} }), {
      ...modernHeaders("tools/call", "whoami"),
      ...bearer(wide),
    });
    expect(ran.status).toBe(200);
    const result = (ran.json() as { result: unknown }).result;
    expect(JSON.parse(textOf(result))).toMatchObject({
      auth: { clientId: agent.client_id, scopes: ["invoices:write"] },
    });
  });
});

describe("the official SDK clients' own OAuth flow", () => {
  it("SDK 1.x (2025 revisions): ClientCredentialsProvider discovers the metadata from the 401 and gets its token", async () => {
    const provider = new ClientCredentialsProvider({
      clientId: agent.client_id,
      clientSecret: agent.client_secret,
      scope: "tools:read",
      expectedIssuer: as.issuer,
    });
    const client = new Client({ name: "oauth-test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(resource), { authProvider: provider }));
    try {
      expect(claimsOf(provider.tokens()!.access_token)).toMatchObject({ aud: resource, scope: "tools:read" });
      expect((await client.listTools()).tools.map((tool) => tool.name)).toContain("void_invoice");
      const who = JSON.parse(textOf(await client.callTool({ name: "whoami", arguments: {} }))) as { auth: McpAuthInfo };
      expect(who.auth).toMatchObject({ clientId: agent.client_id, scopes: ["tools:read"], audience: [resource] });
      // The SDK 1.x asks for its configured scope in a client credentials grant, whatever the 403 names: it
      // tries once more, gets the same 403, and gives up.
      await expect(client.callTool({ name: "void_invoice", arguments: { id: "inv-8" } })).rejects.toThrow(
        "Server returned 403 after trying upscoping",
      );
    } finally {
      await client.close();
    }

    const wide = new ClientCredentialsProvider({
      clientId: agent.client_id,
      clientSecret: agent.client_secret,
      scope: "tools:read invoices:write",
      expectedIssuer: as.issuer,
    });
    const widely = new Client({ name: "oauth-test", version: "1.0.0" });
    await widely.connect(new StreamableHTTPClientTransport(new URL(resource), { authProvider: wide }));
    try {
      expect(textOf(await widely.callTool({ name: "void_invoice", arguments: { id: "inv-9" } }))).toBe("voided inv-9");
    } finally {
      await widely.close();
    }
  });

  it("SDK 2.x (revision 2026-07-28): its ClientCredentialsProvider through the transport's authProvider, with step-up", async () => {
    const provider = new ModernClientCredentialsProvider({
      clientId: agent.client_id,
      clientSecret: agent.client_secret,
      expectedIssuer: as.issuer,
    });
    const client = new ModernClient({ name: "oauth-test", version: "2.0.0" }, { versionNegotiation: { mode: "auto" } });
    await client.connect(new ModernTransport(new URL(resource), { authProvider: provider }));
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
      // It asked for the metadata's scopes_supported.
      const who = JSON.parse(textOf(await client.callTool({ name: "whoami", arguments: {} }))) as { auth: McpAuthInfo };
      expect(who.auth).toMatchObject({ clientId: agent.client_id, scopes: ["tools:read"], issuer: as.issuer });
      // Step-up: the 403 names invoices:write; the SDK asks oidc-provider for it (keeping what it had) and calls again.
      const voided = await client.callTool({ name: "void_invoice", arguments: { id: "inv-10" } });
      expect(textOf(voided)).toBe("voided inv-10");
      const after = JSON.parse(textOf(await client.callTool({ name: "whoami", arguments: {} }))) as {
        auth: McpAuthInfo;
      };
      expect([...after.auth.scopes].sort()).toEqual(["invoices:write", "tools:read"]);
    } finally {
      await client.close();
    }
  });
});
