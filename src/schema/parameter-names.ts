export interface SourceParameter {
  /** Undefined where the source has no plain name (destructuring). */
  name: string | undefined;
  /** The source gives a default value (`units = "metric"`), so the argument is optional. */
  hasDefault: boolean;
}

/**
 * Reads parameters from a function's source, e.g. `get(city, units = "metric")` →
 * city (no default), units (default). Minified code still yields names, but meaningless
 * ones, which is why `@Param` takes an explicit name.
 */
export function sourceParameters(fn: Function): SourceParameter[] {
  const source = Function.prototype.toString.call(fn);
  const parts = parameterList(source)?.parts;
  if (parts === undefined) {
    // `x => ...` (an arrow with one bare parameter)
    const arrow = /^\s*(?:async\s+)?([A-Za-z_$][\w$]*)\s*=>/.exec(source);
    return arrow ? [{ name: arrow[1], hasDefault: false }] : [];
  }
  return parts
    .map((part) => part.trim())
    .filter((part) => part.length > 0)
    .map((part) => {
      const match = /^([A-Za-z_$][\w$]*)\s*(=)?/.exec(part);
      return { name: match?.[1], hasDefault: match?.[2] !== undefined };
    });
}

/**
 * Whether the method's body starts right at its parameter list's ")" (`forecast(e,t){`): what
 * minifiers write, and no compiler or formatter does (tsc, Babel, SWC and Prettier all write `) {`).
 */
export function bodyAdjoinsParameters(fn: Function): boolean {
  const source = Function.prototype.toString.call(fn);
  const end = parameterList(source)?.end;
  return end !== undefined && source[end] === "{";
}

/**
 * The comma-separated parts of a function's parameter list, comments removed, string
 * literals and nested brackets kept whole, and the index just past its ")" (`end`);
 * `undefined` when an arrow comes before any "(" (`x => ...`). Reads no further than the list's
 * closing parenthesis, so a method's body, however long, costs nothing.
 */
function parameterList(source: string): { parts: string[]; end: number } | undefined {
  const parts: string[] = [];
  let depth = -1; // -1 until the list's "(" is reached
  let partStart = 0; // where the text of the current part resumes
  let current = ""; // the current part's text before its last comment
  for (let i = 0; i < source.length; i++) {
    const ch = source[i]!;
    if (ch === "/" && (source[i + 1] === "*" || source[i + 1] === "/")) {
      if (depth >= 0) current += source.slice(partStart, i);
      const end = source[i + 1] === "*" ? source.indexOf("*/", i + 2) + 1 : source.indexOf("\n", i) - 1;
      i = end < 1 ? source.length : end;
      partStart = i + 1;
    } else if (ch === '"' || ch === "'" || ch === "`") {
      let j = i + 1;
      while (j < source.length && source[j] !== ch) j += source[j] === "\\" ? 2 : 1;
      i = j;
    } else if (depth < 0) {
      if (ch === "(") {
        depth = 0;
        partStart = i + 1;
      } else if (ch === "=" && source[i + 1] === ">") return undefined;
    } else if (ch === "(" || ch === "[" || ch === "{") depth++;
    else if (ch === ")" || ch === "]" || ch === "}") {
      if (depth === 0) return { parts: [...parts, current + source.slice(partStart, i)], end: i + 1 };
      depth--;
    } else if (ch === "," && depth === 0) {
      parts.push(current + source.slice(partStart, i));
      current = "";
      partStart = i + 1;
    }
  }
  return { parts: [...parts, current + source.slice(partStart)], end: source.length };
}
