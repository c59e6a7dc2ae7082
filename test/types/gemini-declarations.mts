/**
 * Compiled (never run) against the built package and @google/genai's own types, without casts: a
 * Gemini export with outputSchemas (`response`, `responseJsonSchema`) and a conversation read for
 * tool search is what the SDK takes, declaration by declaration and in a request's config.
 */
import type { Content, FunctionDeclaration, GenerateContentParameters } from "@google/genai";
import { defineTool, toGemini, Toolkit } from "toolnexus";

const order = defineTool({
  name: "get_order",
  description: "An order by id",
  inputSchema: { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
  outputSchema: { type: "object", properties: { status: { const: "shipped" } }, required: ["status"] },
  execute: () => ({ status: "shipped" }),
});
const refund = {
  ...defineTool({ name: "refund", description: "Refunds an order", execute: () => "done" }),
  defer: true,
};

const contents: Content[] = [{ role: "user", parts: [{ text: "Where is order 7?" }] }];
const toolkit = new Toolkit([order, refund]);

const declarations: FunctionDeclaration[] = toGemini([order])[0].functionDeclarations;
const jsonDeclarations: FunctionDeclaration[] = toGemini([order], { jsonSchema: true })[0].functionDeclarations;
const response: FunctionDeclaration["response"] = declarations[0]?.response;

export const requests: GenerateContentParameters[] = [
  { model: "gemini-2.5-flash", contents, config: { tools: toolkit.toGemini({ conversation: contents }) } },
  {
    model: "gemini-2.5-flash",
    contents,
    config: { tools: toolkit.toGemini({ conversation: { contents }, jsonSchema: true }) },
  },
];
export { jsonDeclarations, response };
