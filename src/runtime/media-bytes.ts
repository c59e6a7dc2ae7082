/*
 * What a part's bytes are, read from the bytes themselves: the formats recognized from their
 * first bytes, markup where a binary format was promised, and script inside an SVG image.
 */

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

/** The recognized format of `bytes`, from their first bytes. */
export function sniffMimeType(bytes: Uint8Array): string | undefined {
  return SIGNATURES.find(({ at = 0, bytes: signature }) => signature.every((byte, i) => bytes[at + i] === byte))
    ?.mimeType;
}

/** Other names tools and servers give the recognized formats. */
const ALIASES: Readonly<Record<string, string>> = {
  "image/jpg": "image/jpeg",
  "image/pjpeg": "image/jpeg",
  "audio/wave": "audio/wav",
  "audio/x-wav": "audio/wav",
  "audio/vnd.wave": "audio/wav",
  "audio/mp3": "audio/mpeg",
  "audio/x-flac": "audio/flac",
  "application/x-pdf": "application/pdf",
};

/** The recognized format a (lower-case) mime type names, or undefined when it names none of them. */
export function recognizedFormat(mimeType: string): string | undefined {
  const format = ALIASES[mimeType] ?? mimeType;
  return SIGNATURES.some((signature) => signature.mimeType === format) ? format : undefined;
}

/** How far into the bytes markup is looked for: past a byte-order mark and leading whitespace. */
export const MARKUP_HEAD_BYTES = 4096;

/**
 * Whether bytes begin as text markup (HTML, XML, SVG): `<` as the first character after an
 * optional byte-order mark (UTF-8 or UTF-16) and whitespace. No binary image or audio format
 * begins so, and browsers sniff HTML from exactly there. A head of nothing but whitespace counts
 * as markup too: what follows it cannot be seen from the head, and no media file begins so.
 */
export function looksLikeMarkup(head: Uint8Array): boolean {
  if (head.length === 0) return false;
  const utf16 = (head[0] === 0xfe && head[1] === 0xff) || (head[0] === 0xff && head[1] === 0xfe);
  const start = head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf ? 3 : utf16 ? 2 : 0;
  for (let i = start; i < head.length; i++) {
    const byte = head[i]!;
    // UTF-16 text has a zero byte beside each ASCII one.
    if (byte === 0x00 && utf16) continue;
    if (byte === 0x09 || byte === 0x0a || byte === 0x0c || byte === 0x0d || byte === 0x20) continue;
    return byte === 0x3c;
  }
  return true;
}

/** Elements and declarations that run script or pull in other documents. */
const ACTIVE_ELEMENT = /<(?:[\w.-]+:)?(script|foreignobject|iframe|embed|object)\b|<!(entity)\b/i;
/** An event-handler attribute (`onload=`, `onclick =`). */
const EVENT_ATTRIBUTE = /\s(on[a-z]+)\s*=/i;
/**
 * A script address, once character references are decoded and tabs and line breaks removed (as URL parsers remove
 * them).
 */
const SCRIPT_ADDRESS = /(java|vb)script:/i;

/**
 * What in an SVG document can run script, if anything: a `<script>`, `<foreignObject>`,
 * `<iframe>`, `<embed>` or `<object>` element, an `<!ENTITY>` declaration, an event-handler
 * attribute, or a `javascript:` / `vbscript:` address (also written with character references,
 * tabs or line breaks). A screen, not a sanitizer: it refuses what it finds, it rewrites nothing.
 */
export function scriptInSvg(text: string): string | undefined {
  const element = ACTIVE_ELEMENT.exec(text);
  if (element !== null)
    return element[1] !== undefined ? `a <${element[1].toLowerCase()}> element` : "an <!ENTITY> declaration";
  const attribute = EVENT_ATTRIBUTE.exec(text);
  if (attribute !== null) return `an ${attribute[1]!.toLowerCase()} attribute`;
  const address = SCRIPT_ADDRESS.exec(withoutReferences(text).replace(/[\t\n\r]/g, ""));
  if (address !== null) return `a ${address[1]!.toLowerCase()}script: address`;
  return undefined;
}

/**
 * `text` with its numeric character references (`&#106;`, `&#x6A;`) and the named ones that hide a scheme (`&colon;`,
 * `&Tab;`, `&NewLine;`) decoded.
 */
function withoutReferences(text: string): string {
  return text.replace(
    /&#x([0-9a-f]{1,6});?|&#(\d{1,7});?|&(colon|tab|newline);/gi,
    (reference, hex: string | undefined, decimal: string | undefined, named: string | undefined) => {
      if (named !== undefined) return { colon: ":", tab: "\t", newline: "\n" }[named.toLowerCase()]!;
      const code = hex !== undefined ? parseInt(hex, 16) : Number(decimal);
      return code <= 0x10ffff ? String.fromCodePoint(code) : reference;
    },
  );
}
