import { abortedResult } from "../runtime/invoke";
import type { ToolResult } from "../core/types";
import { forbiddenResult } from "./approval";
import { seamTimedOut, type SeamOutcome } from "./seam-deadline";

/**
 * What ends a call at its authorization, from how one `authorize` answered: `forbidden` for
 * anything but `true` and for a throw (a permission check that cannot answer does not let the
 * call through), `timeout` when it did not answer within the call's deadline, `aborted` when
 * the call's signal aborted first; `undefined` when it allowed the call.
 */
export function authorizationRefusal(tool: string, answer: SeamOutcome): ToolResult | undefined {
  if ("answered" in answer) return answer.answered === true ? undefined : forbiddenResult(tool);
  if ("late" in answer) return seamTimedOut(tool, "its permission check", answer.late);
  if ("aborted" in answer) return abortedResult(tool, answer.aborted);
  return forbiddenResult(tool, answer.threw);
}
