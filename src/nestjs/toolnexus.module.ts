import { Module, type DynamicModule, type Provider } from "@nestjs/common";
import { DiscoveryModule } from "@nestjs/core";
import { resolveManifest, type ManifestSource } from "../manifest/load";
import { Toolkit, type ToolkitOptions } from "../toolkit";
import { ToolnexusExplorer } from "./explorer";
import { McpEndpoint } from "./mcp-endpoint";
import { mcpController } from "./mcp.controller";
import {
  TOOLNEXUS_MANIFEST,
  TOOLNEXUS_OPTIONS,
  type ToolnexusModuleAsyncOptions,
  type ToolnexusModuleOptions,
} from "./options";

/**
 * Discovers the `@Tool` methods of every provider of the application and puts them in one
 * injectable `Toolkit` (inject it by its class: `constructor(private readonly toolkit: Toolkit)`).
 * Global: import it once, in the root module.
 */
@Module({})
export class ToolnexusModule {
  static forRoot(options: ToolnexusModuleOptions = {}): DynamicModule {
    return toolnexusModule([{ provide: TOOLNEXUS_OPTIONS, useValue: options }], [], options?.mcp?.path);
  }

  /**
   * Options from a factory, e.g. `{ imports: [ConfigModule], inject: [ConfigService], useFactory: (config) => ({ ... })
   * }`.
   */
  static forRootAsync(options: ToolnexusModuleAsyncOptions): DynamicModule {
    const mcpPath = options.mcp?.path;
    const useFactory = async (...args: unknown[]) => withMcpPath(await options.useFactory(...args), mcpPath);
    return toolnexusModule(
      [{ provide: TOOLNEXUS_OPTIONS, useFactory, inject: options.inject ?? [] }],
      options.imports ?? [],
      mcpPath,
    );
  }
}

function toolnexusModule(
  optionsProviders: Provider[],
  imports: NonNullable<DynamicModule["imports"]>,
  mcpPath: string | undefined,
): DynamicModule {
  const mcp = mcpPath === undefined ? undefined : checkedPath(mcpPath);
  return {
    module: ToolnexusModule,
    global: true,
    imports: [DiscoveryModule, ...imports],
    controllers: mcp === undefined ? [] : [mcpController(mcp)],
    providers: [
      ...optionsProviders,
      { provide: TOOLNEXUS_MANIFEST, useFactory: resolveModuleManifest, inject: [TOOLNEXUS_OPTIONS] },
      { provide: Toolkit, useFactory: createToolkit, inject: [TOOLNEXUS_OPTIONS, TOOLNEXUS_MANIFEST] },
      ToolnexusExplorer,
      ...(mcp === undefined ? [] : [McpEndpoint]),
    ],
    exports: [Toolkit, ToolnexusExplorer],
  };
}

function checkedPath(path: unknown): string {
  if (typeof path !== "string" || path.trim() === "" || /[\s?#]/.test(path)) {
    throw new TypeError(`ToolnexusModule: mcp.path must be a route such as "/mcp"; got ${JSON.stringify(path)}.`);
  }
  return path;
}

/** The factory's options with the route forRootAsync declared (the factory cannot move it). */
function withMcpPath(options: ToolnexusModuleOptions, path: string | undefined): ToolnexusModuleOptions {
  if (options === null || typeof options !== "object")
    throw new TypeError("ToolnexusModule options must be an object.");
  if (options.mcp === undefined && path === undefined) return options;
  if (path === undefined) {
    throw new TypeError(
      "ToolnexusModule.forRootAsync: the factory returned mcp options, but routes are fixed before factories run. " +
        'Declare the route in forRootAsync\'s own options: forRootAsync({ mcp: { path: "/mcp" }, useFactory, ... }).',
    );
  }
  if (options.mcp?.path !== undefined && options.mcp.path !== path) {
    throw new TypeError(
      `ToolnexusModule.forRootAsync: the factory's mcp.path (${JSON.stringify(options.mcp.path)}) differs from the ` +
        `route declared in forRootAsync (${JSON.stringify(path)}); leave it out of the factory.`,
    );
  }
  return { ...options, mcp: { ...options.mcp, path } };
}

/** The manifest, resolved once for the whole application (null: none). */
function resolveModuleManifest(options: ToolnexusModuleOptions): ManifestSource | null {
  if (options === null || typeof options !== "object")
    throw new TypeError("ToolnexusModule options must be an object.");
  return resolveManifest(options.manifest) ?? null;
}

/** The module options that are the toolkit's own, passed as they are. */
const TOOLKIT_OPTIONS = [
  "timeout",
  "onError",
  "errorText",
  "approve",
  "approvalTimeout",
  "approveDestructive",
  "visible",
  "authorize",
  "tracing",
] as const;

/** The toolkit, empty until the explorer registers what it found (at `onModuleInit`). */
function createToolkit(options: ToolnexusModuleOptions, manifest: ManifestSource | null): Toolkit {
  const toolkitOptions: ToolkitOptions = { manifest: manifest ?? false };
  for (const key of TOOLKIT_OPTIONS)
    if (options[key] !== undefined) Object.assign(toolkitOptions, { [key]: options[key] });
  const toolkit = new Toolkit([], toolkitOptions);
  for (const middleware of options.middleware ?? []) toolkit.use(middleware);
  return toolkit;
}
