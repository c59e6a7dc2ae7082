import type {
  AudioContent,
  ContentAnnotations,
  FileContent,
  ImageContent,
  ResourceLinkContent,
  TextContent,
  ToolContent,
} from "../core/types";
import { canonicalBase64, decodedSize } from "./base64";
import { bytesProblem, fileNameProblem, mediaTypeProblem, shapedPart } from "./content-rules";
import { sniffMimeType } from "./media-bytes";

/**
 * The largest binary part a result carries, in decoded bytes (10 MiB): under what every provider
 * takes in one request. A larger part is replaced by a text note saying so, and reported in
 * the result's `metadata.unsentContent`.
 */
export const MAX_CONTENT_BYTES = 10 * 1024 * 1024;

/**
 * The most decoded bytes the parts of one result carry together (20 MiB: two parts of the
 * largest size), `data:` URLs counted as the bytes they hold. The parts are counted in order;
 * one that would take the result past it is replaced by a note, as an oversize part is.
 */
export const MAX_RESULT_CONTENT_BYTES = 20 * 1024 * 1024;

/** Binary data as a tool has it: bytes (a Buffer is a Uint8Array), or a base64 string. */
export type BinarySource = Uint8Array | ArrayBuffer | string;

/*
 * The helpers hold what they make to the rules every part is held to (content-rules.ts) and
 * throw a TypeError naming the helper when it breaks one: bad input to a helper is a mistake
 * at the call site. The same part arriving in a result is refused into
 * `metadata.unsentContent` instead (failure as data). Sizes are the result's to check.
 */

/** A text part. */
export function text(value: string): TextContent {
  if (typeof value !== "string") throw new TypeError(`text() takes a string (got ${typeof value}).`);
  return { type: "text", text: value };
}

/**
 * An image part: bytes or base64 with its mime type (known formats are recognized from the
 * bytes when it is left out: PNG, JPEG, GIF, WebP), or a `URL` the provider fetches (`https:`,
 * `http:`, or a `data:` URL, which a result carries as the bytes it holds).
 */
export function image(source: URL, mimeType?: string): Extract<ImageContent, { url: string }>;
export function image(source: BinarySource, mimeType?: string): Extract<ImageContent, { data: string }>;
export function image(source: BinarySource | URL, mimeType?: string): ImageContent;
export function image(source: BinarySource | URL, mimeType?: string): ImageContent {
  if (source instanceof URL) {
    return acceptable("image", {
      type: "image",
      url: source.href,
      ...(mimeType !== undefined ? { mimeType: checkedMimeType("image", mimeType) } : {}),
    });
  }
  const { data, sniffed } = base64Of("image", source);
  const type = checkedMimeType("image", mimeType ?? sniffed ?? missingMimeType("image"));
  if (!type.startsWith("image/"))
    throw new TypeError(`image(): "${type}" is not an image type; use file() for documents.`);
  return acceptable("image", { type: "image", data, mimeType: type });
}

/** An audio part: bytes or base64 with its mime type (WAV, MP3, OGG and FLAC are recognized). */
export function audio(source: BinarySource, mimeType?: string): AudioContent {
  const { data, sniffed } = base64Of("audio", source);
  const type = checkedMimeType("audio", mimeType ?? sniffed ?? missingMimeType("audio"));
  if (!type.startsWith("audio/")) throw new TypeError(`audio(): "${type}" is not an audio type.`);
  return acceptable("audio", { type: "audio", data, mimeType: type });
}

/**
 * A document part (PDF, plain text, CSV ...): bytes or base64, or a `URL` (`https:`, `http:`
 * or `data:`), with its mime type and file name (no path, no control characters).
 */
export function file(source: URL, mimeType: string, name?: string): Extract<FileContent, { url: string }>;
export function file(source: BinarySource, mimeType: string, name?: string): Extract<FileContent, { data: string }>;
export function file(source: BinarySource | URL, mimeType: string, name?: string): FileContent;
export function file(source: BinarySource | URL, mimeType: string, name?: string): FileContent {
  const type = checkedMimeType("file", mimeType);
  const nameProblem = name !== undefined ? fileNameProblem(name) : undefined;
  if (nameProblem !== undefined) throw new TypeError(`file(): ${nameProblem}.`);
  const named = name !== undefined ? { name } : {};
  if (source instanceof URL) return acceptable("file", { type: "file", url: source.href, mimeType: type, ...named });
  return acceptable("file", { type: "file", data: base64Of("file", source).data, mimeType: type, ...named });
}

/**
 * A link to a resource the client can read (MCP `resource_link`): any scheme the client
 * resolves (`file:`, `https:`, custom ones), but no `javascript:`, `vbscript:` or `data:`.
 */
export function resourceLink(
  uri: string | URL,
  details: { name?: string; mimeType?: string; description?: string; annotations?: ContentAnnotations } = {},
): ResourceLinkContent {
  const href = uri instanceof URL ? uri.href : uri;
  if (typeof href !== "string" || href === "") throw new TypeError("resourceLink() takes a URI.");
  const part: unknown = { type: "resource_link", uri: href, ...details };
  if (!isToolContent(part) || part.type !== "resource_link")
    throw new TypeError("resourceLink(): name, mimeType and description must be strings when given.");
  return acceptable("resourceLink", part);
}

/** `part`, when it keeps every rule of content-rules.ts; else a TypeError naming the helper and the rule. */
function acceptable<P extends ToolContent>(helper: string, part: P): P {
  const shaped = shapedPart(part);
  const problem = shaped.ok ? (shaped.annotationProblems[0]?.reason ?? bytesProblem(shaped.part)) : shaped.problem;
  if (problem !== undefined) throw new TypeError(`${helper}(): ${problem}.`);
  return part;
}

/**
 * A part made from bytes a tool returned: its kind from the mime type (declared, else
 * recognized from the bytes). Built as it is, not by the helpers: bytes are content arriving
 * in a result, checked (and refused into `metadata.unsentContent`) as every result's parts are.
 * Throws only when nothing says what the bytes are.
 */
export function binaryPart(bytes: Uint8Array | ArrayBuffer, declared: string | undefined): ToolContent {
  const view = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  const mimeType = (declared ?? sniffMimeType(view))?.toLowerCase();
  if (mimeType === undefined) {
    throw new TypeError(
      `The tool returned ${view.byteLength} bytes of an unrecognized format. Declare what they are with ` +
        `@Tool({ mimeType }) or defineTool({ mimeType }), or return image(bytes, "image/png") / file(bytes, ` +
        `"application/pdf", "name.pdf").`,
    );
  }
  const data = Buffer.from(view.buffer, view.byteOffset, view.byteLength).toString("base64");
  if (mimeType.startsWith("image/")) return { type: "image", data, mimeType };
  if (mimeType.startsWith("audio/")) return { type: "audio", data, mimeType };
  return { type: "file", data, mimeType };
}

/**
 * Whether `value` is a well-formed part (each field of its kind the right type). What the
 * fields hold, annotations included, is checked apart (`shapedPart`): a well-formed part that
 * breaks a rule is refused on its own, not the whole result with it.
 */
export function isToolContent(value: unknown): value is ToolContent {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const part = value as Record<string, unknown>;
  const str = (key: string) => typeof part[key] === "string";
  const optional = (key: string) => part[key] === undefined || str(key);
  switch (part.type) {
    case "text":
      return str("text");
    case "image":
      return (str("data") && str("mimeType")) || (str("url") && optional("mimeType"));
    case "audio":
      return str("data") && str("mimeType");
    case "file":
      return (str("data") || str("url")) && str("mimeType") && optional("name");
    case "resource_link":
      return str("uri") && optional("name") && optional("mimeType") && optional("description");
    default:
      return false;
  }
}

/**
 * A part that is not sent, as the result's `metadata.unsentContent` lists it: it broke one of
 * the rules every part is held to, went over a size cap, or the provider cannot carry it.
 */
export interface UnsentContent {
  /** Its position in the result's `content`. */
  index: number;
  type: ToolContent["type"];
  mimeType?: string;
  reason: string;
}

/**
 * The text form of parts: the text parts as they are, every other part as a short bracketed
 * note of what it is (kind, type, size, name or address), one per line.
 */
export function textForm(content: readonly ToolContent[]): string {
  return content.map((part) => (part.type === "text" ? part.text : `[${describePart(part)}]`)).join("\n");
}

/** "image/png image, 12.3 KB", "file report.pdf (application/pdf, 1.2 MB)", "resource https://..." */
export function describePart(part: ToolContent): string {
  switch (part.type) {
    case "text":
      return `text, ${part.text.length} characters`;
    case "image":
      return "url" in part
        ? `image at ${shortAddress(part.url)}`
        : `${part.mimeType} image, ${formatBytes(decodedSize(part.data))}`;
    case "audio":
      return `${part.mimeType} audio, ${formatBytes(decodedSize(part.data))}`;
    case "file": {
      const what = `file${part.name !== undefined ? ` ${part.name}` : ""}`;
      return "url" in part
        ? `${what} (${part.mimeType}) at ${shortAddress(part.url)}`
        : `${what} (${part.mimeType}, ${formatBytes(decodedSize(part.data))})`;
    }
    case "resource_link":
      return (
        "resource " +
        `${part.name ?? part.uri}${part.name !== undefined ? ` at ${part.uri}` : ""}` +
        `${part.mimeType !== undefined ? ` (${part.mimeType})` : ""}`
      );
  }
}

/** Addresses in notes are cut to this many characters (a `data:` URL can be megabytes long). */
const MAX_SHOWN_ADDRESS = 200;

function shortAddress(url: string): string {
  return url.length > MAX_SHOWN_ADDRESS ? `${url.slice(0, MAX_SHOWN_ADDRESS)}... (${url.length} characters)` : url;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** `data:<mimeType>;base64,<data>`, for providers that take inline data as a URL. */
export function dataUrl(part: { data: string; mimeType: string }): string {
  return `data:${part.mimeType};base64,${part.data}`;
}

function base64Of(helper: string, source: BinarySource): { data: string; sniffed?: string } {
  if (typeof source === "string") {
    const data = canonicalBase64(source);
    if (data === undefined)
      throw new TypeError(
        `${helper}(): a string is read as base64, and this one is not base64. Pass the bytes (a Buffer or ` +
          "Uint8Array), or a URL object for an address.",
      );
    return { data, sniffed: sniffMimeType(Buffer.from(data.slice(0, 64), "base64")) };
  }
  if (source instanceof Uint8Array || source instanceof ArrayBuffer) {
    const view = source instanceof Uint8Array ? source : new Uint8Array(source);
    return {
      data: Buffer.from(view.buffer, view.byteOffset, view.byteLength).toString("base64"),
      sniffed: sniffMimeType(view),
    };
  }
  throw new TypeError(
    `${helper}() takes bytes (a Buffer, Uint8Array or ArrayBuffer) or a base64 ` +
      `string${helper === "audio" ? "" : ", or a URL"}.`,
  );
}

function checkedMimeType(helper: string, mimeType: unknown): string {
  const problem = mediaTypeProblem(mimeType);
  if (problem !== undefined) throw new TypeError(`${helper}(): ${problem}.`);
  return (mimeType as string).toLowerCase();
}

function missingMimeType(helper: string): never {
  throw new TypeError(
    `${helper}(): the format of these bytes is not recognized; pass the mime type, e.g. ${helper}(bytes, ` +
      `"${helper === "audio" ? "audio/wav" : "image/png"}").`,
  );
}

/**
 * A file name from a resource's address: its last path segment, decoded
 * (`toolnexus://result/report%201.pdf` → `report 1.pdf`), never with a path in it (an encoded
 * `/` or `\` from a server is no directory), or `undefined` when the address has none that
 * a file part may carry (see `fileNameProblem`).
 */
export function fileNameOfUri(uri: string): string | undefined {
  const segment = uri
    .split(/[?#]/)[0]!
    .split("/")
    .filter((part) => part !== "")
    .pop();
  if (segment === undefined || /^[a-z][a-z0-9+.-]*:$/i.test(segment)) return undefined;
  let decoded: string;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    decoded = segment;
  }
  const name = decoded.split(/[/\\]/).pop()!;
  return fileNameProblem(name) === undefined ? name : undefined;
}
