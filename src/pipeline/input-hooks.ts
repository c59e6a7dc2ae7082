import { assertElicitRequest, assertSampleRequest, type InputHooks } from "../core/input-requests";
import type { LogEntry, ToolContext } from "../core/types";
import { logLevelRank } from "../core/log-levels";
import { isThenable } from "../runtime/invoke";

/** The toolkit's hooks a call's ctx falls back on: who answers its questions, who keeps its logs. */
export interface CallHooks extends InputHooks {
  log?: (entry: LogEntry, ctx: ToolContext) => void;
}

/**
 * The call's ctx with the toolkit's `elicit` / `sample` hooks where the caller (an MCP client)
 * brought none of its own; unchanged when the toolkit has no hooks. A request the hook could not
 * answer sensibly (no message, a nested form) is refused before the hook is asked.
 */
export function withInputHooks(
  ctx: ToolContext | undefined,
  hooks: CallHooks,
  source: string,
): ToolContext | undefined {
  const { elicit, sample, log } = hooks;
  if (
    (elicit === undefined || ctx?.elicit !== undefined) &&
    (sample === undefined || ctx?.sample !== undefined) &&
    (log === undefined || ctx?.log !== undefined)
  )
    return ctx;
  const callCtx: ToolContext = { ...ctx };
  if (log !== undefined && callCtx.log === undefined)
    callCtx.log = (level, message, data) => {
      logLevelRank(level);
      // A logger's failure, thrown or rejected, is not the call's.
      try {
        const logged: unknown = log({ level, message, ...(data !== undefined ? { data } : {}), source }, callCtx);
        if (isThenable(logged)) logged.then(undefined, () => {});
      } catch {
        // as above
      }
    };
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
