/**
 * The `auth` options at work over real HTTP on 127.0.0.1: scopes every request needs, a
 * resource at the origin's root (the bare well-known path), an explicit `jwksUri`, opaque
 * tokens through `introspect`, and an authorization server that cannot be reached or states
 * another issuer (503, told to `onError`, never to the client).
 */
import { defineTool, Toolkit } from "../../../src";
import { serveMcp, type McpServerHandle, type McpTokenClaims } from "../../../src/mcp";
import { INITIALIZE, textOf } from "../support";
import {
  freePort,
  modernBody,
  modernHeaders,
  now,
  onFreePort,
  post,
  startAuthorizationServer,
  type AuthorizationServer,
  type ClientRegistration,
} from "./support";

const client: ClientRegistration = {
  client_id: "ops-agent",
  client_secret: "ops-agent-secret-0123456789abcdef",
  scope: "mcp invoices:write",
};

const toolkit = () =>
  new Toolkit([
    defineTool({ name: "whoami", description: "Who is calling", execute: (_args, ctx) => ctx?.state?.auth }),
    defineTool({
      name: "void_invoice",
      description: "Voids an invoice",
      scopes: ["invoices:write"],
      execute: () => "voided",
    }),
  ]);

/** A port nothing listens on: an authorization server out of reach. */
let unusedPort = 9;
beforeAll(async () => {
  unusedPort = await freePort();
});

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const legacy = { "mcp-protocol-version": "2025-06-18" };
const callTool = (name: string) => ({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name, arguments: {} } });

describe("requiredScopes, a resource at the origin's root, jwksUri", () => {
  let as: AuthorizationServer;
  let server: McpServerHandle;
  let origin: string;

  beforeAll(async () => {
    as = await startAuthorizationServer({ clients: [client], resources: { "/": { scope: "mcp invoices:write" } } });
    server = await onFreePort((port) => {
      origin = `http://127.0.0.1:${port}`;
      return serveMcp(toolkit(), {
        transport: "http",
        port,
        path: "/",
        auth: { issuer: as.issuer, resource: origin, requiredScopes: ["mcp"], jwksUri: `${as.issuer}/jwks` },
      });
    });
  });
  afterAll(async () => {
    await server?.close();
    await as?.close();
  });

  it("serves the metadata at the bare well-known path (and with its slash)", async () => {
    for (const path of ["/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/"]) {
      const response = await fetch(`${origin}${path}`);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({
        resource: origin,
        authorization_servers: [as.issuer],
        scopes_supported: ["mcp"],
        bearer_methods_supported: ["header"],
      });
    }
  });

  it("names the required scopes in the 401 challenge", async () => {
    const response = await post(`${origin}/`, JSON.parse(INITIALIZE));
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toBe(
      `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource", scope="mcp"`,
    );
  });

  it("refuses a token without them with 403, on every request; a tool's scopes come on top", async () => {
    const withoutMcp = await as.token(client, { resource: `${origin}/`, scope: "invoices:write" });
    const refused = await post(`${origin}/`, JSON.parse(INITIALIZE), bearer(withoutMcp));
    expect(refused.status).toBe(403);
    expect(refused.headers.get("www-authenticate")).toContain('error="insufficient_scope", scope="mcp"');

    const mcpOnly = await as.token(client, { resource: `${origin}/`, scope: "mcp" });
    expect((await post(`${origin}/`, JSON.parse(INITIALIZE), bearer(mcpOnly))).status).toBe(200);
    const scoped = await post(`${origin}/`, callTool("void_invoice"), { ...bearer(mcpOnly), ...legacy });
    expect(scoped.status).toBe(403);
    expect(scoped.headers.get("www-authenticate")).toContain('scope="mcp invoices:write"');
    expect(scoped.json()).toMatchObject({ error: { message: expect.stringContaining("invoices:write") } });

    const both = await as.token(client, { resource: `${origin}/`, scope: "mcp invoices:write" });
    const ran = await post(`${origin}/`, callTool("void_invoice"), { ...bearer(both), ...legacy });
    expect(textOf((ran.json() as { result: unknown }).result)).toBe("voided");
  });
});

describe("opaque tokens through introspect", () => {
  const issuer = "https://login.example.com";
  const resource = "https://tools.example.com/mcp";
  const tokens: Record<string, McpTokenClaims> = {
    "opaque-good": {
      active: true,
      sub: "u-1",
      client_id: "c-1",
      scope: "invoices:write",
      exp: now() + 300,
      aud: resource,
      iss: issuer,
    },
    "opaque-no-aud": { active: true, sub: "u-2", scope: "invoices:write" },
    "opaque-inactive": { active: false },
    // What an introspection endpoint answers its own caller's mistakes with, passed on as it came.
    "opaque-error-body": { error: "invalid_client", sub: "u-7", aud: resource },
    "opaque-expired": { active: true, sub: "u-3", exp: now() - 300, aud: resource },
    "opaque-other-aud": { active: true, sub: "u-4", aud: "https://elsewhere.example.com/api" },
    "opaque-other-iss": { active: true, sub: "u-5", iss: "https://evil.example.com" },
    "opaque-narrow": { active: true, sub: "u-6", scope: "tools:read" },
  };
  const errors: Error[] = [];
  let server: McpServerHandle;

  beforeAll(async () => {
    server = await serveMcp(toolkit(), {
      transport: "http",
      port: 0,
      onError: (error) => errors.push(error),
      auth: {
        issuer,
        resource,
        introspect: async (token) => {
          if (token === "opaque-broken") throw new Error("the introspection endpoint is down");
          return tokens[token];
        },
      },
    });
  });
  afterAll(() => server?.close());

  it("accepts active tokens for this resource (or naming none), with their claims as ctx.state.auth", async () => {
    for (const token of ["opaque-good", "opaque-no-aud"]) {
      const response = await post(server.url!, callTool("void_invoice"), { ...bearer(token), ...legacy });
      expect({ token, status: response.status }).toEqual({ token, status: 200 });
    }
    const who = await post(server.url!, callTool("whoami"), { ...bearer("opaque-no-aud"), ...legacy });
    expect(JSON.parse(textOf((who.json() as { result: unknown }).result))).toEqual({
      subject: "u-2",
      scopes: ["invoices:write"],
      issuer,
      audience: [resource], // it names none: the ones it was accepted for
      claims: tokens["opaque-no-aud"],
    });
  });

  it("refuses unknown, inactive (or not said active), expired, other-audience and other-issuer tokens: 401, nothing of them said", async () => {
    for (const token of [
      "opaque-unknown",
      "opaque-inactive",
      "opaque-error-body",
      "opaque-expired",
      "opaque-other-aud",
      "opaque-other-iss",
    ]) {
      const response = await post(server.url!, JSON.parse(INITIALIZE), bearer(token));
      expect({ token, status: response.status }).toEqual({ token, status: 401 });
      expect(response.headers.get("www-authenticate")).toContain('error="invalid_token"');
      const said = `${response.text} ${response.headers.get("www-authenticate")}`;
      expect(said).not.toContain(token);
      expect(said).not.toMatch(/u-\d|elsewhere|evil/);
    }
  });

  it("steps up scoped tools for opaque tokens too, in both eras", async () => {
    const legacyCall = await post(server.url!, callTool("void_invoice"), { ...bearer("opaque-narrow"), ...legacy });
    expect(legacyCall.status).toBe(403);
    const modernCall = await post(server.url!, modernBody(1, "tools/call", { name: "void_invoice", arguments: {} }), {
      ...modernHeaders("tools/call", "void_invoice"),
      ...bearer("opaque-narrow"),
    });
    expect(modernCall.status).toBe(403);
    expect(modernCall.headers.get("www-authenticate")).toContain('scope="invoices:write"');
  });

  it("an introspect that fails is the server's trouble: 503, told to onError", async () => {
    const response = await post(server.url!, JSON.parse(INITIALIZE), bearer("opaque-broken"));
    expect(response.status).toBe(503);
    expect(response.text).not.toContain("opaque-broken");
    // Its words may hold the token: they are the cause's, not the message's.
    expect(errors.at(-1)?.message).toBe("auth: could not validate an access token: introspect threw");
    expect((errors.at(-1)?.cause as Error).message).toBe("the introspection endpoint is down");
  });
});

describe("an authorization server that cannot be used", () => {
  let as: AuthorizationServer;
  beforeAll(async () => {
    as = await startAuthorizationServer({
      clients: [client],
      resources: { "http://127.0.0.1:9/mcp": { scope: "mcp invoices:write" } },
    });
  });
  afterAll(() => as?.close());

  it.each([
    [
      "out of reach",
      () => `http://127.0.0.1:${unusedPort}`,
      /could not validate an access token: cannot fetch the authorization server's metadata at http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-authorization-server \(fetch failed\)/,
    ],
    [
      "stating another issuer",
      () => `${as.issuer}/`,
      /states the issuer "http:\/\/127\.0\.0\.1:\d+", not auth\.issuer/,
    ],
  ])("%s: 503 to the client, the reason to onError, and it tries again next time", async (_what, issuer, told) => {
    const errors: Error[] = [];
    const server = await serveMcp(toolkit(), {
      transport: "http",
      port: 0,
      onError: (error) => errors.push(error),
      auth: { issuer: issuer(), resource: "http://127.0.0.1:9/mcp" },
    });
    try {
      const token = await as.token(client, { resource: "http://127.0.0.1:9/mcp", scope: "mcp" });
      for (let attempt = 0; attempt < 2; attempt++) {
        const response = await post(server.url!, JSON.parse(INITIALIZE), bearer(token));
        expect(response.status).toBe(503);
        expect(response.headers.get("retry-after")).toBe("5");
        expect(response.text).not.toContain(token);
      }
      expect(errors).toHaveLength(2);
      expect(errors[0]!.message).toMatch(told);
    } finally {
      await server.close();
    }
  });
});
