import type { StandardSchemaV1 } from "../core/types";
import { isObject } from "../core/types";
import type { ArgumentProblem } from "./argument-problems";
import { describeValue } from "./arguments";
import { isThenable } from "./invoke";
import { cutText, MAX_ECHOED_PATH } from "./result";

/** What a Standard Schema made of a value: its output (transforms and defaults applied), or what is wrong with it. */
export type StandardVerdict = { ok: true; value: unknown } | { ok: false; problems: ArgumentProblem[] };

/**
 * `value` checked by `schema` itself (`~standard.validate`, sync or async). `at` is where the
 * value stands in the arguments: "" for the arguments themselves, a parameter's name for a
 * parameter. A validate that throws, or answers with something that is no result, throws.
 */
export function standardVerdict(
  schema: StandardSchemaV1,
  value: unknown,
  at = "",
): StandardVerdict | Promise<StandardVerdict> {
  const result: unknown = schema["~standard"].validate(value);
  return isThenable(result) ? Promise.resolve(result).then((settled) => verdictOf(settled, at)) : verdictOf(result, at);
}

function verdictOf(result: unknown, at: string): StandardVerdict {
  // An object, maybe an array: arktype answers a failure with its list of errors, which has `issues` too.
  if (typeof result !== "object" || result === null)
    throw new TypeError(
      `its validate answered ${describeValue(result)}, not a Standard Schema result ({ value } or { issues })`,
    );
  const { issues, value } = result as { issues?: unknown; value?: unknown };
  // A falsy `issues` is success (the spec's words); anything else is a failure, even an empty list.
  if (!issues) return { ok: true, value };
  const problems = Array.from(issues as ArrayLike<unknown>, (issue) => problemOf(issue, at));
  return problems.length > 0
    ? { ok: false, problems }
    : { ok: false, problems: [{ path: at, text: located(at, "was refused by its schema, which gave no reason") }] };
}

/** One issue as a sentence a model can act on: where (the issue's path below `at`), then the library's message. */
function problemOf(issue: unknown, at: string): ArgumentProblem {
  const { message, path: segments } = isObject(issue) ? issue : { message: undefined, path: undefined };
  const own = pathText(Array.isArray(segments) ? segments : []);
  const path = own === "" ? at : at === "" ? own : own.startsWith("[") ? `${at}${own}` : `${at}.${own}`;
  let text = typeof message === "string" && message !== "" ? message : "is invalid";
  // arktype begins a message with the path it is about: said once, in front.
  if (own !== "" && text.startsWith(`${own} `)) text = text.slice(own.length + 1);
  return { path, text: located(path, text) };
}

function located(path: string, text: string): string {
  return path === "" ? text : `"${cutText(path, MAX_ECHOED_PATH)}": ${text}`;
}

/** `["items", 0, "name"]` (keys, or `{ key }` segments) → `items[0].name`. */
function pathText(segments: readonly unknown[]): string {
  let path = "";
  for (const segment of segments) {
    const key = isObject(segment) ? segment.key : segment;
    if (typeof key === "number") path += `[${key}]`;
    else path += path === "" ? String(key) : `.${String(key)}`;
  }
  return path;
}

/**
 * Whether `schema` takes a value left out (`.optional()`, `.default(...)`): asked once, when the
 * tool is built. A check that only answers asynchronously, or throws, counts as no.
 */
export function acceptsUndefined(schema: StandardSchemaV1): boolean {
  try {
    const result: unknown = schema["~standard"].validate(undefined);
    if (isThenable(result)) {
      // Its answer comes too late to decide; a rejection must not go unhandled.
      Promise.resolve(result).catch(() => {});
      return false;
    }
    return typeof result === "object" && result !== null && !(result as { issues?: unknown }).issues;
  } catch {
    return false;
  }
}
