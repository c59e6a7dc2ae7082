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
  const source = stripComments(Function.prototype.toString.call(fn));
  const open = source.indexOf("(");
  if (open < 0) {
    // `x => ...` (an arrow with one bare parameter)
    const arrow = /^\s*(?:async\s+)?([A-Za-z_$][\w$]*)\s*=>/.exec(source);
    return arrow ? [{ name: arrow[1], hasDefault: false }] : [];
  }
  return listParts(source, open)
    .map((part) => part.trim())
    .filter((part) => part.length > 0)
    .map((part) => {
      const match = /^([A-Za-z_$][\w$]*)\s*(=)?/.exec(part);
      return { name: match?.[1], hasDefault: match?.[2] !== undefined };
    });
}

/** Removes comments, leaving string literals (which may contain "//" or "/*") intact. */
function stripComments(source: string): string {
  let out = "";
  for (let i = 0; i < source.length; i++) {
    const ch = source[i]!;
    if (ch === '"' || ch === "'" || ch === "`") {
      let j = i + 1;
      while (j < source.length && source[j] !== ch) j += source[j] === "\\" ? 2 : 1;
      out += source.slice(i, j + 1);
      i = j;
    } else if (ch === "/" && source[i + 1] === "*") {
      const end = source.indexOf("*/", i + 2);
      i = end < 0 ? source.length : end + 1;
    } else if (ch === "/" && source[i + 1] === "/") {
      const end = source.indexOf("\n", i);
      i = end < 0 ? source.length : end - 1;
    } else out += ch;
  }
  return out;
}

/** The comma-separated parts of the bracketed list opening at `open`, skipping strings and nested brackets. */
function listParts(source: string, open: number): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote: string | undefined;
  let start = open + 1;
  for (let i = start; i < source.length; i++) {
    const ch = source[i]!;
    if (quote !== undefined) {
      if (ch === "\\") i++;
      else if (ch === quote) quote = undefined;
      continue;
    }
    if (ch === '"' || ch === "'" || ch === "`") quote = ch;
    else if (ch === "(" || ch === "[" || ch === "{") depth++;
    else if (ch === ")" || ch === "]" || ch === "}") {
      if (depth === 0) return [...parts, source.slice(start, i)];
      depth--;
    } else if (ch === "," && depth === 0) {
      parts.push(source.slice(start, i));
      start = i + 1;
    }
  }
  return [...parts, source.slice(start)];
}
