import type { ToolErrorKind, ToolResult } from "../types";

/**
 * The most characters of error text one call sends back to a model: enough for every problem
 * a model can act on, never the size of a payload or a stack of nested errors.
 */
export const MAX_ERROR_TEXT = 4_096;

/** An error result carrying its kind in `metadata.error`; its text is cut to `MAX_ERROR_TEXT`. */
export function errorResult(kind: ToolErrorKind, output: string, metadata?: Record<string, unknown>): ToolResult {
  return { output: cutText(output, MAX_ERROR_TEXT), isError: true, metadata: { ...metadata, error: kind } };
}

/** Paths into the arguments echoed back to the model are cut to this many characters. */
export const MAX_ECHOED_PATH = 200;

/** `text` cut to at most `max` characters, saying how much was left out; never half of a surrogate pair. */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  const note = ` ... (${text.length - max} more characters)`;
  return wholeCharacters(text, Math.max(0, max - note.length)) + note;
}

/** The first `length` UTF-16 units of `text`, one fewer when the last would be a lone high surrogate (providers refuse those in JSON). */
export function wholeCharacters(text: string, length: number): string {
  const code = text.charCodeAt(length - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? length - 1 : length);
}

/** A result the tool made itself: its error text is bounded like toolnexus's own. */
function boundedResult(output: string, isError: boolean, metadata?: Record<string, unknown>): ToolResult {
  const text = isError ? cutText(output, MAX_ERROR_TEXT) : output;
  return metadata === undefined ? { output: text, isError } : { output: text, isError, metadata };
}

const THROWN = Symbol("toolnexus.thrown");

/**
 * The result of a body that threw (or rejected): the thrown value's message as the text, and
 * the value itself kept out of sight (a non-enumerable symbol, never serialized) for `onError`.
 */
export function failedWith(thrown: unknown, text: string = errorMessage(thrown)): ToolResult {
  return carryingThrown(errorResult("execution_failed", text), thrown);
}

/** `result`, keeping what was thrown on the way to it (out of sight, for `onError`). */
export function carryingThrown(result: ToolResult, thrown: unknown): ToolResult {
  Object.defineProperty(result, THROWN, { value: thrown });
  return result;
}

/** What the body of the call that produced `result` threw, if it threw. */
export function thrownBy(result: ToolResult): { thrown: unknown } | undefined {
  return Object.prototype.hasOwnProperty.call(result, THROWN) ? { thrown: (result as unknown as { [THROWN]: unknown })[THROWN] } : undefined;
}

export function isToolResult(value: unknown): value is ToolResult {
  return typeof value === "object" && value !== null && typeof (value as ToolResult).output === "string" && typeof (value as ToolResult).isError === "boolean";
}

/**
 * What a tool returned, as a result: strings as they are, `undefined` as "", a `ToolResult`
 * taken over (each field read once, so a getter cannot answer one thing to the check and
 * another to the message), anything else as JSON. Never throws: a value that cannot be
 * read or serialized becomes an `execution_failed` result.
 */
export function toToolResult(value: unknown): ToolResult {
  if (typeof value === "string") return { output: value, isError: false };
  if (typeof value === "bigint") return { output: value.toString(), isError: false };
  if (value === undefined) return { output: "", isError: false };
  // Everything below may run user getters (a Proxy, a throwing `output`, `toJSON`).
  try {
    if (typeof value === "object" && value !== null && "output" in value && "isError" in value) {
      const { output, isError, metadata } = value as Record<string, unknown>;
      if (typeof output === "string" && typeof isError === "boolean") {
        // A result toolnexus made from a throw (an integration's pipeline) keeps it for onError.
        const made = thrownBy(value as ToolResult);
        const kept = (result: ToolResult) => (made === undefined ? result : carryingThrown(result, made.thrown));
        if (metadata === undefined) return kept(boundedResult(output, isError));
        if (typeof metadata === "object" && metadata !== null && !Array.isArray(metadata)) return kept(boundedResult(output, isError, { ...metadata }));
        const got = metadata === null ? "null" : Array.isArray(metadata) ? "an array" : typeof metadata;
        return errorResult("execution_failed", `The tool returned a result whose metadata is not an object (got ${got}).`);
      }
    }
    return { output: safeJsonStringify(value) ?? "", isError: false };
  } catch (error) {
    return failedWith(error, `The tool's result could not be serialized: ${errorMessage(error)}`);
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
