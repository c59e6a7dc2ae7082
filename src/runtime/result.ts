import type { ToolErrorKind, ToolResult } from "../types";

/** An error result carrying its kind in `metadata.error`. */
export function errorResult(kind: ToolErrorKind, output: string, metadata?: Record<string, unknown>): ToolResult {
  return { output, isError: true, metadata: { ...metadata, error: kind } };
}

export function isToolResult(value: unknown): value is ToolResult {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as ToolResult).output === "string" &&
    typeof (value as ToolResult).isError === "boolean"
  );
}

/**
 * What a tool returned, as a result: strings as they are, `undefined` as "", a `ToolResult`
 * passed through, anything else as JSON. Never throws: a value that cannot be serialized
 * becomes an `execution_failed` result.
 */
export function toToolResult(value: unknown): ToolResult {
  if (typeof value === "string") return { output: value, isError: false };
  if (value === undefined) return { output: "", isError: false };
  if (isToolResult(value)) {
    const { output, isError, metadata } = value;
    return metadata === undefined ? { output, isError } : { output, isError, metadata };
  }
  try {
    return { output: safeJsonStringify(value) ?? "", isError: false };
  } catch (error) {
    return errorResult("execution_failed", `The tool's result could not be serialized: ${errorMessage(error)}`);
  }
}

/**
 * JSON.stringify that does not throw on BigInt (written as a decimal string) or cycles
 * (written as "[Circular]"), and writes Map, Set and Error meaningfully. `toJSON` is honoured.
 * It can still throw when a `toJSON` or getter throws; callers decide what that means.
 */
export function safeJsonStringify(value: unknown): string | undefined {
  const ancestors: unknown[] = [];
  return JSON.stringify(value, function (this: unknown, _key: string, current: unknown) {
    if (typeof current === "bigint") return current.toString();
    if (typeof current !== "object" || current === null) return current;
    // `this` is the object holding `current`: unwind the path back to it, then look for a cycle.
    while (ancestors.length > 0 && ancestors[ancestors.length - 1] !== this) ancestors.pop();
    if (ancestors.includes(current)) return "[Circular]";
    ancestors.push(current);
    if (current instanceof Map) return Object.fromEntries(current);
    if (current instanceof Set) return [...current];
    if (current instanceof Error) return { name: current.name, message: current.message };
    return current;
  });
}

/** The message of anything thrown, without stack traces (model-facing text). */
export function errorMessage(thrown: unknown): string {
  if (thrown instanceof Error) return thrown.message || thrown.name;
  if (typeof thrown === "string") return thrown;
  if (typeof thrown === "object" && thrown !== null && typeof (thrown as { message?: unknown }).message === "string") {
    return (thrown as { message: string }).message;
  }
  try {
    return safeJsonStringify(thrown) ?? String(thrown);
  } catch {
    return "unknown error";
  }
}
