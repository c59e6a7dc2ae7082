import type { ArgumentsHost } from "@nestjs/common";
import type { ToolContext } from "../core/types";

/** `context.getType()` of a tool call's execution context, as guards, interceptors and filters see it. */
export const TOOLNEXUS_CONTEXT_TYPE = "toolnexus";

/** The context type of a tool call: `context.getType<ToolnexusContextType>() === "toolnexus"`. */
export type ToolnexusContextType = typeof TOOLNEXUS_CONTEXT_TYPE;

/** A tool call, as guards, interceptors, pipes and filters read it from their execution context. */
export interface ToolCallInfo {
  /** The tool's name in the toolkit (its prefix included). */
  readonly tool: string;
  /** The arguments by name, as toolnexus accepted them. */
  readonly args: Readonly<Record<string, unknown>>;
  /** The call's context: `state` (`state.user`, `state.request`), `signal`, `callId` ... */
  readonly ctx: ToolContext;
}

/**
 * The tool call an execution context is about, or `undefined` when it is about something else
 * (an HTTP request, a GraphQL resolver ...). A tool call's host arguments are
 * `[request, undefined, call]`: `context.switchToHttp().getRequest()` is the HTTP request the
 * call came with (the MCP request, or `ctx.state.request` given to `execute`/`run*`), if any.
 *
 * @example
 * ```ts
 * canActivate(context: ExecutionContext) {
 *   const call = toolCallOf(context);
 *   if (call !== undefined) return call.ctx.state?.user !== undefined;
 *   return context.switchToHttp().getRequest().user !== undefined;
 * }
 * ```
 */
export function toolCallOf(context: ArgumentsHost): ToolCallInfo | undefined {
  if (context.getType<string>() !== TOOLNEXUS_CONTEXT_TYPE) return undefined;
  return context.getArgByIndex<ToolCallInfo>(2);
}
