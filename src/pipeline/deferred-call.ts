import type { ToolResult } from "../core/types";

/** A call run* hand back for approval: its result slot is filled when it is resumed. */
const DEFERRED = Symbol("toolnexus.deferred");

export interface DeferredCall {
  tool: string;
  args: Record<string, unknown>;
}

type DeferredResult = ToolResult & { [DEFERRED]: DeferredCall };

/** The stand-in result of a call handed back for approval. */
export function deferredCall(tool: string, args: Record<string, unknown>): ToolResult {
  const result = { output: "", isError: false } as DeferredResult;
  Object.defineProperty(result, DEFERRED, { value: { tool, args } });
  return result;
}

export function isDeferred(result: ToolResult): result is DeferredResult {
  return Object.prototype.hasOwnProperty.call(result, DEFERRED);
}

/** The call a stand-in result holds, or `undefined` for a real result. */
export function deferredCallOf(result: ToolResult): DeferredCall | undefined {
  return isDeferred(result) ? result[DEFERRED] : undefined;
}
