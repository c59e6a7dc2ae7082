import type { ToolMiddleware } from "../control/middleware";
import type { InjectionToken, ModuleMetadata, OptionalFactoryDependency } from "@nestjs/common";
import type { Constructor } from "../decorators/metadata";
import type { ManifestOption } from "../manifest/load";
import type { McpHttpOptions } from "../mcp";
import type { ToolkitOptions } from "../toolkit";
import type { Tool } from "../types";

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
export type ToolPrefixOption = boolean | ReadonlyMap<Function, string> | ((location: ProviderLocation) => string | undefined);

/**
 * The MCP endpoint mounted on the Nest app's own HTTP adapter: `path` plus every option of
 * `createMcpHttpHandler` from `toolnexus/mcp` (`allowedHosts`, `token`, `name`, ...). The
 * HTTP request is always added to the tools' `ctx.state` as `state.request` (next to what your
 * own `state(req)` returns), so request-scoped providers work over MCP too.
 */
export interface ToolnexusMcpOptions extends McpHttpOptions {
  /** The route on the HTTP adapter itself (Nest's global prefix does not apply), e.g. `"/mcp"`. */
  path: string;
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
  /** Mount the streamable HTTP MCP endpoint on the Nest app's own HTTP adapter. */
  mcp?: ToolnexusMcpOptions;
  /**
   * Warn at startup about classes whose `@Tool` decorators ran but that no module provides.
   * Default true.
   */
  warnUnregistered?: boolean;
}

export interface ToolnexusModuleAsyncOptions extends Pick<ModuleMetadata, "imports"> {
  /** Providers handed to `useFactory`, in order. */
  inject?: Array<InjectionToken | OptionalFactoryDependency>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  useFactory: (...args: any[]) => ToolnexusModuleOptions | Promise<ToolnexusModuleOptions>;
}
