import type { NameRule } from "../core/names";
import { plainObjectRoot } from "../schema/lowering";
import type { FileContent, ImageContent, JSONSchemaObject, ToolContent, ToolResult } from "../core/types";
import { callFrom, field, readEntries, type ExportOptions, type Provider } from "./adapter";

// ---- Declarations ----------------------------------------------------------------------

export type AnthropicInputSchema = JSONSchemaObject & { type: "object" };
export type AnthropicTool = { name: string; description: string; input_schema: AnthropicInputSchema };

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

/** `input_schema` must be an object with no combinator at its root; nothing else is rewritten. */
export const anthropic: Provider<
  "anthropic",
  "Anthropic",
  {
    declarations: AnthropicTool[];
    options: ExportOptions;
    callsInput: AnthropicCallsInput;
    reply: AnthropicToolResultMessage | undefined;
  }
> = {
  id: "anthropic",
  name: "Anthropic",
  answersCalls: true,
  names: NAMES,
  lower: (schema, log) => ({ schema: plainObjectRoot(schema, log), codec: undefined }),
  loweringOptions: [],
  declare: (tools) =>
    tools.map(({ name, description, lowering }) => ({
      name,
      description,
      input_schema: lowering.schema as AnthropicInputSchema,
    })),
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
