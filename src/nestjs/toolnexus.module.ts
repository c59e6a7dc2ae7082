import { Module, type DynamicModule, type Provider } from "@nestjs/common";
import { DiscoveryModule } from "@nestjs/core";
import { resolveManifest, type ManifestSource } from "../manifest/load";
import { Toolkit, type ToolkitOptions } from "../toolkit";
import { ToolnexusExplorer } from "./explorer";
import { TOOLNEXUS_MANIFEST, TOOLNEXUS_OPTIONS, type ToolnexusModuleAsyncOptions, type ToolnexusModuleOptions } from "./options";

/**
 * Discovers the `@Tool` methods of every provider of the application and puts them in one
 * injectable `Toolkit` (inject it by its class: `constructor(private readonly toolkit: Toolkit)`).
 * Global: import it once, in the root module.
 */
@Module({})
export class ToolnexusModule {
  static forRoot(options: ToolnexusModuleOptions = {}): DynamicModule {
    return toolnexusModule([{ provide: TOOLNEXUS_OPTIONS, useValue: options }]);
  }

  /** Options from a factory, e.g. `{ imports: [ConfigModule], inject: [ConfigService], useFactory: (config) => ({ ... }) }`. */
  static forRootAsync(options: ToolnexusModuleAsyncOptions): DynamicModule {
    return toolnexusModule([{ provide: TOOLNEXUS_OPTIONS, useFactory: options.useFactory, inject: options.inject ?? [] }], options.imports ?? []);
  }
}

function toolnexusModule(optionsProviders: Provider[], imports: NonNullable<DynamicModule["imports"]> = []): DynamicModule {
  return {
    module: ToolnexusModule,
    global: true,
    imports: [DiscoveryModule, ...imports],
    providers: [
      ...optionsProviders,
      { provide: TOOLNEXUS_MANIFEST, useFactory: resolveModuleManifest, inject: [TOOLNEXUS_OPTIONS] },
      { provide: Toolkit, useFactory: createToolkit, inject: [TOOLNEXUS_OPTIONS, TOOLNEXUS_MANIFEST] },
      ToolnexusExplorer,
    ],
    exports: [Toolkit, ToolnexusExplorer],
  };
}

/** The manifest, resolved once for the whole application (null: none). */
function resolveModuleManifest(options: ToolnexusModuleOptions): ManifestSource | null {
  if (options === null || typeof options !== "object") throw new TypeError("ToolnexusModule options must be an object.");
  return resolveManifest(options.manifest) ?? null;
}

/** The module options that are the toolkit's own, passed as they are. */
const TOOLKIT_OPTIONS = ["timeout", "onError", "errorText", "approve", "approveDestructive", "visible", "authorize", "tracing"] as const;

/** The toolkit, empty until the explorer registers what it found (at `onModuleInit`). */
function createToolkit(options: ToolnexusModuleOptions, manifest: ManifestSource | null): Toolkit {
  const toolkitOptions: ToolkitOptions = { manifest: manifest ?? false };
  for (const key of TOOLKIT_OPTIONS) if (options[key] !== undefined) Object.assign(toolkitOptions, { [key]: options[key] });
  const toolkit = new Toolkit([], toolkitOptions);
  for (const middleware of options.middleware ?? []) toolkit.use(middleware);
  return toolkit;
}
