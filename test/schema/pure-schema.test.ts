import "reflect-metadata";
import { IsInt, IsString } from "class-validator";
import type { JSONSchemaObject } from "../../src";
import { canonicalSchema } from "../../src/schema/canonical";
import { DtoSchemaError, schemaForClass } from "../../src/schema/dto-schema";
import { enumSchema, enumValues } from "../../src/schema/enum-values";
import { ParameterSchemaError, schemaForParameter } from "../../src/schema/parameter-schema";

enum Color {
  Red = "red",
  Green = "green",
}

enum Size {
  Small = 1,
  Large = 10,
}

enum Mixed {
  No = 0,
  Yes = "yes",
}

describe("schemaForParameter (pure: design type + options → schema)", () => {
  it.each([
    [String, { type: "string" }],
    [Number, { type: "number" }],
    [Boolean, { type: "boolean" }],
    [Date, { type: "string", format: "date-time" }],
  ])("%p", (designType, expected) => {
    expect(schemaForParameter(designType, {})).toEqual(expected);
  });

  it("returns a fresh object each time (no shared mutable state)", () => {
    const first = schemaForParameter(String, {});
    first.description = "changed";
    expect(schemaForParameter(String, {})).toEqual({ type: "string" });
  });

  it("options.type wins over the design type", () => {
    expect(schemaForParameter(Number, { type: String })).toEqual({ type: "string" });
  });

  it("type: [Date] → array of date-time strings", () => {
    expect(schemaForParameter(Array, { type: [Date] })).toEqual({
      type: "array",
      items: { type: "string", format: "date-time" },
    });
  });

  it("items with Array", () => {
    expect(schemaForParameter(Array, { items: { type: "integer" } })).toEqual({
      type: "array",
      items: { type: "integer" },
    });
  });

  it("integer, constraints, description and default together", () => {
    expect(
      schemaForParameter(Number, { integer: true, minimum: 0, maximum: 9, description: "Digit", default: 0 }),
    ).toEqual({
      type: "integer",
      minimum: 0,
      maximum: 9,
      description: "Digit",
      default: 0,
    });
  });

  it("a default of a falsy value is still written", () => {
    expect(schemaForParameter(Boolean, { default: false })).toEqual({ type: "boolean", default: false });
  });

  it("enum wins over the design type", () => {
    expect(schemaForParameter(Number, { enum: Color })).toEqual({ type: "string", enum: ["red", "green"] });
  });

  it("RegExp pattern → source", () => {
    expect(schemaForParameter(String, { pattern: /^a\.b$/ })).toEqual({ type: "string", pattern: "^a\\.b$" });
  });

  it("schema override is copied, not shared", () => {
    const override = { type: "string" as const };
    const result = schemaForParameter(Number, { schema: override, description: "d" });
    expect(result).toEqual({ type: "string", description: "d" });
    expect(override).toEqual({ type: "string" });
  });

  it.each([
    ["Object", Object],
    ["undefined", undefined],
    ["Function", Function],
    ["Promise", Promise],
    ["Map", Map],
  ])("opaque design type %s throws ParameterSchemaError with the fix", (seen, designType) => {
    let error: unknown;
    try {
      schemaForParameter(designType, {});
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(ParameterSchemaError);
    expect((error as Error).message).toBe(
      `its type cannot be known (metadata says ${seen}: a parameter without a type annotation, an interface, a type alias, a union, any or unknown look like this). ` +
        "Say what it is with @Param({ type: TheClass }) / @Param({ type: [String] }) / @Param({ enum: [...] }) / @Param({ schema: {...} }), or run `toolnexus generate` so the manifest supplies it",
    );
  });

  it("plain Array without items throws ParameterSchemaError", () => {
    expect(() => schemaForParameter(Array, {})).toThrow(ParameterSchemaError);
    expect(() => schemaForParameter(Array, {})).toThrow(
      "it is an array whose element type metadata cannot see. Say it with @Param({ type: [String] }) (or items: {...})",
    );
  });

  it("type: [] with two element types is refused", () => {
    expect(() => schemaForParameter(Array, { type: [String, Number] as unknown as [StringConstructor] })).toThrow(
      "type: [Ctor] takes exactly one element type, e.g. type: [String]",
    );
  });

  it("nested arrays need an explicit schema", () => {
    expect(() => schemaForParameter(Array, { type: [Array] })).toThrow(
      "nested arrays need an explicit schema: @Param({ schema: {...} })",
    );
  });

  it("a constraint on the wrong type throws", () => {
    expect(() => schemaForParameter(Boolean, { maxLength: 3 })).toThrow(
      new ParameterSchemaError("maxLength applies to string parameters, but this parameter is boolean"),
    );
  });

  it("a constraint on an enum of no single type says so", () => {
    expect(() => schemaForParameter(String, { enum: ["a", 1], minLength: 1 })).toThrow(
      "minLength applies to string parameters, but this parameter is of no single type",
    );
  });

  it("a class → its DTO schema", () => {
    class Point {
      @IsInt() x!: number;
      @IsInt() y!: number;
    }
    expect(schemaForParameter(Point, { description: "A point" })).toEqual({
      type: "object",
      properties: { x: { type: "integer" }, y: { type: "integer" } },
      required: ["x", "y"],
      additionalProperties: false,
      description: "A point",
    });
  });
});

describe("schemaForClass", () => {
  it("builds a closed object schema", () => {
    class Named {
      @IsString() name!: string;
    }
    expect(schemaForClass(Named)).toEqual({
      type: "object",
      properties: { name: { type: "string" } },
      required: ["name"],
      additionalProperties: false,
    });
  });

  it("a class without decorated properties throws DtoSchemaError", () => {
    class Bare {
      name = "";
    }
    expect(() => schemaForClass(Bare)).toThrow(DtoSchemaError);
    expect(() => schemaForClass(Bare)).toThrow(
      "DTO class Bare has no properties with class-validator decorators, so its schema would be empty. Decorate its properties (@IsString(), @IsInt(), ...) or give an explicit schema.",
    );
  });
});

describe("enumValues / enumSchema", () => {
  it("array values are copied as they are", () => {
    const source = ["a", "b"] as const;
    const values = enumValues(source);
    expect(values).toEqual(["a", "b"]);
    expect(values).not.toBe(source);
  });

  it("string enum → values", () => {
    expect(enumValues(Color)).toEqual(["red", "green"]);
  });

  it("numeric enum → values without reverse keys", () => {
    expect(enumValues(Size)).toEqual([1, 10]);
  });

  it("heterogeneous enum → both values, no reverse key", () => {
    expect(enumValues(Mixed)).toEqual([0, "yes"]);
  });

  it.each([
    [["a", "b"], { type: "string", enum: ["a", "b"] }],
    [[1, 2], { type: "integer", enum: [1, 2] }],
    [[1, 2.5], { type: "number", enum: [1, 2.5] }],
    [[true, false], { type: "boolean", enum: [true, false] }],
    [["a", 1], { enum: ["a", 1] }],
  ])("enumSchema(%p)", (values, expected) => {
    expect(enumSchema(values as Array<string | number | boolean>)).toEqual(expected);
  });
});

describe("canonicalSchema", () => {
  it("orders keys: type, description, format, enum, default, constraints, items, properties, required, additionalProperties, then others alphabetically", () => {
    const input = {
      zeta: 1,
      additionalProperties: false,
      required: ["b", "a"],
      properties: {
        b: { maxLength: 2, minLength: 1, type: "string", description: "B" },
        a: { enum: ["x"], format: "f", type: "string" },
      },
      alpha: 2,
      description: "Root",
      type: "object",
    };
    const out = canonicalSchema(input as JSONSchemaObject);
    expect(JSON.stringify(out)).toBe(
      '{"type":"object","description":"Root","properties":{' +
        '"b":{"type":"string","description":"B","minLength":1,"maxLength":2},' +
        '"a":{"type":"string","format":"f","enum":["x"]}},' +
        '"required":["b","a"],"additionalProperties":false,"alpha":2,"zeta":1}',
    );
  });

  it("keeps property names and data keywords as they are, and does not mutate the input", () => {
    const input = {
      type: "object",
      properties: { zz: { type: "string" }, aa: { type: "string" } },
      default: { z: 1, a: 2 },
    };
    const snapshot = JSON.stringify(input);
    const out = canonicalSchema(input as JSONSchemaObject);
    expect(Object.keys(out.properties!)).toEqual(["zz", "aa"]);
    expect(JSON.stringify(out.default)).toBe('{"z":1,"a":2}');
    expect(JSON.stringify(input)).toBe(snapshot);
    expect(out).not.toBe(input);
  });
});
