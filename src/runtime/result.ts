import type { ToolErrorKind, ToolResult } from "../types";

/** An error result carrying its kind in `metadata.error`. */
export function errorResult(kind: ToolErrorKind, output: string, metadata?: Record<string, unknown>): ToolResult {
  return { output, isError: true, metadata: { ...metadata, error: kind } };
}

export function isToolResult(value: unknown): value is ToolResult {
  return typeof value === "object" && value !== null && typeof (value as ToolResult).output === "string" && typeof (value as ToolResult).isError === "boolean";
}

/**
 * What a tool returned, as a result: strings as they are, `undefined` as "", a `ToolResult`
 * passed through, anything else as JSON. Never throws: a value that cannot be serialized
 * becomes an `execution_failed` result.
 */
export function toToolResult(value: unknown): ToolResult {
  if (typeof value === "string") return { output: value, isError: false };
  if (typeof value === "bigint") return { output: value.toString(), isError: false };
  if (value === undefined) return { output: "", isError: false };
  // Everything below may run user getters (a Proxy, a throwing `output`, `toJSON`).
  try {
    if (isToolResult(value)) {
      const { output, isError, metadata } = value;
      return metadata === undefined ? { output, isError } : { output, isError, metadata };
    }
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
  // The path from the root to the value being written: `holder` is what JSON.stringify passes
  // as `this` for its children (a Map's stand-in object, not the Map), `source` is what a
  // cycle would point back to.
  const path: Array<{ source: unknown; holder: unknown }> = [];
  return JSON.stringify(value, function (this: unknown, _key: string, current: unknown) {
    if (typeof current === "bigint") return current.toString();
    if (typeof current !== "object" || current === null) return current;
    while (path.length > 0 && path[path.length - 1]!.holder !== this) path.pop();
    if (path.some((entry) => entry.source === current)) return "[Circular]";
    const holder =
      current instanceof Map
        ? Object.fromEntries(current)
        : current instanceof Set
          ? [...current]
          : current instanceof Error
            ? { name: current.name, message: current.message }
            : current;
    path.push({ source: current, holder });
    return holder;
  });
}

/** The message of anything thrown, without stack traces (model-facing text). */
export function errorMessage(thrown: unknown): string {
  if (typeof thrown === "string") return thrown;
  // Reading `message` runs user code (getters, Proxies): never let it throw from here.
  try {
    if (thrown instanceof Error) return String(thrown.message || thrown.name);
    if (typeof thrown === "object" && thrown !== null && typeof (thrown as { message?: unknown }).message === "string") {
      return (thrown as { message: string }).message;
    }
    return safeJsonStringify(thrown) ?? String(thrown);
  } catch {
    return "unknown error";
  }
}
