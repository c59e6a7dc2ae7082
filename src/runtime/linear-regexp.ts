import type { RE2JS } from "re2js";

/**
 * Patterns written by developers, run on input chosen by models: on a backtracking engine a
 * pattern such as `^(a+)+$` takes exponential time on a few thousand characters and stalls the
 * process. Every pattern toolnexus runs goes through RE2 (re2js, a pure JavaScript port), whose
 * matching time is linear in the input. RE2 has no backreferences and no lookahead; a pattern
 * that needs them is refused when the tool is defined, unless the tool opts in to backtracking.
 */

/** RE2 semantics for an ECMAScript pattern (no flags), or why it cannot have them. */
export type LinearPattern = { ok: true; regexp: RE2JS } | { ok: false; reason: string };

const compiled = new Map<string, LinearPattern>();
let engine: typeof RE2JS | undefined;

/** Compiles `source` for RE2 once per process (patterns come from code, so the cache is bounded by it). */
export function linearPattern(source: string): LinearPattern {
  let found = compiled.get(source);
  if (found === undefined) {
    found = compile(source);
    compiled.set(source, found);
  }
  return found;
}

function compile(source: string): LinearPattern {
  // Loaded with the first pattern: a toolkit without patterns never pays for it.
  engine ??= (require("re2js") as typeof import("re2js")).RE2JS;
  try {
    return { ok: true, regexp: engine.compile(engine.translateRegExp(withEcmaClasses(source)), engine.LOOKBEHINDS) };
  } catch (error) {
    const detail = error instanceof Error ? error.message.replace(/^error parsing regexp: /, "") : String(error);
    return {
      ok: false,
      reason: `RE2 cannot run it (${detail}); backreferences and lookahead need a backtracking engine`,
    };
  }
}

/** Whether `source` matches somewhere in `text`, in time linear in `text`. */
export function testLinear(regexp: RE2JS, text: string): boolean {
  return regexp.test(text);
}

/** ECMAScript's `\s`: what JavaScript counts as white space and line terminators. */
const ECMA_SPACE = "\\t\\n\\v\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff";
/** ECMAScript's `.` without the `s` flag: anything but a line terminator. */
const ECMA_DOT = "[^\\n\\r\\u2028\\u2029]";

/**
 * Rewrites the constructs whose meaning differs between ECMAScript and RE2 so that a string
 * matches in RE2 exactly when it matches in JavaScript: `.` (RE2 lets `\r`, U+2028 and U+2029
 * through), `\s` and `\S` (RE2's are ASCII only), and `[\b]` (a backspace in JavaScript).
 * Everything else is left to re2js's own translation.
 */
export function withEcmaClasses(source: string): string {
  let out = "";
  let i = 0;
  while (i < source.length) {
    const char = source[i]!;
    if (char === "\\") {
      const next = source[i + 1] ?? "";
      // re2js's translation reads `\k<name>` as the letter k: say what it is instead.
      if (next === "k" && source[i + 2] === "<")
        throw new Error(
          `a backreference to a named group: \`${source.slice(i, source.indexOf(">", i) + 1 || undefined)}\``,
        );
      out += next === "s" ? `[${ECMA_SPACE}]` : next === "S" ? `[^${ECMA_SPACE}]` : char + next;
      i += 2;
    } else if (char === "[") {
      const end = classEnd(source, i);
      out += ecmaClass(source.slice(i + 1, end));
      i = end + 1;
    } else {
      out += char === "." ? ECMA_DOT : char;
      i += 1;
    }
  }
  return out;
}

/** The index of the `]` closing the class opened at `start` (the end of the source if none: RE2 then reports it). */
function classEnd(source: string, start: number): number {
  let i = start + 1;
  if (source[i] === "^") i += 1;
  // A `]` first in a class is a literal in neither dialect's reading here: ECMAScript's `[]` is the empty class.
  while (i < source.length && source[i] !== "]") i += source[i] === "\\" ? 2 : 1;
  return i;
}

/** One bracketed class (without its brackets), rewritten; `[...\S...]` becomes an alternation RE2 can run. */
function ecmaClass(body: string): string {
  const negated = body.startsWith("^");
  let members = "";
  let nonSpace = false;
  for (let i = negated ? 1 : 0; i < body.length; i++) {
    const char = body[i]!;
    if (char !== "\\") {
      members += char;
      continue;
    }
    const next = body[i + 1] ?? "";
    i += 1;
    if (next === "s") members += ECMA_SPACE;
    else if (next === "S") nonSpace = true;
    else if (next === "b") members += "\\x08";
    else members += char + next;
  }
  if (!nonSpace) return `[${negated ? "^" : ""}${members}]`;
  // [^...\S] is "white space and none of the rest": no RE2 class says that; [a\S] is a union.
  if (negated && members !== "")
    throw new Error(
      "a negated class holding \\S and other members has no RE2 form; write the white space it allows instead",
    );
  if (negated) return `[${ECMA_SPACE}]`;
  return members === "" ? `[^${ECMA_SPACE}]` : `(?:[${members}]|[^${ECMA_SPACE}])`;
}

/**
 * A RegExp whose matching runs on RE2, for code that insists on a RegExp (class-validator's
 * `@Matches`): `exec` is what `test`, `match` and the other RegExp methods call.
 */
export class LinearRegExp extends RegExp {
  readonly #linear: RE2JS;

  constructor(source: string, linear: RE2JS) {
    super(source);
    this.#linear = linear;
  }

  override exec(text: string): RegExpExecArray | null {
    const found = this.#linear.exec(String(text)) as RegExpExecArray | null;
    if (found !== null) this.lastIndex = 0;
    return found;
  }
}
