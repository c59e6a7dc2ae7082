import { sanitizedName } from "../core/names";
import { isObject, type Tool } from "../core/types";
import { exportTools, type ExportOptions } from "./adapter";
import { adapterFor, type ExportFormat } from "./registry";

/**
 * How tokens were counted. "o200k": OpenAI's o200k encoding, the one its current models use (the formats openai
 * and openai-responses). "o200k-estimate": the same count for a provider whose tokenizer is not public, an
 * estimate of its own. "characters-estimate": gpt-tokenizer is not installed; about four characters a token.
 */
export type TokenMethod = "o200k" | "o200k-estimate" | "characters-estimate";

/** What one tool's declaration entry costs. */
export interface ToolTokens {
  /** The tool's name. */
  tool: string;
  /** The name the format declares it under (another one only with `names: "sanitize"`). */
  name: string;
  /** Tokens of the tool's entry as the format declares it when every tool is declared. */
  tokens: number;
  /** The tool is deferred: found by search, not declared up front. */
  deferred?: true;
  /** Set when no entry under the tool's name was found in the declarations: `tokens` counts its name, description and input schema. */
  located?: false;
}

/** What a format's declarations cost in tokens: per tool, in the first request, and what deferring saves. */
export interface DeclarationTokens {
  method: TokenMethod;
  /** Every tool given, in order. */
  tools: ToolTokens[];
  /**
   * What the request sends into the model's context: the tools declared up front and any search tool. Entries the
   * provider's own tool search keeps out of context (`defer_loading: true`) are not counted.
   */
  declared: number;
  /** What declaring every tool up front would cost. */
  allDeclared: number;
  /**
   * The share of `allDeclared` that deferring saves: 0 with nothing deferred, below 0 when the search tool costs
   * more than the tools it stands in for.
   */
  deferredSaving: number;
}

/** Counts the tokens of a text for one format, and says how. */
export interface TokenCounter {
  method: TokenMethod;
  count(text: string): number;
}

/** The formats whose provider tokenizes with o200k: for them the count is the provider's own. */
const O200K_FORMATS: ReadonlySet<string> = new Set<ExportFormat>(["openai", "openai-responses"]);

/** A rough rule for text that is mostly English words and JSON punctuation. */
const CHARACTERS_PER_TOKEN = 4;

let o200k: { count: ((text: string) => number) | undefined } | undefined;

/**
 * gpt-tokenizer's o200k counter, required once per process: an optional peer (55 MB, half a second to load), so
 * the core neither needs it nor loads it before a count is asked for.
 */
function o200kCounter(): ((text: string) => number) | undefined {
  if (o200k === undefined) {
    let count: ((text: string) => number) | undefined;
    try {
      const loaded = require("gpt-tokenizer/encoding/o200k_base") as { countTokens?: unknown } | undefined;
      if (typeof loaded?.countTokens === "function") count = loaded.countTokens as (text: string) => number;
    } catch {
      // not installed, or it failed to load: counts are estimated from characters
    }
    o200k = { count };
  }
  return o200k.count;
}

/** The counter for `format`: o200k where gpt-tokenizer is installed, else a character estimate. */
export function tokenCounter(format: ExportFormat): TokenCounter {
  const count = o200kCounter();
  if (count === undefined)
    return { method: "characters-estimate", count: (text) => Math.ceil(text.length / CHARACTERS_PER_TOKEN) };
  return { method: O200K_FORMATS.has(format) ? "o200k" : "o200k-estimate", count };
}

/**
 * What `declarations` (an export of `tools` for `format` with `options`) cost in tokens. Each tool's entry is
 * found by the name it is declared under, whatever shape the format gives it; deferred tools are counted as every
 * tool would be declared, from an export of the same tools with nothing deferred. Counts the compact JSON text a
 * request carries: a provider that renders declarations into its own prompt form bills a few tokens more or less.
 */
export function tokenReport(
  format: ExportFormat,
  tools: readonly Tool[],
  declarations: unknown,
  options: ExportOptions & { names?: "exact" | "sanitize" } = {},
): DeclarationTokens {
  const counter = tokenCounter(format);
  const countJson = (value: unknown) => counter.count(JSON.stringify(value) ?? "");
  const anyDeferred = tools.some((tool) => tool.defer === true);
  // Copies without `defer`, for declarations only: a copy has no run contract, and none is needed to declare it.
  const allDeclarations = anyDeferred
    ? exportTools(
        adapterFor(format),
        tools.map((tool) => (tool.defer === true ? { ...tool, defer: false } : tool)),
        { ...options, conversation: undefined },
      ).declarations
    : declarations;
  const adapter = adapterFor(format);
  const exportedName = (tool: Tool) =>
    options.names === "sanitize" ? sanitizedName(tool.name, adapter.names) : tool.name;
  const entries = entriesByName(allDeclarations, new Set(tools.map(exportedName)));
  const perTool = tools.map((tool): ToolTokens => {
    const name = exportedName(tool);
    const entry = entries.get(name);
    return {
      tool: tool.name,
      name,
      tokens: countJson(entry ?? { name, description: tool.description, parameters: tool.inputSchema }),
      ...(tool.defer === true ? { deferred: true as const } : {}),
      ...(entry === undefined ? { located: false as const } : {}),
    };
  });
  const declared = countJson(withoutDeferredEntries(declarations));
  const allDeclared = anyDeferred ? countJson(allDeclarations) : declared;
  return {
    method: counter.method,
    tools: perTool,
    declared,
    allDeclared,
    deferredSaving: allDeclared === 0 ? 0 : (allDeclared - declared) / allDeclared,
  };
}

/** Keys under which a declaration wraps its own entry (OpenAI's `function` and `custom`, Bedrock's `toolSpec`). */
const WRAPPED_ENTRY_KEYS = ["function", "custom", "toolSpec"] as const;

/** Keys whose values are schemas or example arguments: a `name` in them is data, never a tool's. */
const DATA_KEYS: ReadonlySet<string> = new Set([
  "parameters",
  "parametersJsonSchema",
  "input_schema",
  "inputSchema",
  "outputSchema",
  "input_examples",
  "examples",
  "format",
  "json",
]);

/** The name an object declares a tool under, if it is a declaration entry. */
function declaredName(node: Record<string, unknown>): string | undefined {
  if (typeof node.name === "string") return node.name;
  for (const key of WRAPPED_ENTRY_KEYS) {
    const wrapped = node[key];
    if (isObject(wrapped) && typeof wrapped.name === "string") return wrapped.name;
  }
  return undefined;
}

/**
 * Each wanted name's entry in `declarations`, found in any shape: the outermost object naming it (so a wrapper
 * such as `{ type: "function", function: { name } }` is the entry), unless an entry of the same name is inside it
 * (a tool in a group of the same name): then that one.
 */
function entriesByName(declarations: unknown, wanted: ReadonlySet<string>): Map<string, unknown> {
  const found = new Map<string, unknown>();
  const visit = (node: unknown, enclosing: ReadonlySet<string>): void => {
    if (Array.isArray(node)) {
      for (const item of node) visit(item, enclosing);
      return;
    }
    if (!isObject(node)) return;
    const name = declaredName(node);
    let inside = enclosing;
    if (name !== undefined && wanted.has(name) && (!found.has(name) || enclosing.has(name))) {
      found.set(name, node);
      inside = new Set([...enclosing, name]);
    }
    for (const [key, value] of Object.entries(node)) {
      if (DATA_KEYS.has(key) || (name !== undefined && (WRAPPED_ENTRY_KEYS as readonly string[]).includes(key)))
        continue;
      if (typeof value === "object" && value !== null) visit(value, inside);
    }
  };
  visit(declarations, new Set());
  return found;
}

/** `declarations` without the entries a provider's own tool search keeps out of context until found. */
function withoutDeferredEntries(value: unknown): unknown {
  if (Array.isArray(value))
    return value.filter((item) => !(isObject(item) && item.defer_loading === true)).map(withoutDeferredEntries);
  if (!isObject(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, withoutDeferredEntries(item)]));
}
