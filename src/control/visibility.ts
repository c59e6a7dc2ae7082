import type { Tool, ToolContext } from "../types";

/** Whether `tool` exists for `ctx` by its own `visible`; a check that throws hides it (fails closed). */
export function isVisibleTo(tool: Tool, ctx: ToolContext): boolean {
  if (tool.visible === undefined) return true;
  try {
    return tool.visible(ctx) === true;
  } catch {
    return false;
  }
}

/** The tools visible to `ctx` (an empty ctx when left out). */
export function visibleTools(tools: readonly Tool[], ctx: ToolContext | undefined): readonly Tool[] {
  return tools.some((tool) => tool.visible !== undefined) ? tools.filter((tool) => isVisibleTo(tool, ctx ?? {})) : tools;
}
