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
  const list = enclosed(source, open);
  return splitTopLevel(list)
    .map((part) => part.trim())
    .filter((part) => part.length > 0)
    .map((part) => {
      const match = /^([A-Za-z_$][\w$]*)\s*(=)?/.exec(part);
      return { name: match?.[1], hasDefault: match?.[2] !== undefined };
    });
}

function stripComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/\/\/[^\n]*/g, "");
}

/** The text between the bracket at `open` and its match, skipping strings. */
function enclosed(source: string, open: number): string {
  let depth = 0;
  let quote: string | undefined;
  for (let i = open; i < source.length; i++) {
    const ch = source[i]!;
    if (quote !== undefined) {
      if (ch === "\\") i++;
      else if (ch === quote) quote = undefined;
      continue;
    }
    if (ch === '"' || ch === "'" || ch === "`") quote = ch;
    else if (ch === "(" || ch === "[" || ch === "{") depth++;
    else if (ch === ")" || ch === "]" || ch === "}") {
      depth--;
      if (depth === 0) return source.slice(open + 1, i);
    }
  }
  return source.slice(open + 1);
}

function splitTopLevel(list: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote: string | undefined;
  let start = 0;
  for (let i = 0; i < list.length; i++) {
    const ch = list[i]!;
    if (quote !== undefined) {
      if (ch === "\\") i++;
      else if (ch === quote) quote = undefined;
      continue;
    }
    if (ch === '"' || ch === "'" || ch === "`") quote = ch;
    else if (ch === "(" || ch === "[" || ch === "{") depth++;
    else if (ch === ")" || ch === "]" || ch === "}") depth--;
    else if (ch === "," && depth === 0) {
      parts.push(list.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(list.slice(start));
  return parts;
}
