import { isThenable } from "../runtime/invoke";
import type { Tool, ToolContext } from "../types";

/** Whether `tool` exists for `ctx` by its own `visible`; a check that throws hides it (fails closed). */
export function isVisibleTo(tool: Tool, ctx: ToolContext): boolean {
  const { visible } = tool;
  return visible === undefined || visibleBy(() => visible(ctx));
}

/**
 * What a `visible` check says, read synchronously (listing tools does not wait): only `true`
 * shows the tool. A throw hides it (fails closed); so does a promise, whose rejection is
 * handled here so that it never goes unhandled.
 */
export function visibleBy(check: () => unknown): boolean {
  try {
    const seen = check();
    if (seen === true) return true;
    if (isThenable(seen)) new Promise((adopt) => adopt(seen)).catch(ignore);
    return false;
  } catch {
    return false;
  }
}

function ignore(): void {}

/** The tools visible to `ctx` (an empty ctx when left out). */
export function visibleTools(tools: readonly Tool[], ctx: ToolContext | undefined): readonly Tool[] {
  return tools.some((tool) => tool.visible !== undefined) ? tools.filter((tool) => isVisibleTo(tool, ctx ?? {})) : tools;
}
