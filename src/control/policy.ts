import type { RetryPolicy, Tool } from "../core/types";

/** Attempts when a tool is annotated `idempotent` and sets no `retry`. */
export const IDEMPOTENT_ATTEMPTS = 3;

/** The retry policy a tool runs under, or `undefined` for a single attempt. */
export function retryPolicyOf(tool: Tool): Required<RetryPolicy> | undefined {
  const retry = tool.retry ?? (tool.annotations?.idempotent === true ? IDEMPOTENT_ATTEMPTS : undefined);
  if (retry === undefined || retry === false) return undefined;
  const policy = typeof retry === "number" ? { attempts: retry } : retry;
  if (policy.attempts < 2) return undefined;
  return { attempts: policy.attempts, delayMs: policy.delayMs ?? 100, maxDelayMs: policy.maxDelayMs ?? 2_000 };
}
