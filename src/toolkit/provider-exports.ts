import type { ToolContext } from "../core/types";
import type { ArgumentsDecoder } from "../pipeline/call-pipeline";
import {
  codecOf,
  defaultBinding,
  exportTools,
  type Export,
  type ExportBinding,
  type ExportOptions,
  type LoweringCache,
  type ProviderAdapter,
} from "../providers/adapter";
import { decodeWith } from "../providers/codec";
import type { ToolRegistry } from "./tool-registry";

/** At most this many provider-and-options pairs keep their lowerings (the oldest is dropped first). */
const MAX_LOWERING_CACHES = 32;

interface LatestExport {
  options: ExportOptions;
  /**
   * The export itself, kept for its binding; left out while tools are hidden per ctx (the binding is then made from
   * every tool).
   */
  made?: { readonly binding: ExportBinding };
}

/**
 * A toolkit's exports, and per provider the options of the latest one and the binding its
 * calls are read with (exported names → tools, and the way back for their arguments).
 */
export class ProviderExports {
  readonly #registry: ToolRegistry;
  readonly #latest = new Map<string, LatestExport>();
  /** Each tool's lowering, per provider and export options: exported again, a tool is not lowered again. */
  readonly #lowerings = new Map<string, LoweringCache>();

  constructor(registry: ToolRegistry) {
    this.#registry = registry;
  }

  /**
   * The declarations of the tools visible to `options.ctx` (an empty ctx when left out). The
   * options are remembered for reading calls; the binding is made from every tool, so that a
   * call is answered by the toolkit's own checks (a hidden tool: unknown), never by a missing name.
   */
  export<D, O extends ExportOptions>(adapter: ProviderAdapter<D, O>, options: O): Export<D> {
    const { ctx, ...kept } = options as O & { ctx?: ToolContext };
    const made = exportTools(adapter, this.#registry.tools(ctx ?? {}), options, this.#loweringsFor(adapter, options));
    this.#latest.set(adapter.id, this.#registry.hides ? { options: kept } : { options: kept, made });
    return made;
  }

  /** The options of the latest export for `adapter` (how its results are fitted), or none. */
  optionsOf(adapter: ProviderAdapter): ExportOptions {
    return this.#latest.get(adapter.id)?.options ?? {};
  }

  /** The binding of the latest export for `adapter`, or of the default one; never throws. */
  binding(adapter: ProviderAdapter): ExportBinding {
    const latest = this.#latest.get(adapter.id) ?? { options: {} };
    if (latest.made === undefined) {
      const tools = this.#registry.tools();
      try {
        latest.made = exportTools(adapter, tools, latest.options, this.#loweringsFor(adapter, latest.options));
      } catch {
        // Names the provider rejects, or a schema it cannot take: calls still run by tool name.
        latest.made = { binding: defaultBinding(adapter, tools) };
      }
      this.#latest.set(adapter.id, latest);
    }
    return latest.made.binding;
  }

  /** How calls of `toolName` are read back for `adapter` (the way back of its export), if they need it. */
  decoderFor(adapter: ProviderAdapter, toolName: string): ArgumentsDecoder | undefined {
    for (const bound of this.binding(adapter).values()) {
      if (bound.tool !== toolName) continue;
      const codec = codecOf(bound);
      return codec === undefined ? undefined : (args) => decodeWith(codec, args);
    }
    return undefined;
  }

  /** The lowerings kept for `adapter` with the options its lowering reads, or none when they cannot be told apart. */
  #loweringsFor(adapter: ProviderAdapter, options: ExportOptions): LoweringCache | undefined {
    const key = cacheKey(adapter, options);
    if (key === undefined) return undefined;
    let cache = this.#lowerings.get(key);
    if (cache === undefined) {
      if (this.#lowerings.size >= MAX_LOWERING_CACHES) this.#lowerings.delete(this.#lowerings.keys().next().value!);
      this.#lowerings.set(key, (cache = new Map()));
    }
    return cache;
  }

  /** The tools changed: every binding is made again when next needed (the options stay). */
  forgetBindings(): void {
    for (const latest of this.#latest.values()) delete latest.made;
  }
}

/**
 * The lowering cache's key: the provider, and the value of each option its lowering reads (read
 * as the options give them, through getters and prototypes alike); `undefined` when the provider
 * does not say which options it reads, or their values are no JSON.
 */
function cacheKey(adapter: ProviderAdapter, options: ExportOptions): string | undefined {
  const read = adapter.loweringOptions;
  if (read === undefined) return undefined;
  try {
    const values = read.map((key) => (options as Record<string, unknown>)[key] ?? null);
    return `${adapter.id}\n${JSON.stringify(values)}`;
  } catch {
    return undefined;
  }
}
