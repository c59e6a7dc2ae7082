import { createHash } from "node:crypto";
import { cutText } from "../runtime/result";

/**
 * The most `fromMcp` takes from one MCP server. No real server comes near them; past them a
 * server is broken or hostile, and would fill the heap or keep the listing going.
 */
export const FROM_MCP_LIMITS: Readonly<{
  /** Tools over every page of `tools/list`; one more and `fromMcp` rejects. */
  tools: number;
  /** Pages of `tools/list`; a server going on past them makes `fromMcp` reject. */
  pages: number;
}> = Object.freeze({
  tools: 10_000,
  pages: 1_000,
});

/** Characters of a server's name, tool name or cursor quoted in an error: every name MCP asks for (at most 128) whole. */
const MAX_QUOTED = 160;

/** A cursor of the server for an error text: cut to `MAX_QUOTED`, saying how much was left out. */
export function quoted(text: string): string {
  return JSON.stringify(cutText(text, MAX_QUOTED));
}

/** A fixed-size stand-in for a cursor, so that remembering every cursor seen costs the same whatever their length. */
export function cursorKey(cursor: string): string {
  return createHash("sha256").update(cursor).digest("base64");
}
