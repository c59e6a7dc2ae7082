import type { NameRule } from "../core/names";
import type { FileContent, JSONSchemaObject, ToolContent, ToolResult } from "../core/types";
import { checkStrictTools, lowerForStrictToolUse } from "./strict-tool-use";
import { callFrom, field, readEntries, type ExportOptions, type Provider } from "./adapter";

// ---- Declarations (Converse API) -------------------------------------------------------

/** A tool as Converse takes it: the schema as a JSON object document, `strict` when the schema is strict. */
export type BedrockToolSpec = {
  name: string;
  description: string;
  inputSchema: { json: BedrockJsonObject };
  strict?: true;
};

export type BedrockToolConfig = { tools: Array<{ toolSpec: BedrockToolSpec }> };

export interface BedrockExportOptions extends ExportOptions {
  /**
   * Converse's strict tool use, in the form Anthropic's models compile into a grammar (every object closed; limits it
   * cannot say, such as minimum or maxLength, stated in descriptions and still checked when the call runs). A tool
   * whose schema cannot be strict (recursive, a free-form object, past a documented limit) is declared without
   * `strict`, and the report says why. A tool's own `strict` wins over this.
   */
  strict?: boolean;
}

// ---- Calls in, results out: types ------------------------------------------------------

export type BedrockToolUse = { toolUseId?: string; name?: string; input?: unknown };
/**
 * Any Converse content block (text, reasoning, images ... are not calls and pass by);
 * `object` so every member of the SDK's block union is accepted as it is.
 */
export type BedrockContentBlockLike = { toolUse?: BedrockToolUse } | object;
export type BedrockMessageLike = { content?: BedrockContentBlockLike[] };
export type BedrockConverseResponseLike = { output?: { message?: BedrockMessageLike } };

/** A Converse response, the assistant message, or its content blocks. */
export type BedrockCallsInput = BedrockConverseResponseLike | BedrockMessageLike | readonly BedrockContentBlockLike[];

/** A JSON value as Converse takes it in a `json` block. */
export type BedrockJson = null | boolean | number | string | BedrockJson[] | BedrockJsonObject;
export type BedrockJsonObject = { [key: string]: BedrockJson };

export type BedrockImageFormat = "png" | "jpeg" | "gif" | "webp";
export type BedrockDocumentFormat = "pdf" | "csv" | "doc" | "docx" | "xls" | "xlsx" | "html" | "txt" | "md";

/**
 * A block of a `toolResult`'s content: text, JSON (a structured result), an image or a
 * document as bytes. Each member declares the others' keys as `?: never`, as the AWS SDK's
 * unions do, so `block.text` reads as `string | undefined`.
 */
export type BedrockToolResultContentBlock =
  | { text: string; json?: never; image?: never; document?: never }
  | { json: BedrockJson; text?: never; image?: never; document?: never }
  | {
      image: { format: BedrockImageFormat; source: { bytes: Uint8Array } };
      text?: never;
      json?: never;
      document?: never;
    }
  | {
      document: { format: BedrockDocumentFormat; name: string; source: { bytes: Uint8Array } };
      text?: never;
      json?: never;
      image?: never;
    };

export type BedrockToolResultMessage = {
  role: "user";
  content: Array<{
    toolResult: { toolUseId: string; content: BedrockToolResultContentBlock[]; status: "success" | "error" };
  }>;
};

// ---- Result parts ----------------------------------------------------------------------

const IMAGE_FORMATS: Readonly<Record<string, BedrockImageFormat>> = {
  "image/png": "png",
  "image/jpeg": "jpeg",
  "image/gif": "gif",
  "image/webp": "webp",
};

const DOCUMENT_FORMATS: Readonly<Record<string, BedrockDocumentFormat>> = {
  "application/pdf": "pdf",
  "text/csv": "csv",
  "application/msword": "doc",
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document": "docx",
  "application/vnd.ms-excel": "xls",
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": "xlsx",
  "text/html": "html",
  "text/plain": "txt",
  "text/markdown": "md",
};

function formatOf<F>(formats: Readonly<Record<string, F>>, mimeType: string | undefined): F | undefined {
  const key = mimeType?.toLowerCase();
  return key !== undefined && Object.hasOwn(formats, key) ? formats[key] : undefined;
}

/** Why Converse cannot take `part` in a tool result, or `undefined` when it can. */
function unsupported(part: Exclude<ToolContent, { type: "text" }>): string | undefined {
  switch (part.type) {
    case "image":
      if ("url" in part) return "Bedrock tool results carry images as bytes, not URLs";
      return formatOf(IMAGE_FORMATS, part.mimeType) === undefined
        ? `Bedrock reads PNG, JPEG, GIF and WebP images, not ${part.mimeType}`
        : undefined;
    case "file":
      if ("url" in part) return "Bedrock tool results carry documents as bytes, not URLs";
      return formatOf(DOCUMENT_FORMATS, part.mimeType) === undefined
        ? `Bedrock documents are PDF, CSV, DOC, DOCX, XLS, XLSX, HTML, TXT or MD, not ${part.mimeType}`
        : undefined;
    case "audio":
      return "Bedrock tool results carry no audio";
    case "resource_link":
      return "Bedrock tool results carry no resource links";
  }
}

/** Base64 as the bytes the AWS SDK takes (it encodes them for the wire itself). */
function bytesOf(base64: string): Uint8Array {
  const buffer = Buffer.from(base64, "base64");
  return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
}

/**
 * A document name Bedrock accepts: ASCII letters and digits, single spaces, hyphens,
 * parentheses and square brackets. The extension goes (the format says it); every run of
 * anything else becomes "-". Empty when nothing of `name` is left.
 */
export function bedrockDocumentName(name: string): string {
  return name
    .replace(/\.[A-Za-z0-9]{1,5}$/, "")
    .replace(/[^A-Za-z0-9\s()[\]-]+/g, "-")
    .replace(/\s+/g, " ")
    .trim();
}

/**
 * Names for the documents of one message, each different (Bedrock refuses a message with two
 * documents of one name): the part's name, made acceptable, else "document-<n>".
 */
function documentNamer(): (part: FileContent) => string {
  const taken = new Set<string>();
  return (part) => {
    const base = bedrockDocumentName(part.name ?? "") || `document-${taken.size + 1}`;
    let name = base;
    for (let n = 2; taken.has(name); n++) name = `${base} (${n})`;
    taken.add(name);
    return name;
  };
}

function imageBlock(part: { data: string; mimeType: string }): BedrockToolResultContentBlock | undefined {
  const format = formatOf(IMAGE_FORMATS, part.mimeType);
  return format === undefined ? undefined : { image: { format, source: { bytes: bytesOf(part.data) } } };
}

function documentBlock(
  part: Extract<FileContent, { data: string }>,
  nameDocument: (part: FileContent) => string,
): BedrockToolResultContentBlock | undefined {
  const format = formatOf(DOCUMENT_FORMATS, part.mimeType);
  return format === undefined
    ? undefined
    : { document: { format, name: nameDocument(part), source: { bytes: bytesOf(part.data) } } };
}

/** A part as a `toolResult` content block; `undefined` for what is not sent (empty text: Converse refuses it). */
function contentBlock(
  part: ToolContent,
  nameDocument: (part: FileContent) => string,
): BedrockToolResultContentBlock | undefined {
  switch (part.type) {
    case "text":
      return part.text === "" ? undefined : { text: part.text };
    case "image":
      return "data" in part ? imageBlock(part) : undefined;
    case "file":
      return "data" in part ? documentBlock(part, nameDocument) : undefined;
    default:
      // Audio and links: `carries` keeps them out of what `reply` gets.
      return undefined;
  }
}

/** A structured result as the JSON its `output` holds, or `undefined` when the output is not a JSON object. */
function structuredJson(result: ToolResult): BedrockJson | undefined {
  if (result.structuredContent === undefined || result.isError) return undefined;
  try {
    const value: unknown = JSON.parse(result.output);
    return typeof value === "object" && value !== null ? (value as BedrockJson) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * What a `toolResult` holds: the result's parts when it has them, a structured result as one
 * `json` block (its text would say the same again), else its text; never empty, since
 * Converse refuses empty text blocks, which would wedge the conversation.
 */
function resultContent(
  result: ToolResult,
  nameDocument: (part: FileContent) => string,
): BedrockToolResultContentBlock[] {
  const blocks = result.content?.flatMap((part) => contentBlock(part, nameDocument) ?? []) ?? [];
  if (blocks.length > 0) return blocks;
  const json = result.content === undefined ? structuredJson(result) : undefined;
  if (json !== undefined) return [{ json }];
  return [{ text: result.output === "" ? "(no output)" : result.output }];
}

// ---- The adapter -----------------------------------------------------------------------

const NAMES: NameRule = { max: 64, pattern: /^[a-zA-Z0-9_-]{1,64}$/, text: "1-64 characters from a-z A-Z 0-9 _ -" };

/** A schema as the JSON document Converse types `inputSchema.json` as (a schema is JSON: the type only says so). */
function jsonDocument(schema: JSONSchemaObject): BedrockJsonObject {
  return schema as BedrockJsonObject;
}

/**
 * The results in a Converse message list that answered calls of `toolName`, oldest first: each `json` block's value and
 * each `text` block's text. Calls are paired with results by `toolUseId`.
 */
function answersIn(conversation: unknown, toolName: string): unknown[] {
  const messages = Array.isArray(conversation) ? conversation : field(conversation, "messages");
  if (!Array.isArray(messages)) return [];
  const blocks = messages.flatMap((message) => {
    const content = field(message, "content");
    return Array.isArray(content) ? (content as unknown[]) : [];
  });
  const calls = new Set<unknown>();
  for (const block of blocks) {
    const toolUse = field(block, "toolUse");
    if (field(toolUse, "name") === toolName && typeof field(toolUse, "toolUseId") === "string")
      calls.add(field(toolUse, "toolUseId"));
  }
  const answers: unknown[] = [];
  for (const block of blocks) {
    const result = field(block, "toolResult");
    if (!calls.has(field(result, "toolUseId"))) continue;
    const content = field(result, "content");
    for (const part of Array.isArray(content) ? (content as unknown[]) : []) {
      const json = field(part, "json");
      const text = field(part, "text");
      if (json !== undefined) answers.push(json);
      else if (typeof text === "string") answers.push(text);
    }
  }
  return answers;
}

/**
 * The schema goes under `inputSchema.json`, an object at the root with no combinators; with `strict`, it is lowered to
 * strict tool use's subset. Converse has no tool search: deferred tools are found with toolnexus's `search_tools`.
 */
export const bedrock: Provider<
  "bedrock",
  "Bedrock",
  {
    declarations: BedrockToolConfig;
    options: BedrockExportOptions;
    callsInput: BedrockCallsInput;
    reply: BedrockToolResultMessage | undefined;
  }
> = {
  id: "bedrock",
  name: "Bedrock",
  answersCalls: true,
  names: NAMES,
  lower: lowerForStrictToolUse,
  loweringOptions: ["strict"],
  declare(tools) {
    checkStrictTools("Bedrock", tools);
    return {
      tools: tools.map(({ name, description, lowering }) => ({
        toolSpec: {
          name,
          description,
          inputSchema: { json: jsonDocument(lowering.schema) },
          ...(lowering.strict === true ? { strict: true } : {}),
        },
      })),
    };
  },
  answersIn(conversation, toolName) {
    try {
      return answersIn(conversation, toolName);
    } catch {
      // A message list a host's Proxy or getter cannot read answers nothing.
      return [];
    }
  },
  readCalls(input) {
    let blocks: unknown = input;
    if (!Array.isArray(input)) {
      const output = field(input, "output");
      blocks = field(output !== undefined ? field(output, "message") : input, "content");
    }
    return readEntries(blocks, (block) => {
      const toolUse = field(block, "toolUse");
      return toolUse === undefined ? undefined : callFrom(toolUse, { name: "name", args: "input", id: "toolUseId" });
    });
  },
  emptyReply() {
    return { role: "user", content: [] };
  },
  reply(calls, results) {
    // Converse rejects a user turn with no content: with no calls there is nothing to append.
    if (calls.length === 0) return undefined;
    const nameDocument = documentNamer();
    return {
      role: "user",
      content: calls.map((call, i) => ({
        toolResult: {
          toolUseId: call.id ?? "",
          content: resultContent(results[i]!, nameDocument),
          status: results[i]!.isError ? "error" : "success",
        },
      })),
    };
  },
  carries: unsupported,
};
