import { InputUnavailableError } from "../core/errors";
import type { AskedInput } from "./input-round";

/** What a client declared it can answer (its `capabilities`: at `initialize`, or in a 2026-07-28 request's envelope). */
export interface AnsweringCapabilities {
  elicitation?: { form?: object; url?: object };
  sampling?: { tools?: object };
  /** Extensions the client takes, by identifier (the Tasks extension among them). */
  extensions?: Record<string, unknown>;
}

/** Why the client cannot answer a question, and what it would have to declare to (MCP's `ClientCapabilities` shape). */
export interface Unanswerable {
  why: string;
  required: AnsweringCapabilities;
}

/**
 * Why the client cannot answer this question (it did not declare the capability), or
 * `undefined` when it can. An `elicitation` capability without modes means forms, as MCP reads it.
 */
export function unanswerable(
  capabilities: AnsweringCapabilities | undefined,
  asked: AskedInput,
): Unanswerable | undefined {
  if (asked.kind === "elicit") {
    const elicitation = capabilities?.elicitation;
    const url = "url" in asked.request;
    const can =
      elicitation !== undefined &&
      (url ? elicitation.url !== undefined : elicitation.form !== undefined || elicitation.url === undefined);
    return can
      ? undefined
      : {
          why:
            `ctx.elicit: this MCP client does not take ${url ? "URL" : "form"} elicitation (it declared no ` +
            `elicitation${url ? ".url" : ""} capability), so nobody can be asked; go on without the answer or fail the call.`,
          required: { elicitation: url ? { url: {} } : { form: {} } },
        };
  }
  if (capabilities?.sampling === undefined)
    return {
      why: "ctx.sample: this MCP client does not take sampling (it declared no sampling capability); there is no model to ask.",
      required: { sampling: {} },
    };
  if (asked.params.tools !== undefined && capabilities.sampling.tools === undefined)
    return {
      why: "ctx.sample: this MCP client takes sampling without tools (no sampling.tools capability); ask without `tools`.",
      required: { sampling: { tools: {} } },
    };
  return undefined;
}

/** Rejects with `InputUnavailableError` when the client cannot answer. */
export function assertAnswerable(capabilities: AnsweringCapabilities | undefined, asked: AskedInput): void {
  const refusal = unanswerable(capabilities, asked);
  if (refusal !== undefined) throw new InputUnavailableError(refusal.why);
}
