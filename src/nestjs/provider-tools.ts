import { toolMethodsOf, type ToolMethodRecord } from "../decorators/metadata";
import type { ManifestSource } from "../manifest/load";
import { CALL_RECEIVER } from "../runtime/decorated";
import { scanTools } from "../scanner/scan-tools";
import type { Tool, ToolContext } from "../types";

/** Produces the object a call runs on: an instance resolved for the call. */
export type Receiver = (ctx: ToolContext) => unknown;

/** The `@Tool` methods of a prototype chain as `scanTools` sees them: nearest declaration wins. */
export function effectiveToolMethods(prototype: object | null | undefined): ToolMethodRecord[] {
  return toolMethodsOf(prototype).map(({ record }) => record);
}

/** Every object of a prototype chain, Object.prototype excluded. */
export function prototypeChain(prototype: object | null | undefined): object[] {
  const chain: object[] = [];
  for (let current = prototype; current && current !== Object.prototype; current = Object.getPrototypeOf(current)) chain.push(current);
  return chain;
}

export interface ProviderTools {
  tools: Tool[];
  /** Tool name → the method it runs. */
  methods: Map<string, string>;
}

export interface ProviderToolsOptions {
  /** The DI-created instance (singleton and transient providers): tools are bound to it. */
  instance?: object;
  /** Request-scoped providers: no instance exists; each call runs on what this resolves. */
  receiver?: Receiver;
  /** Put before every tool name, e.g. `"billing_"`. */
  namePrefix?: string;
  /** The manifest of `toolnexus generate`, resolved once for the whole application. */
  manifest: ManifestSource | undefined;
}

/**
 * The tools of one provider, built by the core scanner from the class metadata (and the
 * manifest). With an instance, `scanTools(instance)`. Without one (request scope), a stand-in
 * is scanned: an object whose prototype is the provider's (so the scanner sees exactly the
 * class, its methods and its metadata, and no constructor runs) and whose `CALL_RECEIVER`
 * gives the instance each call runs on.
 */
export function providerTools(prototype: object, options: ProviderToolsOptions): ProviderTools {
  const { instance, receiver, namePrefix, manifest } = options;
  let target: object;
  if (receiver !== undefined) {
    target = Object.create(prototype) as object;
    Object.defineProperty(target, CALL_RECEIVER, { value: receiver });
  } else if (instance !== undefined) {
    target = instance;
  } else {
    throw new TypeError("providerTools needs an instance or a receiver.");
  }
  const tools = scanTools(target, { manifest: manifest ?? false, ...(namePrefix ? { namePrefix } : {}) });
  const byName = new Map(effectiveToolMethods(prototype).map((record) => [(namePrefix ?? "") + (record.options.name ?? record.propertyKey), record.propertyKey]));
  return { tools, methods: new Map(tools.map((tool) => [tool.name, byName.get(tool.name) ?? "?"])) };
}

/** `BillingModule` → `billing`, `UserAccountsModule` → `user_accounts`, `HTTPToolsModule` → `http_tools`. */
export function prefixFromModuleName(name: string): string {
  return name
    .replace(/Module$/, "")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1_$2")
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .toLowerCase();
}
