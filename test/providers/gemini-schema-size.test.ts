import { ExportError, Toolkit, toGemini, type Tool } from "toolnexus";
import { DOUBLING_LEVELS, doublingSchema, refusalOfTheTree } from "../support/doubling-schema";

/** A Tool written by hand (no defineTool to check it), its inputSchema with references. */
const tree: Tool = {
  name: "tree",
  description: "Walks a tree",
  inputSchema: doublingSchema(),
  source: "custom",
  execute: async (args) => ({ output: `walked ${Object.keys(args).join(", ")}`, isError: false }),
};

const REFUSAL = refusalOfTheTree(
  'Tool "tree": its inputSchema cannot be declared as Gemini\'s parameters, which take no $refs: ',
  ". Export with { jsonSchema: true } (parametersJsonSchema keeps the $refs), or refer to large definitions from fewer places.",
);

describe("Gemini's export of a schema too large once its references are inlined", () => {
  it(`throws an ExportError for $defs doubling at each of ${DOUBLING_LEVELS} levels, naming the tool, where the copy passed the limit, and the limit`, () => {
    let refused: unknown;
    try {
      new Toolkit([tree]).toGemini();
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(ExportError);
    expect((refused as Error).message).toMatch(REFUSAL);
  });

  it("refuses it the same way from the standalone exporter and the change report", () => {
    expect(() => toGemini([tree])).toThrow(REFUSAL);
    expect(() => new Toolkit([tree]).describeExport("gemini")).toThrow(REFUSAL);
  });

  it("declares it with its references as parametersJsonSchema, as the message offers", () => {
    const [{ functionDeclarations }] = new Toolkit([tree]).toGemini({ jsonSchema: true });
    expect(functionDeclarations[0]!.parametersJsonSchema).toBe(tree.inputSchema);
  });

  it("still runs the model's calls of it when nothing was exported", async () => {
    const reply = await new Toolkit([tree]).runGemini([{ functionCall: { name: "tree", args: { tree: "oak" } } }]);
    expect(reply?.parts[0]).toMatchObject({ functionResponse: { name: "tree", response: { output: "walked tree" } } });
  });
});
