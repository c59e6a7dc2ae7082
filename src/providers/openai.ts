import type { NameRule } from "../core/names";
import { dataUrl, describePart } from "../runtime/content";
import {
  appendSentence,
  ChangeLog,
  distinctSchemas,
  hasType,
  plainObjectRoot,
  tupleOf,
  withoutStrictCombinators,
  definitionAt,
} from "../schema/lowering";
import { childPointer, mapSubschemas } from "../core/subschemas";
import {
  type FileContent,
  type FreeTextInput,
  type ImageContent,
  type JSONSchemaObject,
  type ToolContent,
  type ToolResult,
} from "../core/types";
import { FREE_TEXT_PROPERTY } from "../schema/free-text";
import {
  callFrom,
  field,
  listOf,
  quietly,
  readEntries,
  type DeclaredTool,
  type ExportOptions,
  type Lowering,
  type ParsedCall,
  type Provider,
} from "./adapter";
import { acceptsLazily, arrayCodec, lazyCodec, objectCodec, unionCodec, type MaybeCodec } from "./codec";

// ---- Declarations (Chat Completions) ---------------------------------------------------

export type OpenAIFunctionTool = {
  type: "function";
  function: { name: string; description: string; parameters: JSONSchemaObject; strict?: boolean };
};

/** What a custom tool's text input follows: any text, or a grammar (Lark, or a regular expression). */
export type OpenAICustomToolFormat =
  { type: "text" } | { type: "grammar"; grammar: { syntax: "lark" | "regex"; definition: string } };

/** A free-text tool (`input: "text"`): the model writes its input as text, not JSON arguments. */
export type OpenAICustomTool = {
  type: "custom";
  custom: { name: string; description: string; format: OpenAICustomToolFormat };
};

/** A Chat Completions tool declaration: a function, or a custom tool for a free-text tool. */
export type OpenAITool = OpenAIFunctionTool | OpenAICustomTool;

export interface OpenAIExportOptions extends ExportOptions {
  /**
   * Structured-outputs strict mode: every object closed, every property required, optional
   * values nullable (a `null` answer is read back as "not given"). A tool whose schema cannot
   * be strict (a free-form object, a limit passed) is sent with `strict: false`, and the
   * report says why. A tool's own `strict` wins over this.
   */
  strict?: boolean;
}

// ---- Calls in, results out: types ------------------------------------------------------

export type OpenAIToolCallLike = {
  id: string;
  type: string;
  function?: { name: string; arguments: string };
  custom?: { name: string; input: string };
};
export type OpenAIMessageLike = { role?: string; content?: unknown; tool_calls?: OpenAIToolCallLike[] | null };
export type OpenAICompletionLike = { choices: Array<{ message: OpenAIMessageLike }> };

/**
 * A chat completion (its first choice), an assistant message, or its `tool_calls`. A `custom` call
 * runs the tool it names with its text as `{ input: text }`: a free-text tool takes that; a tool
 * of JSON arguments answers that the arguments are not its own, as for any wrong arguments.
 */
export type OpenAICallsInput = OpenAICompletionLike | OpenAIMessageLike | readonly OpenAIToolCallLike[];

/** The answer to one call, as text: Chat Completions tool messages carry text only. */
export type OpenAIToolMessage = { role: "tool"; tool_call_id: string; content: string };

/** What the attachments message carries: a text naming a call, then that call's images, audio and PDFs. */
export type OpenAIAttachmentPart =
  | { type: "text"; text: string }
  | { type: "image_url"; image_url: { url: string } }
  | { type: "input_audio"; input_audio: { data: string; format: "wav" | "mp3" } }
  | { type: "file"; file: { file_data: string; filename: string } };

/**
 * The images, audio and files of a turn's results, which tool messages cannot carry: one
 * user message, after every tool message of the turn, each call's parts under a text naming it.
 */
export type OpenAIAttachmentsMessage = { role: "user"; content: OpenAIAttachmentPart[] };

/**
 * A message of the reply to a turn's calls (what `runOpenAI` gives a list of): one tool
 * message per call, in call order, and, when some results have images, audio or files, one
 * user message after them carrying those. Append the list as it is, right after the assistant
 * message: OpenAI wants every tool message directly after the assistant message with the
 * `tool_calls`, before any user message.
 */
export type OpenAIReplyMessage = OpenAIToolMessage | OpenAIAttachmentsMessage;

// ---- The adapter -----------------------------------------------------------------------

export const OPENAI_NAMES: NameRule = {
  max: 64,
  pattern: /^[a-zA-Z0-9_-]{1,64}$/,
  text: "1-64 characters from a-z A-Z 0-9 _ -",
};

export const openai: Provider<
  "openai",
  "OpenAI",
  {
    declarations: OpenAITool[];
    options: OpenAIExportOptions;
    callsInput: OpenAICallsInput;
    reply: OpenAIReplyMessage[];
  }
> = {
  id: "openai",
  name: "OpenAI",
  answersCalls: true,
  names: OPENAI_NAMES,
  lower: lowerOpenAI,
  loweringOptions: ["strict"],
  declare: (tools, options) =>
    tools.map((declared) =>
      declared.tool.freeText === undefined ? chatFunction(declared, options) : chatCustomTool(declared),
    ),
  readCalls(input) {
    let list: unknown = input;
    if (!Array.isArray(input)) {
      const choices = field(input, "choices");
      list = field(Array.isArray(choices) ? field(choices[0], "message") : input, "tool_calls");
    }
    return readEntries(list, (entry) => {
      const type = field(entry, "type");
      const fn = field(entry, "function");
      const call =
        type === "custom"
          ? freeTextCall(field(entry, "custom"), { name: "name", input: "input" })
          : callFrom(fn, { name: "name", args: "arguments" });
      const id = field(entry, "id");
      if (typeof id === "string") call.id = id;
      // A call of a kind toolnexus does not declare is answered with an error rather than dropped.
      if (type !== "custom" && (type !== "function" || fn === undefined)) {
        call.refusal ??= {
          kind: "unknown_tool",
          message:
            `Tool "${call.name}" was called as a ${typeof type === "string" ? type : "non-function"} tool, ` +
            "but only function and custom tools are declared; call it as a function with JSON arguments.",
        };
      }
      return call;
    });
  },
  answersIn: chatAnswersIn,
  reply(calls, results) {
    const toolMessages = calls.map((call, i): OpenAIToolMessage => ({
      role: "tool",
      tool_call_id: call.id ?? "",
      content: toolMessageText(results[i]!),
    }));
    const attachments = attachmentsMessage(calls, results);
    return attachments === undefined ? toolMessages : [...toolMessages, attachments];
  },
  carries: carriedByChat,
};

// ---- Declarations: functions and free-text tools -----------------------------------------

/** `strict` is sent when the export or the tool asks for strict mode, as the tool's lowering came out. */
function chatFunction({ tool, name, description, lowering }: DeclaredTool, options: OpenAIExportOptions): OpenAITool {
  const strictAsked = options.strict === true || tool.strict !== undefined;
  return {
    type: "function",
    function: {
      name,
      description,
      parameters: lowering.schema,
      ...(strictAsked ? { strict: lowering.strict === true } : {}),
    },
  };
}

function chatCustomTool({ tool, name, description }: DeclaredTool): OpenAITool {
  const grammar = tool.freeText?.grammar;
  const format: OpenAICustomToolFormat =
    grammar === undefined
      ? { type: "text" }
      : { type: "grammar", grammar: { syntax: grammar.syntax, definition: grammar.definition } };
  return { type: "custom", custom: { name, description, format } };
}

/** A free-text tool's grammar as the Responses API takes it (flat), or any text. */
export function responsesTextFormat(
  freeText: FreeTextInput,
): { type: "text" } | { type: "grammar"; syntax: "lark" | "regex"; definition: string } {
  const grammar = freeText.grammar;
  return grammar === undefined
    ? { type: "text" }
    : { type: "grammar", syntax: grammar.syntax, definition: grammar.definition };
}

// ---- Calls of custom tools (shared with the Responses adapter) ----------------------------

/**
 * A custom tool's call read out of `source`: its text becomes the arguments `{ input: text }`, what
 * a free-text tool takes. Input that is not text makes a refused call.
 */
export function freeTextCall(source: unknown, fields: { name: string; input: string; id?: string }): ParsedCall {
  // Answered as a custom call whatever its input: the provider refuses any other answer to it.
  const call: ParsedCall = {
    ...callFrom(source, { name: fields.name, args: fields.input, id: fields.id }),
    kind: "custom",
  };
  if (call.refusal !== undefined) return call;
  if (typeof call.arguments !== "string") {
    call.refusal = {
      kind: "invalid_arguments",
      message: `The input of the call to tool "${call.name}" is not text; send the tool's input as text.`,
    };
    return call;
  }
  call.arguments = { [FREE_TEXT_PROPERTY]: call.arguments };
  return call;
}

// ---- Earlier answers in a conversation ----------------------------------------------------

/**
 * The `content` of every `tool` message in a Chat Completions message list (or `{ messages }`)
 * that answers a call of `toolName` (matched by `tool_call_id` to an earlier assistant message's
 * `tool_calls`), oldest first: text as sent, a list of text parts as their text. Anything that
 * cannot be read is passed over: never throws.
 */
function chatAnswersIn(conversation: unknown, toolName: string): unknown[] {
  const messages = listOf(
    quietly(() => (Array.isArray(conversation) ? conversation : field(conversation, "messages"))),
  );
  const callsOfTool = new Set<string>();
  const answers: unknown[] = [];
  for (const message of messages) {
    const role = quietly(() => field(message, "role"));
    if (role === "assistant") {
      for (const call of listOf(quietly(() => field(message, "tool_calls")))) {
        const name = quietly(() => field(field(call, "function"), "name") ?? field(field(call, "custom"), "name"));
        const id = quietly(() => field(call, "id"));
        if (name === toolName && typeof id === "string") callsOfTool.add(id);
      }
    } else if (role === "tool") {
      const id = quietly(() => field(message, "tool_call_id"));
      if (typeof id !== "string" || !callsOfTool.has(id)) continue;
      const content = quietly(() => textOf(field(message, "content")));
      if (content !== undefined) answers.push(content);
    }
  }
  return answers;
}

/** A tool message's content as text: a string as it is, a list of text parts joined. */
function textOf(content: unknown): string | undefined {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return undefined;
  return listOf(content)
    .map((part) => quietly(() => field(part, "text")))
    .filter((text): text is string => typeof text === "string")
    .join("");
}

// ---- Results with parts (Chat Completions) ----------------------------------------------

/** The audio formats a Chat Completions `input_audio` part takes, by mime type. */
const AUDIO_FORMATS = new Map<string, "wav" | "mp3">([
  ["audio/wav", "wav"],
  ["audio/x-wav", "wav"],
  ["audio/wave", "wav"],
  ["audio/mpeg", "mp3"],
  ["audio/mp3", "mp3"],
]);

/** Images, wav and mp3 audio, and inline PDFs reach the model in the attachments message. */
function carriedByChat(part: Exclude<ToolContent, { type: "text" }>): string | undefined {
  switch (part.type) {
    case "image":
      return unsupportedImageType(part);
    case "audio":
      return !AUDIO_FORMATS.has(part.mimeType)
        ? `OpenAI Chat Completions takes wav and mp3 audio only (not ${part.mimeType})`
        : undefined;
    case "file":
      if ("url" in part) return "OpenAI Chat Completions takes files as inline data, not by URL";
      return part.mimeType === "application/pdf"
        ? undefined
        : `OpenAI Chat Completions takes PDF files only (not ${part.mimeType})`;
    case "resource_link":
      return "OpenAI Chat Completions messages carry no resource links";
  }
}

/** A tool message's text: the result's text form, each attachment noted where the model finds it. */
function toolMessageText(result: ToolResult): string {
  const text = result.content === undefined ? result.output : result.content.map(partText).join("\n");
  return result.isError ? `Error: ${text}` : text;
}

function partText(part: ToolContent): string {
  if (part.type === "text") return part.text;
  return carriedByChat(part) === undefined
    ? `[${describePart(part)}, attached in the user message after the tool results]`
    : `[${describePart(part)}]`;
}

/** The user message carrying every call's attachments, in call order; none when no result has any. */
function attachmentsMessage(
  calls: readonly ParsedCall[],
  results: readonly ToolResult[],
): OpenAIAttachmentsMessage | undefined {
  const content = calls.flatMap((call, i) => {
    const parts = (results[i]!.content ?? []).flatMap(attachmentPart);
    return parts.length === 0 ? [] : [{ type: "text" as const, text: `Attachments of ${callLabel(call)}:` }, ...parts];
  });
  return content.length === 0 ? undefined : { role: "user", content };
}

function callLabel(call: ParsedCall): string {
  return call.id === undefined || call.id === "" ? `the ${call.name} tool call` : `tool call ${call.id} (${call.name})`;
}

function attachmentPart(part: ToolContent): OpenAIAttachmentPart[] {
  // Text is in the tool message, and so is the note for a part Chat cannot carry.
  if (part.type === "text" || carriedByChat(part) !== undefined) return [];
  switch (part.type) {
    case "image":
      return [{ type: "image_url", image_url: { url: "url" in part ? part.url : dataUrl(part) } }];
    case "audio":
      return [{ type: "input_audio", input_audio: { data: part.data, format: AUDIO_FORMATS.get(part.mimeType)! } }];
    case "file":
      return "data" in part ? [{ type: "file", file: { file_data: dataUrl(part), filename: filenameOf(part) } }] : [];
    default:
      return [];
  }
}

// ---- Shared with the Responses adapter ---------------------------------------------------

/** The image types OpenAI's vision input takes (an image by URL is taken as sent: its type shows only when fetched). */
const OPENAI_IMAGE_TYPES = new Set(["image/png", "image/jpeg", "image/webp", "image/gif"]);

/** Why OpenAI refuses an inline image of this type, or `undefined` when it takes it. */
export function unsupportedImageType(part: ImageContent): string | undefined {
  if ("url" in part || OPENAI_IMAGE_TYPES.has(part.mimeType)) return undefined;
  return `OpenAI takes PNG, JPEG, WebP and GIF images only (not ${part.mimeType})`;
}

const EXTENSIONS = new Map([
  ["application/pdf", "pdf"],
  ["text/plain", "txt"],
  ["text/csv", "csv"],
  ["text/markdown", "md"],
  ["text/html", "html"],
  ["application/json", "json"],
]);

/** The file's name, or one made from its type: OpenAI wants a filename with inline file data. */
export function filenameOf(part: FileContent): string {
  if (part.name !== undefined) return part.name;
  const extension = EXTENSIONS.get(part.mimeType) ?? /^[a-z0-9]+$/.exec(part.mimeType.split("/")[1] ?? "")?.[0];
  return extension === undefined ? "file" : `file.${extension}`;
}

// ---- Dialect -----------------------------------------------------------------------------

/**
 * OpenAI's schema for a tool: never a union, `enum` or `not` at the root (OpenAI refuses those
 * even without strict mode); with `strict`, the strict-mode form when the schema allows one.
 * Answers are read back the strict way in both cases: a `null` for an optional value the tool
 * does not take as null means "not given".
 */
export function lowerOpenAI(schema: JSONSchemaObject, log: ChangeLog, options: OpenAIExportOptions): Lowering {
  const root = plainObjectRoot(schema, log);
  const walkStrict = () => new StrictWalk(root, new ChangeLog(log.tool, log.enforced)).run();
  const strict = options.strict ? walkStrict() : undefined;
  if (strict !== undefined && strict.unstrictable === undefined) {
    log.changes.push(...strict.log.changes);
    return { schema: strict.schema, codec: strict.codec, strict: true };
  }
  if (strict !== undefined)
    log.add("", "strict", "disabled", `${strict.unstrictable}; this tool is sent with strict: false`);
  // The model writes the declared form; only the strict reading of nulls applies, made when first needed.
  const decodeOnly = (): MaybeCodec => {
    const { codec } = strict ?? walkStrict();
    return codec && { encode: (value) => value, decode: codec.decode };
  };
  return { schema: withArrayItems(root, log), codec: decodeOnly, strict: false };
}

/** OpenAI refuses an array schema without `items`, strict or not: such arrays take items of any value. */
function withArrayItems(schema: JSONSchemaObject, log: ChangeLog): JSONSchemaObject {
  return mapSubschemas(schema, (node, pointer) => {
    if (
      typeof node !== "object" ||
      node === null ||
      !hasType(node as JSONSchemaObject, "array") ||
      "items" in node ||
      "prefixItems" in node
    )
      return node;
    log.add(
      childPointer(pointer(), "items"),
      "items",
      "added",
      "items: {} (OpenAI needs an item schema on every array; any value, as before)",
    );
    return { ...node, items: {} };
  }) as JSONSchemaObject;
}

/** Keywords strict mode refuses. */
const STRICT_UNSUPPORTED = new Set([
  "not",
  "if",
  "then",
  "else",
  "dependentRequired",
  "dependentSchemas",
  "dependencies",
  "propertyNames",
  "contains",
  "minContains",
  "maxContains",
  "minProperties",
  "maxProperties",
  "uniqueItems",
  "unevaluatedProperties",
  "unevaluatedItems",
  "contentEncoding",
  "contentMediaType",
  "$schema",
  "$id",
  "$comment",
  "$anchor",
]);

/** String formats strict mode accepts; others move into the description. */
const STRICT_FORMATS = new Set(["date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"]);

/** OpenAI's documented structured-outputs limits. */
const STRICT_LIMITS = {
  depth: 10,
  properties: 5_000,
  enumValues: 1_000,
  stringLength: 120_000,
  largeEnum: 250,
  largeEnumLength: 15_000,
} as const;

interface Walked {
  node: JSONSchemaObject | undefined;
  codec: MaybeCodec;
}

/** One walk to strict mode: the schema, the way back, and the first reason it cannot be strict. */
class StrictWalk {
  unstrictable: string | undefined;
  readonly #definitions = new Map<string, MaybeCodec>();

  constructor(
    private readonly root: JSONSchemaObject,
    private readonly log: ChangeLog,
  ) {}

  run(): { schema: JSONSchemaObject; codec: MaybeCodec; unstrictable: string | undefined; log: ChangeLog } {
    const { node, codec } = this.node(this.root, "");
    const schema = node ?? this.root;
    for (const key of ["$defs", "definitions"] as const) {
      const definitions = this.root[key] as Record<string, unknown> | undefined;
      if (definitions === undefined) continue;
      schema[key] = Object.fromEntries(
        Object.entries(definitions).map(([name, definition]) => {
          const walked = this.node(definition, childPointer("", key, name));
          this.#definitions.set(`#/${key}/${name}`, walked.codec);
          return [name, walked.node ?? { not: {} }];
        }),
      );
    }
    this.unstrictable ??= limitPassed(schema);
    return { schema, codec, unstrictable: this.unstrictable, log: this.log };
  }

  #refuse(pointer: string, why: string): void {
    this.unstrictable ??= `${why} at ${pointer || "/"}`;
  }

  node(input: unknown, pointer: string): Walked {
    if (input === false) return { node: undefined, codec: undefined };
    if (
      typeof input !== "object" ||
      input === null ||
      Array.isArray(input) ||
      Object.keys(input).every((key) => key === "description" || key === "title")
    ) {
      this.#refuse(pointer, "a schema that accepts any value (strict mode needs a type on every schema)");
      return { node: input === true ? {} : (input as JSONSchemaObject), codec: undefined };
    }
    let node: JSONSchemaObject = { ...(input as JSONSchemaObject) };
    if (typeof node.$ref === "string") {
      const ref = node.$ref;
      this.#dropUnsupported(node, pointer);
      return { node, codec: lazyCodec(() => this.#definitions.get(ref)) };
    }
    node = withoutStrictCombinators(node, this.root, pointer, this.log, {
      allOf: "strict mode has no allOf",
      oneOf: "",
    });
    this.#dropUnsupported(node, pointer);
    if (
      "patternProperties" in node ||
      (node.additionalProperties !== undefined && node.additionalProperties !== false)
    ) {
      this.#refuse(pointer, "an object that takes keys beyond its declared properties");
    }
    const values = "const" in node ? [node.const] : Array.isArray(node.enum) ? node.enum : undefined;
    if (values !== undefined) {
      if (values.some((value) => typeof value === "object" && value !== null))
        this.#refuse(pointer, "an enum or const with object or array values");
      if (node.type === undefined) {
        const types = [...new Set(values.map(jsonType))];
        node.type = (types.length === 1 ? types[0] : types) as JSONSchemaObject["type"];
        this.log.add(
          childPointer(pointer, "type"),
          "type",
          "added",
          `type ${JSON.stringify(node.type)} added from the values (strict mode needs a type on every schema)`,
        );
      }
    }
    let codec: MaybeCodec;
    if (Array.isArray(node.anyOf)) {
      const branches = node.anyOf as unknown[];
      const walked = branches.map((branch, i) => this.node(branch, childPointer(pointer, "anyOf", i)));
      node.anyOf = walked.filter((w) => w.node !== undefined).map((w) => w.node!);
      codec = unionCodec(
        branches.map((branch, i) => ({ codec: walked[i]!.codec, accepts: acceptsLazily(branch, this.root) })),
      );
    } else if (node.type === undefined) {
      const inferred =
        "properties" in node || "required" in node
          ? "object"
          : "items" in node || "prefixItems" in node
            ? "array"
            : undefined;
      if (inferred === undefined) this.#refuse(pointer, "a schema without a type");
      else {
        node.type = inferred;
        this.log.add(
          childPointer(pointer, "type"),
          "type",
          "added",
          `type "${inferred}" added (strict mode needs a type on every schema)`,
        );
      }
    }
    if (typeof node.format === "string" && !STRICT_FORMATS.has(node.format)) {
      this.log.add(
        childPointer(pointer, "format"),
        "format",
        "moved",
        `format "${node.format}" is not supported in strict mode; stated in the description instead${this.log.whenRun}`,
      );
      node.description = appendSentence(node.description, `Format: ${node.format}.`);
      delete node.format;
    }
    if (hasType(node, "object")) codec = this.#object(node, pointer) ?? codec;
    if (hasType(node, "array")) codec = this.#array(node, pointer) ?? codec;
    return { node, codec };
  }

  #dropUnsupported(node: JSONSchemaObject, pointer: string): void {
    for (const key of Object.keys(node)) {
      if (!STRICT_UNSUPPORTED.has(key)) continue;
      this.log.add(
        childPointer(pointer, key),
        key,
        "dropped",
        `${key} is not allowed in strict mode${this.log.whenRun}`,
      );
      delete node[key];
    }
  }

  /** Every property required, the optional ones nullable (null read back as "not given"), the object closed. */
  #object(node: JSONSchemaObject, pointer: string): MaybeCodec {
    const declared = (node.properties ?? {}) as Record<string, unknown>;
    if (Object.keys(declared).length === 0 && node.additionalProperties !== false)
      this.#refuse(pointer, "an object with no declared properties (a free-form object)");
    const required = new Set(node.required ?? []);
    const ghosts = [...required].filter((name) => !Object.prototype.hasOwnProperty.call(declared, name));
    if (ghosts.length > 0)
      this.log.add(
        childPointer(pointer, "required"),
        "required",
        "dropped",
        `${ghosts.map((n) => `"${n}"`).join(", ")} named no declared property${this.log.whenRun}`,
      );
    const properties: Record<string, JSONSchemaObject> = {};
    const codecs = new Map<string, MaybeCodec>();
    const nullMeansAbsent = new Set<string>();
    const absentSentAsNull = new Set<string>();
    for (const [name, child] of Object.entries(declared)) {
      const at = childPointer(pointer, "properties", name);
      const walked = this.node(child, at);
      if (walked.node === undefined) {
        this.log.add(at, "properties", "dropped", `"${name}" accepts no value (false), so it is not declared`);
        continue;
      }
      codecs.set(name, walked.codec);
      if (required.has(name)) {
        properties[name] = walked.node;
        continue;
      }
      properties[name] = this.#acceptsNull(walked.node) ? walked.node : nullable(walked.node);
      if (this.#acceptsNull(child)) {
        absentSentAsNull.add(name);
        this.log.add(
          at,
          "required",
          "lossy",
          `optional and nullable: "not given" can only be sent as null, which is passed on as null`,
        );
      } else {
        nullMeansAbsent.add(name);
        this.log.add(at, "required", "rewritten", "optional → required and nullable (a null answer means not given)");
      }
    }
    node.properties = properties;
    node.required = Object.keys(properties);
    if (node.additionalProperties !== false) {
      this.log.add(
        childPointer(pointer, "additionalProperties"),
        "additionalProperties",
        "lossy",
        "additionalProperties: false added (strict mode closes every object): keys the schema does not declare can " +
          "no longer be sent",
      );
      node.additionalProperties = false;
    }
    return objectCodec({ properties: codecs, nullMeansAbsent, absentSentAsNull });
  }

  /** Whether the schema as the tool declared it takes `null` (references followed). */
  #acceptsNull(schema: unknown, seen = new Set<string>()): boolean {
    if (typeof schema === "object" && schema !== null && typeof (schema as JSONSchemaObject).$ref === "string") {
      const ref = (schema as JSONSchemaObject).$ref as string;
      if (seen.has(ref)) return false;
      seen.add(ref);
      return this.#acceptsNull(definitionAt(this.root, ref), seen);
    }
    if (typeof schema !== "object" || schema === null) return acceptsNull(schema);
    const { anyOf, oneOf, allOf, ...own } = schema as JSONSchemaObject;
    if (Array.isArray(allOf) && !allOf.every((branch) => this.#acceptsNull(branch, seen))) return false;
    if (Array.isArray(anyOf) || Array.isArray(oneOf))
      return [...((anyOf as unknown[]) ?? []), ...((oneOf as unknown[]) ?? [])].some((branch) =>
        this.#acceptsNull(branch, seen),
      );
    return acceptsNull(own);
  }

  /** One item schema: a tuple's positions become an anyOf, each answer read back by its position's schema. */
  #array(node: JSONSchemaObject, pointer: string): MaybeCodec {
    const tuple = tupleOf(node);
    if (tuple !== undefined) {
      const key = Array.isArray(node.prefixItems) ? "prefixItems" : "items";
      const positions = tuple.positions.map((schema, i) => this.node(schema, childPointer(pointer, key, i)));
      const closed = tuple.rest === false || (typeof node.maxItems === "number" && node.maxItems <= positions.length);
      if (!closed && tuple.rest === undefined) this.#refuse(pointer, "a tuple that takes any further elements");
      const rest =
        closed || tuple.rest === undefined
          ? { node: undefined, codec: undefined }
          : this.node(tuple.rest, childPointer(pointer, "items"));
      const items = distinctSchemas(
        [...positions, rest].map((p) => p.node).filter((n): n is JSONSchemaObject => n !== undefined),
      );
      delete node.prefixItems;
      delete node.additionalItems;
      node.items = items.length === 1 ? items[0]! : { anyOf: items };
      if (closed && (typeof node.maxItems !== "number" || node.maxItems > positions.length))
        node.maxItems = positions.length;
      this.log.add(
        childPointer(pointer, key),
        key,
        "rewritten",
        "tuple → one item schema; each answer is read back by its position's schema, and " +
          `${this.log.holds("the order")}`,
      );
      return arrayCodec(
        positions.map((p) => p.codec),
        rest.codec,
      );
    }
    if ("additionalItems" in node) {
      this.log.add(
        childPointer(pointer, "additionalItems"),
        "additionalItems",
        "dropped",
        `additionalItems without a tuple says nothing`,
      );
      delete node.additionalItems;
    }
    if ((node.items as unknown) === false) {
      this.log.add(
        childPointer(pointer, "items"),
        "items",
        "rewritten",
        "items: false → an array that must be empty (maxItems 0)",
      );
      node.items = { type: "string" };
      node.maxItems = 0;
      return undefined;
    }
    if (node.items === undefined || (node.items as unknown) === true) {
      this.#refuse(pointer, "an array without an item schema");
      return undefined;
    }
    const items = this.node(node.items, childPointer(pointer, "items"));
    node.items = items.node;
    return arrayCodec([], items.codec);
  }
}

/** The first documented strict-mode limit `schema` passes, in words, or `undefined`. */
function limitPassed(schema: JSONSchemaObject): string | undefined {
  let properties = 0;
  let enumValues = 0;
  let stringLength = 0;
  let deepest = 0;
  let largeEnum: string | undefined;
  const visit = (node: unknown, depth: number): void => {
    if (typeof node !== "object" || node === null) return;
    if (Array.isArray(node)) return node.forEach((item) => visit(item, depth));
    const n = node as JSONSchemaObject;
    const isObjectNode = hasType(n, "object");
    const level = isObjectNode ? depth + 1 : depth;
    deepest = Math.max(deepest, level);
    for (const [name, child] of Object.entries(n.properties ?? {})) {
      properties++;
      stringLength += name.length;
      visit(child, level);
    }
    for (const map of ["$defs", "definitions"])
      for (const [name, child] of Object.entries((n[map] as object | undefined) ?? {})) {
        stringLength += name.length;
        visit(child, 0);
      }
    const values = [...(Array.isArray(n.enum) ? n.enum : []), ...("const" in n ? [n.const] : [])];
    enumValues += Array.isArray(n.enum) ? n.enum.length : 0;
    const length = values.reduce<number>((sum, v) => sum + (typeof v === "string" ? v.length : 0), 0);
    stringLength += length;
    if (Array.isArray(n.enum) && n.enum.length > STRICT_LIMITS.largeEnum && length > STRICT_LIMITS.largeEnumLength)
      largeEnum ??=
        `an enum of ${n.enum.length} values whose strings total ${length} characters (more than ` +
        `${STRICT_LIMITS.largeEnumLength} for over ${STRICT_LIMITS.largeEnum} values)`;
    for (const key of ["items", "anyOf"]) visit(n[key], level);
  };
  visit(schema, 0);
  if (deepest > STRICT_LIMITS.depth)
    return `objects nested ${deepest} levels deep (strict mode allows ${STRICT_LIMITS.depth})`;
  if (properties > STRICT_LIMITS.properties)
    return `${properties} properties in all (strict mode allows ${STRICT_LIMITS.properties})`;
  if (enumValues > STRICT_LIMITS.enumValues)
    return `${enumValues} enum values in all (strict mode allows ${STRICT_LIMITS.enumValues})`;
  if (stringLength > STRICT_LIMITS.stringLength)
    return (
      `${stringLength} characters of property names and enum values (strict mode allows ` +
      `${STRICT_LIMITS.stringLength})`
    );
  return largeEnum;
}

/** `schema` that also takes `null` (null joins an `enum`, and a `const` becomes a two-value enum). */
function nullable(schema: JSONSchemaObject): JSONSchemaObject {
  if (acceptsNull(schema)) return schema;
  const { const: constant, ...rest } = schema;
  const values = "const" in schema ? [constant] : schema.enum;
  const withNull = Array.isArray(values) ? { enum: [...values, null] } : {};
  if (typeof rest.type === "string") return { ...rest, type: [rest.type, "null"], ...withNull };
  if (Array.isArray(rest.type)) return { ...rest, type: [...rest.type, "null"], ...withNull };
  if (Array.isArray(schema.anyOf))
    return { ...schema, anyOf: [...(schema.anyOf as JSONSchemaObject[]), { type: "null" }] };
  return { anyOf: [schema, { type: "null" }] };
}

/** Whether the schema as the tool declared it takes `null`. */
function acceptsNull(schema: unknown): boolean {
  if (schema === true) return true;
  if (typeof schema !== "object" || schema === null) return false;
  const node = schema as JSONSchemaObject;
  if ("const" in node) return node.const === null;
  if (Array.isArray(node.enum)) return node.enum.includes(null);
  if (node.type === "null" || (Array.isArray(node.type) && node.type.includes("null"))) return true;
  if (Array.isArray(node.anyOf) || Array.isArray(node.oneOf))
    return [...((node.anyOf as unknown[]) ?? []), ...((node.oneOf as unknown[]) ?? [])].some(acceptsNull);
  // No type, no values, no union: nothing refuses null (a `$ref` is assumed to).
  return node.type === undefined && node.$ref === undefined;
}

function jsonType(value: unknown): string {
  if (value === null) return "null";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return Array.isArray(value) ? "array" : typeof value;
}
