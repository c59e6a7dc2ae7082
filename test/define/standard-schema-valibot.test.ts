import { toStandardJsonSchema } from "@valibot/to-json-schema";
import * as v from "valibot";
import { defineTool, Toolkit } from "toolnexus";

/*
 * valibot schemas carry no JSON Schema of their own; @valibot/to-json-schema writes it. With
 * that package installed, toolnexus uses it for a plain valibot schema; its
 * `toStandardJsonSchema(schema)` gives the schema the Standard JSON Schema interface instead.
 */
const weatherSchema = () => v.object({ city: v.pipe(v.string(), v.email()), days: v.optional(v.number(), 3) });
const WRITTEN = {
  type: "object",
  properties: { city: { type: "string", format: "email" }, days: { type: "number", default: 3 } },
  required: ["city"],
};

describe.each([
  ["a plain valibot schema", weatherSchema],
  ["a schema wrapped with toStandardJsonSchema", () => toStandardJsonSchema(weatherSchema())],
])("%s", (_form, schema) => {
  const tool = defineTool({
    name: "weather",
    description: "Weather.",
    inputSchema: schema(),
    execute: (args) => JSON.stringify(args),
  });

  it("is declared with the JSON Schema @valibot/to-json-schema writes, without $schema", () => {
    expect(tool.inputSchema).toEqual(WRITTEN);
    expect(new Toolkit([tool]).toAnthropic()).toEqual([
      { name: "weather", description: "Weather.", input_schema: WRITTEN },
    ]);
  });

  it("has its calls checked by valibot, which fills in defaults", async () => {
    expect(await tool.execute({ city: "a@b.co" })).toEqual({ output: '{"city":"a@b.co","days":3}', isError: false });
    expect((await tool.execute({ city: "nobody" })).output).toBe(
      'Invalid arguments for tool "weather": "city": Invalid email: Received "nobody"',
    );
  });
});
