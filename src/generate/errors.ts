import { relative, sep } from "node:path";
import type * as ts from "typescript";
import { TS } from "./compiler";

/** One thing wrong in the project, where it is. */
export interface SourceProblem {
  /** Relative to the working directory (as `tsc` prints it), `/`-separated; absent for project-wide problems. */
  file?: string;
  /** 1-based. */
  line?: number;
  /** 1-based. */
  column?: number;
  message: string;
  className?: string;
  method?: string;
  parameter?: string;
}

/** Generation failed: the project does not type-check, or a tool's types have no JSON Schema. */
export class GenerateError extends Error {
  override name = "GenerateError";
  constructor(readonly problems: SourceProblem[]) {
    super(problems.map(formatProblem).join("\n"));
  }
}

/** `file:line:col: message`, the form editors and CI logs link. */
export function formatProblem(problem: SourceProblem): string {
  if (problem.file === undefined) return problem.message;
  return `${problem.file}:${problem.line ?? 1}:${problem.column ?? 1}: ${problem.message}`;
}

/** Where `node` starts (its first token, not its leading trivia), relative to `cwd`. */
export function locationOf(node: ts.Node, cwd: string): Pick<SourceProblem, "file" | "line" | "column"> {
  const source = node.getSourceFile();
  const { line, character } = source.getLineAndCharacterOfPosition(node.getStart(source));
  return { file: displayPath(source.fileName, cwd), line: line + 1, column: character + 1 };
}

export function displayPath(file: string, cwd: string): string {
  const shown = relative(cwd, file);
  return (shown === "" ? file : shown).split(sep).join("/");
}

/** A compiler diagnostic as a problem. */
export function problemOfDiagnostic(diagnostic: ts.Diagnostic, cwd: string): SourceProblem {
  const text = TS.flattenDiagnosticMessageText(diagnostic.messageText, "\n");
  const message = `error TS${diagnostic.code}: ${text}`;
  if (diagnostic.file === undefined || diagnostic.start === undefined) return { message };
  const { line, character } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
  return { file: displayPath(diagnostic.file.fileName, cwd), line: line + 1, column: character + 1, message };
}
