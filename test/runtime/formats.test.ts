import "reflect-metadata";
import { defineTool, Param, Tool, Toolkit, type JSONSchemaObject } from "../../src";
import { compileValidator } from "../../src/runtime/validation";

/** Whatever Ajv (or anything else) would print or emit while schemas are compiled and calls checked. */
function quietly<T>(run: () => T): { value: T; printed: unknown[][] } {
  const printed: unknown[][] = [];
  const spies = [
    jest.spyOn(console, "warn").mockImplementation((...args) => void printed.push(["warn", ...args])),
    jest.spyOn(console, "log").mockImplementation((...args) => void printed.push(["log", ...args])),
    jest.spyOn(console, "error").mockImplementation((...args) => void printed.push(["error", ...args])),
    jest.spyOn(process, "emitWarning").mockImplementation((...args) => void printed.push(["emitWarning", ...args])),
  ];
  try {
    return { value: run(), printed };
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
}

const withFormat = (format: string, type: string | string[] = ["string", "number"]): JSONSchemaObject => ({
  type: "object",
  properties: { value: { type, format } as JSONSchemaObject },
});

const problemsWith = (format: string, value: unknown) =>
  quietly(() => compileValidator(withFormat(format))({ value })).value;

describe("formats a schema names", () => {
  const FORMATS = [
    "int32",
    "int64",
    "float",
    "double",
    "byte",
    "binary",
    "password",
    "enum",
    "date-time",
    "email",
    "uuid",
    "x-made-up",
    "vendor:thing",
    "toString",
    "constructor",
  ];

  it.each(FORMATS)('"%s" is compiled and checked without a word on the console or a process warning', (format) => {
    const { printed } = quietly(() => {
      const check = compileValidator(withFormat(format));
      for (const value of ["text", "aGk=", 1, 2 ** 40, 1.5, -3]) check({ value });
    });
    expect(printed).toEqual([]);
  });

  it("OpenAPI's int32 is an integer within 32 bits", () => {
    expect(problemsWith("int32", 2 ** 31 - 1)).toEqual([]);
    expect(problemsWith("int32", -(2 ** 31))).toEqual([]);
    expect(problemsWith("int32", 2 ** 31)).toEqual(['"value" must match format "int32", got number 2147483648']);
    expect(problemsWith("int32", 1.5)).toEqual(['"value" must match format "int32", got number 1.5']);
  });

  it("OpenAPI's int64 is an integer", () => {
    expect(problemsWith("int64", 2 ** 40)).toEqual([]);
    expect(problemsWith("int64", 1.5)).toEqual(['"value" must match format "int64", got number 1.5']);
  });

  it("OpenAPI's byte is base64", () => {
    expect(problemsWith("byte", "aGk=")).toEqual([]);
    expect(problemsWith("byte", "not base64!")).toEqual(['"value" must match format "byte", got string "not base64!"']);
  });

  it("a numeric format says nothing about strings (Google's int64 as a decimal string), and a string format nothing about numbers", () => {
    expect(problemsWith("int64", "9007199254740993")).toEqual([]);
    expect(problemsWith("byte", 12)).toEqual([]);
  });

  it.each([
    ["float", [1.5, -1e300, 0]],
    ["double", [1.5, -1e300, 0]],
    ["binary", ["\u0000\u00ff", "anything"]],
    ["password", ["hunter2", ""]],
    ["enum", ["any", "string"]],
    ["x-made-up", ["any", 1]],
  ])('"%s" accepts every value of its type: an annotation', (format, values) => {
    for (const value of values as unknown[]) expect(problemsWith(format, value)).toEqual([]);
  });

  it("JSON Schema's own formats are still checked", () => {
    expect(problemsWith("email", "nobody")).toEqual(['"value" must match format "email", got string "nobody"']);
    expect(problemsWith("date-time", "2024-02-30T00:00:00Z")).toEqual([
      '"value" must match format "date-time", got string "2024-02-30T00:00:00Z"',
    ]);
  });

  it("inside definitions, dependencies and conditionals too", () => {
    const schema: JSONSchemaObject = {
      type: "object",
      definitions: { id: { type: "string", format: "x-id" } },
      properties: { a: { $ref: "#/definitions/id" }, b: { type: "string" } },
      dependencies: { a: { properties: { b: { format: "x-dependent" } } } },
      if: { properties: { b: { format: "x-if" } } },
      then: { properties: { a: { format: "x-then" } } },
    };
    const { value: problems, printed } = quietly(() => compileValidator(schema)({ a: "1", b: "2" }));
    expect(problems).toEqual([]);
    expect(printed).toEqual([]);
  });

  it("is quiet through defineTool, a scanned @Param and every export", async () => {
    class Ids {
      @Tool("Looks up a record")
      find(
        @Param("id", { schema: { type: "integer", format: "int64" } }) id: number,
        @Param("token", { format: "x-opaque-token" }) token: string,
      ) {
        return `${id}:${token}`;
      }
    }
    const { value: kit, printed } = quietly(() => {
      const defined = defineTool({
        name: "store",
        description: "Stores a blob",
        validate: true,
        inputSchema: {
          type: "object",
          properties: { blob: { type: "string", format: "binary" }, size: { type: "integer", format: "int32" } },
        },
        execute: () => "stored",
      });
      const toolkit = new Toolkit([defined, new Ids()]);
      toolkit.toGemini();
      toolkit.toOpenAI();
      toolkit.toAnthropic();
      toolkit.toMcp();
      toolkit.toBedrock();
      return toolkit;
    });
    const calls = [
      kit.execute("store", { blob: "x", size: 2 ** 33 }),
      kit.execute("find", { id: 2 ** 40, token: "t" }),
    ];
    const [store, find] = await Promise.all(calls);
    expect(printed).toEqual([]);
    expect(store!.output).toBe(
      'Invalid arguments for tool "store": "size" must match format "int32", got number 8589934592',
    );
    expect(find).toEqual({ output: `${2 ** 40}:t`, isError: false });
  });
});
