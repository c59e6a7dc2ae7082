/** Base64 as parts carry it: canonical (padded, no whitespace), measured and read without decoding all of it. */

const NOT_BASE64 = /[^A-Za-z0-9+/]/;

/**
 * `text` as canonical base64 (whitespace removed, padding restored), or undefined when it is
 * not base64. Forgiving as the WHATWG "forgiving-base64 decode" is: line breaks and missing
 * padding are accepted, any other character is not.
 */
export function canonicalBase64(text: string): string | undefined {
  let data = /[\t\n\f\r ]/.test(text) ? text.replace(/[\t\n\f\r ]+/g, "") : text;
  if (data.length % 4 === 0)
    data = data.endsWith("==") ? data.slice(0, -2) : data.endsWith("=") ? data.slice(0, -1) : data;
  if (data.length % 4 === 1 || NOT_BASE64.test(data)) return undefined;
  return data + "=".repeat((4 - (data.length % 4)) % 4);
}

/** The decoded size of canonical base64, in bytes. */
export function decodedSize(data: string): number {
  const padding = data.endsWith("==") ? 2 : data.endsWith("=") ? 1 : 0;
  return Math.floor((data.length * 3) / 4) - padding;
}

/** The first `count` bytes (or fewer) of canonical base64 data, decoding only those. */
export function headBytes(data: string, count: number): Uint8Array {
  return Buffer.from(data.slice(0, Math.ceil(count / 3) * 4), "base64");
}
