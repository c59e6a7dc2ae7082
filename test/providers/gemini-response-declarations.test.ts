/**
 * A tool's `outputSchema` on Gemini: declared as the function's `response` (Gemini's Schema,
 * lowered as `parameters` are) or, with `jsonSchema: true`, `responseJsonSchema`; each change
 * made to it is logged as a change to the outputSchema. One Gemini cannot be given is left out of
 * the declaration, and the log says why: the export goes on.
 */
import { defineTool, type JSONSchemaObject, type Tool } from "../../src";
import type { GeminiFunctionDeclaration, GeminiJsonSchemaFunctionDeclaration } from "../../src/providers";
import { describeExport, toGemini } from "../../src/providers/exporters";
import { lowerGeminiResponse } from "../../src/providers/gemini/response";
import { ChangeLog } from "../../src/schema/lowering";
import { checkGeminiParameters } from "../support/dialect-rules";

const ORDER_OUTPUT: JSONSchemaObject = {
  type: "object",
  properties: {
    id: { type: "string" },
    status: { const: "shipped" },
    total: { type: "number", exclusiveMinimum: 0 },
  },
  required: ["id", "status"],
  additionalProperties: false,
};

const order = defineTool({
  name: "get_order",
  description: "An order by id",
  inputSchema: { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
  outputSchema: ORDER_OUTPUT,
  execute: ({ id }) => ({ id: String(id), status: "shipped" }),
});

function declarationOf(tools: readonly Tool[]): GeminiFunctionDeclaration {
  return toGemini(tools)[0].functionDeclarations[0]!;
}

/** What the export reports about the tool's outputSchema (its changes are reported with the input's). */
function outputChanges(tool: Tool) {
  return describeExport("gemini", [tool]).changes.filter((change) => change.schema === "outputSchema");
}

function jsonDeclarationOf(tools: readonly Tool[]): GeminiJsonSchemaFunctionDeclaration {
  return toGemini(tools, { jsonSchema: true })[0].functionDeclarations[0]!;
}

describe("Gemini response declarations", () => {
  it("declares a tool's outputSchema as response, lowered to Gemini's Schema as parameters are", () => {
    const declaration = declarationOf([order]);
    expect(declaration.response).toEqual({
      type: "object",
      properties: {
        id: { type: "string" },
        status: { type: "string", enum: ["shipped"] },
        total: { type: "number", minimum: 0 },
      },
      required: ["id", "status"],
    });
    expect(checkGeminiParameters(declaration.response, "response")).toEqual([]);
  });

  it("declares the outputSchema as responseJsonSchema beside parametersJsonSchema with jsonSchema: true", () => {
    const declaration = jsonDeclarationOf([order]);
    expect(Object.keys(declaration)).toEqual(["name", "description", "parametersJsonSchema", "responseJsonSchema"]);
    expect(declaration.responseJsonSchema).toEqual({
      ...ORDER_OUTPUT,
      properties: { ...ORDER_OUTPUT.properties, status: { enum: ["shipped"] } },
    });
  });

  it("declares no response for a tool without an outputSchema", () => {
    const plain = defineTool({ name: "ping", description: "Ping", execute: () => "pong" });
    expect(declarationOf([plain])).not.toHaveProperty("response");
    expect(jsonDeclarationOf([plain])).not.toHaveProperty("responseJsonSchema");
  });

  it("logs each change made to the outputSchema as a change to the outputSchema, saying results are still checked", () => {
    const changes = outputChanges(order);
    expect(changes).toContainEqual({
      tool: "get_order",
      schema: "outputSchema",
      pointer: "/properties/status",
      keyword: "const",
      action: "rewritten",
      detail: 'const "shipped" → enum ["shipped"]',
    });
    expect(changes).toContainEqual(
      expect.objectContaining({
        schema: "outputSchema",
        keyword: "exclusiveMinimum",
        detail: expect.stringContaining("still checked on each result"),
      }),
    );
    expect(changes.every((change) => change.schema === "outputSchema")).toBe(true);
  });

  it("leaves out a response it cannot lower, logging why, and still declares the tool", () => {
    // Written by hand: defineTool refuses such a schema before any export.
    const broken: Tool = {
      name: "broken_output",
      description: "A tool whose outputSchema refers to a definition it does not have",
      inputSchema: { type: "object", properties: {} },
      outputSchema: { type: "object", properties: { item: { $ref: "#/definitions/Missing" } } },
      source: "test",
      execute: () => Promise.resolve({ output: "{}", isError: false }),
    };
    const declaration = declarationOf([broken]);
    expect(declaration.name).toBe("broken_output");
    expect(declaration).not.toHaveProperty("response");
    expect(outputChanges(broken)).toEqual([
      {
        tool: "broken_output",
        schema: "outputSchema",
        pointer: "",
        keyword: "response",
        action: "dropped",
        detail: expect.stringMatching(
          /^the outputSchema is not declared as response \(unresolvable \$ref "#\/definitions\/Missing".*\); the tool's results are sent as they are$/,
        ),
      },
    ]);
  });

  it("logs only why a response is left out, not the changes of the lowering that failed", () => {
    const log = new ChangeLog("t", undefined, "outputSchema");
    const schema: JSONSchemaObject = {
      type: "object",
      properties: { a: { const: 1 }, b: { $ref: "#/$defs/Nowhere" } },
    };
    expect(lowerGeminiResponse(schema, log, false)).toBeUndefined();
    expect(log.changes.map(({ keyword, action }) => [keyword, action])).toEqual([["response", "dropped"]]);
  });
});
