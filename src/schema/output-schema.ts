import { mediaTypeProblem } from "../runtime/content-rules";
import { assertValidSchema } from "../runtime/validation";
import type { ResultDeclaration } from "../runtime/output-schema";
import { describesObjects } from "./describes-objects";

/**
 * What is wrong with a declared output schema or mime type, as a sentence (undefined: nothing).
 * An output schema describes an object (MCP's `structuredContent` is one) and is valid JSON Schema.
 */
export function resultDeclarationProblem({ outputSchema, mimeType }: ResultDeclaration): string | undefined {
  if (mimeType !== undefined && mediaTypeProblem(mimeType) !== undefined) {
    return `mimeType must look like "type/subtype", e.g. "image/png" (got ${JSON.stringify(mimeType)})`;
  }
  if (outputSchema === undefined) return undefined;
  if (
    typeof outputSchema !== "object" ||
    outputSchema === null ||
    Array.isArray(outputSchema) ||
    !describesObjects(outputSchema)
  ) {
    return (
      'the output schema must describe an object (type "object" at its root): a structured result is a JSON ' +
      "object. Return other values as text or content parts"
    );
  }
  try {
    assertValidSchema(outputSchema);
  } catch (error) {
    return `the output schema is not a valid JSON Schema: ${(error as Error).message}`;
  }
  return undefined;
}
