import type { ContentAnnotations, ToolContent } from "../core/types";
import { canonicalBase64, decodedSize, headBytes } from "./base64";
import { dataUrlContent } from "./data-url";
import { looksLikeMarkup, MARKUP_HEAD_BYTES, recognizedFormat, scriptInSvg, sniffMimeType } from "./media-bytes";

/*
 * The rules every part is held to, however it was made: by a helper (`image(...)` ...), as a
 * plain object a tool returned, or from a remote server's result. Each rule answers with what
 * is wrong, as a phrase; the helpers throw it (a mistake at the call site), results list it in
 * `metadata.unsentContent` (failure as data).
 */

/** The longest file name a part carries, in characters (what common file systems take). */
export const MAX_FILE_NAME = 255;

/** An RFC 6838 (section 4.2) type or subtype name: a letter or digit, then up to 126 of these. */
const RESTRICTED_NAME = "[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}";
const MEDIA_TYPE = new RegExp(`^${RESTRICTED_NAME}/${RESTRICTED_NAME}$`);

/** What is wrong with a mime type: it must be a bare `type/subtype` of RFC 6838 names (no parameters, no spaces). */
export function mediaTypeProblem(mimeType: unknown): string | undefined {
  if (typeof mimeType === "string" && MEDIA_TYPE.test(mimeType)) return undefined;
  const parameters = typeof mimeType === "string" && mimeType.includes(";") ? ", without parameters" : "";
  return `the mime type must look like "type/subtype"${parameters}, e.g. "image/png" (got ${shown(mimeType)})`;
}

/**
 * Path separators, control characters (C0, DEL, C1) and the bidirectional controls that disguise a name's extension.
 */
const NOT_IN_FILE_NAME = /[/\\\p{Cc}\u202a-\u202e\u2066-\u2069]/u;

/**
 * What is wrong with a file name: a non-empty name of at most `MAX_FILE_NAME` characters, no path, no control
 * characters.
 */
export function fileNameProblem(name: unknown): string | undefined {
  if (typeof name !== "string" || name === "") return "the name must be a non-empty string when given";
  if (name.length > MAX_FILE_NAME) return `the name must be at most ${MAX_FILE_NAME} characters (got ${name.length})`;
  if (NOT_IN_FILE_NAME.test(name) || name === "." || name === "..")
    return `the name must be a file name, without "/", "\\" or control characters (got ${shown(name)})`;
  return undefined;
}

/** Why a part's annotation field was left out. */
export interface AnnotationProblem {
  field: string;
  reason: string;
}

const AUDIENCES: readonly unknown[] = ["user", "assistant"];

/**
 * The annotations MCP defines, each kept when it is well formed: `audience` a list of "user"
 * and "assistant", `priority` a number from 0 to 1, `lastModified` an RFC 3339 date-time. Every
 * other field, and every field that is not so, is left out and reported.
 */
export function checkedAnnotations(value: unknown): {
  annotations?: ContentAnnotations;
  problems: AnnotationProblem[];
} {
  if (value === undefined) return { problems: [] };
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return {
      problems: [
        {
          field: "annotations",
          reason:
            "annotations must be an object (got " +
            `${value === null ? "null" : Array.isArray(value) ? "an array" : typeof value})`,
        },
      ],
    };
  }
  const annotations: ContentAnnotations = {};
  const problems: AnnotationProblem[] = [];
  for (const [field, given] of Object.entries(value)) {
    if (field === "audience" && Array.isArray(given) && given.every((entry) => AUDIENCES.includes(entry)))
      annotations.audience = [...(given as Array<"user" | "assistant">)];
    else if (field === "priority" && typeof given === "number" && given >= 0 && given <= 1)
      annotations.priority = given;
    else if (field === "lastModified" && typeof given === "string" && isDateTime(given))
      annotations.lastModified = given;
    else problems.push({ field, reason: annotationReason(field, given) });
  }
  return { ...(Object.keys(annotations).length > 0 ? { annotations } : {}), problems };
}

function annotationReason(field: string, given: unknown): string {
  switch (field) {
    case "audience":
      return `audience must be a list of "user" and "assistant" (got ${shown(given)})`;
    case "priority":
      return `priority must be a number from 0 to 1 (got ${shown(given)})`;
    case "lastModified":
      return `lastModified must be an RFC 3339 date-time, e.g. "2025-01-12T15:00:58Z" (got ${shown(given)})`;
    default:
      return `${shown(field)} is not an MCP content annotation (audience, priority, lastModified)`;
  }
}

let dateTime: ((text: string) => boolean) | undefined;

/** RFC 3339 date-time, as ajv-formats checks the `date-time` format (loaded with the first annotation that has one). */
function isDateTime(text: string): boolean {
  if (dateTime === undefined) {
    const { fullFormats } = require("ajv-formats/dist/formats") as typeof import("ajv-formats/dist/formats");
    dateTime = (fullFormats["date-time"] as { validate: (text: string) => boolean }).validate;
  }
  return dateTime(text);
}

/** A part made to the shape it is sent in, with the annotation fields left out of it; or why it cannot be sent. */
export type ShapedPart =
  { ok: true; part: ToolContent; annotationProblems: AnnotationProblem[] } | { ok: false; problem: string };

/**
 * `part` (well formed: `isToolContent`) as it is sent, or what is wrong with it. The part is
 * built again from the fields of its kind, so nothing unchecked rides along: mime types in
 * lower case, base64 canonical, an image or file URL as parsed (`href`), a `data:` URL read as
 * the bytes it holds (`data` and `mimeType`, checked and counted as bytes are). Its bytes are
 * checked apart, by `bytesProblem`, after the size caps.
 */
export function shapedPart(part: ToolContent): ShapedPart {
  const { annotations, problems } = checkedAnnotations(part.annotations);
  const shaped = fieldsOf(part);
  if (typeof shaped === "string") return { ok: false, problem: shaped };
  return {
    ok: true,
    part: annotations !== undefined ? { ...shaped, annotations } : shaped,
    annotationProblems: problems,
  };
}

type Fields<P> = P extends unknown ? Omit<P, "annotations"> : never;
type PartFields = Fields<ToolContent>;
type BinaryKind = "image" | "audio" | "file";

function fieldsOf(part: ToolContent): PartFields | string {
  switch (part.type) {
    case "text":
      return { type: "text", text: part.text };
    case "resource_link": {
      const problem =
        resourceUriProblem(part.uri) ?? (part.mimeType !== undefined ? mediaTypeProblem(part.mimeType) : undefined);
      if (problem !== undefined) return problem;
      return {
        type: "resource_link",
        uri: part.uri,
        ...(part.name !== undefined ? { name: part.name } : {}),
        ...(part.mimeType !== undefined ? { mimeType: part.mimeType.toLowerCase() } : {}),
        ...(part.description !== undefined ? { description: part.description } : {}),
      };
    }
    default: {
      const fields = part as { type: BinaryKind; data?: unknown; url?: unknown; mimeType?: string; name?: string };
      if (fields.data !== undefined && fields.url !== undefined) return "a part has data or a url, not both";
      const name = fields.type === "file" && fields.name !== undefined ? fileNameProblem(fields.name) : undefined;
      if (name !== undefined) return name;
      return typeof fields.url === "string"
        ? urlFields(fields.type, fields.url, fields.mimeType, fields.name)
        : dataFields(fields.type, fields.data as string, fields.mimeType!, fields.name);
    }
  }
}

/** An image or file by URL: at an `https:` or `http:` address, or a `data:` URL read as its bytes. */
function urlFields(
  kind: BinaryKind,
  url: string,
  declared: string | undefined,
  name: string | undefined,
): PartFields | string {
  const parsed = parsedUrl(url);
  if (parsed === undefined) return `its url ${shown(url)} is not an absolute URL`;
  if (parsed.protocol === "data:") return dataUrlFields(kind, parsed.href, declared, name);
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:")
    return (
      `${kind === "image" ? "an image" : "a file"} by URL must be at an https:, http: or data: address (got a ` +
      `${shown(parsed.protocol)} one)`
    );
  if (declared !== undefined) {
    const problem = mediaTypeProblem(declared) ?? kindProblem(kind, declared.toLowerCase());
    if (problem !== undefined) return problem;
  }
  const mimeType = declared !== undefined ? { mimeType: declared.toLowerCase() } : {};
  if (kind === "file")
    return {
      type: "file",
      url: parsed.href,
      mimeType: declared!.toLowerCase(),
      ...(name !== undefined ? { name } : {}),
    };
  return { type: "image", url: parsed.href, ...mimeType };
}

/**
 * A `data:` URL's bytes as an inline part: its type the one the URL names, else the part's, else the one its bytes are
 * recognized as.
 */
function dataUrlFields(
  kind: BinaryKind,
  href: string,
  declared: string | undefined,
  name: string | undefined,
): PartFields | string {
  const content = dataUrlContent(href);
  if (!content.ok) return content.problem;
  if (content.mimeType !== undefined && mediaTypeProblem(content.mimeType) !== undefined) {
    return `its data: URL's type must look like "type/subtype", e.g. "image/png" (got ${shown(content.mimeType)})`;
  }
  if (declared !== undefined && mediaTypeProblem(declared) !== undefined) return mediaTypeProblem(declared)!;
  const stated = declared?.toLowerCase();
  if (content.mimeType !== undefined && stated !== undefined && content.mimeType !== stated) {
    return `its data: URL holds ${shown(content.mimeType)} and the part says ${shown(stated)}`;
  }
  const mimeType = content.mimeType ?? stated ?? sniffMimeType(headBytes(content.data, 16));
  if (mimeType === undefined)
    return (
      "its data: URL names no mime type and its bytes are of no recognized format; give the type in the URL " +
      "(data:image/png;base64,...)"
    );
  return dataFields(kind, content.data, mimeType, name);
}

/** Inline bytes: a valid mime type of the part's kind, and base64 data. */
function dataFields(kind: BinaryKind, data: string, declared: string, name: string | undefined): PartFields | string {
  const typeProblem = mediaTypeProblem(declared);
  if (typeProblem !== undefined) return typeProblem;
  const mimeType = declared.toLowerCase();
  const problem = kindProblem(kind, mimeType);
  if (problem !== undefined) return problem;
  const base64 = canonicalBase64(data);
  if (base64 === undefined) return "its data is not base64";
  if (kind === "file") return { type: "file", data: base64, mimeType, ...(name !== undefined ? { name } : {}) };
  return kind === "image" ? { type: "image", data: base64, mimeType } : { type: "audio", data: base64, mimeType };
}

function kindProblem(kind: BinaryKind, mimeType: string): string | undefined {
  if (kind === "image" && !mimeType.startsWith("image/"))
    return `${shown(mimeType)} is not an image type; use file() for documents`;
  if (kind === "audio" && !mimeType.startsWith("audio/")) return `${shown(mimeType)} is not an audio type`;
  return undefined;
}

/** The schemes whose addresses run script, or carry a document of their own, where a client opens them. */
const REFUSED_LINK_SCHEMES = new Set(["javascript:", "vbscript:", "data:"]);

/**
 * What is wrong with a resource link's URI. The client resolves it, so every scheme MCP uses
 * passes (`file:`, `https:`, custom ones), except those that run script or carry a document of
 * their own. The scheme is read as browsers read it (WHATWG URL: case, leading whitespace,
 * tabs and line breaks inside do not hide it); a URI with control characters, or spaces around
 * it, is refused, since it is sent as it is.
 */
export function resourceUriProblem(uri: string): string | undefined {
  if (/\p{Cc}/u.test(uri) || uri.trim() !== uri)
    return `its uri ${shown(uri)} has control characters or spaces around it`;
  const parsed = parsedUrl(uri);
  if (parsed === undefined) return `its uri ${shown(uri)} is not an absolute URI`;
  if (REFUSED_LINK_SCHEMES.has(parsed.protocol))
    return `a resource link's uri must not be a ${parsed.protocol} address`;
  return undefined;
}

/** Binary formats: markup in their place is something else posing as them. */
function isBinaryType(mimeType: string): boolean {
  return (
    (mimeType.startsWith("image/") && mimeType !== "image/svg+xml") ||
    mimeType.startsWith("audio/") ||
    mimeType.startsWith("video/") ||
    recognizedFormat(mimeType) !== undefined
  );
}

/**
 * What is wrong with a shaped inline part's bytes, read where its type can be told from them:
 * bytes of a recognized format (PNG, JPEG, GIF, WebP, PDF, WAV, MP3, OGG, FLAC) under the name
 * of another recognized one; markup (HTML, XML, SVG) under a binary type (`image/*` but SVG,
 * `audio/*`, `video/*`, PDF); an SVG image that can run script (see `scriptInSvg`). Bytes of
 * no recognized format under a type that is not markup pass: nothing tells them apart.
 */
export function bytesProblem(part: ToolContent): string | undefined {
  if (!("data" in part)) return undefined;
  const head = headBytes(part.data, MARKUP_HEAD_BYTES);
  const declared = recognizedFormat(part.mimeType);
  const sniffed = sniffMimeType(head);
  if (declared !== undefined && sniffed !== undefined && sniffed !== declared)
    return `its bytes are ${sniffed}, not ${part.mimeType}`;
  if (isBinaryType(part.mimeType) && looksLikeMarkup(head))
    return `its bytes are text markup (HTML, XML or SVG), not ${part.mimeType}`;
  if (part.mimeType === "image/svg+xml" && decodedSize(part.data) > 0) {
    const script = scriptInSvg(Buffer.from(part.data, "base64").toString("utf8"));
    if (script !== undefined)
      return `the SVG image has ${script}, which can run script; send the image as a PNG instead`;
  }
  return undefined;
}

function parsedUrl(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

/** A value as a message quotes it: JSON, cut to 100 characters. */
function shown(value: unknown): string {
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (typeof value !== "string") return value === null ? "null" : Array.isArray(value) ? "an array" : typeof value;
  return JSON.stringify(value.length > 100 ? `${value.slice(0, 100)}...` : value);
}
