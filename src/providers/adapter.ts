import { ExportError } from "../core/errors";
import { noUsableName, sanitizedName, type NameRule } from "../core/names";
import { errorMessage, errorResult } from "../runtime/result";
import { once, validatesArguments } from "../runtime/run-contract";
import { withoutDocumentKeywords, type DroppedKeywords } from "../schema/document-keywords";
import { ChangeLog, type SchemaChange } from "../schema/lowering";
import { describePart, textForm, type UnsentContent } from "../runtime/content";
import type { JSONSchemaObject, Tool, ToolContent, ToolContext, ToolErrorKind, ToolResult } from "../core/types";
import { decodeWith, type MaybeCodec } from "./codec";
import { describedFor } from "./examples";
import { toolsToDeclare } from "./tool-search";

/** Options every exporter takes. */
export interface ExportOptions {
  /**
   * "exact" (default): a name the provider rejects is an error. "sanitize": such names are
   * mapped to provider-safe ones (`billing.refund` → `billing_refund`); the toolkit's `run*`
   * methods map them back, and two tools mapping to one name is an error.
   */
  names?: "exact" | "sanitize";
  /** Declare only the tools visible to this ctx (each tool's `visible`, and a toolkit's); left out, an empty ctx. */
  ctx?: ToolContext;
  /**
   * The conversation so far, as the provider's own message list (what the next request sends).
   * Where the provider has no tool search of its own, deferred tools are declared once an earlier
   * `search_tools` answer in it found them: the host keeps no state of its own for that.
   */
  conversation?: unknown;
  /**
   * Append each tool's `examples` to its description, in one compact line, where the provider has
   * no field for them (Anthropic has: `input_examples` carries them always).
   */
  examplesInDescription?: boolean;
}

/** Declarations plus every change the provider's dialect made to get there. */
export interface ExportReport<D> {
  declarations: D;
  changes: SchemaChange[];
}

/** A tool's schema as a provider receives it, and the way back for values sent under it. */
export interface Lowering {
  schema: JSONSchemaObject;
  /** The way back, or a function that makes it on the first call (when only the run side needs it). */
  codec: MaybeCodec | (() => MaybeCodec);
  /** OpenAI: whether the schema is strict-mode. */
  strict?: boolean;
  /** The tool's `outputSchema` as the provider declares results (Gemini's `response`), where it does. */
  output?: JSONSchemaObject;
}

export interface DeclaredTool {
  tool: Tool;
  /** The name the provider sees. */
  name: string;
  /** The description the provider sees: the tool's, with its examples when the export asks for them. */
  description: string;
  lowering: Lowering;
}

/** A tool call as a provider's response carries it, arguments still raw (an object or JSON text). */
export interface ParsedCall {
  id?: string;
  name: string;
  arguments: unknown;
  /** How the provider sent it, where it has several kinds of call (OpenAI's `"custom"` calls of free-text tools). */
  kind?: string;
  /** Set when the call cannot run at all (an unreadable entry, a kind of call toolnexus does not declare). */
  refusal?: { kind: ToolErrorKind; message: string };
}

/**
 * Everything toolnexus knows about one provider, in one object: its name rule, how a schema
 * is lowered to its dialect (with the way back), its declarations, how calls are read out of
 * its responses, and how results are written back. Adding a provider is one such object.
 */
export interface ProviderAdapter<
  Declarations = unknown,
  Options extends ExportOptions = ExportOptions,
  Reply = unknown,
> {
  readonly id: string;
  readonly names: NameRule;
  lower(schema: JSONSchemaObject, log: ChangeLog, options: Options): Lowering;
  /**
   * A tool's `outputSchema` as the provider declares what a tool answers, where it does; `undefined`
   * leaves it out of the declaration (the log says why). Its changes are reported with the input's.
   */
  lowerOutput?(schema: JSONSchemaObject, log: ChangeLog, options: Options): JSONSchemaObject | undefined;
  /**
   * Every export option `lower` reads: exports that agree on them (read as the options give
   * them) reuse one another's lowerings. Left out, a toolkit lowers on every export.
   */
  readonly loweringOptions?: readonly string[];
  declare(tools: readonly DeclaredTool[], options: Options): Declarations;
  /** The calls in a response. May throw on input it cannot read; callers guard it. */
  readCalls(input: unknown): ParsedCall[];
  /** What to append to the conversation for these calls and their results. */
  reply(calls: readonly ParsedCall[], results: readonly ToolResult[]): Reply;
  /**
   * The provider searches deferred tools itself (Anthropic, OpenAI Responses): it declares them
   * all, marked deferred, and toolnexus adds no `search_tools` of its own.
   */
  readonly searchesNatively?: boolean;
  /** The provider's declarations have a field for example arguments (the export then never puts them in descriptions). */
  readonly takesExamples?: boolean;
  /**
   * The provider reads a schema's dialect from its root `$schema` (MCP: JSON Schema 2020-12 when
   * there is none), so a root `$schema` the tool declares stays in its declaration.
   */
  readonly readsDialect?: boolean;
  /**
   * What the results in `conversation` (the provider's message list) answered to calls of the tool
   * exported as `toolName`, oldest first, each as the message holds it (text, or the JSON value).
   * Unreadable parts are passed over; never throws.
   */
  answersIn?(conversation: unknown, toolName: string): unknown[];
  /** A reply with no results, where `reply` gives none for no calls: what pending approvals are attached to. */
  emptyReply?(): Reply;
  /**
   * Whether a result part (an image, audio, a file, a link) reaches the model through this
   * provider's result message: `undefined` when it does, else why not. Left out: results carry
   * text only. `reply` gets results whose parts were fitted by it (see `fitResult`).
   */
  carries?(part: Exclude<ToolContent, { type: "text" }>, options: Options): string | undefined;
}

/** The types of a provider's exports and round trips, from which its functions and methods are typed. */
export interface ProviderTypes {
  declarations: unknown;
  options: ExportOptions;
  /** Declarations that options matching `when` give instead (Gemini's `{ jsonSchema: true }`). */
  variant?: { when: object; declarations: unknown };
  /**
   * What `run<Name>` takes. Left out for a provider whose calls toolnexus does not answer itself (MCP's are served).
   */
  callsInput?: unknown;
  /** What `run<Name>` answers with. */
  reply?: unknown;
}

/** Every declaration type a provider's export may give. */
export type DeclarationsOf<T extends ProviderTypes> =
  T["declarations"] | (T extends { variant: { declarations: infer V } } ? V : never);

/**
 * A provider as the registry lists it: its adapter, the name its functions and methods carry
 * (`to${name}`, `run${name}`, `Adapters.to${name}`), and, as types only, what they take and give.
 */
export interface Provider<
  Id extends string = string,
  Name extends string = string,
  T extends ProviderTypes = ProviderTypes,
> extends ProviderAdapter<DeclarationsOf<T>, T["options"], T["reply"]> {
  readonly id: Id;
  readonly name: Name;
  /** Whether toolnexus answers its calls: a `run${name}` method, and approvals that resume. */
  readonly answersCalls: "callsInput" extends keyof T ? true : false;
  /** Never set: it carries the types. */
  readonly types?: T;
}

/**
 * `result` as `adapter` can send it: each part it cannot carry replaced by a text note the
 * model reads, and listed in `metadata.unsentContent`. Nothing is dropped silently.
 */
export function fitResult<O extends ExportOptions>(
  adapter: ProviderAdapter<unknown, O>,
  result: ToolResult,
  options: O,
): ToolResult {
  if (result.content === undefined) return result;
  const unsent: UnsentContent[] = [];
  const content = result.content.map((part, index): ToolContent => {
    if (part.type === "text") return part;
    const reason =
      adapter.carries === undefined ? `${adapter.id} tool results carry text only` : adapter.carries(part, options);
    if (reason === undefined) return part;
    unsent.push({
      index,
      type: part.type,
      ...("mimeType" in part && part.mimeType !== undefined ? { mimeType: part.mimeType } : {}),
      reason,
    });
    return { type: "text", text: `[${describePart(part)} not sent: ${reason}]` };
  });
  if (unsent.length === 0) return result;
  const earlier = Array.isArray(result.metadata?.unsentContent)
    ? (result.metadata.unsentContent as UnsentContent[])
    : [];
  // A text form made from the parts is made again, so that it says what was not sent; one the tool wrote stays.
  const output = result.output === textForm(result.content) ? textForm(content) : result.output;
  return { ...result, output, content, metadata: { ...result.metadata, unsentContent: [...earlier, ...unsent] } };
}

/** How the calls of one export find their tools: exported name → tool name and the way back. */
export type ExportBinding = ReadonlyMap<string, BoundTool>;

/** A tool as an export declared it; its way back is made on the first call that needs it. */
export interface BoundTool {
  tool: string;
  codec: Lowering["codec"];
}

export interface Export<D> extends ExportReport<D> {
  binding: ExportBinding;
}

/** A tool's lowering for one provider and one set of export options, with the changes it made. */
export interface LoweredTool {
  lowering: Lowering;
  changes: readonly SchemaChange[];
  /** The document keywords taken out before lowering, reported once per export. */
  dropped: DroppedKeywords;
}

/**
 * Lowerings kept for reuse by exports with the same provider and options: a tool is lowered
 * once, and every later export reuses its schema (declarations share it: treat them as read-only).
 */
export type LoweringCache = Map<Tool, LoweredTool>;

/** The declarations of `tools` for `adapter`, the change report, and the binding its calls are read with. */
export function exportTools<D, O extends ExportOptions>(
  adapter: ProviderAdapter<D, O>,
  tools: readonly Tool[],
  options: O,
  cache?: LoweringCache,
): Export<D> {
  const names = exportedNames(adapter, tools, options);
  const changes: SchemaChange[] = [];
  const declared = toolsToDeclare(adapter, tools, options, names).map((tool) => {
    let lowered = cache?.get(tool);
    if (lowered === undefined) {
      lowered = lowerTool(adapter, tool, options);
      cache?.set(tool, lowered);
    }
    changes.push(...lowered.changes);
    return {
      tool,
      name: names.get(tool.name) ?? tool.name,
      description: describedFor(adapter, tool, options),
      lowering: lowered.lowering,
      dropped: lowered.dropped,
    };
  });
  changes.push(...droppedOnce(declared));
  let binding: ExportBinding | undefined;
  return {
    declarations: adapter.declare(declared, options),
    changes,
    // Made when a run first reads calls with it: exporting alone does not pay for it.
    get binding() {
      return (binding ??= bindingOf(declared));
    },
  };
}

function lowerTool<O extends ExportOptions>(adapter: ProviderAdapter<unknown, O>, tool: Tool, options: O): LoweredTool {
  const log = new ChangeLog(tool.name, validatesArguments(tool));
  const { schema, dropped } = withoutDocumentKeywords(tool.inputSchema, { keepRootDialect: adapter.readsDialect });
  // A tool's own `strict` wins over the export's (a lowering is kept per tool, so the key holds).
  const toolOptions = tool.strict === undefined ? options : { ...options, strict: tool.strict };
  const { codec, ...rest } = adapter.lower(schema, log, toolOptions);
  const output = lowerOutput(adapter, tool, toolOptions);
  // The way back is made once however many exports bind this lowering.
  return {
    lowering: {
      ...rest,
      codec: typeof codec === "function" ? once(codec) : codec,
      ...(output?.schema !== undefined ? { output: output.schema } : {}),
    },
    changes: output === undefined ? log.changes : [...log.changes, ...output.changes],
    dropped,
  };
}

/** The tool's `outputSchema` lowered for a provider that declares results, with its changes (no model reads `$id`s). */
function lowerOutput<O extends ExportOptions>(
  adapter: ProviderAdapter<unknown, O>,
  tool: Tool,
  options: O,
): { schema: JSONSchemaObject | undefined; changes: SchemaChange[] } | undefined {
  if (adapter.lowerOutput === undefined || tool.outputSchema === undefined) return undefined;
  // Tools toolnexus made check each structured result against their outputSchema.
  const log = new ChangeLog(tool.name, validatesArguments(tool) === undefined ? undefined : true, "outputSchema");
  const { schema, dropped } = withoutDocumentKeywords(tool.outputSchema, { keepRootDialect: adapter.readsDialect });
  for (const keyword of dropped.keys())
    log.add("", keyword, "dropped", `${keyword === "required" ? "empty required lists" : keyword}: no model reads it`);
  return { schema: adapter.lowerOutput(schema, log, options), changes: log.changes };
}

/**
 * One change per document keyword an export took out, naming the tools it was taken from (the first few; the rest
 * counted).
 */
function droppedOnce(declared: ReadonlyArray<{ tool: Tool; dropped: DroppedKeywords }>): SchemaChange[] {
  const toolsBy = new Map<string, string[]>();
  for (const { tool, dropped } of declared) {
    for (const keyword of dropped.keys()) {
      const tools = toolsBy.get(keyword);
      if (tools === undefined) toolsBy.set(keyword, [tool.name]);
      else tools.push(tool.name);
    }
  }
  return [...toolsBy].map(([keyword, tools]) => {
    const named = tools
      .slice(0, 5)
      .map((name) => `"${name}"`)
      .join(", ");
    const rest = tools.length > 5 ? ` and ${tools.length - 5} more` : "";
    const what = keyword === "required" ? "empty required lists" : keyword;
    return {
      tool: "*",
      pointer: "",
      keyword,
      action: "dropped",
      detail:
        `${what} taken out of ${tools.length} tool${tools.length > 1 ? "s" : ""} (${named}${rest}): no model ` +
        "reads it",
    };
  });
}

/**
 * The binding for running calls when the toolkit made no export for this provider: each
 * tool under its own name, with the way back of its default lowering. Never throws: a tool
 * whose schema cannot be lowered is run with the arguments as sent.
 */
export function defaultBinding(adapter: ProviderAdapter, tools: readonly Tool[]): ExportBinding {
  return bindingOf(
    tools.map((tool) => {
      try {
        return {
          tool,
          name: tool.name,
          description: tool.description,
          lowering: lowerTool(adapter, tool, {}).lowering,
        };
      } catch {
        return {
          tool,
          name: tool.name,
          description: tool.description,
          lowering: { schema: tool.inputSchema, codec: undefined },
        };
      }
    }),
  );
}

function bindingOf(declared: readonly DeclaredTool[]): ExportBinding {
  return new Map(declared.map(({ tool, name, lowering }) => [name, { tool: tool.name, codec: lowering.codec }]));
}

/** The way back of a bound tool, made once. */
export function codecOf(bound: BoundTool): MaybeCodec {
  if (typeof bound.codec === "function") bound.codec = bound.codec();
  return bound.codec;
}

/**
 * The name each tool is exported under. With `names: "exact"` a name the provider rejects
 * throws, naming every such tool; with "sanitize" it is mapped, and collisions throw.
 */
function exportedNames(adapter: ProviderAdapter, tools: readonly Tool[], options: ExportOptions): Map<string, string> {
  const rule = adapter.names;
  if (options.names !== "sanitize") {
    const rejected = tools.filter((tool) => !rule.pattern.test(tool.name)).map((tool) => `"${tool.name}"`);
    if (rejected.length > 0) {
      const plural = rejected.length > 1 ? "s" : "";
      throw new ExportError(
        `${adapter.id} rejects the tool name${plural} ${rejected.join(", ")} (${adapter.id} names: ${rule.text}). ` +
          `Rename the tool${plural} (a letter first, then letters, digits, _ or -, at most 64 characters), or export ` +
          `with { names: "sanitize" } to map names reversibly.`,
      );
    }
    return new Map(tools.map((tool) => [tool.name, tool.name]));
  }
  const names = new Map(tools.map((tool) => [tool.name, sanitizedName(tool.name, rule)]));
  const seen = new Map<string, string>();
  for (const [original, exported] of names) {
    const clash = seen.get(exported);
    if (clash !== undefined)
      throw new ExportError(
        `Tools "${clash}" and "${original}" both become "${exported}" for ${adapter.id}; rename one of them.`,
      );
    seen.set(exported, original);
  }
  return names;
}

/** What the run side needs from a toolkit: a call by tool name, with arguments as sent. */
export type CallRunner = (
  toolName: string,
  args: unknown,
  ctx: ToolContext,
  decode?: (args: Record<string, unknown>) => unknown,
  sentName?: string,
) => Promise<ToolResult>;

/**
 * Runs every call in `input` concurrently, each isolated (whatever one call does stays with
 * its result), and gives the calls with their results in call order. Never throws and never
 * rejects: an input the adapter cannot read is a batch of no calls.
 */
export async function runCalls(
  adapter: ProviderAdapter,
  binding: ExportBinding,
  run: CallRunner,
  input: unknown,
  ctx: ToolContext | undefined,
): Promise<{ calls: ParsedCall[]; results: ToolResult[] }> {
  let calls: ParsedCall[];
  try {
    calls = adapter.readCalls(input);
  } catch {
    calls = [];
  }
  const results = calls.map((call) => {
    const failed = (thrown: unknown) =>
      errorResult("execution_failed", `Tool "${call.name}" could not run: ${errorMessage(thrown)}`);
    try {
      if (call.refusal !== undefined)
        return Promise.resolve(errorResult(call.refusal.kind, call.refusal.message, { tool: call.name }));
      const bound = binding.get(call.name);
      const callCtx: ToolContext = { ...ctx, callId: call.id, provider: adapter.id };
      // A name this export did not declare runs as it is: the toolkit answers for unknown tools.
      if (bound === undefined)
        return run(call.name, call.arguments, callCtx, undefined, call.name).then(undefined, failed);
      const codec = codecOf(bound);
      return run(
        bound.tool,
        call.arguments,
        callCtx,
        codec === undefined ? undefined : (args) => decodeWith(codec, args),
        call.name,
      ).then(undefined, failed);
    } catch (thrown) {
      return Promise.resolve(failed(thrown));
    }
  });
  return { calls, results: await Promise.all(results) };
}

/**
 * Reads a list of entries where any read may throw (a host's Proxy, a getter): each entry
 * that cannot be read becomes a refused call; a list that cannot be read is no calls.
 */
export function readEntries(
  list: unknown,
  read: (entry: unknown, index: number) => ParsedCall | undefined,
): ParsedCall[] {
  if (!Array.isArray(list)) return [];
  const calls: ParsedCall[] = [];
  const length = list.length;
  for (let index = 0; index < length; index++) {
    try {
      const call = read(list[index], index);
      if (call !== undefined) calls.push(call);
    } catch (thrown) {
      calls.push({
        name: "",
        arguments: undefined,
        refusal: {
          kind: "invalid_arguments",
          message:
            `Tool call ${index + 1} could not be read (${errorMessage(thrown)}); send it again as a plain ` +
            "JSON object.",
        },
      });
    }
  }
  return calls;
}

/** Where a provider keeps a call's name, arguments and id. */
export interface CallFields {
  name: string;
  args: string;
  /** Left out where the provider keeps the id elsewhere, or has none. */
  id?: string;
}

/**
 * A call read out of `source` by the fields a provider names, each read on its own: a name
 * that cannot be read or is not a string, or arguments that cannot be read, make a refused
 * call (answered, never run), which keeps its id when the id can be read.
 */
export function callFrom(source: unknown, fields: CallFields): ParsedCall {
  const id = fields.id === undefined ? undefined : readField(source, fields.id);
  const name = readField(source, fields.name);
  const args = readField(source, fields.args);
  const call: ParsedCall = {
    name: name.ok && typeof name.value === "string" ? name.value : "",
    arguments: args.ok ? args.value : undefined,
  };
  if (id?.ok && typeof id.value === "string") call.id = id.value;
  if (!name.ok)
    call.refusal = {
      kind: "unknown_tool",
      message:
        `The name of a tool call could not be read (${errorMessage(name.error)}); call one of the declared ` +
        "tools by its name.",
    };
  else if (typeof name.value !== "string") call.refusal = { kind: "unknown_tool", message: noUsableName(name.value) };
  else if (!args.ok)
    call.refusal = {
      kind: "invalid_arguments",
      message:
        `The arguments of the call to tool "${call.name}" could not be read (${errorMessage(args.error)}); ` +
        "send them as one JSON object.",
    };
  return call;
}

function readField(source: unknown, key: string): { ok: true; value: unknown } | { ok: false; error: unknown } {
  try {
    return { ok: true, value: field(source, key) };
  } catch (error) {
    return { ok: false, error };
  }
}

/** What `read` gives, or `undefined` when reading throws (a host's Proxy, a getter). */
export function quietly<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch {
    return undefined;
  }
}

/** A list's items (a copy), or none when it is no list or cannot be read. */
export function listOf(value: unknown): unknown[] {
  return quietly(() => (Array.isArray(value) ? Array.from(value as unknown[]) : [])) ?? [];
}

/** A property of a value a provider sent: `undefined` unless it is a plain object that has it. */
export function field(value: unknown, key: string): unknown {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)[key]
    : undefined;
}

/** An error result's text for providers whose result message has no error flag. */
export function textForModel(result: ToolResult): string {
  return result.isError ? `Error: ${result.output}` : result.output;
}
