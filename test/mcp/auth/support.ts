/**
 * The auth tests' authorization servers: real oidc-provider instances (in a child process each,
 * see authorization-server.mjs) on 127.0.0.1, their signing key made here with jose so that a
 * test can also sign tokens the resource server trusts (expired ones, ones of another issuer).
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { createServer, type AddressInfo } from "node:net";
import { join } from "node:path";
import type { CryptoKey, JWK, JWTPayload } from "jose" with { "resolution-mode": "import" };
import { jose } from "../../../src/mcp/auth/jose";

// jose is an ES module: loaded through the library's own loader (Jest compiles it to CommonJS).
const { exportJWK, generateKeyPair, SignJWT } = jose();

export interface ClientRegistration {
  client_id: string;
  client_secret: string;
  /** The scopes the client may be granted, space-separated. */
  scope?: string;
}

export interface AuthorizationServerSetup {
  clients: readonly ClientRegistration[];
  /**
   * Each resource (RFC 8707 indicator) the server issues tokens for, with its scopes and token
   * lifetime (s); a path (`"/mcp"`) is that path on 127.0.0.1 at any port.
   */
  resources: Record<string, { scope: string; ttl?: number }>;
  /** The resource of a token request that names none. */
  defaultResource?: string;
}

export interface AuthorizationServer {
  issuer: string;
  /** The private key behind the server's published JWKS (kid `kid`), for tokens signed by the test. */
  privateKey: CryptoKey;
  kid: string;
  /** A real access token by the client credentials grant. */
  token(client: ClientRegistration, request: { resource: string; scope?: string }): Promise<string>;
  close(): Promise<void>;
}

/** Starts an oidc-provider with a fresh RSA key; resolves once it listens. */
export async function startAuthorizationServer(setup: AuthorizationServerSetup): Promise<AuthorizationServer> {
  const { privateKey } = await generateKeyPair("RS256", { extractable: true });
  const kid = `test-key-${Math.random().toString(36).slice(2)}`;
  const jwk: JWK = { ...(await exportJWK(privateKey)), kid, alg: "RS256", use: "sig" };
  const clients = setup.clients.map((client) => ({
    ...client,
    grant_types: ["client_credentials"],
    redirect_uris: [],
    response_types: [],
    token_endpoint_auth_method: "client_secret_basic",
  }));
  const child = spawn(process.execPath, [join(__dirname, "authorization-server.mjs")], {
    env: {
      ...process.env,
      TEST_AUTHORIZATION_SERVER: JSON.stringify({ ...setup, clients, keys: [jwk] }),
    },
  });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const issuer = await new Promise<string>((resolve, reject) => {
    let stdout = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
      const line = stdout.split("\n").find((text) => text.startsWith("{"));
      if (line !== undefined && stdout.includes("\n")) resolve((JSON.parse(line) as { issuer: string }).issuer);
    });
    child.once("exit", (code) => reject(new Error(`the authorization server exited with ${code}: ${stderr}`)));
  });
  const metadata = (await (await fetch(`${issuer}/.well-known/openid-configuration`)).json()) as {
    token_endpoint: string;
  };
  return {
    issuer,
    privateKey,
    kid,
    async token(client, { resource, scope }) {
      const response = await fetch(metadata.token_endpoint, {
        method: "POST",
        headers: {
          authorization: `Basic ${Buffer.from(`${client.client_id}:${client.client_secret}`).toString("base64")}`,
          "content-type": "application/x-www-form-urlencoded",
        },
        body: new URLSearchParams({
          grant_type: "client_credentials",
          resource,
          ...(scope !== undefined ? { scope } : {}),
        }),
      });
      const body = (await response.json()) as { access_token?: string };
      if (body.access_token === undefined)
        throw new Error(`no token from ${issuer}: ${response.status} ${JSON.stringify(body)}`);
      return body.access_token;
    },
    close: () => stop(child),
  };
}

function stop(child: ChildProcessWithoutNullStreams): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}

/**
 * Starts what `start` starts on a port free on 127.0.0.1 (the resource URL, and so the tokens'
 * audience, names the port before the server listens), on another one when something took it
 * in between.
 */
export async function onFreePort<T>(start: (port: number) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    try {
      return await start(port);
    } catch (error) {
      const taken = (error as NodeJS.ErrnoException).code === "EADDRINUSE" || /port is in use/.test(String(error));
      if (!taken || attempt === 5) throw error;
    }
  }
}

/** A port free on 127.0.0.1 right now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A JWT signed by the test: `key` (default a fresh key nobody trusts), its claims as given. */
export async function signedToken(
  claims: JWTPayload,
  {
    key,
    kid,
    alg = "RS256",
    typ = "at+jwt",
  }: { key?: CryptoKey | Uint8Array; kid?: string; alg?: string; typ?: string } = {},
): Promise<string> {
  const signingKey = key ?? (await generateKeyPair("RS256")).privateKey;
  return new SignJWT(claims).setProtectedHeader({ alg, typ, ...(kid !== undefined ? { kid } : {}) }).sign(signingKey);
}

/** An unsigned JWT (`alg: none`), as an attacker would send one. */
export function unsecuredToken(claims: JWTPayload): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
  return `${part({ alg: "none", typ: "JWT" })}.${part(claims)}.`;
}

/** Seconds since the epoch. */
export const now = (): number => Math.floor(Date.now() / 1000);

/** A raw POST of JSON-RPC with the given headers; status, headers and body text. */
export async function post(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; text: string; json: () => unknown }> {
  const response = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...headers,
    },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    text,
    json: () =>
      JSON.parse(
        text.startsWith("{") || text.startsWith("[")
          ? text
          : text
              .split("\n")
              .find((line) => line.startsWith("data:"))!
              .slice(5),
      ),
  };
}

export { modernBody, modernHeaders } from "../support";
