import type { AudioContent, FileContent, ImageContent, ResourceLinkContent, TextContent, ToolContent } from "../types";

/**
 * The largest binary part a result carries, in decoded bytes (10 MiB): under what every provider
 * takes in one request. A larger part is replaced by a text note saying so, and reported in
 * the result's `metadata.unsentContent`.
 */
export const MAX_CONTENT_BYTES = 10 * 1024 * 1024;

/** Binary data as a tool has it: bytes (a Buffer is a Uint8Array), or a base64 string. */
export type BinarySource = Uint8Array | ArrayBuffer | string;

/** A text part. */
export function text(value: string): TextContent {
  if (typeof value !== "string") throw new TypeError(`text() takes a string (got ${typeof value}).`);
  return { type: "text", text: value };
}

/**
 * An image part: bytes or base64 with its mime type (known formats are recognized from the
 * bytes when it is left out: PNG, JPEG, GIF, WebP), or a `URL` the provider fetches.
 */
export function image(source: URL, mimeType?: string): Extract<ImageContent, { url: string }>;
export function image(source: BinarySource, mimeType?: string): Extract<ImageContent, { data: string }>;
export function image(source: BinarySource | URL, mimeType?: string): ImageContent;
export function image(source: BinarySource | URL, mimeType?: string): ImageContent {
  if (source instanceof URL) return { type: "image", url: source.href, ...(mimeType !== undefined ? { mimeType: checkedMimeType("image", mimeType) } : {}) };
  const { data, sniffed } = base64Of("image", source);
  const type = checkedMimeType("image", mimeType ?? sniffed ?? missingMimeType("image"));
  if (!type.startsWith("image/")) throw new TypeError(`image(): "${type}" is not an image type; use file() for documents.`);
  return { type: "image", data, mimeType: type };
}

/** An audio part: bytes or base64 with its mime type (WAV, MP3, OGG and FLAC are recognized). */
export function audio(source: BinarySource, mimeType?: string): AudioContent {
  const { data, sniffed } = base64Of("audio", source);
  const type = checkedMimeType("audio", mimeType ?? sniffed ?? missingMimeType("audio"));
  if (!type.startsWith("audio/")) throw new TypeError(`audio(): "${type}" is not an audio type.`);
  return { type: "audio", data, mimeType: type };
}

/** A document part (PDF, plain text, CSV ...): bytes or base64, or a `URL`, with its mime type and file name. */
export function file(source: URL, mimeType: string, name?: string): Extract<FileContent, { url: string }>;
export function file(source: BinarySource, mimeType: string, name?: string): Extract<FileContent, { data: string }>;
export function file(source: BinarySource | URL, mimeType: string, name?: string): FileContent;
export function file(source: BinarySource | URL, mimeType: string, name?: string): FileContent {
  const type = checkedMimeType("file", mimeType);
  if (name !== undefined && (typeof name !== "string" || name === "")) throw new TypeError("file(): the name must be a non-empty string when given.");
  const named = name !== undefined ? { name } : {};
  if (source instanceof URL) return { type: "file", url: source.href, mimeType: type, ...named };
  return { type: "file", data: base64Of("file", source).data, mimeType: type, ...named };
}

/** A link to a resource the client can read (MCP `resource_link`). */
export function resourceLink(uri: string | URL, details: { name?: string; mimeType?: string; description?: string } = {}): ResourceLinkContent {
  const href = uri instanceof URL ? uri.href : uri;
  if (typeof href !== "string" || href === "") throw new TypeError("resourceLink() takes a URI.");
  return { type: "resource_link", uri: href, ...details };
}

/** A part made from bytes a tool returned: its kind from the mime type (declared, else recognized from the bytes). */
export function binaryPart(bytes: Uint8Array | ArrayBuffer, declared: string | undefined): ToolContent {
  const view = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  const mimeType = declared ?? sniffMimeType(view);
  if (mimeType === undefined) {
    throw new TypeError(
      `The tool returned ${view.byteLength} bytes of an unrecognized format. Declare what they are with @Tool({ mimeType }) or defineTool({ mimeType }), or return image(bytes, "image/png") / file(bytes, "application/pdf", "name.pdf").`,
    );
  }
  if (mimeType.startsWith("image/")) return image(view, mimeType);
  if (mimeType.startsWith("audio/")) return audio(view, mimeType);
  return file(view, mimeType);
}

/** Whether `value` is a well-formed part (each field of its kind the right type). */
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

/** A part that cannot be sent, as the result's `metadata.unsentContent` lists it. */
export interface UnsentContent {
  /** Its position in the result's `content`. */
  index: number;
  type: ToolContent["type"];
  mimeType?: string;
  reason: string;
}

/** The decoded size of a base64 part's data, in bytes. */
export function decodedSize(data: string): number {
  const padding = data.endsWith("==") ? 2 : data.endsWith("=") ? 1 : 0;
  return Math.floor((data.length * 3) / 4) - padding;
}

/**
 * The parts, each binary one over `MAX_CONTENT_BYTES` replaced by a text note, with what was
 * replaced.
 */
export function withinSizeCap(content: readonly ToolContent[]): { content: ToolContent[]; unsent: UnsentContent[] } {
  const unsent: UnsentContent[] = [];
  const kept = content.map((part, index) => {
    const data = "data" in part ? part.data : undefined;
    if (data === undefined || decodedSize(data) <= MAX_CONTENT_BYTES) return part;
    const reason = `${formatBytes(decodedSize(data))} is over the ${formatBytes(MAX_CONTENT_BYTES)} a part may have`;
    unsent.push({ index, type: part.type, ...("mimeType" in part && part.mimeType !== undefined ? { mimeType: part.mimeType } : {}), reason });
    return text(`[${describePart(part)} not sent: ${reason}]`);
  });
  return { content: kept, unsent };
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
      return "url" in part ? `image at ${part.url}` : `${part.mimeType} image, ${formatBytes(decodedSize(part.data))}`;
    case "audio":
      return `${part.mimeType} audio, ${formatBytes(decodedSize(part.data))}`;
    case "file": {
      const what = `file${part.name !== undefined ? ` ${part.name}` : ""}`;
      return "url" in part ? `${what} (${part.mimeType}) at ${part.url}` : `${what} (${part.mimeType}, ${formatBytes(decodedSize(part.data))})`;
    }
    case "resource_link":
      return `resource ${part.name ?? part.uri}${part.name !== undefined ? ` at ${part.uri}` : ""}${part.mimeType !== undefined ? ` (${part.mimeType})` : ""}`;
  }
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

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

function base64Of(helper: string, source: BinarySource): { data: string; sniffed?: string } {
  if (typeof source === "string") {
    const data = source.replace(/\s+/g, "");
    if (!BASE64.test(data))
      throw new TypeError(`${helper}(): a string is read as base64, and this one is not base64. Pass the bytes (a Buffer or Uint8Array), or a URL object for an address.`);
    return { data, sniffed: sniffMimeType(Buffer.from(data.slice(0, 64), "base64")) };
  }
  if (source instanceof Uint8Array || source instanceof ArrayBuffer) {
    const view = source instanceof Uint8Array ? source : new Uint8Array(source);
    return { data: Buffer.from(view.buffer, view.byteOffset, view.byteLength).toString("base64"), sniffed: sniffMimeType(view) };
  }
  throw new TypeError(`${helper}() takes bytes (a Buffer, Uint8Array or ArrayBuffer) or a base64 string${helper === "audio" ? "" : ", or a URL"}.`);
}

function checkedMimeType(helper: string, mimeType: unknown): string {
  if (typeof mimeType !== "string" || !/^[\w.+-]+\/[\w.+-]+$/.test(mimeType)) {
    throw new TypeError(`${helper}(): the mime type must look like "type/subtype", e.g. "image/png" (got ${JSON.stringify(mimeType)}).`);
  }
  return mimeType.toLowerCase();
}

function missingMimeType(helper: string): never {
  throw new TypeError(`${helper}(): the format of these bytes is not recognized; pass the mime type, e.g. ${helper}(bytes, "${helper === "audio" ? "audio/wav" : "image/png"}").`);
}

/** The formats recognized from their first bytes. */
const SIGNATURES: Array<{ mimeType: string; at?: number; bytes: number[] }> = [
  { mimeType: "image/png", bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
  { mimeType: "image/jpeg", bytes: [0xff, 0xd8, 0xff] },
  { mimeType: "image/gif", bytes: [0x47, 0x49, 0x46, 0x38] },
  { mimeType: "image/webp", at: 8, bytes: [0x57, 0x45, 0x42, 0x50] },
  { mimeType: "application/pdf", bytes: [0x25, 0x50, 0x44, 0x46, 0x2d] },
  { mimeType: "audio/wav", at: 8, bytes: [0x57, 0x41, 0x56, 0x45] },
  { mimeType: "audio/mpeg", bytes: [0x49, 0x44, 0x33] },
  { mimeType: "audio/ogg", bytes: [0x4f, 0x67, 0x67, 0x53] },
  { mimeType: "audio/flac", bytes: [0x66, 0x4c, 0x61, 0x43] },
];

export function sniffMimeType(bytes: Uint8Array): string | undefined {
  return SIGNATURES.find(({ at = 0, bytes: signature }) => signature.every((byte, i) => bytes[at + i] === byte))?.mimeType;
}

/**
 * A file name from a resource's address: its last path segment, decoded
 * (`toolnexus://result/report%201.pdf` → `report 1.pdf`), never with a path in it (an encoded
 * `/` or `\` from a server is no directory), or `undefined` when the address has none.
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
  return name === "" || name === "." || name === ".." ? undefined : name;
}
