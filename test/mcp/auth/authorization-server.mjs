/**
 * A real OAuth 2.1 authorization server for the auth tests: oidc-provider, an ES module with
 * ES-module dependencies, so it runs as a child process of test/mcp/auth/support.ts rather than
 * in Jest. It listens on 127.0.0.1 at a free port and issues JWT access tokens (RFC 9068) by the
 * client credentials grant, for the resources (RFC 8707) it is given. Its setup comes as JSON in
 * TEST_AUTHORIZATION_SERVER: { keys, clients, resources: { [uri or path]: { scope, ttl? } }, defaultResource? };
 * a path ("/mcp") stands for that path on 127.0.0.1 at any port, so that the test may pick the
 * MCP server's port after this server started.
 * It prints one line, {"issuer": ...}, once it listens.
 */
import { createServer } from "node:http";
import Provider, { errors } from "oidc-provider";

const setup = JSON.parse(process.env.TEST_AUTHORIZATION_SERVER ?? "{}");
const server = createServer();
await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
const issuer = `http://127.0.0.1:${server.address().port}`;

// Every scope a resource has, so that clients may be registered with them.
const scopes = [...new Set(Object.values(setup.resources).flatMap((info) => info.scope.split(" ")))];
const provider = new Provider(issuer, {
  scopes,
  jwks: { keys: setup.keys },
  clients: setup.clients,
  features: {
    devInteractions: { enabled: false },
    clientCredentials: { enabled: true },
    resourceIndicators: {
      enabled: true,
      defaultResource: () => setup.defaultResource,
      useGrantedResource: () => true,
      getResourceServerInfo: (_ctx, resource) => {
        const url = new URL(resource);
        const info =
          setup.resources[resource] ?? (url.hostname === "127.0.0.1" ? setup.resources[url.pathname] : undefined);
        if (info === undefined) throw new errors.InvalidTarget(`unknown resource ${resource}`);
        return {
          scope: info.scope,
          audience: resource,
          accessTokenTTL: info.ttl ?? 600,
          accessTokenFormat: "jwt",
          jwt: { sign: { alg: "RS256" } },
        };
      },
    },
  },
});
server.on("request", provider.callback());
process.stdout.write(`${JSON.stringify({ issuer })}\n`);
process.on("SIGTERM", () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
