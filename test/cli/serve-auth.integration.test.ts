/**
 * `toolnexus serve --http ... --auth-issuer <url> --auth-resource <url>`, spawned from the built
 * bin, against a real authorization server (oidc-provider) on 127.0.0.1: the official SDK client
 * runs its OAuth flow against it; and the flags' usage errors.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ClientCredentialsProvider } from "@modelcontextprotocol/sdk/client/auth-extensions.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { eventually, exited, INITIALIZE, rawRequest, startCliHttpServer } from "../mcp/support";
import { onFreePort, startAuthorizationServer, type AuthorizationServer } from "../mcp/auth/support";
import { assertBuilt, expectOneLineError, rel, runCli } from "./run-cli";

beforeAll(assertBuilt);

const agent = { client_id: "cli-agent", client_secret: "cli-agent-secret-0123456789abcdef", scope: "mcp" };

describe("serve --http with --auth-issuer and --auth-resource", () => {
  let as: AuthorizationServer;

  beforeAll(async () => {
    as = await startAuthorizationServer({ clients: [agent], resources: { "/mcp": { scope: "mcp" } } });
  });
  afterAll(() => as?.close());

  it("serves the metadata, answers 401 with the challenge, and lets the SDK's OAuth flow in", async () => {
    let port = 0;
    const { child, url, stderr } = await onFreePort((free) => {
      port = free;
      return startCliHttpServer([
        rel("services.ts"),
        "--http",
        `127.0.0.1:${port}`,
        "--auth-issuer",
        as.issuer,
        "--auth-resource",
        `http://127.0.0.1:${port}/mcp`,
        "--auth-scopes",
        "mcp",
      ]);
    });
    const resource = `http://127.0.0.1:${port}/mcp`;
    try {
      expect(url).toBe(resource);
      const said = `requiring OAuth access tokens issued by ${as.issuer} for ${resource}`;
      await eventually("the OAuth line", async () => (stderr().includes(said) ? true : undefined));
      const metadataUrl = `http://127.0.0.1:${port}/.well-known/oauth-protected-resource/mcp`;
      expect(await (await fetch(metadataUrl)).json()).toEqual({
        resource,
        authorization_servers: [as.issuer],
        scopes_supported: ["mcp"],
        bearer_methods_supported: ["header"],
      });
      const refused = await rawRequest(url, { body: INITIALIZE });
      expect(refused.status).toBe(401);
      expect(refused.headers["www-authenticate"]).toBe(`Bearer resource_metadata="${metadataUrl}", scope="mcp"`);

      const provider = new ClientCredentialsProvider({
        clientId: agent.client_id,
        clientSecret: agent.client_secret,
        scope: "mcp",
        expectedIssuer: as.issuer,
      });
      const client = new Client({ name: "cli-oauth-test", version: "1.0.0" });
      await client.connect(new StreamableHTTPClientTransport(new URL(url), { authProvider: provider }));
      try {
        expect(await client.callTool({ name: "add", arguments: { a: 40, b: 2 } })).toEqual({
          content: [{ type: "text", text: "42" }],
          isError: false,
        });
      } finally {
        await client.close();
      }
    } finally {
      child.kill("SIGTERM");
      expect(await exited(child)).toBe(0);
    }
  });
});

describe("the --auth-* flags' usage errors: one line, exit code 2", () => {
  it("needs both --auth-issuer and --auth-resource", async () => {
    expectOneLineError(
      await runCli(["serve", rel("tools.js"), "--http", "0", "--auth-issuer", "https://login.example.com"]),
      2,
      "OAuth needs both --auth-issuer",
      "--auth-resource",
    );
  });

  it("excludes --token, and applies to HTTP only", async () => {
    const auth = ["--auth-issuer", "https://login.example.com", "--auth-resource", "https://tools.example.com/mcp"];
    expectOneLineError(
      await runCli(["serve", rel("tools.js"), "--http", "0", "--token", "x", ...auth]),
      2,
      "--token and --auth-issuer exclude each other",
    );
    expectOneLineError(await runCli(["serve", rel("tools.js"), ...auth]), 2, "apply to HTTP only");
  });

  it("says what is wrong with an option serveMcp refuses", async () => {
    expectOneLineError(
      await runCli([
        "serve",
        rel("tools.js"),
        "--http",
        "0",
        "--auth-issuer",
        "http://login.example.com",
        "--auth-resource",
        "https://tools.example.com/mcp",
      ]),
      2,
      "auth.issuer must be an https: URL",
    );
  });
});
