import { ToolDefinitionError } from "../errors";
import type { RetryOption, RetryPolicy, Tool, ToolPolicy } from "../types";

/** The policy fields of `@Tool` or `defineTool` options, checked; `subject` names the tool in errors. */
export function policyOf(subject: string, options: ToolPolicy): ToolPolicy {
  const { needsApproval, visible, authorize, retry } = options;
  if (needsApproval !== undefined && typeof needsApproval !== "boolean" && typeof needsApproval !== "function") {
    throw new ToolDefinitionError(`${subject}: needsApproval must be true, false or a function (args, ctx) => boolean (got ${typeof needsApproval}).`);
  }
  if (visible !== undefined && typeof visible !== "function") throw new ToolDefinitionError(`${subject}: visible must be a function (ctx) => boolean (got ${typeof visible}).`);
  if (authorize !== undefined && typeof authorize !== "function") {
    throw new ToolDefinitionError(`${subject}: authorize must be a function (ctx, args) => boolean (got ${typeof authorize}).`);
  }
  if (retry !== undefined) checkRetry(subject, retry);
  return {
    ...(needsApproval !== undefined ? { needsApproval } : {}),
    ...(visible !== undefined ? { visible } : {}),
    ...(authorize !== undefined ? { authorize } : {}),
    ...(retry !== undefined ? { retry } : {}),
  };
}

function checkRetry(subject: string, retry: RetryOption): void {
  const attempts = typeof retry === "object" && retry !== null ? retry.attempts : retry;
  const fix = "retry takes a number of attempts in all (1 or more), false, or { attempts, delayMs?, maxDelayMs? }";
  if (attempts !== false && !(Number.isInteger(attempts) && (attempts as number) >= 1)) throw new ToolDefinitionError(`${subject}: ${fix} (got ${JSON.stringify(retry)}).`);
  if (typeof retry === "object") {
    for (const key of ["delayMs", "maxDelayMs"] as const) {
      const value = retry[key];
      if (value !== undefined && !(typeof value === "number" && value >= 0 && Number.isFinite(value))) {
        throw new ToolDefinitionError(`${subject}: retry.${key} must be a number of milliseconds, 0 or more (got ${String(value)}).`);
      }
    }
  }
}

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
