import type { ToolResult } from "../core/types";
import { safeJsonStringify } from "../runtime/result";

/**
 * What decisions are keyed by, one per call of a turn, all different: the call's id, or
 * `call-<n>` (its place in the turn) when the provider gave none or gave one id twice.
 */
export function approvalIds(calls: ReadonlyArray<{ id?: string }>): string[] {
  const seen = new Map<string, number>();
  for (const { id } of calls) if (id !== undefined) seen.set(id, (seen.get(id) ?? 0) + 1);
  const ids = calls.map(({ id }, index) => (id !== undefined && seen.get(id) === 1 ? id : `call-${index}`));
  // A provider's own id may read `call-<n>` too: such a clash falls back to the place with a mark.
  return ids.map((id, index) => (ids.indexOf(id) === ids.lastIndexOf(id) ? id : `call-${index}#${index}`));
}

/**
 * `value` as JSON would give it back: what cannot be JSON (a BigInt, a function, a cycle) is made JSON now, not when
 * the caller stores it.
 */
export function asJson<T>(value: T): T {
  return JSON.parse(safeJsonStringify(value) ?? "null") as T;
}

/** A result as JSON keeps it (what a tool threw stays in this process). */
export function plainResult(result: ToolResult): ToolResult {
  const { output, isError, metadata, content, structuredContent } = result;
  return {
    output,
    isError,
    ...(metadata !== undefined ? { metadata } : {}),
    ...(content !== undefined ? { content } : {}),
    ...(structuredContent !== undefined ? { structuredContent } : {}),
  };
}
