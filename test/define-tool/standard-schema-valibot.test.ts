import * as v from "valibot";
import { defineTool, Toolkit } from "toolnexus";

/*
 * valibot schemas carry no JSON Schema; @valibot/to-json-schema writes it. Where the program
 * has that package, toolnexus calls its `toJsonSchema(schema, { target })`; stood in for here
 * (the package is not among this repository's dependencies), by what it writes for this schema.
 */
const toJsonSchema = jest.fn((_schema: unknown, _config: unknown) => ({
  $schema: "http://json-schema.org/draft-07/schema#",
  type: "object",
  properties: { city: { type: "string", format: "email" }, days: { type: "number" } },
  required: ["city"],
}));
jest.mock("@valibot/to-json-schema", () => ({ toJsonSchema }), { virtual: true });

it("a valibot schema: @valibot/to-json-schema writes its JSON Schema, valibot checks the calls", async () => {
  const schema = v.object({ city: v.pipe(v.string(), v.email()), days: v.optional(v.number(), 3) });
  const tool = defineTool({ name: "weather", description: "Weather.", inputSchema: schema, execute: (args) => JSON.stringify(args) });
  expect(toJsonSchema).toHaveBeenCalledWith(schema, { target: "draft-07" });
  expect(tool.inputSchema).toEqual({ type: "object", properties: { city: { type: "string", format: "email" }, days: { type: "number" } }, required: ["city"] });
  expect(new Toolkit([tool]).toAnthropic()).toEqual([{ name: "weather", description: "Weather.", input_schema: tool.inputSchema }]);
  expect(await tool.execute({ city: "a@b.co" })).toEqual({ output: '{"city":"a@b.co","days":3}', isError: false });
  expect((await tool.execute({ city: "nobody" })).output).toBe('Invalid arguments for tool "weather": "city": Invalid email: Received "nobody"');
});
