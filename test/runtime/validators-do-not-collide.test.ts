import { defineTool, type JSONSchemaObject } from "../../src";

/** Validators compiled for different tools share no state: schemas with the same $id compile side by side. */
describe("validation does not accumulate or collide", () => {
  it("compiles two tools whose schemas carry the same $id", async () => {
    const schema: JSONSchemaObject = {
      $id: "https://example.com/args",
      type: "object",
      properties: { a: { type: "string" } },
    };
    const one = defineTool({ name: "one", description: "d", inputSchema: schema, validate: true, execute: () => "1" });
    const two = defineTool({ name: "two", description: "d", inputSchema: schema, validate: true, execute: () => "2" });
    expect(await one.execute({ a: "x" })).toEqual({ output: "1", isError: false });
    expect(await two.execute({ a: "x" })).toEqual({ output: "2", isError: false });
  });
});
