import { canonicalBase64 } from "./base64";

/**
 * What a `data:` URL holds: its bytes as canonical base64, and the media type it names (lower case), if it names one.
 */
export type DataUrlContent = { ok: true; data: string; mimeType?: string } | { ok: false; problem: string };

/**
 * The content of a `data:` URL, as the WHATWG "data: URL processor" reads it: the media type
 * before the first `;` (parameters left out), `;base64` last for base64 data (percent-escapes
 * and whitespace allowed in it), percent-encoded bytes otherwise. `href` is a parsed URL's
 * `href` (so its scheme is lower case and tabs and line breaks are gone).
 */
export function dataUrlContent(href: string): DataUrlContent {
  const body = href.slice("data:".length);
  const comma = body.indexOf(",");
  if (comma < 0) return { ok: false, problem: 'its data: URL has no "," before its data' };
  const header = body.slice(0, comma).split(";");
  const payload = body.slice(comma + 1);
  const type = header[0]!.trim().toLowerCase();
  const mimeType = type === "" ? {} : { mimeType: type };
  if (header.length > 1 && header[header.length - 1]!.trim().toLowerCase() === "base64") {
    const data = canonicalBase64(payload.includes("%") ? percentDecoded(payload).toString("latin1") : payload);
    return data === undefined
      ? { ok: false, problem: "its data: URL says base64, and its data is not base64" }
      : { ok: true, data, ...mimeType };
  }
  return { ok: true, data: percentDecoded(payload).toString("base64"), ...mimeType };
}

const HEX = /^[0-9A-Fa-f]{2}$/;

/** The bytes of percent-encoded text: each `%XX` the byte it names, every other character its UTF-8. */
function percentDecoded(text: string): Buffer {
  const bytes = Buffer.from(text, "utf8");
  const out = Buffer.alloc(bytes.length);
  let length = 0;
  for (let i = 0; i < bytes.length; i++) {
    const hex = bytes[i] === 0x25 ? bytes.toString("latin1", i + 1, i + 3) : "";
    if (HEX.test(hex)) {
      out[length++] = parseInt(hex, 16);
      i += 2;
    } else {
      out[length++] = bytes[i]!;
    }
  }
  return out.subarray(0, length);
}
