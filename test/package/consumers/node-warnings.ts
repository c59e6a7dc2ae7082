/**
 * The warnings Node printed on a process's stderr, `(node:<pid>) <Type>: <message>`, each with
 * the stack `--trace-warnings` adds, and whose they are: a warning is toolnexus's when its
 * message names a file of the installed toolnexus (as Node's require(esm) warning names the
 * module that required), or when the first frame of its stack outside Node's own code is one:
 * the code that called what warned. A package toolnexus merely loaded is not toolnexus.
 */
export interface NodeWarning {
  /** The warning's message without its `(node:<pid>) ` prefix: "DeprecationWarning: ...", every line of it. */
  text: string;
  stack: string[];
}

const WARNING = /^\(node:\d+\) (.*)$/;
const STACK_FRAME = /^\s+at /;
const TOOLNEXUS_FILE = /[\\/]node_modules[\\/]toolnexus[\\/]/;

export function nodeWarnings(stderr: string): NodeWarning[] {
  const warnings: NodeWarning[] = [];
  let current: NodeWarning | undefined;
  for (const line of stderr.split("\n")) {
    const warning = WARNING.exec(line);
    if (warning !== null) {
      current = { text: warning[1]!, stack: [] };
      warnings.push(current);
    } else if (current !== undefined && STACK_FRAME.test(line)) current.stack.push(line.trim());
    // A message of several lines goes on until its stack starts.
    else if (current !== undefined && current.stack.length === 0 && line.trim() !== "") current.text += `\n${line}`;
    else current = undefined;
  }
  return warnings;
}

export function isToolnexusWarning(warning: NodeWarning): boolean {
  if (TOOLNEXUS_FILE.test(warning.text)) return true;
  const caller = warning.stack.find((frame) => !/\(node:|at node:/.test(frame));
  return caller !== undefined && TOOLNEXUS_FILE.test(caller);
}

/** The warnings of `stderr` that are toolnexus's, each as its text and the frame that called what warned. */
export function toolnexusWarnings(stderr: string): string[] {
  return nodeWarnings(stderr)
    .filter(isToolnexusWarning)
    .map((warning) => [warning.text, ...warning.stack.slice(0, 3)].join("\n    "));
}
