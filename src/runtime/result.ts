import { isObject, type ToolContent, type ToolErrorKind, type ToolResult } from "../core/types";
import { binaryPart, isToolContent, textForm, type UnsentContent } from "./content";
import { checkedContent, type CheckedContent, type UnsentAnnotation } from "./content-check";

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

/**
 * The first `length` UTF-16 units of `text`, one fewer when the last would be a lone high surrogate (providers refuse
 * those in JSON).
 */
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
  return Object.prototype.hasOwnProperty.call(result, THROWN)
    ? { thrown: (result as unknown as { [THROWN]: unknown })[THROWN] }
    : undefined;
}

export function isToolResult(value: unknown): value is ToolResult {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as ToolResult).output === "string" &&
    typeof (value as ToolResult).isError === "boolean"
  );
}

/** What a tool says about its results: the mime type of bytes it returns, and the check of structured results. */
export interface ResultShape {
  tool: string;
  /** The mime type of a `Buffer`/`Uint8Array` the body returns (otherwise recognized from the bytes). */
  mimeType?: string;
  /** The problems of a structured result against the tool's output schema (none: it matches). */
  checkOutput?: (value: Record<string, unknown>) => string[];
}

/**
 * What a tool returned, as a result: strings as they are, `undefined` as "", a `ToolResult`
 * taken over (each field read once, so a getter cannot answer one thing to the check and
 * another to the message), a part (`image(...)`, ...), a list of parts or bytes as `content`
 * with its text form in `output`, and anything else as JSON: with an output schema (`shape`),
 * as `structuredContent` checked against it. Never throws: a value that cannot be read or
 * serialized becomes an `execution_failed` result, a structured result that does not match
 * an `invalid_output` one.
 */
export function toToolResult(value: unknown, shape?: ResultShape): ToolResult {
  if (shape?.checkOutput !== undefined) return structuredOrError(value, shape);
  if (typeof value === "string") return { output: value, isError: false };
  if (typeof value === "bigint") return { output: value.toString(), isError: false };
  if (value === undefined) return { output: "", isError: false };
  // Everything below may run user getters (a Proxy, a throwing `output`, `toJSON`).
  try {
    if (value instanceof Uint8Array || value instanceof ArrayBuffer) return bytesResult(value, shape);
    const parts = partsOf(value);
    if (parts !== undefined) return contentResult(parts);
    if (typeof value === "object" && value !== null && "output" in value && "isError" in value) {
      const taken = takenResult(value as Record<string, unknown>, shape);
      if (taken !== undefined) return taken;
    }
    return { output: safeJsonStringify(value) ?? "", isError: false };
  } catch (error) {
    return failedWith(error, `The tool's result could not be serialized: ${errorMessage(error)}`);
  }
}

/**
 * A tool body whose return is made a result by the tool's own `shape` (its output schema, the
 * mime type of its bytes), before the call's limits take it over as it is. Throws and
 * rejections pass through.
 */
export function shapedBody<P extends unknown[]>(
  body: (...args: P) => unknown,
  shape: ResultShape | undefined,
): (...args: P) => unknown {
  if (shape === undefined) return body;
  const convert = (value: unknown) => toToolResult(value, shape);
  return (...args) => {
    const value = body(...args);
    return typeof (value as PromiseLike<unknown> | null)?.then === "function"
      ? Promise.resolve(value).then(convert)
      : convert(value);
  };
}

function bytesResult(bytes: Uint8Array | ArrayBuffer, shape: ResultShape | undefined): ToolResult {
  let part: ToolContent;
  try {
    part = binaryPart(bytes, shape?.mimeType);
  } catch (error) {
    return failedWith(error, errorMessage(error));
  }
  return contentResult([part]);
}

/** A part, or a non-empty list of parts, each copied (read once) and well formed; otherwise undefined. */
function partsOf(value: unknown): ToolContent[] | undefined {
  if (Array.isArray(value)) {
    if (value.length === 0) return undefined;
    const copies = value.map((item: unknown) => (typeof item === "object" && item !== null ? { ...item } : item));
    return copies.every(isToolContent) ? copies : undefined;
  }
  if (typeof value !== "object" || value === null || !("type" in value)) return undefined;
  const copy: unknown = { ...value };
  return isToolContent(copy) ? [copy] : undefined;
}

/**
 * A result of parts: their text form as `output`, each part that cannot be sent replaced by a note (see
 * `checkedContent`).
 */
function contentResult(parts: ToolContent[]): ToolResult {
  const checked = checkedContent(parts);
  const metadata = withRefusals(undefined, checked);
  return {
    output: textForm(checked.content),
    isError: false,
    content: checked.content,
    ...(metadata !== undefined ? { metadata } : {}),
  };
}

/**
 * `metadata` with the refusals of `checked` added to its `unsentContent` and
 * `unsentAnnotations` (after those already there: a result checked twice lists each once, as
 * the second check refuses nothing); undefined when there is neither metadata nor a refusal.
 */
function withRefusals(
  metadata: Record<string, unknown> | undefined,
  { unsent, unsentAnnotations }: CheckedContent,
): Record<string, unknown> | undefined {
  if (unsent.length === 0 && unsentAnnotations.length === 0) return metadata;
  const earlier = <T>(key: string) => (Array.isArray(metadata?.[key]) ? (metadata[key] as T[]) : []);
  return {
    ...metadata,
    ...(unsent.length > 0 ? { unsentContent: [...earlier<UnsentContent>("unsentContent"), ...unsent] } : {}),
    ...(unsentAnnotations.length > 0
      ? { unsentAnnotations: [...earlier<UnsentAnnotation>("unsentAnnotations"), ...unsentAnnotations] }
      : {}),
  };
}

/** A `ToolResult` the body returned, read once and checked; undefined when it is not one after all. */
function takenResult(value: Record<string, unknown>, shape: ResultShape | undefined): ToolResult | undefined {
  const { output, isError, metadata, content, structuredContent } = value;
  if (typeof output !== "string" || typeof isError !== "boolean") return undefined;
  if (metadata !== undefined && !isObject(metadata)) {
    const got = metadata === null ? "null" : Array.isArray(metadata) ? "an array" : typeof metadata;
    return errorResult("execution_failed", `The tool returned a result whose metadata is not an object (got ${got}).`);
  }
  // A result toolnexus made from a throw (an integration's pipeline) keeps it for onError.
  const made = thrownBy(value as unknown as ToolResult);
  const kept = (result: ToolResult) => (made === undefined ? result : carryingThrown(result, made.thrown));
  const base = boundedResult(output, isError, metadata === undefined ? undefined : { ...metadata });
  let result: ToolResult = base;
  if (content !== undefined) {
    const parts = Array.isArray(content) ? partsOf(content) : undefined;
    if (parts === undefined && !(Array.isArray(content) && content.length === 0)) {
      return errorResult(
        "execution_failed",
        "The tool returned a result whose content is not a list of parts " +
          '({ type: "text" | "image" | "audio" | "file" | "resource_link", ... }).',
      );
    }
    if (parts !== undefined) {
      // Parts are what providers that take them get: text the tool wrote only in `output` goes in front, not lost.
      const ownText =
        result.output !== "" && result.output !== textForm(parts) && !parts.some((part) => part.type === "text");
      const withText = ownText ? [{ type: "text" as const, text: result.output }, ...parts] : parts;
      const checked = checkedContent(withText);
      // An empty text form would leave providers that take text only with nothing to read; one
      // made from the parts is made again, so that it says what was not sent. One the tool wrote stays.
      const output =
        result.output === "" || result.output === textForm(withText) ? textForm(checked.content) : result.output;
      const metadata = withRefusals(result.metadata, checked);
      result = { ...result, output, content: checked.content, ...(metadata !== undefined ? { metadata } : {}) };
    }
  }
  if (structuredContent !== undefined) {
    if (!isObject(structuredContent))
      return errorResult(
        "execution_failed",
        "The tool returned a result whose structuredContent is not a JSON object.",
      );
    const structured = plainCopy(structuredContent);
    const problems = isError ? [] : (shape?.checkOutput?.(structured) ?? []);
    if (problems.length > 0) return invalidOutput(shape!.tool, problems);
    result = { ...result, structuredContent: structured };
  }
  return kept(result);
}

/**
 * What a tool with an output schema returned: an object (its structured form, checked), or a
 * `ToolResult` with `structuredContent` (checked) or with `isError`. Anything else breaks the
 * schema's promise (an MCP client refuses such a result), so it is `invalid_output`.
 */
function structuredOrError(value: unknown, shape: ResultShape): ToolResult {
  try {
    if (typeof value === "object" && value !== null && "output" in value && "isError" in value) {
      const taken = takenResult(value as Record<string, unknown>, shape);
      if (taken !== undefined) {
        if (taken.isError || taken.structuredContent !== undefined) return taken;
        return invalidOutput(shape.tool, ["the result has no structuredContent"]);
      }
    }
    return structuredResult(value, shape);
  } catch (error) {
    return failedWith(error, `The tool's result could not be serialized: ${errorMessage(error)}`);
  }
}

/** A plain value returned by a tool with an output schema: its structured form, checked. */
function structuredResult(value: unknown, shape: ResultShape): ToolResult {
  const json = safeJsonStringify(value);
  const structured: unknown = json === undefined ? undefined : JSON.parse(json);
  if (!isObject(structured) || Array.isArray(value) || value instanceof Uint8Array || isToolContent(value)) {
    const got =
      structured === undefined
        ? "nothing"
        : Array.isArray(structured)
          ? "a list"
          : isObject(structured)
            ? "content parts"
            : typeof structured;
    return invalidOutput(shape.tool, [`the result must be an object that matches the output schema, got ${got}`]);
  }
  const problems = shape.checkOutput!(structured);
  if (problems.length > 0) return invalidOutput(shape.tool, problems);
  return { output: json!, isError: false, structuredContent: structured };
}

function plainCopy(value: Record<string, unknown>): Record<string, unknown> {
  return JSON.parse(safeJsonStringify(value) ?? "{}") as Record<string, unknown>;
}

/**
 * The result of a tool whose structured result does not match its output schema (a fault of the tool, not the model).
 */
export function invalidOutput(tool: string, problems: string[]): ToolResult {
  const listed = problems.slice(0, 20).map((problem) => `- ${cutText(problem, 400)}`);
  const more = problems.length > listed.length ? [`... and ${problems.length - listed.length} more`] : [];
  return errorResult(
    "invalid_output",
    [`Tool "${tool}" returned a result that does not match its output schema:`, ...listed, ...more].join("\n"),
    { tool },
  );
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
    if (
      typeof thrown === "object" &&
      thrown !== null &&
      typeof (thrown as { message?: unknown }).message === "string"
    ) {
      return (thrown as { message: string }).message;
    }
    return safeJsonStringify(thrown) ?? String(thrown);
  } catch {
    return "unknown error";
  }
}
