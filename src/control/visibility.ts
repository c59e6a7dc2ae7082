import { isThenable } from "../runtime/invoke";
import type { Tool, ToolContext } from "../core/types";

/** Whether `tool` exists for `ctx` by its own `visible`; a check that throws hides it (fails closed). */
export function isVisibleTo(tool: Tool, ctx: ToolContext): boolean {
  return visibilityOf(tool, ctx) === true;
}

/**
 * What a `visible` check says: shown (`true`), hidden (`false`), or hidden because the check failed (what it threw, for
 * `onError`).
 */
export type Visibility = boolean | { failed: unknown };

/** What `tool`'s own `visible` says for `ctx` (see `visibilityBy`). */
export function visibilityOf(tool: Tool, ctx: ToolContext): Visibility {
  const { visible } = tool;
  return visible === undefined || visibilityBy(() => visible(ctx));
}

/**
 * What a `visible` check says, read synchronously (listing tools does not wait): only `true`
 * shows the tool. A throw hides it (fails closed); so does a promise, whose rejection is
 * handled here so that it never goes unhandled.
 */
export function visibilityBy(check: () => unknown): Visibility {
  try {
    const seen = check();
    if (seen === true) return true;
    if (!isThenable(seen)) return false;
    new Promise((adopt) => adopt(seen)).catch(ignore);
    return {
      failed: new TypeError(
        "visible answered with a promise; it must answer true or false at once (listing tools does not wait), so the " +
          "tool is hidden.",
      ),
    };
  } catch (thrown) {
    return { failed: thrown };
  }
}

function ignore(): void {}

/** The tools visible to `ctx` (an empty ctx when left out). */
export function visibleTools(tools: readonly Tool[], ctx: ToolContext | undefined): readonly Tool[] {
  return tools.some((tool) => tool.visible !== undefined)
    ? tools.filter((tool) => isVisibleTo(tool, ctx ?? {}))
    : tools;
}
