/**
 * One thing wrong with a call's arguments: where (`items[0].name`, "" for the whole call) and the sentence saying it.
 */
export interface ArgumentProblem {
  path: string;
  text: string;
}

/** The sentences of `problems`, in order. */
export function problemTexts(problems: readonly ArgumentProblem[]): string[] {
  return problems.map((problem) => problem.text);
}

/**
 * The problems of two checks of the same arguments, in one list: all of `first`'s, then those
 * of `second` that are about something `first` did not already report on. A problem of
 * `second` is left out when its path is one `first` reported, or lies above one (a list whose
 * element `first` reported, an object whose property it reported): there `second` judged a
 * value that was wrong, or was taken away as unsafe, before it looked.
 */
export function problemsTogether(
  first: readonly ArgumentProblem[],
  second: readonly ArgumentProblem[],
): ArgumentProblem[] {
  if (second.length === 0) return [...first];
  const reported = new Set<string>();
  for (const { path } of first)
    for (let at: string | undefined = path; at !== undefined; at = parentPath(at)) reported.add(at);
  return [...first, ...second.filter(({ path }) => !reported.has(path))];
}

/** `a.b[2].c` → `a.b[2]` → `a.b` → `a` → "" → undefined. */
function parentPath(path: string): string | undefined {
  if (path === "") return undefined;
  const cut = Math.max(path.lastIndexOf("."), path.lastIndexOf("["));
  return cut <= 0 ? "" : path.slice(0, cut);
}
