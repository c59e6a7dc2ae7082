import { toolMethodsOf, type ToolMethodRecord } from "../decorators/metadata";
import type { ManifestSource } from "../manifest/load";
import type { MethodInvoker } from "../runtime/decorated";
import { scanPrototype } from "../scanner/scan-tools";
import { primitiveMethodsOf } from "../decorators/primitive-metadata";
import { scanPrimitives, type Primitive } from "../scanner/scan-primitives";
import type { Tool } from "../core/types";

/** The `@Tool` methods of a prototype chain as `scanTools` sees them: nearest declaration wins. */
export function effectiveToolMethods(prototype: object | null | undefined): ToolMethodRecord[] {
  return toolMethodsOf(prototype).map(({ record }) => record);
}

/** Whether a provider's class has anything for the toolkit: tools, resources or prompts. */
export function servesToolkit(prototype: object | null | undefined): boolean {
  return effectiveToolMethods(prototype).length > 0 || primitiveMethodsOf(prototype).length > 0;
}

/** Every object of a prototype chain, Object.prototype excluded. */
export function prototypeChain(prototype: object | null | undefined): object[] {
  const chain: object[] = [];
  for (let current = prototype; current && current !== Object.prototype; current = Object.getPrototypeOf(current))
    chain.push(current);
  return chain;
}

export interface ProviderTools {
  tools: Tool[];
  /** Its `@Resource`, `@ResourceTemplate` and `@Prompt` methods, run through the same pipeline. */
  primitives: Primitive[];
  /** Tool name → the method it runs. */
  methods: Map<string, string>;
}

export interface ProviderToolsOptions {
  /** Runs each call: resolves the instance and runs the method through Nest's pipeline. */
  invoke: MethodInvoker;
  /** Put before every tool name, e.g. `"billing_"`. */
  namePrefix?: string;
  /** The manifest of `toolnexus generate`, resolved once for the whole application. */
  manifest: ManifestSource | undefined;
}

/** The tools of one provider, built by the core scanner from its class's metadata (and the manifest). */
export function providerTools(prototype: object, options: ProviderToolsOptions): ProviderTools {
  const { invoke, namePrefix, manifest } = options;
  // A provider may serve only resources and prompts.
  const tools =
    effectiveToolMethods(prototype).length === 0
      ? []
      : scanPrototype(prototype, { invoke, manifest: manifest ?? false, ...(namePrefix ? { namePrefix } : {}) });
  const primitives = scanPrimitives(prototype, { invoke });
  const byName = new Map(
    effectiveToolMethods(prototype).map((record) => [
      (namePrefix ?? "") + (record.options.name ?? record.propertyKey),
      record.propertyKey,
    ]),
  );
  return { tools, primitives, methods: new Map(tools.map((tool) => [tool.name, byName.get(tool.name) ?? "?"])) };
}

/** `BillingModule` → `billing`, `UserAccountsModule` → `user_accounts`, `HTTPToolsModule` → `http_tools`. */
export function prefixFromModuleName(name: string): string {
  return name
    .replace(/Module$/, "")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1_$2")
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .toLowerCase();
}
