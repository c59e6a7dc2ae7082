import type { ToolMiddleware } from "../control/middleware";
import type { InjectionToken, ModuleMetadata, OptionalFactoryDependency } from "@nestjs/common";
import type { Constructor } from "../decorators/metadata";
import type { ManifestOption } from "../manifest/load";
import type { McpHttpOptions } from "../mcp";
import type { ToolkitOptions } from "../toolkit";
import type { Tool } from "../core/types";

/** Injection token of the options `ToolnexusModule.forRoot` / `forRootAsync` received. */
export const TOOLNEXUS_OPTIONS = Symbol.for("toolnexus.nestjs.options");

/** Injection token of the manifest the module resolved (a `ManifestSource`, or null for none). */
export const TOOLNEXUS_MANIFEST = Symbol.for("toolnexus.nestjs.manifest");

/** The `ToolContext.state` key a request-scoped provider's tools read the current request from. */
export const REQUEST_STATE_KEY = "request";

/** Where a discovered provider lives, as `prefix` and the report see it. */
export interface ProviderLocation {
  /** The module class that declares the provider (the one in whose `providers` it is listed). */
  module: Function;
  /** The provider's class. */
  provider: Function;
}

/**
 * Tool name prefixes per module: the tool `refund` of a provider in `BillingModule` becomes
 * `billing_refund`.
 * - `true`: from the module's class name, `BillingModule` → `billing`, `UserAccountsModule` → `user_accounts`;
 * - a `Map` from module class to prefix (modules not in it get none);
 * - a function of the provider's location returning the prefix, or `undefined` for none.
 */
export type ToolPrefixOption =
  boolean | ReadonlyMap<Function, string> | ((location: ProviderLocation) => string | undefined);

/**
 * The MCP endpoint, served by a Nest controller at `path`: every option of
 * `createMcpHttpHandler` from `toolnexus/mcp` (`allowedHosts`, `token`, `auth`, `name`, ...)
 * besides. The tools' `ctx.state` gets the request as `state.request` and the user a guard
 * authenticated (`request.user`) as `state.user`, next to what your own `state(request)` returns
 * (and, with `auth`, the caller's access token as `state.auth`). With `auth`, the
 * protected-resource metadata is served at `/.well-known/oauth-protected-resource` followed by
 * `auth.resource`'s path (which includes the global prefix: `https://api.example.com/api/mcp`),
 * registered on the HTTP adapter itself, outside the global prefix, guards and interceptors.
 */
export interface ToolnexusMcpOptions extends Omit<McpHttpOptions, "state"> {
  /** The controller's route, e.g. `"/mcp"`; the application's global prefix applies (`/api/mcp`). */
  path: string;
  /**
   * Host data for the tools (`ctx.state`) from the request the adapter gives (Express's
   * `Request`, Fastify's `FastifyRequest`), after Nest's middleware and guards ran on it.
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  state?: (request: any) => Record<string, unknown> | undefined | Promise<Record<string, unknown> | undefined>;
}

export interface ToolnexusModuleOptions {
  /**
   * Only providers whose class, or whose module's class, is listed here give tools. Default:
   * every provider of every module.
   */
  include?: readonly Constructor[];
  /** Providers whose class, or whose module's class, is listed here give no tools (wins over `include`). */
  exclude?: readonly Constructor[];
  /** Prefix tool names per module; see `ToolPrefixOption`. Default: no prefix. */
  prefix?: ToolPrefixOption;
  /** Tools that are not on providers (e.g. `defineTool(...)`), added to the same toolkit. */
  tools?: readonly Tool[];
  /** The toolkit's default timeout in milliseconds, or `false` for none (`new Toolkit(items, { timeout })`). */
  timeout?: number | false;
  /** Told about every failed call (`new Toolkit(items, { onError })`). */
  onError?: ToolkitOptions["onError"];
  /** What the model reads when a tool throws (`new Toolkit(items, { errorText })`). */
  errorText?: ToolkitOptions["errorText"];
  /** Decides calls that need approval (`new Toolkit(items, { approve })`). */
  approve?: ToolkitOptions["approve"];
  /** Milliseconds `approve` has to answer a call (`new Toolkit(items, { approvalTimeout })`). */
  approvalTimeout?: number | false;
  /** Every tool annotated `destructive` needs approval. */
  approveDestructive?: boolean;
  /** Which tools exist for a ctx (`new Toolkit(items, { visible })`). */
  visible?: ToolkitOptions["visible"];
  /** Whether a call may run (`new Toolkit(items, { authorize })`). */
  authorize?: ToolkitOptions["authorize"];
  /** OpenTelemetry spans (`new Toolkit(items, { tracing })`). */
  tracing?: ToolkitOptions["tracing"];
  /** Wraps every call, outermost first (`toolkit.use(...)` for each). */
  middleware?: readonly ToolMiddleware[];
  /**
   * The manifest written by `toolnexus generate` (a path, the object, or `false` for none),
   * used for every provider's tools and given to the toolkit. A relative path (here or in
   * `$TOOLNEXUS_MANIFEST`) is resolved from the working directory; pass an absolute path (e.g.
   * `join(__dirname, "toolnexus.manifest.json")`) to be independent of it. Left out: as for
   * `new Toolkit`, `$TOOLNEXUS_MANIFEST` if set, else `toolnexus.manifest.json` found next to
   * each provider class's code (the directory of the file defining it or one above, up to its
   * package root; that search never uses the working directory). Resolved once, at startup.
   */
  manifest?: ManifestOption;
  /** Serve the toolkit over MCP (streamable HTTP) from a controller of the application. */
  mcp?: ToolnexusMcpOptions;
  /**
   * Warn at startup about classes whose `@Tool` decorators ran but that no module provides.
   * Default true.
   */
  warnUnregistered?: boolean;
}

export interface ToolnexusModuleAsyncOptions extends Pick<ModuleMetadata, "imports"> {
  /**
   * The MCP endpoint's route. Routes are fixed before factories run, so the path is given here;
   * the factory's `mcp` gives the endpoint's other options (its `path`, if any, must be the same).
   */
  mcp?: { path: string };
  /** Providers handed to `useFactory`, in order. */
  inject?: Array<InjectionToken | OptionalFactoryDependency>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  useFactory: (...args: any[]) => ToolnexusModuleOptions | Promise<ToolnexusModuleOptions>;
}
