import type { ToolContent, ToolResult } from "../../core/types";
import { textForm } from "../../runtime/content";
import type { ParsedCall } from "../adapter";
import type { GeminiFunctionResponseMedia, GeminiFunctionResponsePart } from "./wire";

/** The media types Google documents for function responses: PNG, JPEG and WebP images; PDF and plain-text documents. */
const RESPONSE_MEDIA_TYPES = new Set(["image/png", "image/jpeg", "image/webp", "application/pdf", "text/plain"]);

/** Mime types by file extension, for media sent by URL without one. */
const MEDIA_TYPE_BY_EXTENSION: Readonly<Record<string, string>> = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  webp: "image/webp",
  pdf: "application/pdf",
  txt: "text/plain",
};

const TAKEN_MEDIA = "they take PNG, JPEG and WebP images, PDF and plain text";

/** The part of the user turn that answers `call` with `result`. */
export function functionResponsePart(call: ParsedCall, result: ToolResult): GeminiFunctionResponsePart {
  const media = (result.content ?? []).flatMap(mediaPart);
  // Vertex rejects an `id` the call did not carry: echo it only when present.
  return {
    functionResponse: {
      name: call.name,
      response: responseOf(result),
      ...(call.id !== undefined ? { id: call.id } : {}),
      ...(media.length > 0 ? { parts: media } : {}),
    },
  };
}

/**
 * `{ output }` or `{ error }`. With parts, their text form: the text parts, and a note for
 * each medium (sent beside it in `parts`, or not sent and why), so the model reads them in order.
 */
function responseOf(result: ToolResult): GeminiFunctionResponsePart["functionResponse"]["response"] {
  const text = result.content !== undefined && result.content.length > 0 ? textForm(result.content) : result.output;
  if (result.isError) return { error: text };
  return { output: result.structuredContent ?? text };
}

/** A part as function-response media; nothing for text (it is in the response) and for media Gemini does not take. */
function mediaPart(part: ToolContent): GeminiFunctionResponseMedia[] {
  if (part.type === "text" || refusedMedia(part) !== undefined) return [];
  if ("data" in part) return [{ inlineData: { mimeType: part.mimeType, data: part.data } }];
  if ("url" in part) return [{ fileData: { fileUri: part.url, mimeType: mediaTypeOf(part)! } }];
  return [];
}

/** Why Gemini cannot take `part` in a function response, or undefined when it can. */
export function refusedMedia(part: Exclude<ToolContent, { type: "text" }>): string | undefined {
  if (part.type === "resource_link") return "Gemini function responses carry no resource links";
  if (part.type === "audio") return `Gemini function responses carry no audio (${TAKEN_MEDIA})`;
  const mimeType = mediaTypeOf(part);
  if (mimeType === undefined) return `Gemini needs the mime type of media sent by URL (${TAKEN_MEDIA})`;
  if (!RESPONSE_MEDIA_TYPES.has(mimeType.toLowerCase()))
    return `Gemini function responses take no ${mimeType} (${TAKEN_MEDIA})`;
  return undefined;
}

/** The declared mime type, or for media by URL without one, the one its file extension names. */
function mediaTypeOf(part: Extract<ToolContent, { type: "image" | "file" }>): string | undefined {
  if (part.mimeType !== undefined) return part.mimeType;
  if (!("url" in part)) return undefined;
  const extension = /\.([a-z0-9]+)$/i.exec(pathOf(part.url))?.[1]?.toLowerCase();
  return extension === undefined ? undefined : MEDIA_TYPE_BY_EXTENSION[extension];
}

function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return url;
  }
}
