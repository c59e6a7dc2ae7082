import { assertElicitRequest, assertSampleRequest, type InputHooks } from "../core/input-requests";
import type { ToolContext } from "../core/types";

/**
 * The call's ctx with the toolkit's `elicit` / `sample` hooks where the caller (an MCP client)
 * brought none of its own; unchanged when the toolkit has no hooks. A request the hook could not
 * answer sensibly (no message, a nested form) is refused before the hook is asked.
 */
export function withInputHooks(ctx: ToolContext | undefined, hooks: InputHooks): ToolContext | undefined {
  const { elicit, sample } = hooks;
  if ((elicit === undefined || ctx?.elicit !== undefined) && (sample === undefined || ctx?.sample !== undefined))
    return ctx;
  const callCtx: ToolContext = { ...ctx };
  if (elicit !== undefined && callCtx.elicit === undefined)
    callCtx.elicit = async (request) => {
      assertElicitRequest(request);
      return elicit(request, callCtx);
    };
  if (sample !== undefined && callCtx.sample === undefined)
    callCtx.sample = async (request) => {
      assertSampleRequest(request);
      return sample(request, callCtx);
    };
  return callCtx;
}
