import { carryingThrown, errorMessage, errorResult } from "../runtime/result";
import type { ToolErrorKind, ToolResult } from "../core/types";

/**
 * The result of a call that one of the host's own steps failed (its `approve`, `authorize`,
 * middleware, executor, or options that could not be read): a fixed sentence with a fresh
 * `errorId` (in `metadata.errorId` too), never what was thrown, which may hold anything the
 * host knows. The thrown value stays in the process, for `onError`, with the same `errorId`.
 */
export function seamFailure(
  kind: ToolErrorKind,
  tool: string,
  thrown: unknown,
  sentence: (errorId: string) => string,
): ToolResult {
  const errorId = crypto.randomUUID();
  return carryingThrown(errorResult(kind, sentence(errorId), { tool, errorId }), thrown);
}

/**
 * The same for a step of an agent framework's adapter (a `state` function, an approver) that
 * failed before the call reached a toolkit, where no `onError` hears of it.
 */
export function adapterStepFailure(tool: string, step: string, thrown: unknown): ToolResult {
  const errorId = warnOfAdapterStep(step, thrown);
  return carryingThrown(
    errorResult(
      "execution_failed",
      `Tool "${tool}" could not run: ${step} failed (error id ${errorId}). Tell the user the tool is failing.`,
      { tool, errorId },
    ),
    thrown,
  );
}

/**
 * Tells the host, with a process warning, that an adapter's `step` threw; the `errorId` that names the failure to the
 * model.
 */
export function warnOfAdapterStep(step: string, thrown: unknown): string {
  const errorId = crypto.randomUUID();
  process.emitWarning(`toolnexus: ${step} threw (error id ${errorId}): ${errorMessage(thrown)}`, {
    code: "TOOLNEXUS_ADAPTER_STEP_FAILED",
  });
  return errorId;
}
