/**
 * The checks of a tool's definition (name, description, timeout, task flag and policy fields),
 * shared by everything that makes or accepts a tool: `defineTool`, the scanner of `@Tool`
 * methods, the toolkit and `fromMcp`. Each throws a `ToolDefinitionError` saying what to fix.
 */
import { ToolDefinitionError } from "./errors";
import { acceptedBySomeProvider, PORTABLE_NAME } from "./names";
import { MAX_TIMER_MS } from "./timers";
import type { Icon, RetryOption, ToolPolicy } from "./types";

export function checkName(name: unknown): asserts name is string {
  if (typeof name !== "string" || name.length === 0) {
    throw new ToolDefinitionError(`A tool needs a non-empty string name (got ${JSON.stringify(name)}).`);
  }
  // A portable name (the usual case) is accepted by every provider: no need to ask each.
  if (!PORTABLE_NAME.test(name) && !acceptedBySomeProvider(name)) {
    throw new ToolDefinitionError(
      `Tool name "${name}" is accepted by no provider. Use a letter first, then letters, digits, _ or -, at most 64 ` +
        "characters.",
    );
  }
}

export function checkDescription(name: string, description: unknown): asserts description is string {
  if (typeof description !== "string" || description.trim() === "") {
    throw new ToolDefinitionError(`Tool "${name}" needs a non-empty description: models choose tools by it.`);
  }
}

/** `subject` names what is being defined: `Tool "x"`, or `Toolkit`. */
export function checkTimeout(subject: string, timeout: unknown, option = "timeout"): void {
  if (
    timeout !== undefined &&
    timeout !== false &&
    !(typeof timeout === "number" && timeout > 0 && timeout <= MAX_TIMER_MS)
  ) {
    throw new ToolDefinitionError(
      `${subject}: ${option} must be a positive number of milliseconds, at most ${MAX_TIMER_MS}, or false for none ` +
        `(got ${String(timeout)}).`,
    );
  }
}

/** `task` marks a long-running tool: only a boolean means anything there. */
export function checkTask(subject: string, task: unknown): void {
  if (task !== undefined && typeof task !== "boolean") {
    throw new ToolDefinitionError(
      `${subject}: task must be true (a long-running tool MCP clients may call as a task) or false (got ` +
        `${JSON.stringify(task) ?? typeof task}).`,
    );
  }
}

/** The policy fields of `@Tool` or `defineTool` options, checked; `subject` names the tool in errors. */
export function policyOf(subject: string, options: ToolPolicy): ToolPolicy {
  const { needsApproval, visible, authorize, retry, scopes } = options;
  if (needsApproval !== undefined && typeof needsApproval !== "boolean" && typeof needsApproval !== "function") {
    throw new ToolDefinitionError(
      `${subject}: needsApproval must be true, false or a function (args, ctx) => boolean (got ` +
        `${typeof needsApproval}).`,
    );
  }
  if (visible !== undefined && typeof visible !== "function")
    throw new ToolDefinitionError(`${subject}: visible must be a function (ctx) => boolean (got ${typeof visible}).`);
  if (authorize !== undefined && typeof authorize !== "function") {
    throw new ToolDefinitionError(
      `${subject}: authorize must be a function (ctx, args) => boolean (got ${typeof authorize}).`,
    );
  }
  if (retry !== undefined) checkRetry(subject, retry);
  return {
    ...(needsApproval !== undefined ? { needsApproval } : {}),
    ...(visible !== undefined ? { visible } : {}),
    ...(authorize !== undefined ? { authorize } : {}),
    ...(retry !== undefined ? { retry } : {}),
    ...(scopes !== undefined ? { scopes: checkScopes(subject, scopes) } : {}),
  };
}

/** OAuth scope tokens (RFC 6749 §3.3: printable ASCII but space, `"` and `\\`), frozen. */
export function checkScopes(subject: string, scopes: unknown): readonly string[] {
  if (!Array.isArray(scopes) || scopes.some((scope) => typeof scope !== "string" || !SCOPE_TOKEN.test(scope)))
    throw new ToolDefinitionError(
      `${subject}: scopes must be a list of OAuth scope names without spaces, e.g. ["invoices:read"] (got ` +
        `${JSON.stringify(scopes)}).`,
    );
  return Object.freeze([...new Set(scopes as string[])]);
}

/** An OAuth scope token (RFC 6749 §3.3): printable ASCII but space, `"` and `\`. */
export const SCOPE_TOKEN = /^[\x21\x23-\x5b\x5d-\x7e]+$/;

/** Icons as MCP declares them: an `https:` or `data:` URL each, with optional media type, sizes and theme; frozen copies. */
export function checkIcons(subject: string, icons: unknown): readonly Icon[] {
  const fix = "icons must be a list of { src, mimeType?, sizes?, theme? } with an https: or data: src";
  if (!Array.isArray(icons)) throw new ToolDefinitionError(`${subject}: ${fix} (got ${typeof icons}).`);
  return Object.freeze(
    icons.map((icon: unknown, index) => {
      const { src, mimeType, sizes, theme } = (icon ?? {}) as Partial<Icon>;
      const problem =
        typeof src !== "string" || !/^(https:\/\/|data:)/i.test(src)
          ? `src must be an https: or data: URL (got ${JSON.stringify(src)})`
          : mimeType !== undefined && typeof mimeType !== "string"
            ? "mimeType must be a string"
            : sizes !== undefined && (!Array.isArray(sizes) || sizes.some((size) => !/^(any|\d+x\d+)$/.test(size)))
              ? `sizes must be a list like ["48x48", "any"] (got ${JSON.stringify(sizes)})`
              : theme !== undefined && theme !== "light" && theme !== "dark"
                ? `theme must be "light" or "dark" (got ${JSON.stringify(theme)})`
                : undefined;
      if (problem !== undefined) throw new ToolDefinitionError(`${subject}: icon ${index + 1}: ${problem}. ${fix}.`);
      return Object.freeze({
        src,
        ...(mimeType !== undefined ? { mimeType } : {}),
        ...(sizes !== undefined ? { sizes: [...sizes] } : {}),
        ...(theme !== undefined ? { theme } : {}),
      }) as Icon;
    }),
  );
}

function checkRetry(subject: string, retry: RetryOption): void {
  const attempts = typeof retry === "object" && retry !== null ? retry.attempts : retry;
  const fix = "retry takes a number of attempts in all (1 or more), false, or { attempts, delayMs?, maxDelayMs? }";
  if (attempts !== false && !(Number.isInteger(attempts) && (attempts as number) >= 1))
    throw new ToolDefinitionError(`${subject}: ${fix} (got ${JSON.stringify(retry)}).`);
  if (typeof retry === "object") {
    for (const key of ["delayMs", "maxDelayMs"] as const) {
      const value = retry[key];
      if (value !== undefined && !(typeof value === "number" && value >= 0 && Number.isFinite(value))) {
        throw new ToolDefinitionError(
          `${subject}: retry.${key} must be a number of milliseconds, 0 or more (got ${String(value)}).`,
        );
      }
    }
  }
}
