/**
 * A validated tool's schema is checked cheaply when it is defined (the meta-schema, linear-time
 * patterns, references that resolve, the size bound) and compiled on its first call, or by
 * `toolkit.warm()` when a host wants the cost paid at startup.
 */
import * as validation from "../../src/runtime/validation";
import { defineTool, Param, Tool, Toolkit, ToolDefinitionError } from "../../src";

const validated = (name: string, inputSchema: Record<string, unknown>) =>
  defineTool({
    name,
    description: `Tool ${name}.`,
    validate: true,
    inputSchema,
    execute: (args) => JSON.stringify(args),
  });

const ORDER = { type: "object", properties: { qty: { type: "integer", minimum: 1 } }, required: ["qty"] };

afterEach(() => jest.restoreAllMocks());

it("defining compiles nothing; the first call compiles once, later calls reuse it", async () => {
  const compile = jest.spyOn(validation, "compileValidator");
  const tool = validated("order", ORDER);
  expect(compile).not.toHaveBeenCalled();
  const toolkit = new Toolkit([tool]);
  expect((await toolkit.execute("order", { qty: 0 })).metadata?.error).toBe("invalid_arguments");
  expect(await toolkit.execute("order", { qty: "2" })).toEqual({ output: '{"qty":2}', isError: false });
  expect(compile).toHaveBeenCalledTimes(1);
});

it("warm() compiles every validator up front, once", async () => {
  const compile = jest.spyOn(validation, "compileValidator");
  const toolkit = new Toolkit([validated("a", ORDER), validated("b", ORDER)]);
  expect(toolkit.warm()).toBe(toolkit);
  expect(compile).toHaveBeenCalledTimes(2);
  toolkit.warm();
  await toolkit.execute("a", { qty: 1 });
  expect(compile).toHaveBeenCalledTimes(2);
});

it.each([
  [
    "a reference to a definition that is missing",
    { type: "object", properties: { a: { $ref: "#/definitions/Missing" } } },
    /reference "#\/definitions\/Missing" \(at \/properties\/a\/\$ref\) points at nothing/,
  ],
  [
    "a schema the meta-schema refuses",
    { type: "object", properties: { a: { type: "strin" } } },
    /not a valid JSON Schema/,
  ],
  [
    "a pattern that cannot run in linear time",
    { type: "object", properties: { a: { type: "string", pattern: "(a+)+\\1" } } },
    /cannot run in linear time/,
  ],
  [
    "a pattern JavaScript cannot read",
    { type: "object", properties: { a: { type: "string", pattern: "(" } } },
    /cannot be compiled/,
  ],
  ["an anchor that names nothing", { type: "object", properties: { a: { $ref: "#nope" } } }, /cannot be compiled/],
  [
    "a reference with a broken escape",
    { type: "object", properties: { a: { $ref: "#/definitions/a%" } } },
    /points at nothing/,
  ],
])("still refuses at definition %s", (_label, inputSchema, message) => {
  expect(() => validated("bad", inputSchema)).toThrow(ToolDefinitionError);
  expect(() => validated("bad", inputSchema)).toThrow(message);
});

it("a schema only the compile refuses fails its calls as data, and warm() names it", async () => {
  jest.spyOn(validation, "compileValidator").mockImplementation(() => {
    throw new Error("unsupported keyword");
  });
  const toolkit = new Toolkit([validated("odd", ORDER), validated("fine", ORDER)]);
  const result = await toolkit.execute("odd", { qty: 1 });
  expect(result.isError).toBe(true);
  expect(result.output).toContain("inputSchema cannot be compiled for validation: unsupported keyword");
  expect(() => toolkit.warm()).toThrow(
    /Toolkit.warm: 2 tools cannot validate their arguments\. Tool "odd": inputSchema cannot be compiled/,
  );
});

it("warm() compiles decorated tools too", async () => {
  class Orders {
    @Tool("Place an order.")
    place(@Param("qty", { minimum: 1 }) qty: number) {
      return `placed ${qty}`;
    }
  }
  const compile = jest.spyOn(validation, "compileSchemaCheck");
  const toolkit = new Toolkit([new Orders()]);
  expect(compile).not.toHaveBeenCalled();
  toolkit.warm();
  expect(compile).toHaveBeenCalledTimes(1);
  expect(await toolkit.execute("place", { qty: 2 })).toEqual({ output: "placed 2", isError: false });
  expect(compile).toHaveBeenCalledTimes(1);
});

it("reads references only where schemas are: a $ref inside const, enum or default is data", () => {
  const inputSchema = { type: "object", properties: { a: { const: { $ref: "#/missing" }, default: { $ref: "#/x" } } } };
  expect(() => validated("data", inputSchema)).not.toThrow();
});
