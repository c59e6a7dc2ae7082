import { Inject, Injectable, Logger, type OnModuleInit } from "@nestjs/common";
import { DiscoveryService, ExternalContextCreator, ModuleRef } from "@nestjs/core";
import { decoratedClasses, wasScanned } from "../decorators/metadata";
import { DuplicateToolError, ScanError } from "../core/errors";
import { ManifestError } from "../manifest/errors";
import type { ManifestSource } from "../manifest/load";
import { Toolkit } from "../toolkit";
import type { Tool, ToolContext } from "../core/types";
import { TOOLNEXUS_MANIFEST, TOOLNEXUS_OPTIONS, REQUEST_STATE_KEY, type ToolnexusModuleOptions } from "./options";
import {
  effectiveToolMethods,
  prefixFromModuleName,
  providerTools,
  prototypeChain,
  servesToolkit,
} from "./provider-tools";
import type { Primitive } from "../scanner/scan-primitives";
import { RequestContexts } from "./request-scope";
import { ToolPipeline } from "./tool-pipeline";

/** A provider as `DiscoveryService` lists it (Nest's InstanceWrapper, typed without importing Nest's internals). */
type ProviderWrapper = ReturnType<DiscoveryService["getProviders"]>[number];
type HostModule = NonNullable<ProviderWrapper["host"]>;

/** How the tools of a provider reach an instance. */
export type ToolScope = "singleton" | "request" | "transient";

/** One tool the module found, as the startup report logs it. */
export interface DiscoveredTool {
  /** The tool's name in the toolkit (prefix included). */
  name: string;
  /** The provider's class name. */
  provider: string;
  /** The method the tool runs. */
  method: string;
  /** The class name of the module that declares the provider. */
  module: string;
  /**
   * `singleton`: bound to the DI-created instance; `request`: the provider (or something it
   * depends on) is request-scoped, so each call resolves the instance for the call's request;
   * `transient`: the toolkit's own instance, resolved once at startup.
   */
  scope: ToolScope;
}

/** The `provider` reported for tools given in the `tools` option. */
const OPTIONS_TOOLS = "(options.tools)";

interface Found extends DiscoveredTool {
  tool: Tool;
}

/**
 * Finds the `@Tool` methods of every provider when the application initializes, registers them
 * in the injectable `Toolkit` (each call running through Nest's pipeline for its method), and
 * logs what it found.
 * `ToolnexusModule` is global, so this runs before the `onModuleInit` of the application's own
 * (non-global) modules: from there on the toolkit is complete.
 */
@Injectable()
export class ToolnexusExplorer implements OnModuleInit {
  private readonly logger = new Logger("Toolnexus");
  #discovered: DiscoveredTool[] = [];
  readonly #pipeline: ToolPipeline;
  readonly #requestContexts = new RequestContexts();

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly toolkit: Toolkit,
    @Inject(TOOLNEXUS_OPTIONS) private readonly options: ToolnexusModuleOptions,
    @Inject(TOOLNEXUS_MANIFEST) private readonly manifest: ManifestSource | null,
    contextCreator: ExternalContextCreator,
  ) {
    this.#pipeline = new ToolPipeline(contextCreator);
  }

  /** What was found at startup, in registration order. */
  get discovered(): readonly DiscoveredTool[] {
    return this.#discovered;
  }

  async onModuleInit(): Promise<void> {
    const { found, primitives } = await this.#discover();
    const extra = (this.options.tools ?? []).map((tool) => ({
      tool,
      name: tool.name,
      provider: OPTIONS_TOOLS,
      method: "-",
      module: "ToolnexusModule",
      scope: "singleton" as const,
    }));
    const all = [...found, ...extra];
    assertUniqueNames(all);
    this.toolkit.register(...all.map((entry) => entry.tool), ...primitives);
    this.#discovered = all.map(({ tool: _tool, ...report }) => report);
    for (const { name, provider, method, module, scope } of found) {
      this.logger.log(
        `Tool "${name}" → ${provider}.${method} ` +
          `(${module}${scope === "singleton" ? "" : scope === "request" ? ", request-scoped" : ", transient"})`,
      );
    }
    this.logger.log(`${this.toolkit.size} tool${this.toolkit.size === 1 ? "" : "s"} in the toolkit`);
    if (this.options.warnUnregistered !== false) this.#warnUnregistered();
  }

  async #discover(): Promise<{ found: Found[]; primitives: Primitive[] }> {
    const found: Found[] = [];
    const primitives: Primitive[] = [];
    const seen = new Set<object>();
    for (const wrapper of this.discovery.getProviders()) {
      const host = wrapper.host;
      if (wrapper.isAlias || host === undefined) continue;
      const candidate = describeProvider(wrapper);
      if (candidate === undefined || seen.has(candidate.identity)) continue;
      seen.add(candidate.identity);
      if (!servesToolkit(candidate.prototype)) continue;
      const location = { module: host.metatype, provider: candidate.providerClass };
      if (!this.#selected(location)) {
        this.logger.debug(
          `Skipped ${candidate.providerClass.name} (${host.metatype.name}): excluded by the include/exclude options`,
        );
        continue;
      }
      const prefix = this.#prefixFor(location);
      const namePrefix = prefix ? `${prefix}_` : undefined;
      const common = { manifest: this.manifest ?? undefined, ...(namePrefix ? { namePrefix } : {}) };
      const where = `${candidate.providerClass.name} (provider of ${host.metatype.name})`;
      let scan: ReturnType<typeof providerTools>;
      try {
        if (candidate.scope === "singleton") {
          scan = providerTools(candidate.prototype, {
            ...common,
            invoke: this.#pipeline.forInstance(candidate.instance!),
          });
        } else if (candidate.scope === "transient") {
          const instance = (await moduleRefOf(host).resolve(wrapper.token, undefined, { strict: true })) as object;
          scan = providerTools(candidate.prototype, { ...common, invoke: this.#pipeline.forInstance(instance) });
        } else {
          scan = providerTools(candidate.prototype, {
            ...common,
            invoke: this.#pipeline.forEachCall(this.#requestScoped(wrapper, host)),
          });
        }
      } catch (error) {
        // Same error class, with the provider and its module in front (ManifestError is a ScanError).
        if (error instanceof ManifestError) throw new ManifestError(`${where}: ${error.message}`);
        if (error instanceof ScanError) throw new ScanError(`${where}: ${error.message}`);
        throw error;
      }
      primitives.push(...scan.primitives);
      for (const tool of scan.tools) {
        found.push({
          tool,
          name: tool.name,
          provider: candidate.providerClass.name,
          method: scan.methods.get(tool.name)!,
          module: host.metatype.name,
          scope: candidate.scope,
        });
      }
    }
    return { found, primitives };
  }

  /**
   * Each call of a request-scoped provider's tools resolves the provider in the DI sub-tree of
   * the call's request (`ctx.state.request`: the MCP request, or what the caller passed).
   */
  #requestScoped(wrapper: ProviderWrapper, host: HostModule) {
    const moduleRef = moduleRefOf(host);
    const durable = wrapper.isDependencyTreeDurable();
    return async (ctx: ToolContext) => {
      const contextId = this.#requestContexts.contextIdFor(ctx.state?.[REQUEST_STATE_KEY], moduleRef, durable);
      const instance = (await moduleRef.resolve(wrapper.token, contextId, { strict: true })) as object;
      return { instance, contextId, inquirerId: wrapper.id };
    };
  }

  #selected({ module, provider }: { module: Function; provider: Function }): boolean {
    const listed = (list: readonly Function[] | undefined) =>
      list !== undefined && (list.includes(module) || list.includes(provider));
    if (listed(this.options.exclude)) return false;
    return this.options.include === undefined || listed(this.options.include);
  }

  #prefixFor(location: { module: Function; provider: Function }): string | undefined {
    const option = this.options.prefix;
    let prefix: string | undefined;
    if (option === true) prefix = prefixFromModuleName(location.module.name);
    else if (option instanceof Map) prefix = option.get(location.module);
    else if (typeof option === "function") prefix = option(location);
    if (prefix !== undefined && typeof prefix !== "string") {
      throw new TypeError(
        `ToolnexusModule prefix for ${location.module.name}: expected a string, got ${typeof prefix}.`,
      );
    }
    return prefix || undefined;
  }

  /**
   * Classes whose `@Tool` decorators ran but that no module provides and whose instances were
   * never scanned: their tools are in no toolkit. A class already scanned outside Nest
   * (`new Toolkit([new X()])`, `scanTools`) is in use, not forgotten.
   */
  #warnUnregistered(): void {
    const providers = new Set<object>();
    for (const wrapper of this.discovery.getProviders()) {
      if (wrapper.isAlias) continue;
      const candidate = describeProvider(wrapper);
      if (candidate) for (const prototype of prototypeChain(candidate.prototype)) providers.add(prototype);
    }
    const controllers = new Set<object>();
    for (const wrapper of this.discovery.getControllers()) {
      if (typeof wrapper.metatype === "function")
        for (const prototype of prototypeChain(wrapper.metatype.prototype as object)) controllers.add(prototype);
    }
    for (const cls of decoratedClasses()) {
      const prototype = cls.prototype as object;
      if (providers.has(prototype) || (wasScanned(cls) && !controllers.has(prototype))) continue;
      const methods = effectiveToolMethods(prototype)
        .map((record) => record.propertyKey)
        .join(", ");
      this.logger.warn(
        controllers.has(prototype)
          ? `${cls.name} has @Tool methods (${methods}) but is a controller: tools are discovered on providers only. ` +
              "Move the methods to an @Injectable() provider."
          : `${cls.name} has @Tool methods (${methods}) but is not a provider of any module, so its tools are not in ` +
              "the toolkit. Add it to a module's providers (request-scoped factory providers cannot be discovered: " +
              "use a class provider), or, if its instances are given to a Toolkit outside Nest only after startup, " +
              "set warnUnregistered: false.",
      );
    }
  }
}

interface Candidate {
  /** What identifies the provider once (its instance, or its wrapper when there is no instance yet). */
  identity: object;
  prototype: object;
  providerClass: Function;
  scope: ToolScope;
  instance?: object;
}

/** What a provider is, as far as tools go; undefined when it cannot carry any. */
function describeProvider(wrapper: ProviderWrapper): Candidate | undefined {
  const isClass = typeof wrapper.metatype === "function" && !wrapper.inject;
  const isStatic = wrapper.isDependencyTreeStatic();
  if (isStatic && !wrapper.isTransient) {
    const instance: unknown = wrapper.instance;
    if (typeof instance !== "object" || instance === null) return undefined;
    const prototype = Object.getPrototypeOf(instance) as object | null;
    if (prototype === null) return undefined;
    return {
      identity: instance,
      prototype,
      providerClass: prototype.constructor ?? Object,
      scope: "singleton",
      instance,
    };
  }
  // Request-scoped or transient: no instance exists yet; the class says what its tools are.
  if (!isClass) return undefined;
  const metatype = wrapper.metatype as Function;
  return {
    identity: wrapper,
    prototype: metatype.prototype as object,
    providerClass: metatype,
    scope: isStatic ? "transient" : "request",
  };
}

function moduleRefOf(host: HostModule): ModuleRef {
  return host.getProviderByKey(ModuleRef).instance as ModuleRef;
}

/** One error naming every clash: the tool, and each provider with its method and module. */
function assertUniqueNames(entries: Found[]): void {
  const byName = new Map<string, Found[]>();
  for (const entry of entries) byName.set(entry.name, [...(byName.get(entry.name) ?? []), entry]);
  const clashes = [...byName.entries()].filter(([, list]) => list.length > 1);
  if (clashes.length === 0) return;
  const lines = clashes.map(
    ([name, list]) =>
      `- "${name}": ` +
      list
        .map((e) =>
          e.provider === OPTIONS_TOOLS
            ? "the tools option of ToolnexusModule"
            : `${e.provider}.${e.method} (module ${e.module})`,
        )
        .join(" and "),
  );
  throw new DuplicateToolError(
    [
      `ToolnexusModule found ${clashes.length === 1 ? "a tool name" : "tool names"} declared more than once:`,
      ...lines,
      "Tool names must be unique in a toolkit. Rename one with @Tool({ name }), prefix names per module " +
        "(ToolnexusModule.forRoot({ prefix: true })), or leave one provider out (exclude: [TheProvider]).",
    ].join("\n"),
  );
}
