import { createHash } from "node:crypto";
import { cutText } from "../runtime/result";

/**
 * The most `fromMcp` takes from one MCP server. No real server comes near them (MCP asks for
 * tool names of at most 128 characters, and sets no limit on descriptions); past them a
 * server is broken or hostile, and would fill the heap, keep the listing going, or put
 * megabytes into every request sent to a model. Characters are UTF-16 units, as
 * `String.length` counts them.
 */
export const FROM_MCP_LIMITS: Readonly<{
  /** Tools over every page of `tools/list`; one more and `fromMcp` rejects. */
  tools: number;
  /** Pages of `tools/list`; a server going on past them makes `fromMcp` reject. */
  pages: number;
  /** Characters of a tool's name (refused past it: calls need it whole) and of the server's own name (cut). */
  nameLength: number;
  /** Characters of a tool's title; a longer one is cut. */
  titleLength: number;
  /** Characters of a tool's description; a longer one is cut, saying how much was left out. */
  descriptionLength: number;
  /** Characters of an `inputSchema` or `outputSchema` as JSON, its descriptions included; a larger one is refused. */
  schemaLength: number;
}> = Object.freeze({
  tools: 10_000,
  pages: 1_000,
  nameLength: 1_024,
  titleLength: 1_024,
  descriptionLength: 16_384,
  schemaLength: 1_048_576,
});

/**
 * Characters of a server's name, tool name or cursor quoted in an error: every name MCP asks for (at most 128) whole.
 */
const MAX_QUOTED = 160;

/** A name or cursor of the server for an error text: cut to `MAX_QUOTED`, saying how much was left out. */
export function quoted(text: string): string {
  return JSON.stringify(cutText(text, MAX_QUOTED));
}

/** The server's names for an error text: the first 50, each cut, then how many more. */
export function namesListed(
  names: readonly string[],
  quote: (name: string) => string = (name) => cutText(name, MAX_QUOTED),
): string {
  if (names.length === 0) return "none";
  const shown = names.slice(0, 50).map(quote).join(", ");
  return names.length > 50 ? `${shown} and ${names.length - 50} more` : shown;
}

/** A fixed-size stand-in for a cursor, so that remembering every cursor seen costs the same whatever their length. */
export function cursorKey(cursor: string): string {
  return createHash("sha256").update(cursor).digest("base64");
}

/** The length of `value` as JSON; 0 when it has none (a value JSON cannot write is refused later, for what it is). */
export function jsonLength(value: unknown): number {
  try {
    return JSON.stringify(value)?.length ?? 0;
  } catch {
    return 0;
  }
}
