import type { WithPendingApprovals } from "../control/approval";
import type { ToolContext } from "../core/types";
import { once } from "../runtime/run-contract";
import type { Provider, ProviderAdapter, ProviderTypes } from "./adapter";

/**
 * Every provider, in the order the CLI offers them, by id. The toolkit's `to*` and `run*`
 * methods, the free `to*` functions, `Adapters`, `describeExport`, the CLI's formats and the
 * reply types are all made from this list: adding a provider is its own folder and a line here.
 * Each is loaded when first used, so that naming the formats (the CLI's help) loads none.
 */
const LOADERS = {
  gemini: () => (require("./gemini") as typeof import("./gemini")).gemini,
  openai: () => (require("./openai") as typeof import("./openai")).openai,
  "openai-responses": () => (require("./openai-responses") as typeof import("./openai-responses")).openaiResponses,
  anthropic: () => (require("./anthropic") as typeof import("./anthropic")).anthropic,
  mcp: () => (require("./mcp") as typeof import("./mcp")).mcp,
  bedrock: () => (require("./bedrock") as typeof import("./bedrock")).bedrock,
  ollama: () => (require("./ollama") as typeof import("./ollama")).ollama,
};

/** A provider's id: the CLI's `--format`, `describeExport`'s first argument. */
export type ExportFormat = keyof typeof LOADERS;

export type RegisteredProvider = ReturnType<(typeof LOADERS)[ExportFormat]>;

/** Every provider's id, in the registry's order (no provider is loaded to list them). */
export const EXPORT_FORMATS = Object.freeze(Object.keys(LOADERS)) as readonly ExportFormat[];

/** Every provider by id, each loaded on first access and kept. */
export const ADAPTERS = Object.freeze(
  Object.defineProperties(
    {},
    Object.fromEntries(
      EXPORT_FORMATS.map((format) => [format, { get: once<RegisteredProvider>(LOADERS[format]), enumerable: true }]),
    ),
  ),
) as { readonly [F in ExportFormat]: ReturnType<(typeof LOADERS)[F]> };

/** Every provider, in the registry's order. */
export function registeredProviders(): readonly RegisteredProvider[] {
  return EXPORT_FORMATS.map((format) => ADAPTERS[format]);
}

/** The providers whose calls toolnexus answers (`run*`, resumable approvals). */
export type AnsweringProvider = Extract<RegisteredProvider, { answersCalls: true }>;

export type TypesOf<P> = P extends Provider<string, string, infer T> ? T : never;

type Intersection<U> = (U extends unknown ? (value: U) => void : never) extends (value: infer I) => void ? I : never;

/** Options any format accepts (each format ignores what it has no use for). */
export type AnyExportOptions = Intersection<TypesOf<RegisteredProvider>["options"]>;

/** The reply each provider's `run*` method gives, by provider id: what resuming its approvals gives. */
export type ProviderReplies = { [P in AnsweringProvider as P["id"]]: TypesOf<P>["reply"] };

/**
 * An export as a function of `Params` and the options. Where options choose the declarations'
 * type (Gemini's `{ jsonSchema: true }`), two overloads say which; options are checked as object
 * literals always are (a misspelt option is an error).
 */
export type ExportFunction<T extends ProviderTypes, Params extends unknown[]> = T extends {
  variant: { when: infer When; declarations: infer Variant };
}
  ? {
      (...args: [...Params, options: T["options"] & When]): Variant;
      (...args: [...Params, options?: T["options"]]): T["declarations"];
    }
  : (...args: [...Params, options?: T["options"]]) => T["declarations"];

/** The toolkit's declaration methods: `toGemini(options)` and the rest, one per provider. */
export type ToolkitExporters = { [P in RegisteredProvider as `to${P["name"]}`]: ExportFunction<TypesOf<P>, []> };

/**
 * The toolkit's round trips: `runGemini(response, ctx)` and the rest, for every provider whose
 * calls toolnexus answers. The input type is a type parameter so that a response written by
 * hand, with fields toolnexus does not read, type-checks as it is.
 */
export type ToolkitRunners = {
  [P in AnsweringProvider as `run${P["name"]}`]: <Input extends TypesOf<P>["callsInput"]>(
    input: Input,
    ctx?: ToolContext,
  ) => Promise<WithPendingApprovals<TypesOf<P>["reply"], P["id"]>>;
};

/** The adapter for `format`, or a clear error naming the formats there are. */
export function adapterFor(format: ExportFormat): ProviderAdapter {
  if (!Object.prototype.hasOwnProperty.call(ADAPTERS, format)) {
    throw new TypeError(`Unknown export format "${String(format)}"; use one of: ${Object.keys(ADAPTERS).join(", ")}.`);
  }
  return ADAPTERS[format] as ProviderAdapter;
}

/** The provider whose calls toolnexus answers with this id, if there is one. */
export function answeringProvider(id: string): AnsweringProvider | undefined {
  const provider: RegisteredProvider | undefined = Object.prototype.hasOwnProperty.call(ADAPTERS, id)
    ? ADAPTERS[id as ExportFormat]
    : undefined;
  return provider?.answersCalls === true ? (provider as AnsweringProvider) : undefined;
}

/** The ids of the providers whose calls toolnexus answers. */
export function answeringFormats(): ExportFormat[] {
  return registeredProviders()
    .filter((provider) => provider.answersCalls)
    .map((provider) => provider.id);
}
