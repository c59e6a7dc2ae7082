/**
 * The `auth` option is checked when the handler is made: each mistake is a TypeError saying
 * what to do. And `requiredScopes`, which names what one JSON-RPC request needs.
 */
import {
  definePrompt,
  defineResource,
  defineResourceTemplate,
  defineTool,
  Toolkit,
  type ToolContext,
} from "../../../src";
import { createMcpHttpHandler, type McpAuthOptions, type McpToolkit } from "../../../src/mcp";
import { requiredScopes } from "../../../src/mcp/auth";

const toolkit = new Toolkit([defineTool({ name: "ping", description: "Answers pong", execute: () => "pong" })]);
const valid: McpAuthOptions = { issuer: "https://login.example.com", resource: "https://tools.example.com/mcp" };
const made =
  (auth: unknown, more: Record<string, unknown> = {}) =>
  () =>
    createMcpHttpHandler(toolkit, { auth: auth as McpAuthOptions, ...more });

describe("the auth option, checked when the handler is made", () => {
  it("takes a valid one, and then answers the metadata paths", () => {
    expect(made(valid)).not.toThrow();
    expect(createMcpHttpHandler(toolkit, { auth: valid }).resourceMetadataPaths).toEqual([
      "/.well-known/oauth-protected-resource/mcp",
    ]);
    expect(createMcpHttpHandler(toolkit, {}).resourceMetadataPaths).toEqual([]);
    // http: on this machine, for development.
    expect(made({ issuer: "http://127.0.0.1:8080", resource: "http://localhost:3000/mcp" })).not.toThrow();
    expect(made({ ...valid, jwksUri: "http://[::1]:8080/jwks" })).not.toThrow();
  });

  it.each<[string, unknown, Record<string, unknown>, string | RegExp]>([
    ["token and auth together", valid, { token: "s3cret" }, "token and auth exclude each other"],
    ["not an object", "https://login.example.com", {}, "auth must be an object"],
    ["no issuer", { resource: valid.resource }, {}, "auth.issuer must be the authorization server's issuer URL"],
    ["a relative issuer", { ...valid, issuer: "login.example.com" }, {}, "auth.issuer must be"],
    [
      "an http: issuer elsewhere than this machine",
      { ...valid, issuer: "http://login.example.com" },
      {},
      "plain http: is allowed only for this machine",
    ],
    ["an issuer with a query", { ...valid, issuer: "https://login.example.com/?tenant=1" }, {}, "no query or fragment"],
    ["no resource", { issuer: valid.issuer }, {}, "auth.resource must be this MCP server's URL"],
    [
      "a resource with a fragment",
      { ...valid, resource: "https://tools.example.com/mcp#x" },
      {},
      "no query or fragment",
    ],
    [
      "an http: resource elsewhere",
      { ...valid, resource: "http://tools.example.com/mcp" },
      {},
      "auth.resource must be an https: URL",
    ],
    ["an empty audience", { ...valid, audience: [] }, {}, "auth.audience must be a non-empty string"],
    ["HMAC algorithms", { ...valid, algorithms: ["HS256"] }, {}, "HS256 is not accepted"],
    ["alg none", { ...valid, algorithms: ["RS256", "none"] }, {}, "none is not accepted"],
    [
      "a negative clock tolerance",
      { ...valid, clockTolerance: -1 },
      {},
      "auth.clockTolerance must be a number of seconds",
    ],
    [
      "a scope with a space",
      { ...valid, requiredScopes: ["read write"] },
      {},
      "auth.requiredScopes must be a list of OAuth scope names",
    ],
    [
      "introspect with jwksUri",
      { ...valid, introspect: async () => undefined, jwksUri: "https://x.example.com/jwks" },
      {},
      "auth.jwksUri applies to JWT access tokens",
    ],
    [
      "introspect not a function",
      { ...valid, introspect: "https://x.example.com/introspect" },
      {},
      "auth.introspect must be a function",
    ],
    ["a misspelt option", { ...valid, audiences: ["x"] }, {}, 'auth has no option "audiences"'],
    [
      "a relative documentation URL",
      { ...valid, resourceDocumentation: "/docs" },
      {},
      "auth.resourceDocumentation must be",
    ],
  ])("refuses %s", (_what, auth, more, message) => {
    expect(made(auth, more)).toThrow(TypeError);
    expect(made(auth, more)).toThrow(message);
  });
});

describe("requiredScopes", () => {
  const kit = new Toolkit([
    defineTool({ name: "read", description: "Reads", execute: () => "r" }),
    defineTool({ name: "write", description: "Writes", scopes: ["docs:write"], execute: () => "w" }),
    defineTool({
      name: "admin",
      description: "Hidden from non-admins",
      scopes: ["admin"],
      visible: (ctx) => ctx.state?.role === "admin",
      execute: () => "a",
    }),
  ]);
  const ctx: ToolContext = { state: { role: "user" } };

  it("names a tools/call's tool's scopes, and none for other methods or unknown tools", () => {
    expect(requiredScopes(kit, { method: "tools/call", params: { name: "write" } }, ctx)).toEqual(["docs:write"]);
    expect(requiredScopes(kit, { method: "tools/call", params: { name: "read" } }, ctx)).toEqual([]);
    expect(requiredScopes(kit, { method: "tools/call", params: { name: "nope" } }, ctx)).toEqual([]);
    expect(requiredScopes(kit, { method: "tools/call" }, ctx)).toEqual([]);
    expect(requiredScopes(kit, { method: "tools/list" }, ctx)).toEqual([]);
  });

  it("names none for a tool the caller cannot see, the scopes of one it can", () => {
    expect(requiredScopes(kit, { method: "tools/call", params: { name: "admin" } }, ctx)).toEqual([]);
    expect(
      requiredScopes(kit, { method: "tools/call", params: { name: "admin" } }, { state: { role: "admin" } }),
    ).toEqual(["admin"]);
  });

  it("asks the toolkit's scopesFor for resources and prompts", () => {
    const asked: unknown[] = [];
    const withHook = Object.assign(Object.create(kit) as McpToolkit, {
      scopesFor: (kind: string, key: string) => {
        asked.push([kind, key]);
        return kind === "resource" ? ["files:read"] : undefined;
      },
    });
    expect(requiredScopes(withHook, { method: "resources/read", params: { uri: "file:///a.txt" } }, ctx)).toEqual([
      "files:read",
    ]);
    expect(requiredScopes(withHook, { method: "prompts/get", params: { name: "summary" } }, ctx)).toEqual([]);
    expect(asked).toEqual([
      ["resource", "file:///a.txt"],
      ["prompt", "summary"],
    ]);
    // Without the hook: none.
    expect(requiredScopes(kit, { method: "resources/read", params: { uri: "file:///a.txt" } }, ctx)).toEqual([]);
  });
});

describe("requiredScopes of resources and prompts, seen as this caller sees them", () => {
  const adaOnly = (ctx: ToolContext) => (ctx.state?.auth as { subject?: string } | undefined)?.subject === "ada";
  const kit = new Toolkit([
    defineTool({ name: "ping", description: "Answers pong", execute: () => "pong" }),
    defineResource({
      uri: "notes://secret",
      name: "secret",
      scopes: ["notes:admin"],
      visible: adaOnly,
      read: () => "s",
    }),
    defineResourceTemplate({
      uriTemplate: "notes://{id}",
      name: "note",
      scopes: ["notes:read"],
      complete: { id: ["1", "2"] },
      read: ({ id }) => `note ${id}`,
    }),
    definePrompt({
      name: "summarize",
      arguments: [{ name: "style" }],
      scopes: ["prompts:use"],
      complete: { style: ["brief"] },
      get: ({ style }) => `Summarize, ${style}.`,
    }),
  ]);
  const ada: ToolContext = { provider: "mcp", state: { auth: { subject: "ada" } } };
  const bob: ToolContext = { provider: "mcp", state: { auth: { subject: "bob" } } };
  const scopes = (method: string, params: unknown, ctx: ToolContext) => requiredScopes(kit, { method, params }, ctx);

  it("asks the scopes of a resource only its viewer sees, of that viewer, and none of anyone else (it is unknown to them)", () => {
    expect(scopes("resources/read", { uri: "notes://secret" }, ada)).toEqual(["notes:admin"]);
    expect(scopes("resources/read", { uri: "notes://secret" }, bob)).toEqual([]);
  });

  it("asks a template's scopes for the URIs it makes, however they are spelled", () => {
    expect(scopes("resources/read", { uri: "notes://7" }, bob)).toEqual(["notes:read"]);
    expect(scopes("resources/read", { uri: "notes://%37" }, bob)).toEqual(["notes:read"]);
  });

  it("asks a subscription what reading the resource asks", () => {
    expect(scopes("resources/subscribe", { uri: "notes://secret" }, ada)).toEqual(["notes:admin"]);
    expect(scopes("resources/subscribe", { uri: "notes://7" }, bob)).toEqual(["notes:read"]);
  });

  it("asks a completion what using its prompt or template asks", () => {
    const argument = { name: "style", value: "b" };
    expect(scopes("completion/complete", { ref: { type: "ref/prompt", name: "summarize" }, argument }, bob)).toEqual([
      "prompts:use",
    ]);
    expect(
      scopes("completion/complete", { ref: { type: "ref/resource", uri: "notes://{id}" }, argument }, bob),
    ).toEqual(["notes:read"]);
    expect(scopes("completion/complete", { ref: { type: "ref/prompt", name: "nope" }, argument }, bob)).toEqual([]);
  });

  it("asks a prompt's scopes for prompts/get", () => {
    expect(scopes("prompts/get", { name: "summarize" }, bob)).toEqual(["prompts:use"]);
  });
});
