/**
 * The `auth` option of the MCP HTTP server: an OAuth 2.1 resource server, as the MCP
 * authorization specification describes it (RFC 9728 protected-resource metadata, RFC 8707
 * resource indicators, RFC 6750 bearer tokens, RFC 9068 JWT access tokens). Types and the
 * checks of the option only: nothing here loads `jose`.
 */
import { SCOPE_TOKEN } from "../../core/checks";

/**
 * The claims of an access token: a JWT's payload, or what an `introspect` function returns
 * (RFC 7662: `active`, `scope`, `client_id`, `sub`, `exp`, `aud`, `iss` ...).
 */
export interface McpTokenClaims {
  /** Introspection's verdict: an introspected token is accepted only when it is `true`. */
  active?: boolean;
  iss?: string;
  sub?: string;
  aud?: string | string[];
  exp?: number;
  nbf?: number;
  iat?: number;
  /** Space-separated scopes (RFC 9068, RFC 7662). */
  scope?: string;
  /** Scopes as some authorization servers write them (Okta, Entra ID): a list or a space-separated string. */
  scp?: string | string[];
  client_id?: string;
  azp?: string;
  [claim: string]: unknown;
}

/**
 * Validates OAuth 2.1 access tokens on every request, as an MCP server's authorization
 * specification requires: `WWW-Authenticate` challenges that point clients at the
 * protected-resource metadata (served at `/.well-known/oauth-protected-resource` and the
 * resource URL's path), tokens checked for issuer, audience (this server), expiry and
 * signature, and per-tool `scopes` answered with `403 insufficient_scope` (step-up).
 */
export interface McpAuthOptions {
  /** The authorization server's issuer URL, exactly as its metadata and tokens state it (`iss`). */
  issuer: string;
  /**
   * This MCP server's canonical URL as clients reach it (the RFC 8707 resource indicator, e.g.
   * `https://tools.example.com/mcp`): the metadata's `resource`, where the metadata is served,
   * and the audience tokens must carry unless `audience` says otherwise.
   */
  resource: string;
  /** The `aud` values accepted (one is enough). Default: `resource`. */
  audience?: string | readonly string[];
  /**
   * Where the issuer's signing keys are (a JWKS). Default: the `jwks_uri` of the issuer's
   * metadata (`/.well-known/oauth-authorization-server`, then `/.well-known/openid-configuration`),
   * fetched on the first request and kept; the keys are refreshed when a token names an unknown one.
   */
  jwksUri?: string;
  /**
   * The JWS algorithms accepted. Default: the asymmetric ones (RS*, PS*, ES*, EdDSA); `none` and
   * the HMAC ones (HS*) are refused, since a resource server holds no shared secret.
   */
  algorithms?: readonly string[];
  /** Seconds of clock skew allowed when checking `exp` and `nbf`. Default 30. */
  clockTolerance?: number;
  /** Scopes every request needs (the server's own, e.g. `["mcp"]`); announced in the 401 challenge. */
  requiredScopes?: readonly string[];
  /** The metadata's `scopes_supported`. Default: `requiredScopes` (none when empty). */
  scopesSupported?: readonly string[];
  /** The metadata's `resource_name`: this server's name for people. */
  resourceName?: string;
  /** The metadata's `resource_documentation`: a URL of documentation for developers. */
  resourceDocumentation?: string;
  /**
   * Opaque tokens: returns the token's claims (RFC 7662 introspection, a database lookup), or
   * `undefined` for a token it does not know. Used instead of JWT validation; the claims must say
   * `active: true`, and are checked for `exp` (and `nbf`), `iss` and `aud` where present.
   */
  introspect?: (token: string) => Promise<McpTokenClaims | undefined>;
}

/**
 * Who called, from a validated access token: every call's `ctx.state.auth` (so `visible(ctx)`
 * and `authorize(ctx, args)` read it). Never the token itself.
 */
export interface McpAuthInfo {
  /** `sub`: the user, or for a client acting on its own behalf the client. */
  readonly subject?: string;
  /** `client_id` (or `azp`): the OAuth client the token was issued to. */
  readonly clientId?: string;
  /** The token's scopes (`scope`, `scp`). */
  readonly scopes: readonly string[];
  /** The issuer, as configured (and as the token states it). */
  readonly issuer: string;
  /** The token's audiences (`aud`); the configured ones when an introspected token states none. */
  readonly audience: readonly string[];
  /** `exp`: seconds since the epoch. */
  readonly expiresAt?: number;
  /** Every claim of the token. */
  readonly claims: Readonly<McpTokenClaims>;
}

/** The JWS algorithms accepted by default: the asymmetric ones JOSE defines. */
export const ASYMMETRIC_ALGORITHMS: readonly string[] = Object.freeze([
  "RS256",
  "RS384",
  "RS512",
  "PS256",
  "PS384",
  "PS512",
  "ES256",
  "ES384",
  "ES512",
  "EdDSA",
  "Ed25519",
]);

/** Default `clockTolerance`, in seconds. */
export const DEFAULT_CLOCK_TOLERANCE = 30;

/** `McpAuthOptions` checked, with their defaults. */
export interface ResolvedAuthOptions {
  issuer: string;
  resource: URL;
  audience: readonly string[];
  jwksUri: URL | undefined;
  algorithms: readonly string[];
  clockTolerance: number;
  requiredScopes: readonly string[];
  scopesSupported: readonly string[];
  resourceName: string | undefined;
  resourceDocumentation: string | undefined;
  introspect: McpAuthOptions["introspect"];
}

const KNOWN_KEYS = new Set([
  "issuer",
  "resource",
  "audience",
  "jwksUri",
  "algorithms",
  "clockTolerance",
  "requiredScopes",
  "scopesSupported",
  "resourceName",
  "resourceDocumentation",
  "introspect",
]);

/** Checks `auth` when the handler is made, so a mistake stops the server from starting, saying what to do. */
export function resolveAuthOptions(auth: unknown): ResolvedAuthOptions {
  if (typeof auth !== "object" || auth === null || Array.isArray(auth))
    throw new TypeError(
      "auth must be an object: { issuer: <the authorization server's URL>, resource: <this server's URL> }.",
    );
  const options = auth as McpAuthOptions;
  const unknown = Object.keys(options).filter((key) => !KNOWN_KEYS.has(key));
  if (unknown.length > 0)
    throw new TypeError(
      `auth has no option ${unknown.map((key) => JSON.stringify(key)).join(", ")}; the options are ` +
        `${[...KNOWN_KEYS].join(", ")}.`,
    );

  const issuerUrl = secureUrl("auth.issuer", options.issuer, "the authorization server's issuer URL");
  if (issuerUrl.search !== "" || issuerUrl.hash !== "")
    throw new TypeError(
      `auth.issuer must have no query or fragment (RFC 8414); got ${JSON.stringify(options.issuer)}.`,
    );
  const resource = secureUrl("auth.resource", options.resource, "this MCP server's URL as clients reach it");
  if (resource.search !== "" || resource.hash !== "")
    throw new TypeError(
      `auth.resource must have no query or fragment: it is the server's canonical URL (RFC 8707), e.g. ` +
        `"https://tools.example.com/mcp"; got ${JSON.stringify(options.resource)}.`,
    );

  let audience: readonly string[];
  // The URL as given, and as URL parsers write it (a bare origin gains its "/"), which is what clients send.
  if (options.audience === undefined) audience = Object.freeze([...new Set([options.resource, resource.href])]);
  else {
    const list = typeof options.audience === "string" ? [options.audience] : options.audience;
    if (!Array.isArray(list) || list.length === 0 || list.some((entry) => typeof entry !== "string" || entry === ""))
      throw new TypeError(
        "auth.audience must be a non-empty string or a non-empty list of them (the `aud` values accepted); leave " +
          "it out to accept tokens issued for auth.resource.",
      );
    audience = Object.freeze([...list]);
  }

  if (options.introspect !== undefined) {
    if (typeof options.introspect !== "function")
      throw new TypeError("auth.introspect must be a function (token) => Promise<claims | undefined>.");
    const jwtOnly = (["jwksUri", "algorithms"] as const).filter((key) => options[key] !== undefined);
    if (jwtOnly.length > 0)
      throw new TypeError(
        `auth.${jwtOnly.join(" and auth.")} ${jwtOnly.length === 1 ? "applies" : "apply"} to JWT access tokens, ` +
          "which auth.introspect replaces: drop one or the other.",
      );
  }

  const jwksUri =
    options.jwksUri === undefined ? undefined : secureUrl("auth.jwksUri", options.jwksUri, "the issuer's JWKS URL");

  let algorithms = ASYMMETRIC_ALGORITHMS;
  if (options.algorithms !== undefined) {
    const list = options.algorithms as unknown;
    if (!Array.isArray(list) || list.length === 0 || list.some((alg) => typeof alg !== "string"))
      throw new TypeError(
        `auth.algorithms must be a non-empty list of JWS algorithms, e.g. ["RS256"]; the default accepts ` +
          `${ASYMMETRIC_ALGORITHMS.join(", ")}.`,
      );
    const refused = (list as string[]).filter((alg) => !ASYMMETRIC_ALGORITHMS.includes(alg));
    if (refused.length > 0)
      throw new TypeError(
        `auth.algorithms: ${refused.join(", ")} ${refused.length === 1 ? "is" : "are"} not accepted. Access ` +
          "tokens must be signed with the issuer's private key: none and the HMAC algorithms (HS*) are refused. " +
          `Pick from ${ASYMMETRIC_ALGORITHMS.join(", ")}.`,
      );
    algorithms = Object.freeze([...(list as string[])]);
  }

  const clockTolerance = options.clockTolerance ?? DEFAULT_CLOCK_TOLERANCE;
  if (typeof clockTolerance !== "number" || !Number.isFinite(clockTolerance) || clockTolerance < 0)
    throw new TypeError(
      `auth.clockTolerance must be a number of seconds, 0 or more (default ${DEFAULT_CLOCK_TOLERANCE}); got ` +
        `${String(options.clockTolerance)}.`,
    );

  const requiredScopes = scopeList("auth.requiredScopes", options.requiredScopes);
  const scopesSupported =
    options.scopesSupported === undefined ? requiredScopes : scopeList("auth.scopesSupported", options.scopesSupported);

  if (options.resourceName !== undefined && (typeof options.resourceName !== "string" || options.resourceName === ""))
    throw new TypeError("auth.resourceName must be a non-empty string: this server's name for people.");
  let resourceDocumentation: string | undefined;
  if (options.resourceDocumentation !== undefined) {
    resourceDocumentation = absoluteUrl(
      "auth.resourceDocumentation",
      options.resourceDocumentation,
      "a URL of documentation for developers",
    ).href;
  }

  return {
    issuer: options.issuer,
    resource,
    audience,
    jwksUri,
    algorithms,
    clockTolerance,
    requiredScopes,
    scopesSupported,
    resourceName: options.resourceName,
    resourceDocumentation,
    introspect: options.introspect,
  };
}

/** Whether a URL's host is this machine's (where plain `http:` is allowed). */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, "");
  return host === "localhost" || host.endsWith(".localhost") || host === "::1" || /^127(?:\.\d{1,3}){3}$/.test(host);
}

function absoluteUrl(name: string, value: unknown, what: string): URL {
  if (typeof value !== "string" || value === "")
    throw new TypeError(`${name} must be ${what}, a string; got ${value === "" ? "an empty string" : typeof value}.`);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new TypeError(`${name} must be ${what}, an absolute URL; got ${JSON.stringify(value)}.`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:")
    throw new TypeError(`${name} must be an https: URL (${what}); got ${JSON.stringify(value)}.`);
  return url;
}

/** An `https:` URL, or an `http:` one on this machine (development). */
export function secureUrl(name: string, value: unknown, what: string): URL {
  const url = absoluteUrl(name, value, what);
  if (url.protocol === "http:" && !isLoopbackHost(url.hostname))
    throw new TypeError(
      `${name} must be an https: URL (${what}); plain http: is allowed only for this machine (localhost, ` +
        `127.0.0.1, [::1]). Got ${JSON.stringify(value)}.`,
    );
  return url;
}

function scopeList(name: string, value: unknown): readonly string[] {
  if (value === undefined) return Object.freeze([]);
  if (!Array.isArray(value) || value.some((scope) => typeof scope !== "string" || !SCOPE_TOKEN.test(scope)))
    throw new TypeError(
      `${name} must be a list of OAuth scope names without spaces, e.g. ["mcp:tools"]; got ${JSON.stringify(value)}.`,
    );
  return Object.freeze([...new Set(value as string[])]);
}
