import type { IncomingMessage } from "node:http";
import { jose, type JoseModule } from "./jose";
import {
  resolveAuthOptions,
  secureUrl,
  type McpAuthInfo,
  type McpAuthOptions,
  type McpTokenClaims,
  type ResolvedAuthOptions,
} from "./options";

/** Where RFC 9728 puts a protected resource's metadata: this, then the resource URL's path. */
export const RESOURCE_METADATA_PATH = "/.well-known/oauth-protected-resource";

/** An HTTP answer the resource server gives instead of the MCP server. */
export interface AuthRefusal {
  status: number;
  /** For the JSON-RPC error body: never the token or its claims. */
  message: string;
  headers: Record<string, string>;
}

export type Authentication = { info: McpAuthInfo; refusal?: undefined } | { info?: undefined; refusal: AuthRefusal };

/** How long fetching the issuer's metadata may take, in milliseconds. */
const DISCOVERY_TIMEOUT_MS = 5_000;

/** RFC 6750's b64token: what a bearer token may be made of. */
const BEARER = /^Bearer[ \t]+([A-Za-z0-9\-._~+/]+=*)[ \t]*$/i;

/** jose's error codes that say the token is bad, not that the server could not check it. */
const TOKEN_ERRORS = new Set([
  "ERR_JWT_EXPIRED",
  "ERR_JWT_CLAIM_VALIDATION_FAILED",
  "ERR_JWT_INVALID",
  "ERR_JWS_INVALID",
  "ERR_JWS_SIGNATURE_VERIFICATION_FAILED",
  "ERR_JOSE_ALG_NOT_ALLOWED",
  "ERR_JOSE_NOT_SUPPORTED",
  "ERR_JWKS_NO_MATCHING_KEY",
  "ERR_JWKS_MULTIPLE_MATCHING_KEYS",
]);

type KeySet = ReturnType<JoseModule["createRemoteJWKSet"]>;

/**
 * The OAuth 2.1 resource server in front of the MCP HTTP handler: serves the protected-resource
 * metadata (RFC 9728), validates bearer access tokens (a JWT against the issuer's keys, or
 * `introspect`), and words the `WWW-Authenticate` challenges MCP clients follow.
 */
export class ResourceServer {
  readonly options: ResolvedAuthOptions;
  /** The paths the metadata is served at (the resource URL's path after the well-known prefix). */
  readonly metadataPaths: readonly string[];
  /** The metadata's absolute URL, as challenges name it. */
  readonly metadataUrl: string;
  readonly #metadata: string;
  #keys: Promise<KeySet> | undefined;

  constructor(
    auth: McpAuthOptions,
    private readonly onError: (error: Error) => void = () => {},
  ) {
    this.options = resolveAuthOptions(auth);
    const { resource } = this.options;
    const path = resource.pathname === "/" ? "" : resource.pathname;
    this.metadataPaths = Object.freeze(
      path === "" ? [RESOURCE_METADATA_PATH, `${RESOURCE_METADATA_PATH}/`] : [`${RESOURCE_METADATA_PATH}${path}`],
    );
    this.metadataUrl = `${resource.origin}${RESOURCE_METADATA_PATH}${path}`;
    this.#metadata = JSON.stringify({
      resource: auth.resource,
      authorization_servers: [this.options.issuer],
      ...(this.options.scopesSupported.length > 0 ? { scopes_supported: this.options.scopesSupported } : {}),
      bearer_methods_supported: ["header"],
      ...(this.options.resourceName !== undefined ? { resource_name: this.options.resourceName } : {}),
      ...(this.options.resourceDocumentation !== undefined
        ? { resource_documentation: this.options.resourceDocumentation }
        : {}),
    });
    // Load jose now: a server that cannot check tokens should not start.
    if (this.options.introspect === undefined) jose();
  }

  /** Whether `req` asks for the metadata (any method: the others are answered 405). */
  isMetadataRequest(req: IncomingMessage): boolean {
    return this.metadataPaths.includes(pathOf(req));
  }

  /** The answer to a request of the metadata path: the document to GET, CORS preflight, 405 otherwise. */
  metadataResponse(method: string | undefined): { status: number; headers: Record<string, string>; body: string } {
    const cors = { "access-control-allow-origin": "*" };
    if (method === "GET" || method === "HEAD")
      return {
        status: 200,
        headers: { ...cors, "content-type": "application/json", "cache-control": "public, max-age=300" },
        body: this.#metadata,
      };
    if (method === "OPTIONS")
      return {
        status: 204,
        headers: { ...cors, "access-control-allow-methods": "GET", "access-control-allow-headers": "*" },
        body: "",
      };
    return { status: 405, headers: { ...cors, allow: "GET" }, body: "" };
  }

  /** Validates the request's bearer token: the caller's `McpAuthInfo`, or the 401 (503) to answer. */
  async authenticate(req: IncomingMessage): Promise<Authentication> {
    const header = req.headers.authorization;
    if (header === undefined || !/^Bearer(?:[ \t]|$)/i.test(header)) {
      return {
        refusal: {
          status: 401,
          message:
            "Unauthorized: this MCP server needs an OAuth access token (Authorization: Bearer <token>) from " +
            `${this.options.issuer}; its metadata is at ${this.metadataUrl}.`,
          headers: { "www-authenticate": this.#challenge() },
        },
      };
    }
    const token = BEARER.exec(header)?.[1];
    if (token === undefined) return { refusal: this.#invalidToken("the access token is malformed") };
    try {
      const claims =
        this.options.introspect !== undefined ? await this.#introspected(token) : await this.#verified(token);
      if (typeof claims === "string") return { refusal: this.#invalidToken(claims) };
      return { info: authInfo(claims, this.options) };
    } catch (error) {
      // The token is bad: say so, and nothing of it (no claim, no library message).
      if (TOKEN_ERRORS.has((error as { code?: unknown }).code as string))
        return { refusal: this.#invalidToken(reasonOf(error)) };
      // The server could not check it (the issuer's keys out of reach, introspect failed): not the client's fault.
      // An introspect's own words may hold the token: they stay in the cause, out of the message logs print.
      const why = this.options.introspect !== undefined ? "introspect threw" : messageOf(error);
      this.onError(new Error(`auth: could not validate an access token: ${why}`, { cause: error }));
      return {
        refusal: {
          status: 503,
          message: "The server cannot check access tokens right now; try again shortly.",
          headers: { "retry-after": "5" },
        },
      };
    }
  }

  /** The 403 step-up answer when the token lacks any of `needed`; undefined when it has them all. */
  insufficientScope(info: McpAuthInfo, needed: readonly string[]): AuthRefusal | undefined {
    const missing = needed.filter((scope) => !info.scopes.includes(scope));
    if (missing.length === 0) return undefined;
    return {
      status: 403,
      message:
        `Forbidden: this request needs the scope${missing.length === 1 ? "" : "s"} ${missing.join(", ")}; ask the ` +
        "authorization server for an access token with them.",
      headers: {
        "www-authenticate":
          `Bearer error="insufficient_scope", scope="${needed.join(" ")}", resource_metadata="${this.metadataUrl}", ` +
          'error_description="the access token lacks a scope this request needs"',
      },
    };
  }

  #challenge(error?: { code: string; description: string }): string {
    const parts = [
      ...(error !== undefined ? [`error="${error.code}"`, `error_description="${error.description}"`] : []),
      `resource_metadata="${this.metadataUrl}"`,
      ...(this.options.requiredScopes.length > 0 ? [`scope="${this.options.requiredScopes.join(" ")}"`] : []),
    ];
    return `Bearer ${parts.join(", ")}`;
  }

  #invalidToken(reason: string): AuthRefusal {
    return {
      status: 401,
      message: `Unauthorized: ${reason}; get a new one from ${this.options.issuer}.`,
      headers: { "www-authenticate": this.#challenge({ code: "invalid_token", description: reason }) },
    };
  }

  async #verified(token: string): Promise<McpTokenClaims> {
    const { payload } = await jose().jwtVerify(token, await this.#keySet(), {
      issuer: this.options.issuer,
      audience: [...this.options.audience],
      algorithms: [...this.options.algorithms],
      clockTolerance: this.options.clockTolerance,
      requiredClaims: ["exp"],
    });
    return payload as McpTokenClaims;
  }

  /** The claims `introspect` gives, or why the token is refused. */
  async #introspected(token: string): Promise<McpTokenClaims | string> {
    const claims = await this.options.introspect!(token);
    // RFC 7662's verdict is required: anything else (an error body passed on, an empty object) is no token.
    if (typeof claims !== "object" || claims === null || claims.active !== true) return "the access token is invalid";
    const now = Math.floor(Date.now() / 1000);
    const tolerance = this.options.clockTolerance;
    if (claims.exp !== undefined && !(typeof claims.exp === "number" && claims.exp + tolerance > now))
      return "the access token has expired";
    if (claims.nbf !== undefined && !(typeof claims.nbf === "number" && claims.nbf - tolerance <= now))
      return "the access token is not valid yet";
    if (claims.iss !== undefined && claims.iss !== this.options.issuer) return "the access token is invalid";
    if (claims.aud !== undefined && !audiencesOf(claims.aud).some((aud) => this.options.audience.includes(aud)))
      return "the access token was not issued for this server";
    return claims;
  }

  /** The issuer's keys: `jwksUri`, else the `jwks_uri` of its metadata, found once (again after a failure). */
  #keySet(): Promise<KeySet> {
    this.#keys ??= (async () => {
      const uri = this.options.jwksUri ?? (await discoverJwksUri(this.options.issuer));
      return jose().createRemoteJWKSet(uri);
    })();
    const keys = this.#keys;
    keys.catch(() => {
      if (this.#keys === keys) this.#keys = undefined;
    });
    return keys;
  }
}

/**
 * The `jwks_uri` of the issuer's metadata: RFC 8414's `/.well-known/oauth-authorization-server`,
 * then OpenID Connect's `/.well-known/openid-configuration` (inserted before the issuer's path,
 * then appended to it), the first found. Its `issuer` must be the configured one (RFC 8414 §3.3).
 */
async function discoverJwksUri(issuer: string): Promise<URL> {
  const url = new URL(issuer);
  const path = url.pathname.replace(/\/+$/, "");
  const candidates = [
    `${url.origin}/.well-known/oauth-authorization-server${path}`,
    `${url.origin}/.well-known/openid-configuration${path}`,
    ...(path === "" ? [] : [`${url.origin}${path}/.well-known/openid-configuration`]),
  ];
  const tried: string[] = [];
  for (const candidate of candidates) {
    let response: Response;
    try {
      response = await fetch(candidate, {
        headers: { accept: "application/json" },
        redirect: "error",
        signal: AbortSignal.timeout(DISCOVERY_TIMEOUT_MS),
      });
    } catch (error) {
      throw new Error(`cannot fetch the authorization server's metadata at ${candidate} (${messageOf(error)})`, {
        cause: error,
      });
    }
    if (!response.ok) {
      await response.body?.cancel().catch(() => {});
      tried.push(`${candidate} (${response.status})`);
      continue;
    }
    const metadata = (await response.json()) as { issuer?: unknown; jwks_uri?: unknown };
    if (metadata.issuer !== issuer)
      throw new Error(
        `the authorization server metadata at ${candidate} states the issuer ${JSON.stringify(metadata.issuer)}, ` +
          `not auth.issuer ${JSON.stringify(issuer)}: set auth.issuer to the issuer the server states.`,
      );
    if (typeof metadata.jwks_uri !== "string")
      throw new Error(`the authorization server metadata at ${candidate} has no jwks_uri: set auth.jwksUri.`);
    return secureUrl("the metadata's jwks_uri", metadata.jwks_uri, "the issuer's JWKS URL");
  }
  throw new Error(
    `found no authorization server metadata for ${issuer} (tried ${tried.join(", ")}): set auth.jwksUri.`,
  );
}

/** An error's message, whichever realm made it (fetch's errors come from Node's own). */
function messageOf(error: unknown): string {
  const message = (error as { message?: unknown } | undefined)?.message;
  return typeof message === "string" ? message : String(error);
}

/** A short reason for a refused JWT, from jose's error code only (its message may quote claims). */
function reasonOf(error: unknown): string {
  const { code, claim } = error as { code?: string; claim?: string };
  if (code === "ERR_JWT_EXPIRED") return "the access token has expired";
  if (code === "ERR_JWT_CLAIM_VALIDATION_FAILED" && claim === "aud")
    return "the access token was not issued for this server";
  if (code === "ERR_JWT_CLAIM_VALIDATION_FAILED" && claim === "nbf") return "the access token is not valid yet";
  return "the access token is invalid";
}

function audiencesOf(aud: unknown): string[] {
  if (typeof aud === "string") return [aud];
  return Array.isArray(aud) ? aud.filter((entry): entry is string => typeof entry === "string") : [];
}

/** `scope` (space-separated) and `scp` (a list, or space-separated), together. */
function scopesOf(claims: McpTokenClaims): string[] {
  const words = (value: unknown): string[] =>
    typeof value === "string"
      ? value.split(" ").filter(Boolean)
      : Array.isArray(value)
        ? value.filter((entry): entry is string => typeof entry === "string")
        : [];
  return [...new Set([...words(claims.scope), ...words(claims.scp)])];
}

function authInfo(claims: McpTokenClaims, options: ResolvedAuthOptions): McpAuthInfo {
  const audience = claims.aud === undefined ? [...options.audience] : audiencesOf(claims.aud);
  const clientId = typeof claims.client_id === "string" ? claims.client_id : claims.azp;
  return deepFreeze({
    ...(typeof claims.sub === "string" ? { subject: claims.sub } : {}),
    ...(typeof clientId === "string" ? { clientId } : {}),
    scopes: scopesOf(claims),
    issuer: options.issuer,
    audience,
    ...(typeof claims.exp === "number" ? { expiresAt: claims.exp } : {}),
    claims: copyOf(claims),
  });
}

/** The claims as data of the call's own (what `introspect` returned may be the caller's object, cached). */
function copyOf(claims: McpTokenClaims): McpTokenClaims {
  try {
    return structuredClone(claims);
  } catch {
    return JSON.parse(JSON.stringify(claims)) as McpTokenClaims;
  }
}

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const entry of Object.values(value)) deepFreeze(entry);
  }
  return value;
}

/** The request's path: Express's `originalUrl` when mounted under a prefix, else `url`; no query. */
export function pathOf(req: IncomingMessage): string {
  const url = (req as { originalUrl?: string }).originalUrl ?? req.url ?? "/";
  return url.split("?")[0]!;
}
