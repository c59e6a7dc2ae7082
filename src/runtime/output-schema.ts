import type { JSONSchemaObject } from "../core/types";
import type { ResultShape } from "./result";
import { compileValidator } from "./validation";

/** What a tool declares about its results, as `@Tool` and `defineTool` take it. */
export interface ResultDeclaration {
  outputSchema?: JSONSchemaObject;
  mimeType?: string;
}

/**
 * How a tool's returns become results, or undefined when it declares nothing: its structured
 * results are checked against its output schema (compiled with Ajv on the first call).
 */
export function resultShapeOf(tool: string, { outputSchema, mimeType }: ResultDeclaration): ResultShape | undefined {
  if (outputSchema === undefined && mimeType === undefined) return undefined;
  let check: ((value: Record<string, unknown>) => string[]) | undefined;
  return {
    tool,
    ...(mimeType !== undefined ? { mimeType } : {}),
    ...(outputSchema !== undefined
      ? {
          checkOutput: (value: Record<string, unknown>) =>
            (check ??= compileValidator(outputSchema, { backtrackingPatterns: true }))(value).map(aboutTheResult),
        }
      : {}),
  };
}

/** The validator speaks of a call's arguments; here it checks a result's properties. */
function aboutTheResult(problem: string): string {
  return problem.replace(/\barguments\b/g, "the result").replace(/\bargument\b/g, "property");
}
