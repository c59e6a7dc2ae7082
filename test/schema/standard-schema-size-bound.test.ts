import "reflect-metadata";
import {
  defineTool,
  Param,
  ScanError,
  scanTools,
  Tool,
  ToolDefinitionError,
  type JSONSchemaObject,
  type StandardSchemaV1,
} from "toolnexus";
import { DOUBLING_LEVELS, doublingSchema, refusalOfTheTree } from "../support/doubling-schema";

/** A Standard Schema of a library of one's own, whose JSON Schema (Standard JSON Schema) is `written`. */
function standardSchemaWriting(written: JSONSchemaObject): StandardSchemaV1<unknown, object> {
  return {
    "~standard": {
      version: 1,
      vendor: "acme",
      validate: (value: unknown) => ({ value: value as object }),
      jsonSchema: {
        input: () => ({ $schema: "http://json-schema.org/draft-07/schema#", ...written }),
        output: () => written,
      },
    },
  } as StandardSchemaV1<unknown, object>;
}

function thrownBy(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error("expected it to throw");
}

const FIX = ". Refer to large definitions from fewer places, or split the tool.";

describe("a Standard Schema whose JSON Schema is too large to be made self-contained", () => {
  it(`fails defineTool when its $defs double at each of ${DOUBLING_LEVELS} levels, naming the tool, where its copy passed the limit, and the limit`, () => {
    const refused = thrownBy(() =>
      defineTool({
        name: "tree",
        description: "Walks a tree",
        inputSchema: standardSchemaWriting(doublingSchema()),
        execute: () => "walked",
      }),
    );
    expect(refused).toBeInstanceOf(ToolDefinitionError);
    expect((refused as Error).message).toMatch(
      refusalOfTheTree('Tool "tree": inputSchema is an acme schema whose JSON Schema is too large: ', FIX),
    );
  });

  it("fails the scan of a @Param that takes it, naming the tool and the parameter", () => {
    const tree = standardSchemaWriting(doublingSchema());
    class Forest {
      @Tool("Walks a tree")
      walk(@Param({ schema: tree }) tree: object) {
        return tree;
      }
    }
    const refused = thrownBy(() => scanTools(new Forest(), { manifest: false }));
    expect(refused).toBeInstanceOf(ScanError);
    expect((refused as Error).message).toMatch(
      refusalOfTheTree(
        'Forest.walk, parameter 0 ("tree"): schema is an acme schema whose JSON Schema is too large: ',
        FIX,
      ),
    );
  });

  it("declares one within the limit with its references inlined", () => {
    const tool = defineTool({
      name: "tree",
      description: "Walks a tree",
      inputSchema: standardSchemaWriting(doublingSchema(4)),
      execute: () => "walked",
    });
    expect(JSON.stringify(tool.inputSchema)).not.toContain("$ref");
    expect(JSON.stringify(tool.inputSchema).match(/"type":"string"/g)).toHaveLength(2 ** 4);
  });
});
