import { PrimitiveError } from "../core/errors";
import type { PromptContent, PromptMessage, PromptResult, ResourceContents } from "../core/primitives";
import { isObject } from "../core/types";
import { safeJsonStringify } from "./result";

/**
 * What a resource's method returned, as MCP resource contents: a string is text (`mimeType`, else
 * `text/plain`), bytes a base64 blob (`mimeType`, else `application/octet-stream`), contents
 * (`{ text }` / `{ blob }`, or a list of them) pass with `uri` and `mimeType` filled in, and any
 * other value is its JSON (`application/json`).
 */
export function resourceContentsOf(value: unknown, uri: string, mimeType: string | undefined): ResourceContents[] {
  if (typeof value === "string") return [{ uri, mimeType: mimeType ?? "text/plain", text: value }];
  if (value instanceof Uint8Array || value instanceof ArrayBuffer)
    return [{ uri, mimeType: mimeType ?? "application/octet-stream", blob: base64Of(value) }];
  if (isContents(value)) return [filledIn(value, uri, mimeType)];
  if (Array.isArray(value) && value.length > 0 && value.every(isContents))
    return value.map((contents) => filledIn(contents, uri, mimeType));
  const json = value === undefined ? undefined : safeJsonStringify(value);
  if (json === undefined)
    throw new PrimitiveError(
      `The resource ${uri} read nothing: return a string, bytes, a JSON value, or { text } / { blob } contents.`,
    );
  return [{ uri, mimeType: mimeType ?? "application/json", text: json }];
}

function isContents(value: unknown): value is Partial<ResourceContents> & ({ text: string } | { blob: unknown }) {
  return isObject(value) && (typeof value.text === "string" || "blob" in value) && !("type" in value);
}

function filledIn(
  contents: Partial<ResourceContents> & ({ text: string } | { blob: unknown }),
  uri: string,
  mimeType: string | undefined,
): ResourceContents {
  const { annotations } = contents;
  const type = contents.mimeType ?? mimeType;
  const common = {
    uri: contents.uri ?? uri,
    ...(type !== undefined ? { mimeType: type } : {}),
    ...(annotations !== undefined ? { annotations } : {}),
  };
  if ("text" in contents && typeof contents.text === "string") return { ...common, text: contents.text };
  const blob = (contents as { blob: unknown }).blob;
  if (typeof blob === "string") return { ...common, blob };
  if (blob instanceof Uint8Array || blob instanceof ArrayBuffer) return { ...common, blob: base64Of(blob) };
  throw new PrimitiveError(`The resource ${uri}: blob must be bytes or a base64 string.`);
}

function base64Of(bytes: Uint8Array | ArrayBuffer): string {
  return Buffer.from(bytes instanceof ArrayBuffer ? new Uint8Array(bytes) : bytes).toString("base64");
}

/**
 * What a prompt's method returned, as an MCP prompt result: a string is one user message; a list
 * is the messages; `{ description?, messages }` passes. A message is `{ role, content }` whose
 * content is a string (text) or a text, image, audio, resource or resource_link part.
 */
export function promptResultOf(value: unknown, prompt: string): PromptResult {
  const fix =
    `Prompt "${prompt}" must return a string, a list of { role: "user" | "assistant", content } messages, or ` +
    "{ description?, messages }";
  if (typeof value === "string") return { messages: [{ role: "user", content: { type: "text", text: value } }] };
  const listed = Array.isArray(value) ? { messages: value } : value;
  if (!isObject(listed) || !Array.isArray(listed.messages)) throw new PrimitiveError(`${fix}.`);
  const { description } = listed;
  if (description !== undefined && typeof description !== "string")
    throw new PrimitiveError(`${fix}: description must be a string.`);
  return {
    ...(description !== undefined ? { description } : {}),
    messages: listed.messages.map((message: unknown, index) => messageOf(message, `${fix}: message ${index + 1}`)),
  };
}

function messageOf(message: unknown, where: string): PromptMessage {
  if (!isObject(message) || (message.role !== "user" && message.role !== "assistant"))
    throw new PrimitiveError(`${where} needs role "user" or "assistant".`);
  const { content } = message;
  if (typeof content === "string") return { role: message.role, content: { type: "text", text: content } };
  if (!isObject(content) || !PART_CHECKS[content.type as string]?.(content))
    throw new PrimitiveError(
      `${where}: content must be a string or a text, image, audio, resource or resource_link part.`,
    );
  return { role: message.role, content: content as unknown as PromptContent };
}

const PART_CHECKS: Record<string, (part: Record<string, unknown>) => boolean> = {
  text: (part) => typeof part.text === "string",
  image: (part) => typeof part.data === "string" && typeof part.mimeType === "string",
  audio: (part) => typeof part.data === "string" && typeof part.mimeType === "string",
  resource: (part) =>
    isObject(part.resource) &&
    typeof part.resource.uri === "string" &&
    (typeof part.resource.text === "string" || typeof part.resource.blob === "string"),
  resource_link: (part) => typeof part.uri === "string" && typeof part.name === "string",
};
