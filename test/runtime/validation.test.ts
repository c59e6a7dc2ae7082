import { defineTool, type JSONSchemaObject } from "../../src";
import { argumentPath, assertValidSchema, compileValidator } from "../../src/runtime/validation";

const weatherSchema: JSONSchemaObject = {
  type: "object",
  properties: {
    city: { type: "string", description: "City name" },
    units: { type: "string", enum: ["metric", "imperial"] },
    days: { type: "integer", minimum: 1, maximum: 14 },
    mode: { const: "fast" },
  },
  required: ["city"],
  additionalProperties: false,
};

describe("compileValidator: one model-readable sentence per problem", () => {
  const problemsOf = compileValidator(weatherSchema);

  it("returns no problems for valid arguments", () => {
    expect(problemsOf({ city: "Chennai" })).toEqual([]);
    expect(problemsOf({ city: "Chennai", units: "metric", days: 14, mode: "fast" })).toEqual([]);
  });

  it("names a missing required argument and the type it expects", () => {
    expect(problemsOf({})).toEqual(['missing required argument "city" (expected string)']);
  });

  it("names a missing required enum argument with the values it expects", () => {
    const check = compileValidator({
      type: "object",
      properties: { units: { type: "string", enum: ["metric", "imperial"] } },
      required: ["units"],
    });
    expect(check({})).toEqual(['missing required argument "units" (expected one of "metric", "imperial")']);
  });

  it("omits the expectation when the schema of a missing argument says no type", () => {
    const check = compileValidator({ type: "object", properties: { anything: {} }, required: ["anything"] });
    expect(check({})).toEqual(['missing required argument "anything"']);
  });

  it("names an unknown argument and lists the allowed ones", () => {
    expect(problemsOf({ city: "Chennai", country: "IN" })).toEqual([
      'unknown argument "country"; expected only: city, units, days, mode',
    ]);
  });

  it("says an object without properties takes no arguments", () => {
    const check = compileValidator({ type: "object", properties: {}, additionalProperties: false });
    expect(check({ x: 1 })).toEqual(['unknown argument "x"; this object takes no arguments']);
  });

  it("names a wrong type, with what was expected and what came", () => {
    expect(problemsOf({ city: 42 })).toEqual(['"city" must be string, got number 42']);
    expect(problemsOf({ city: ["a", "b"] })).toEqual(['"city" must be string, got an array of 2']);
    expect(problemsOf({ city: null })).toEqual(['"city" must be string, got null']);
    expect(problemsOf({ city: "x", days: "3" })).toEqual(['"days" must be integer, got string "3"']);
  });

  it("lists the allowed values of an enum", () => {
    expect(problemsOf({ city: "Chennai", units: "kelvin" })).toEqual([
      '"units" must be one of "metric", "imperial", got string "kelvin"',
    ]);
  });

  it("states the minimum and the maximum", () => {
    expect(problemsOf({ city: "Chennai", days: 0 })).toEqual(['"days" must be >= 1, got number 0']);
    expect(problemsOf({ city: "Chennai", days: 15 })).toEqual(['"days" must be <= 14, got number 15']);
  });

  it("states a const", () => {
    expect(problemsOf({ city: "Chennai", mode: "slow" })).toEqual(['"mode" must be "fast", got string "slow"']);
  });

  it("reports every problem at once", () => {
    expect(problemsOf({ units: "kelvin", days: 0, extra: true })).toEqual([
      'missing required argument "city" (expected string)',
      'unknown argument "extra"; expected only: city, units, days, mode',
      '"units" must be one of "metric", "imperial", got string "kelvin"',
      '"days" must be >= 1, got number 0',
    ]);
  });

  it("gives nested paths with dots and array indexes", () => {
    const check = compileValidator({
      type: "object",
      properties: {
        trip: {
          type: "object",
          properties: {
            from: { type: "string" },
            stops: {
              type: "array",
              items: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
            },
          },
          required: ["from"],
        },
      },
    });
    expect(check({ trip: { stops: [{ name: "A" }, { name: 7 }, {}] } })).toEqual([
      'missing required argument "trip.from" (expected string)',
      '"trip.stops[1].name" must be string, got number 7',
      'missing required argument "trip.stops[2].name" (expected string)',
    ]);
  });

  it("checks formats", () => {
    const check = compileValidator({ type: "object", properties: { email: { type: "string", format: "email" } } });
    expect(check({ email: "someone@example.com" })).toEqual([]);
    expect(check({ email: "not an email" })).toEqual(['"email" must match format "email", got string "not an email"']);
  });
});

describe("assertValidSchema", () => {
  it("accepts a valid schema", () => {
    expect(() => assertValidSchema(weatherSchema)).not.toThrow();
  });

  it("throws with Ajv's words for an invalid one", () => {
    expect(() => assertValidSchema({ type: "object", properties: { a: { type: "strng" as "string" } } })).toThrow(
      /data\/properties\/a\/type/,
    );
  });
});

describe("argumentPath: an Ajv instance path, as a model reads it", () => {
  it("is empty for the root", () => {
    expect(argumentPath("")).toBe("");
  });

  it("joins properties with dots", () => {
    expect(argumentPath("/trip/from")).toBe("trip.from");
  });

  it("writes array indexes in brackets", () => {
    expect(argumentPath("/items/0/name")).toBe("items[0].name");
    expect(argumentPath("/matrix/1/2")).toBe("matrix[1][2]");
    expect(argumentPath("/0")).toBe("[0]");
  });

  it("unescapes ~1 and ~0", () => {
    expect(argumentPath("/a~1b/c~0d")).toBe("a/b.c~d");
  });
});

describe("defineTool with validate: true answers bad arguments with every problem", () => {
  it("puts one problem on the same line, several as a list", async () => {
    const tool = defineTool({
      name: "weather",
      description: "Weather.",
      inputSchema: weatherSchema,
      validate: true,
      execute: () => "ok",
    });
    expect(await tool.execute({})).toEqual({
      output: 'Invalid arguments for tool "weather": missing required argument "city" (expected string)',
      isError: true,
      metadata: { tool: "weather", error: "invalid_arguments" },
    });
    expect(await tool.execute({ city: 1, days: 0 })).toEqual({
      output:
        'Invalid arguments for tool "weather":\n- "city" must be string, got number 1\n- "days" must be >= 1, got number 0',
      isError: true,
      metadata: { tool: "weather", error: "invalid_arguments" },
    });
  });
});
