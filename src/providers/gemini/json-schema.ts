import { mapSubschemas } from "../../core/subschemas";
import { isSchemaObject, type JSONSchemaObject } from "../../core/types";
import { plainObjectRoot, type ChangeLog } from "../../schema/lowering";
import { valueKey } from "../codec";

/**
 * A tool's JSON Schema as Gemini's `parametersJsonSchema` (and `responseJsonSchema`) take it: an
 * object at the root, as every export has, and each `const` a one-value `enum` (Gemini passes by
 * `const` there without a word, so the value would no longer be said). References are kept. Every
 * value valid for the tool stays valid; each change is logged.
 */
export function lowerGeminiJsonSchema(schema: JSONSchemaObject, log: ChangeLog): JSONSchemaObject {
  return constsAsEnums(plainObjectRoot(schema, log), log);
}

function constsAsEnums(schema: JSONSchemaObject, log: ChangeLog): JSONSchemaObject {
  return mapSubschemas(schema, (node, pointer) => {
    if (!isSchemaObject(node) || !("const" in node)) return node;
    const { const: value, ...rest } = node;
    // An enum beside it keeps the values both allow: what the two said together.
    const values = Array.isArray(rest.enum) ? rest.enum.filter((v) => valueKey(v) === valueKey(value)) : [value];
    log.add(
      `${pointer()}/const`,
      "const",
      "rewritten",
      `const ${JSON.stringify(value)} → enum ${JSON.stringify(values)} (Gemini reads no const in a JSON Schema)`,
    );
    return { ...rest, enum: values };
  }) as JSONSchemaObject;
}
