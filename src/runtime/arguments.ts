import { cutText, errorMessage, MAX_ECHOED_PATH, wholeCharacters } from "./result";

/** Keys that could reach an object's prototype when user code merges arguments. */
const FORBIDDEN_KEYS = new Set(["__proto__", "constructor", "prototype"]);

export type ArgumentsCheck = { ok: true; args: Record<string, unknown> } | { ok: false; problem: string };

/**
 * Accepts a tool call's arguments: a plain JSON object, or a JSON string of one (OpenAI).
 * `undefined`, `null` and "" mean "no arguments". Anything else, and any object carrying a
 * prototype-reaching key at any depth, is refused with a sentence saying what was wrong.
 */
export function acceptArguments(raw: unknown): ArgumentsCheck {
  let value = raw;
  if (typeof raw === "string") {
    if (raw.trim() === "") return { ok: true, args: {} };
    try {
      value = JSON.parse(raw);
    } catch (error) {
      return { ok: false, problem: `arguments are not valid JSON (${(error as Error).message}); send one JSON object` };
    }
  }
  if (value === undefined || value === null) return { ok: true, args: {} };
  // A host's object may be a Proxy or carry getters that throw: reading it is part of accepting it.
  try {
    if (typeof value !== "object" || Array.isArray(value)) {
      return { ok: false, problem: `arguments must be a JSON object, got ${describeValue(value)}` };
    }
    const forbidden = findForbiddenKey(value);
    if (forbidden !== undefined) {
      return {
        ok: false,
        problem:
          `argument key "${forbidden.key}" ` +
          `${forbidden.path ? `at ${cutText(forbidden.path, MAX_ECHOED_PATH)}` : "at the top level"} is not allowed`,
      };
    }
    return { ok: true, args: ownData(value) };
  } catch (error) {
    return { ok: false, problem: `arguments could not be read (${errorMessage(error)}); send one JSON object` };
  }
}

/**
 * Arguments are data: an object with another prototype (a class instance, say) is copied to
 * its own enumerable properties, so validation (which reads own properties) and the tool see
 * the same values.
 */
function ownData(value: object): Record<string, unknown> {
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null ? (value as Record<string, unknown>) : { ...value };
}

/** Iterative (deeply nested payloads must not overflow the stack); visits each object once (a host may pass cycles). */
function findForbiddenKey(root: object): { key: string; path: string } | undefined {
  // Fast path: most calls are flat objects of scalars, which need no stack and no visited set.
  // `for...in` (no key array; it also sees inherited enumerable keys, which only makes it stricter).
  let nested = false;
  for (const key in root) {
    if (key === "__proto__" || key === "constructor" || key === "prototype") return { key, path: "" };
    const child = (root as Record<string, unknown>)[key];
    if (typeof child === "object" && child !== null) nested = true;
  }
  if (!nested) return undefined;
  const stack: Array<{ node: object; path: string }> = [{ node: root, path: "" }];
  const visited = new Set<object>([root]);
  while (stack.length > 0) {
    const { node, path } = stack.pop()!;
    for (const key of Object.keys(node)) {
      if (!Array.isArray(node) && FORBIDDEN_KEYS.has(key)) return { key, path };
      const child = (node as Record<string, unknown>)[key];
      if (typeof child === "object" && child !== null && !visited.has(child)) {
        visited.add(child);
        stack.push({ node: child, path: `${path}/${escapePointer(key)}` });
      }
    }
  }
  return undefined;
}

function escapePointer(key: string): string {
  return key.replace(/~/g, "~0").replace(/\//g, "~1");
}

/** A short, model-readable description of a value: its type and a preview. */
export function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return `an array of ${value.length}`;
  if (typeof value === "string")
    return `string ${JSON.stringify(value.length > 60 ? `${wholeCharacters(value, 57)}...` : value)}`;
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint")
    return `${typeof value} ${String(value)}`;
  if (typeof value === "object") return "an object";
  return typeof value;
}
