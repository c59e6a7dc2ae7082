import { defineTool, ToolDefinitionError, type JSONSchemaObject } from "toolnexus";
import { DOUBLING_LEVELS, doublingSchema, refusalOfTheTree } from "../support/doubling-schema";

/** The error defining a tool with `schemas` throws; fails the test when it throws none, or another. */
function definitionErrorOf(schemas: {
  inputSchema?: JSONSchemaObject;
  outputSchema?: JSONSchemaObject;
}): ToolDefinitionError {
  try {
    defineTool({ name: "tree", description: "Walks a tree", ...schemas, execute: () => ({}) });
  } catch (error) {
    expect(error).toBeInstanceOf(ToolDefinitionError);
    return error as ToolDefinitionError;
  }
  throw new Error("expected a ToolDefinitionError");
}

const FIX = ". Refer to large definitions from fewer places, or split the tool.";

describe("defineTool refuses a JSON Schema too large to be made self-contained", () => {
  it(`refuses an inputSchema whose $defs double at each of ${DOUBLING_LEVELS} levels, naming the tool, where its copy passed the limit, and the limit`, () => {
    expect(definitionErrorOf({ inputSchema: doublingSchema() }).message).toMatch(
      refusalOfTheTree('Tool "tree": inputSchema is too large: ', FIX),
    );
  });

  it("refuses such an outputSchema the same way", () => {
    expect(definitionErrorOf({ outputSchema: doublingSchema() }).message).toMatch(
      refusalOfTheTree('Tool "tree": outputSchema is too large: ', FIX),
    );
  });

  it("keeps a schema within the limit as it was given, references and all", () => {
    const inputSchema = doublingSchema(8);
    const tool = defineTool({
      name: "tree",
      description: "Walks a tree",
      inputSchema,
      outputSchema: inputSchema,
      execute: () => ({}),
    });
    expect(tool.inputSchema).toBe(inputSchema);
    expect(tool.outputSchema).toBe(inputSchema);
  });
});
