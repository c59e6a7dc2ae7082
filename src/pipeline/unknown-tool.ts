import { closestNames } from "../core/names";
import type { ToolResult } from "../core/types";
import type { Visibility } from "../control/visibility";
import { carryingThrown, errorResult } from "../runtime/result";
import { noUsableName } from "../core/names";

/** At most this many tool names are listed in an unknown-tool reply (closest first); the rest are counted. */
export const MAX_LISTED_TOOLS = 20;

/** No provider accepts names over this many characters: a longer one gets no suggestions, and is cut. */
const LONGEST_NAME = 128;

/**
 * The answer to a call of a tool that does not exist for the caller: the closest names and the
 * names there are, only from `visibleNames` (a hidden tool's name never leaks). `hidden` says
 * why the tool of that name does not exist; a visibility check that failed is kept for
 * `onError`, out of the result's text.
 */
export function unknownToolResult(
  name: unknown,
  visibleNames: readonly string[],
  hidden: Visibility = false,
): ToolResult {
  const full = typeof name === "string" ? name : "";
  const shown = full.length > LONGEST_NAME ? `${full.slice(0, LONGEST_NAME)}...` : full;
  const close = full === "" || full.length > LONGEST_NAME ? [] : closestNames(full, visibleNames);
  const parts = [typeof name === "string" ? `Unknown tool "${shown}".` : noUsableName(name)];
  if (close.length > 0) parts.push(`Did you mean ${close.map((n) => `"${n}"`).join(" or ")}?`);
  parts.push(availableTools(visibleNames, close));
  const result = errorResult("unknown_tool", parts.join(" "), { tool: shown, suggestions: close });
  return typeof hidden === "object" ? carryingThrown(result, hidden.failed) : result;
}

function availableTools(names: readonly string[], close: readonly string[]): string {
  if (names.length === 0) return "This toolkit has no tools.";
  if (names.length <= MAX_LISTED_TOOLS) return `Available tools: ${names.join(", ")}.`;
  const first = [...close, ...names.filter((n) => !close.includes(n)).slice(0, MAX_LISTED_TOOLS - close.length)];
  return `Available tools (${names.length}): ${first.join(", ")} and ${names.length - first.length} more.`;
}
