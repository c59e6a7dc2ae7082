import type { JSONSchemaObject } from "../../core/types";
import { errorMessage } from "../../runtime/result";
import { ChangeLog } from "../../schema/lowering";
import { lowerGeminiJsonSchema } from "./json-schema";
import { lowerGeminiParameters } from "./parameters";

/**
 * An `outputSchema` lowered the way `parameters` are (`jsonSchema`: as `parametersJsonSchema` is), for a declaration's
 * `response` (`responseJsonSchema`). A schema Gemini cannot be given is left out of the declaration, not the export
 * (what a tool answers is a hint to the model, not what it may send): `undefined`, and the log says why.
 */
export function lowerGeminiResponse(
  schema: JSONSchemaObject,
  log: ChangeLog,
  jsonSchema: boolean,
): JSONSchemaObject | undefined {
  const field = jsonSchema ? "responseJsonSchema" : "response";
  // A failed lowering's changes describe a schema that is not sent: only why it is not is kept.
  const attempt = new ChangeLog(log.tool, log.enforced, log.schema);
  try {
    const lowered = jsonSchema ? lowerGeminiJsonSchema(schema, attempt) : lowerGeminiParameters(schema, attempt).schema;
    log.changes.push(...attempt.changes);
    return lowered;
  } catch (error) {
    log.add(
      "",
      field,
      "dropped",
      `the outputSchema is not declared as ${field} (${errorMessage(error)}); the tool's results are sent as they are`,
    );
    return undefined;
  }
}
