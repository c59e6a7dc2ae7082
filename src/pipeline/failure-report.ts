import type { ToolContext, ToolErrorKind, ToolResult } from "../core/types";
import { ToolDefinitionError } from "../core/errors";
import { seamFailure } from "../control/seam-failure";
import { isThenable } from "../runtime/invoke";
import { cutText, errorMessage, MAX_ERROR_TEXT, thrownBy } from "../runtime/result";

/** A failed call, as `onError` and an `errorText` function see it. */
export interface ToolFailure {
  /** The tool name the call asked for (it may name no tool). */
  tool: string;
  kind: ToolErrorKind;
  /** What the tool threw (the value itself, with its stack), when it threw. */
  error?: unknown;
  /** Unique per failure; sent to the model with the `"errorId"` policy and always in `result.metadata.errorId`. */
  errorId: string;
  /** The result as made before the `errorText` policy applies. */
  result: ToolResult;
  callId?: string;
  provider?: string;
  ctx: ToolContext;
}

export type ErrorTextPolicy = "message" | "errorId" | ((failure: ToolFailure) => string);

/** Tells `onError` about a failed call and words its text by `errorText`; gives the result to send. */
export type FailureReporter = (name: string, result: ToolResult, ctx: ToolContext | undefined) => ToolResult;

/** The step that tells `onError` and applies `errorText`, or `undefined` when neither is asked for. */
export function failureReporter(onError: unknown, errorText: unknown = "message"): FailureReporter | undefined {
  if (onError !== undefined && typeof onError !== "function")
    throw new ToolDefinitionError(`Toolkit: onError must be a function (failure) => void (got ${typeof onError}).`);
  if (errorText !== "message" && errorText !== "errorId" && typeof errorText !== "function") {
    throw new ToolDefinitionError(
      `Toolkit: errorText must be "message", "errorId" or a function (failure) => string (got ` +
        `${JSON.stringify(errorText)}).`,
    );
  }
  if (onError === undefined && errorText === "message") return undefined;
  const observe = onError as ((failure: ToolFailure) => void | Promise<void>) | undefined;
  const policy = errorText as ErrorTextPolicy;
  return (name, made, ctx) => {
    const thrown = thrownBy(made);
    // A failure toolnexus worded from a throw may carry its id already (its text names it): the same id for onError.
    const carried = thrown === undefined ? undefined : made.metadata?.errorId;
    const errorId = typeof carried === "string" ? carried : crypto.randomUUID();
    const result: ToolResult = { ...made, metadata: { ...made.metadata, errorId } };
    const failure: ToolFailure = {
      tool: name,
      kind: (made.metadata?.error as ToolErrorKind | undefined) ?? "execution_failed",
      ...(thrown !== undefined ? { error: thrown.thrown } : {}),
      errorId,
      result,
      ...originOf(ctx),
      ctx: ctx ?? {},
    };
    // An unknown tool's text tells nothing of a hidden tool, which a failed visibility check hid: it stays as it is.
    if (thrown !== undefined && policy !== "message" && failure.kind !== "unknown_tool")
      result.output = cutText(textFor(policy, failure), MAX_ERROR_TEXT);
    if (observe !== undefined) {
      try {
        const told = observe(failure);
        if (isThenable(told)) told.then(undefined, (error: unknown) => warnObserverFailed(error));
      } catch (error) {
        warnObserverFailed(error);
      }
    }
    return result;
  };
}

function textFor(policy: "errorId" | ((failure: ToolFailure) => string), failure: ToolFailure): string {
  const fixed =
    `Tool "${failure.tool}" failed with an internal error (error id ${failure.errorId}). Try another ` +
    "approach, or tell the user the tool is failing.";
  if (policy === "errorId") return fixed;
  try {
    const text = policy(failure);
    return typeof text === "string" ? text : fixed;
  } catch (error) {
    warnObserverFailed(error, "errorText");
    return fixed;
  }
}

/** A failing observer must not fail the call, and must not fail silently either. */
function warnObserverFailed(error: unknown, option = "onError"): void {
  process.emitWarning(`toolnexus: the toolkit's ${option} function threw: ${errorMessage(error)}`, {
    code: "TOOLNEXUS_OBSERVER_FAILED",
  });
}

/**
 * The call id and provider a ctx names, for a failure's report and a span; a ctx that throws when read names neither.
 */
export function originOf(ctx: ToolContext | undefined): { callId?: string; provider?: string } {
  try {
    const { callId, provider } = ctx ?? {};
    return { ...(callId !== undefined ? { callId } : {}), ...(provider !== undefined ? { provider } : {}) };
  } catch {
    return {};
  }
}

/**
 * A call that failed inside the toolkit, not in a tool or a seam (a ctx that throws when read): worded without what was
 * thrown.
 */
export function internalFailure(tool: string, thrown: unknown): ToolResult {
  return seamFailure(
    "execution_failed",
    tool,
    thrown,
    (errorId) =>
      `Tool "${tool}" could not run: the call failed inside the toolkit (error id ${errorId}). Tell the user the ` +
      "tool is failing.",
  );
}
