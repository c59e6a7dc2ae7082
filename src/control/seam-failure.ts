import { carryingThrown, errorResult } from "../runtime/result";
import type { ToolErrorKind, ToolResult } from "../types";

/**
 * The result of a call that one of the host's own steps failed (its `approve`, `authorize`,
 * middleware, executor, or options that could not be read): a fixed sentence with a fresh
 * `errorId` (in `metadata.errorId` too), never what was thrown, which may hold anything the
 * host knows. The thrown value stays in the process, for `onError`, with the same `errorId`.
 */
export function seamFailure(kind: ToolErrorKind, tool: string, thrown: unknown, sentence: (errorId: string) => string): ToolResult {
  const errorId = crypto.randomUUID();
  return carryingThrown(errorResult(kind, sentence(errorId), { tool, errorId }), thrown);
}
