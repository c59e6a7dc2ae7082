/**
 * Gemini takes property names of letters, digits and _ only (a letter or _ first, at most 64).
 * Other names are declared under a name it takes, and the answers are read back under the
 * tool's own names, at every depth.
 */
import { defineTool, Toolkit, type JSONSchemaObject } from "../../src";
import { checkGeminiTools, describeViolations } from "../support/dialect-rules";

const received: unknown[] = [];
const tool = defineTool({
  name: "book",
  description: "Books a room.",
  inputSchema: {
    type: "object",
    properties: {
      "check-in": { type: "string" },
      check_in: { type: "string" },
      "2nd guest": {
        type: "object",
        properties: { "e-mail": { type: "string", format: "email" } },
        required: ["e-mail"],
      },
      ["x".repeat(70)]: { type: "integer" },
    },
    required: ["check-in", "2nd guest"],
    additionalProperties: false,
  } as JSONSchemaObject,
  validate: true,
  execute: (args) => {
    received.push(args);
    return "booked";
  },
});

describe("Gemini property names", () => {
  const toolkit = new Toolkit([tool]);
  const declarations = toolkit.toGemini();
  const parameters = declarations[0].functionDeclarations[0]!.parameters;

  it("declares every property under a name Gemini takes, unique among its siblings", () => {
    expect(describeViolations(checkGeminiTools(declarations))).toBe("");
    expect(Object.keys(parameters.properties!)).toEqual(["check_in_2", "check_in", "_2nd_guest", "x".repeat(60)]);
    expect(parameters.required).toEqual(["check_in_2", "_2nd_guest"]);
    expect(Object.keys(parameters.properties!._2nd_guest!.properties!)).toEqual(["e_mail"]);
  });

  it("reports each renamed property", () => {
    const renamed = toolkit
      .describeExport("gemini")
      .changes.filter((change) => change.keyword === "properties" && change.action === "rewritten");
    expect(renamed.map((change) => change.pointer)).toEqual([
      "/properties/check-in",
      "/properties/2nd guest/properties/e-mail",
      "/properties/2nd guest",
      `/properties/${"x".repeat(70)}`,
    ]);
  });

  it("reads the answers back under the tool's own names", async () => {
    received.length = 0;
    const args = {
      check_in_2: "2026-12-24",
      check_in: "early",
      _2nd_guest: { e_mail: "ada@example.com" },
      ["x".repeat(60)]: 2,
    };
    const reply = await toolkit.runGemini([{ functionCall: { name: "book", args } }]);
    expect(reply!.parts[0]!.functionResponse.response).toEqual({ output: "booked" });
    expect(received).toEqual([
      {
        "check-in": "2026-12-24",
        check_in: "early",
        "2nd guest": { "e-mail": "ada@example.com" },
        ["x".repeat(70)]: 2,
      },
    ]);
  });
});
