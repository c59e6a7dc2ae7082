import { errorMessage, failedWith, toToolResult } from "../runtime/result";
import { isThenable } from "../runtime/invoke";
import type { Tool, ToolContext, ToolResult } from "../types";

/** One call as middleware sees it. `args` may be replaced before `next()`: the tool gets what is there then. */
export interface ToolCall {
  readonly tool: Tool;
  args: Record<string, unknown>;
  readonly ctx: ToolContext;
}

/**
 * Wraps every call that passed visibility, authorization and approval: it may answer without
 * calling `next` (a cache, a rate limit), change the result `next` gives, or time it. What it
 * returns becomes the result as a tool's return would; a throw becomes an `execution_failed`
 * result. The first middleware `use`d is the outermost.
 */
export type ToolMiddleware = (call: ToolCall, next: () => Promise<ToolResult>) => unknown;

/** Runs `call` through `chain` (outermost first) down to `core`; never rejects. */
export function runThrough(chain: readonly ToolMiddleware[], call: ToolCall, core: (call: ToolCall) => Promise<ToolResult>): Promise<ToolResult> {
  const step = (index: number): Promise<ToolResult> => {
    if (index === chain.length) return core(call);
    const middleware = chain[index]!;
    const failed = (thrown: unknown) => failedWith(thrown, `Tool "${call.tool.name}" failed in a middleware: ${errorMessage(thrown)}`);
    // A second call of next would run the tool twice: it gets the first run's result.
    let ran: Promise<ToolResult> | undefined;
    const next = () => (ran ??= step(index + 1));
    try {
      const value = middleware(call, next);
      return isThenable(value) ? Promise.resolve(value).then(toToolResult, failed) : Promise.resolve(toToolResult(value));
    } catch (thrown) {
      return Promise.resolve(failed(thrown));
    }
  };
  return step(0);
}
