import type { JSONSchemaObject, ToolCallContext } from "../core/types";
import { errorMessage } from "../runtime/result";

/** The most rounds of questions one remote call may ask before it is given up. */
export const MAX_INPUT_ROUNDS = 10;

/** The most questions one round may ask: each may reach a person or a paid model. */
export const MAX_INPUT_REQUESTS_PER_ROUND = 8;

/** A 2026-07-28 result asking the caller for input before the call can finish (multi-round-trip). */
export interface InputRequiredAnswer {
  resultType: "input_required";
  inputRequests?: Record<string, { method?: string; params?: Record<string, unknown> }>;
  requestState?: string;
}

export function isInputRequired(answer: unknown): answer is InputRequiredAnswer {
  return (answer as { resultType?: unknown } | null)?.resultType === "input_required";
}

/**
 * The answers to a remote tool's questions, each asked through the local call's own
 * `ctx.elicit` / `ctx.sample` (the toolkit's hooks, or the MCP client that called the local
 * tool), keyed as the server keyed them. A question nobody here can answer rejects: the call
 * fails saying so.
 */
export async function answerInputRequests(
  requests: NonNullable<InputRequiredAnswer["inputRequests"]>,
  ctx: ToolCallContext,
): Promise<Record<string, unknown>> {
  const entries = Object.entries(requests);
  if (entries.length > MAX_INPUT_REQUESTS_PER_ROUND)
    throw new Error(
      `it asked ${entries.length} questions at once; toolnexus answers at most ${MAX_INPUT_REQUESTS_PER_ROUND}`,
    );
  const answers: Record<string, unknown> = {};
  for (const [key, { method, params = {} }] of entries) {
    const message = String(params.message ?? "");
    try {
      if (method === "elicitation/create") {
        answers[key] =
          params.mode === "url"
            ? await ctx.elicit({ message, url: String(params.url) })
            : await ctx.elicit({ message, schema: params.requestedSchema as JSONSchemaObject });
      } else if (method === "sampling/createMessage") {
        answers[key] = await ctx.sample(params as never);
      } else if (method === "roots/list") {
        answers[key] = { roots: [] };
      } else {
        throw new Error("toolnexus answers elicitation, sampling and roots only");
      }
    } catch (error) {
      const asked =
        method === "elicitation/create"
          ? `the user (${JSON.stringify(message.slice(0, 200))})`
          : method === "sampling/createMessage"
            ? "a model (sampling)"
            : `something else (${String(method)})`;
      throw new Error(`it asked ${asked}, and nobody here could answer: ${errorMessage(error)}`);
    }
  }
  return answers;
}
