/**
 * Gemini's `parametersJsonSchema` (`{ jsonSchema: true }`): the tool's JSON Schema, references
 * kept, with what Gemini would misread there rewritten and reported: each `const` becomes a
 * one-value `enum` (Gemini passes by `const` without a word), and a root union becomes one
 * object, as every other export's root is.
 */
import { describeExport, type JSONSchemaObject, type Tool } from "../../src";
import type { GeminiJsonSchemaTools } from "../../src/providers";

function toolOf(inputSchema: JSONSchemaObject): Tool {
  return {
    name: "probe",
    description: "A probe",
    inputSchema,
    source: "test",
    execute: () => Promise.resolve({ output: "ok", isError: false }),
  };
}

function exported(inputSchema: JSONSchemaObject) {
  const { declarations, changes } = describeExport("gemini", [toolOf(inputSchema)], { jsonSchema: true });
  return {
    parameters: (declarations as GeminiJsonSchemaTools)[0].functionDeclarations[0]!.parametersJsonSchema,
    changes,
  };
}

describe("Gemini parametersJsonSchema", () => {
  it("declares each const as a one-value enum, wherever it stands, and reports each", () => {
    const { parameters, changes } = exported({
      type: "object",
      properties: {
        kind: { const: "refund" },
        items: { type: "array", items: { type: "object", properties: { unit: { const: 3 } } } },
      },
      required: ["kind"],
      $defs: { Fixed: { const: null } },
    });
    expect(parameters).toEqual({
      type: "object",
      properties: {
        kind: { enum: ["refund"] },
        items: { type: "array", items: { type: "object", properties: { unit: { enum: [3] } } } },
      },
      required: ["kind"],
      $defs: { Fixed: { enum: [null] } },
    });
    expect(changes.map(({ pointer, keyword, action }) => [pointer, keyword, action])).toEqual([
      ["/properties/kind/const", "const", "rewritten"],
      ["/properties/items/items/properties/unit/const", "const", "rewritten"],
      ["/$defs/Fixed/const", "const", "rewritten"],
    ]);
    expect(changes[0]!.detail).toBe('const "refund" → enum ["refund"] (Gemini reads no const in a JSON Schema)');
  });

  it("keeps of a const and an enum beside it the values both allow", () => {
    const { parameters } = exported({
      type: "object",
      properties: { mode: { enum: ["a", "b"], const: "b" } },
    });
    expect(parameters.properties).toEqual({ mode: { enum: ["b"] } });
  });

  it("declares a root union as one object, reported as the other exports report it", () => {
    const { parameters, changes } = exported({
      anyOf: [
        { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
        { type: "object", properties: { email: { type: "string" } }, required: ["email"] },
      ],
    });
    expect(parameters).toEqual({
      type: "object",
      properties: { id: { type: "string" }, email: { type: "string" } },
    });
    expect(changes.map(({ pointer, keyword, action }) => [pointer, keyword, action])).toEqual([
      ["/type", "type", "added"],
      ["/anyOf", "anyOf", "rewritten"],
    ]);
  });

  it("sends a schema with nothing to rewrite as it is, reporting nothing", () => {
    const schema: JSONSchemaObject = {
      type: "object",
      properties: { item: { $ref: "#/$defs/Item" } },
      $defs: { Item: { type: "string", enum: ["x"] } },
    };
    const { parameters, changes } = exported(schema);
    expect(parameters).toBe(schema);
    expect(changes).toEqual([]);
  });
});
