import { ExportError } from "../core/errors";
import type { NameRule } from "../core/names";
import type { FileContent, ImageContent, JSONSchemaObject, Tool, ToolContent, ToolResult } from "../core/types";
import { checkStrictTools, lowerForStrictToolUse } from "./strict-tool-use";
import { callFrom, field, readEntries, type DeclaredTool, type ExportOptions, type Provider } from "./adapter";

// ---- Declarations ----------------------------------------------------------------------

export type AnthropicInputSchema = JSONSchemaObject & { type: "object" };

/** A tool of yours: `defer_loading` when it is found by tool search, `strict` when its schema is strict. */
export type AnthropicTool = {
  name: string;
  description: string;
  input_schema: AnthropicInputSchema;
  defer_loading?: true;
  strict?: true;
  input_examples?: Array<Record<string, unknown>>;
};

/** Anthropic's own tool search, declared when some tool is deferred. */
export type AnthropicToolSearchTool =
  | { type: "tool_search_tool_bm25_20251119"; name: "tool_search_tool_bm25" }
  | { type: "tool_search_tool_regex_20251119"; name: "tool_search_tool_regex" };

/** What `toAnthropic` gives: your tools, then, when some are deferred, Anthropic's tool search. */
export type AnthropicToolDeclaration = AnthropicTool | AnthropicToolSearchTool;

export interface AnthropicExportOptions extends ExportOptions {
  /**
   * Strict tool use: each tool's schema in the form Anthropic compiles into a grammar (every object closed; limits it
   * cannot say, such as minimum or maxLength, stated in descriptions and still checked when the call runs). A tool
   * whose schema cannot be strict (recursive, a free-form object, past a documented limit) is declared without
   * `strict`, and the report says why. A tool's own `strict` wins over this.
   */
  strict?: boolean;
  /**
   * How Anthropic's tool search finds deferred tools: "bm25" (default; natural-language queries) or "regex". Read only
   * when some tool is deferred: with none, no search tool is declared.
   */
  toolSearch?: "bm25" | "regex";
}

// ---- Calls in, results out: types ------------------------------------------------------

export type AnthropicBlockLike = { type: string; id?: string; name?: string; input?: unknown };
export type AnthropicMessageLike = { content: AnthropicBlockLike[] };

/** A Messages API response, or its `content` blocks. */
export type AnthropicCallsInput = AnthropicMessageLike | readonly AnthropicBlockLike[];

/** The image types Anthropic reads. */
export type AnthropicImageMediaType = "image/jpeg" | "image/png" | "image/gif" | "image/webp";

/**
 * A block of a `tool_result`'s content: text, an image (inline or by URL), a document (a PDF inline or by URL, or plain
 * text).
 */
export type AnthropicToolResultContent =
  | { type: "text"; text: string }
  | {
      type: "image";
      source: { type: "base64"; media_type: AnthropicImageMediaType; data: string } | { type: "url"; url: string };
    }
  | {
      type: "document";
      source:
        | { type: "base64"; media_type: "application/pdf"; data: string }
        | { type: "text"; media_type: "text/plain"; data: string }
        | { type: "url"; url: string };
      title?: string;
    };

/** `content` is the result's text, or its blocks when the result has parts. */
export type AnthropicToolResultBlock = {
  type: "tool_result";
  tool_use_id: string;
  content: string | AnthropicToolResultContent[];
  is_error?: boolean;
};

/** The one user turn that answers every `tool_use` block. */
export type AnthropicToolResultMessage = { role: "user"; content: AnthropicToolResultBlock[] };

// ---- Result parts ----------------------------------------------------------------------

const IMAGE_TYPES: readonly string[] = [
  "image/jpeg",
  "image/png",
  "image/gif",
  "image/webp",
] satisfies AnthropicImageMediaType[];

function isAnthropicImageType(mimeType: string): mimeType is AnthropicImageMediaType {
  return IMAGE_TYPES.includes(mimeType);
}

/** Why Anthropic cannot take `part` in a tool result, or `undefined` when it can. */
function unsupported(part: Exclude<ToolContent, { type: "text" }>): string | undefined {
  switch (part.type) {
    case "image":
      return imageSource(part) === undefined
        ? `Anthropic reads JPEG, PNG, GIF and WebP images, not ${part.mimeType}`
        : undefined;
    case "file":
      return !takesDocument(part)
        ? "Anthropic documents are PDFs (inline or by URL) and inline plain text, not " +
            `${part.mimeType}${"url" in part ? " by URL" : ""}`
        : undefined;
    case "audio":
      return "Anthropic tool results carry no audio";
    case "resource_link":
      return "Anthropic tool results carry no resource links";
  }
}

/** The image source Anthropic takes for an image, or `undefined` when it takes none. */
function imageSource(part: ImageContent): Extract<AnthropicToolResultContent, { type: "image" }>["source"] | undefined {
  const mediaType = part.mimeType?.toLowerCase();
  // A URL image without a declared type is left to Anthropic to read.
  if ("url" in part)
    return mediaType === undefined || isAnthropicImageType(mediaType) ? { type: "url", url: part.url } : undefined;
  return mediaType !== undefined && isAnthropicImageType(mediaType)
    ? { type: "base64", media_type: mediaType, data: part.data }
    : undefined;
}

/** Whether Anthropic takes a file as a document: a PDF, inline or by URL, or inline plain text. */
function takesDocument(part: FileContent): boolean {
  const mimeType = part.mimeType.toLowerCase();
  return mimeType === "application/pdf" || (mimeType === "text/plain" && "data" in part);
}

function documentSource(part: FileContent): Extract<AnthropicToolResultContent, { type: "document" }>["source"] {
  if ("url" in part) return { type: "url", url: part.url };
  if (part.mimeType.toLowerCase() === "application/pdf")
    return { type: "base64", media_type: "application/pdf", data: part.data };
  // Plain text goes as the text itself, not as base64.
  return { type: "text", media_type: "text/plain", data: Buffer.from(part.data, "base64").toString("utf8") };
}

function documentBlock(part: FileContent): AnthropicToolResultContent | undefined {
  if (!takesDocument(part)) return undefined;
  return { type: "document", source: documentSource(part), ...(part.name !== undefined ? { title: part.name } : {}) };
}

/**
 * A part as a `tool_result` content block; `undefined` for what is not sent (empty text: Anthropic refuses empty text
 * blocks).
 */
function contentBlock(part: ToolContent): AnthropicToolResultContent | undefined {
  switch (part.type) {
    case "text":
      return part.text === "" ? undefined : { type: "text", text: part.text };
    case "image": {
      const source = imageSource(part);
      return source === undefined ? undefined : { type: "image", source };
    }
    case "file":
      return documentBlock(part);
    default:
      // Audio and links: `carries` keeps them out of what `reply` gets.
      return undefined;
  }
}

/** What a `tool_result` holds: the result's blocks when it has parts, else its text. */
function resultContent(result: ToolResult): AnthropicToolResultBlock["content"] {
  if (result.content === undefined) return result.output;
  const blocks = result.content.flatMap((part) => contentBlock(part) ?? []);
  return blocks.length > 0 ? blocks : result.output;
}

// ---- The adapter -----------------------------------------------------------------------

const NAMES: NameRule = { max: 128, pattern: /^[a-zA-Z0-9_-]{1,128}$/, text: "1-128 characters from a-z A-Z 0-9 _ -" };

const TOOL_SEARCH: Readonly<Record<string, AnthropicToolSearchTool>> = {
  bm25: { type: "tool_search_tool_bm25_20251119", name: "tool_search_tool_bm25" },
  regex: { type: "tool_search_tool_regex_20251119", name: "tool_search_tool_regex" },
};

/**
 * The tool search declared beside deferred tools. It is never deferred itself, which is the one tool Anthropic needs
 * loaded up front: every tool of yours may be deferred.
 */
function toolSearchFor(tools: readonly DeclaredTool[], choice: unknown): AnthropicToolSearchTool {
  const search = typeof choice === "string" && Object.hasOwn(TOOL_SEARCH, choice) ? TOOL_SEARCH[choice] : undefined;
  if (choice !== undefined && search === undefined)
    throw new ExportError(`toolSearch is "bm25" or "regex" (got ${JSON.stringify(choice)}); leave it out for "bm25".`);
  const declared = search ?? TOOL_SEARCH.bm25!;
  const clash = tools.find(({ name }) => name === declared.name);
  if (clash !== undefined)
    throw new ExportError(
      `The tool "${clash.tool.name}" is exported as "${declared.name}", the name of Anthropic's tool search, which is ` +
        "declared because some tools are deferred; rename the tool, or defer no tool.",
    );
  return declared;
}

/**
 * Anthropic takes no `input_examples` beside its tool search: then a tool's examples are stated in its description, in
 * the one line `examplesInDescription` writes.
 */
function withExamples(description: string, tool: Tool): string {
  if (!tool.examples?.length) return description;
  return `${description}\nExamples: ${tool.examples.map((example) => JSON.stringify(example)).join("; ")}`;
}

function declaration({ tool, name, description, lowering }: DeclaredTool, searching: boolean): AnthropicTool {
  return {
    name,
    description: searching ? withExamples(description, tool) : description,
    input_schema: lowering.schema as AnthropicInputSchema,
    ...(tool.defer === true ? { defer_loading: true } : {}),
    ...(lowering.strict === true ? { strict: true } : {}),
    ...(!searching && tool.examples?.length
      ? { input_examples: tool.examples.map((example) => ({ ...example })) }
      : {}),
  };
}

/**
 * `input_schema` must be an object with no combinator at its root; with `strict`, it is lowered to strict tool use's
 * subset. Deferred tools carry `defer_loading`, and Anthropic's tool search is declared after them; `examples` go to
 * `input_examples` (into the description when tool search is declared: Anthropic takes no examples beside it).
 */
export const anthropic: Provider<
  "anthropic",
  "Anthropic",
  {
    declarations: AnthropicToolDeclaration[];
    options: AnthropicExportOptions;
    callsInput: AnthropicCallsInput;
    reply: AnthropicToolResultMessage | undefined;
  }
> = {
  id: "anthropic",
  name: "Anthropic",
  answersCalls: true,
  names: NAMES,
  lower: lowerForStrictToolUse,
  loweringOptions: ["strict"],
  searchesNatively: true,
  takesExamples: true,
  declare(tools, options) {
    checkStrictTools("Anthropic", tools);
    const searching = tools.some(({ tool }) => tool.defer === true);
    const declarations: AnthropicToolDeclaration[] = tools.map((tool) => declaration(tool, searching));
    if (searching) declarations.push(toolSearchFor(tools, options.toolSearch));
    return declarations;
  },
  readCalls(input) {
    const blocks = Array.isArray(input) ? input : field(input, "content");
    return readEntries(blocks, (block) =>
      field(block, "type") === "tool_use" ? callFrom(block, { name: "name", args: "input", id: "id" }) : undefined,
    );
  },
  emptyReply() {
    return { role: "user", content: [] };
  },
  reply(calls, results) {
    // Anthropic rejects a user turn with no content: with no calls there is nothing to append.
    if (calls.length === 0) return undefined;
    return {
      role: "user",
      content: calls.map((call, i) => ({
        type: "tool_result",
        tool_use_id: call.id ?? "",
        content: resultContent(results[i]!),
        ...(results[i]!.isError ? { is_error: true } : {}),
      })),
    };
  },
  carries: unsupported,
};
