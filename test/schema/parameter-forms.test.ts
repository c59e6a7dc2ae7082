import "reflect-metadata";
import { Param, Tool, Toolkit, scanTools, type JSONSchemaObject } from "../../src";
import { scanErrorOf } from "../support/scan-error";

/** The inputSchema of the single tool of `instance`. */
function schemaOf(instance: object): JSONSchemaObject {
  const tools = scanTools(instance);
  expect(tools).toHaveLength(1);
  return tools[0]!.inputSchema;
}

/** Whole-schema equality plus byte equality (pins the canonical key order). */
function expectSchema(instance: object, expected: JSONSchemaObject): void {
  const actual = schemaOf(instance);
  expect(actual).toEqual(expected);
  expect(JSON.stringify(actual)).toBe(JSON.stringify(expected));
}

enum Units {
  Metric = "metric",
  Imperial = "imperial",
}

enum Priority {
  Low = 1,
  Medium = 2,
  High = 3,
}

describe("scalar parameter forms", () => {
  it("string → {type: string}, required", () => {
    class Weather {
      @Tool("Weather for a city")
      weather(city: string) {
        return city;
      }
    }
    expectSchema(new Weather(), {
      type: "object",
      properties: { city: { type: "string" } },
      required: ["city"],
      additionalProperties: false,
    });
  });

  it("number → {type: number}", () => {
    class Calc {
      @Tool("Squares a number")
      square(value: number) {
        return value * value;
      }
    }
    expectSchema(new Calc(), {
      type: "object",
      properties: { value: { type: "number" } },
      required: ["value"],
      additionalProperties: false,
    });
  });

  it("boolean → {type: boolean}", () => {
    class Flags {
      @Tool("Sets a flag")
      set(enabled: boolean) {
        return String(enabled);
      }
    }
    expectSchema(new Flags(), {
      type: "object",
      properties: { enabled: { type: "boolean" } },
      required: ["enabled"],
      additionalProperties: false,
    });
  });

  it("Date → {type: string, format: date-time}", () => {
    class Calendar {
      @Tool("Books a slot")
      book(start: Date) {
        return start.toISOString();
      }
    }
    expectSchema(new Calendar(), {
      type: "object",
      properties: { start: { type: "string", format: "date-time" } },
      required: ["start"],
      additionalProperties: false,
    });
  });

  it("integer: true turns a number into {type: integer}", () => {
    class Paging {
      @Tool("Reads a page")
      page(@Param({ integer: true }) index: number) {
        return String(index);
      }
    }
    expectSchema(new Paging(), {
      type: "object",
      properties: { index: { type: "integer" } },
      required: ["index"],
      additionalProperties: false,
    });
  });

  it("integer: true on a string parameter is a ScanError", () => {
    class Wrong {
      @Tool("Wrong")
      run(@Param({ integer: true }) word: string) {
        return word;
      }
    }
    expect(scanErrorOf(new Wrong()).message).toBe(
      'Wrong.run, parameter 0 ("word"): integer: true applies to numbers, but this parameter is string.',
    );
  });

  it("several parameters keep declaration order in properties and required", () => {
    class Trip {
      @Tool("Plans a trip")
      plan(from: string, to: string, nights: number, pets: boolean) {
        return `${from}${to}${nights}${pets}`;
      }
    }
    expectSchema(new Trip(), {
      type: "object",
      properties: {
        from: { type: "string" },
        to: { type: "string" },
        nights: { type: "number" },
        pets: { type: "boolean" },
      },
      required: ["from", "to", "nights", "pets"],
      additionalProperties: false,
    });
  });

  it("a method without parameters has empty properties and no required key", () => {
    class Clock {
      @Tool("Current time")
      now() {
        return "noon";
      }
    }
    expectSchema(new Clock(), { type: "object", properties: {}, additionalProperties: false });
  });
});

describe("array parameter forms", () => {
  it("type: [String] → array of strings", () => {
    class Tags {
      @Tool("Tags things")
      tag(@Param({ type: [String] }) tags: string[]) {
        return tags.join();
      }
    }
    expectSchema(new Tags(), {
      type: "object",
      properties: { tags: { type: "array", items: { type: "string" } } },
      required: ["tags"],
      additionalProperties: false,
    });
  });

  it("type: [Number] and type: [Boolean] → arrays of those", () => {
    class Stats {
      @Tool("Sums")
      sum(@Param({ type: [Number] }) values: number[], @Param({ type: [Boolean] }) mask: boolean[]) {
        return String(values.length + mask.length);
      }
    }
    expectSchema(new Stats(), {
      type: "object",
      properties: {
        values: { type: "array", items: { type: "number" } },
        mask: { type: "array", items: { type: "boolean" } },
      },
      required: ["values", "mask"],
      additionalProperties: false,
    });
  });

  it("items gives the element schema of a plain Array parameter", () => {
    class Colors {
      @Tool("Paints")
      paint(@Param({ items: { type: "string", enum: ["red", "blue"] } }) colors: string[]) {
        return colors.join();
      }
    }
    expectSchema(new Colors(), {
      type: "object",
      properties: { colors: { type: "array", items: { type: "string", enum: ["red", "blue"] } } },
      required: ["colors"],
      additionalProperties: false,
    });
  });

  it("minItems / maxItems on arrays", () => {
    class Picks {
      @Tool("Picks some")
      pick(@Param({ type: [String], minItems: 1, maxItems: 3 }) picks: string[]) {
        return picks.join();
      }
    }
    expectSchema(new Picks(), {
      type: "object",
      properties: { picks: { type: "array", items: { type: "string" }, minItems: 1, maxItems: 3 } },
      required: ["picks"],
      additionalProperties: false,
    });
  });

  it("a plain Array without element type is a ScanError saying how to fix it", () => {
    class Lists {
      @Tool("Lists")
      list(values: string[]) {
        return values.join();
      }
    }
    expect(scanErrorOf(new Lists()).message).toBe(
      'Lists.list, parameter 0 ("values"): it is an array whose element type metadata cannot see. Say it with @Param({ type: [String] }) (or items: {...}).',
    );
  });
});

describe("enum parameter forms", () => {
  it("enum as an array of strings → {type: string, enum}", () => {
    class Weather {
      @Tool("Weather")
      weather(@Param({ enum: ["c", "f"] }) units: string) {
        return units;
      }
    }
    expectSchema(new Weather(), {
      type: "object",
      properties: { units: { type: "string", enum: ["c", "f"] } },
      required: ["units"],
      additionalProperties: false,
    });
  });

  it("enum as a TypeScript string enum → its values", () => {
    class Weather {
      @Tool("Weather")
      weather(@Param({ enum: Units }) units: Units) {
        return units;
      }
    }
    expectSchema(new Weather(), {
      type: "object",
      properties: { units: { type: "string", enum: ["metric", "imperial"] } },
      required: ["units"],
      additionalProperties: false,
    });
  });

  it("enum as a TypeScript numeric enum → integer values, reverse keys left out", () => {
    class Tickets {
      @Tool("Opens a ticket")
      open(@Param({ enum: Priority }) priority: Priority) {
        return String(priority);
      }
    }
    expectSchema(new Tickets(), {
      type: "object",
      properties: { priority: { type: "integer", enum: [1, 2, 3] } },
      required: ["priority"],
      additionalProperties: false,
    });
  });

  it("enum of non-integer numbers → {type: number}; of mixed values → enum only", () => {
    class Mixed {
      @Tool("Mixed")
      run(@Param({ enum: [0.5, 1.5] }) ratio: number, @Param({ enum: ["a", 1] }) anything: unknown) {
        return `${ratio}${String(anything)}`;
      }
    }
    expectSchema(new Mixed(), {
      type: "object",
      properties: { ratio: { type: "number", enum: [0.5, 1.5] }, anything: { enum: ["a", 1] } },
      required: ["ratio", "anything"],
      additionalProperties: false,
    });
  });

  it("an empty enum is a ScanError", () => {
    class Empty {
      @Tool("Empty")
      run(@Param({ enum: [] }) value: string) {
        return value;
      }
    }
    expect(scanErrorOf(new Empty()).message).toBe(
      'Empty.run, parameter 0 ("value"): enum is empty; list at least one allowed value.',
    );
  });
});

describe("schema override", () => {
  it("schema replaces inference entirely (design type ignored) and description is added", () => {
    class Override {
      @Tool("Override")
      run(@Param({ schema: { type: "string", enum: ["x", "y"] }, description: "One letter" }) value: number) {
        return String(value);
      }
    }
    expectSchema(new Override(), {
      type: "object",
      properties: { value: { type: "string", description: "One letter", enum: ["x", "y"] } },
      required: ["value"],
      additionalProperties: false,
    });
  });

  it("schema makes a parameter of unknown type (interface) usable", () => {
    interface Point {
      x: number;
      y: number;
    }
    class Geometry {
      @Tool("Moves a point")
      move(
        @Param({
          schema: {
            type: "object",
            properties: { y: { type: "number" }, x: { type: "number" } },
            required: ["x", "y"],
            additionalProperties: false,
          },
        })
        point: Point,
      ) {
        return `${point.x},${point.y}`;
      }
    }
    expectSchema(new Geometry(), {
      type: "object",
      properties: {
        point: {
          type: "object",
          properties: { y: { type: "number" }, x: { type: "number" } },
          required: ["x", "y"],
          additionalProperties: false,
        },
      },
      required: ["point"],
      additionalProperties: false,
    });
  });

  it("a description inside the override schema is kept over the option", () => {
    class Override {
      @Tool("Override")
      run(@Param({ schema: { type: "string", description: "Own words" }, description: "Option words" }) value: string) {
        return value;
      }
    }
    expectSchema(new Override(), {
      type: "object",
      properties: { value: { type: "string", description: "Own words" } },
      required: ["value"],
      additionalProperties: false,
    });
  });
});

describe("constraints", () => {
  it("minimum / maximum on a number", () => {
    class Thermostat {
      @Tool("Sets the temperature")
      set(@Param({ minimum: 5, maximum: 30 }) celsius: number) {
        return String(celsius);
      }
    }
    expectSchema(new Thermostat(), {
      type: "object",
      properties: { celsius: { type: "number", minimum: 5, maximum: 30 } },
      required: ["celsius"],
      additionalProperties: false,
    });
  });

  it("minimum / maximum on an integer", () => {
    class Dice {
      @Tool("Rolls")
      roll(@Param({ integer: true, minimum: 1, maximum: 6 }) face: number) {
        return String(face);
      }
    }
    expectSchema(new Dice(), {
      type: "object",
      properties: { face: { type: "integer", minimum: 1, maximum: 6 } },
      required: ["face"],
      additionalProperties: false,
    });
  });

  it("minLength / maxLength / pattern (string) on a string", () => {
    class Users {
      @Tool("Creates a user")
      create(@Param({ minLength: 3, maxLength: 16, pattern: "^[a-z]+$" }) login: string) {
        return login;
      }
    }
    expectSchema(new Users(), {
      type: "object",
      properties: { login: { type: "string", minLength: 3, maxLength: 16, pattern: "^[a-z]+$" } },
      required: ["login"],
      additionalProperties: false,
    });
  });

  it("a RegExp pattern is written as its source", () => {
    class Codes {
      @Tool("Checks a code")
      check(@Param({ pattern: /^[A-Z]{3}-\d{2}$/ }) code: string) {
        return code;
      }
    }
    expectSchema(new Codes(), {
      type: "object",
      properties: { code: { type: "string", pattern: "^[A-Z]{3}-\\d{2}$" } },
      required: ["code"],
      additionalProperties: false,
    });
  });

  it("format on a string", () => {
    class Mail {
      @Tool("Sends mail")
      send(@Param({ format: "email" }) to: string) {
        return to;
      }
    }
    expectSchema(new Mail(), {
      type: "object",
      properties: { to: { type: "string", format: "email" } },
      required: ["to"],
      additionalProperties: false,
    });
  });

  it("default is written into the schema and makes the parameter optional", () => {
    class Search {
      @Tool("Searches")
      search(query: string, @Param({ default: 10 }) limit: number) {
        return `${query}${limit}`;
      }
    }
    expectSchema(new Search(), {
      type: "object",
      properties: { query: { type: "string" }, limit: { type: "number", default: 10 } },
      required: ["query"],
      additionalProperties: false,
    });
  });

  it("keys come in canonical order whatever order the options are written in", () => {
    class Ordered {
      @Tool("Ordered")
      run(
        @Param({ maximum: 60, default: 20, minimum: -50, description: "Temperature", integer: true })
        temperature: number,
        @Param({ pattern: /^\w+$/, maxLength: 9, format: "hostname", minLength: 1, description: "Host" }) host: string,
      ) {
        return `${temperature}${host}`;
      }
    }
    const schema = schemaOf(new Ordered());
    expect(JSON.stringify(schema)).toBe(
      '{"type":"object","properties":{' +
        '"temperature":{"type":"integer","description":"Temperature","default":20,"minimum":-50,"maximum":60},' +
        '"host":{"type":"string","description":"Host","format":"hostname","minLength":1,"maxLength":9,"pattern":"^\\\\w+$"}' +
        '},"required":["host"],"additionalProperties":false}',
    );
  });

  it.each([
    ["minLength", { minLength: 2 }, "minLength applies to string parameters, but this parameter is number"],
    ["maxLength", { maxLength: 2 }, "maxLength applies to string parameters, but this parameter is number"],
    ["pattern", { pattern: "^x$" }, "pattern applies to string parameters, but this parameter is number"],
    ["format", { format: "email" }, "format applies to string parameters, but this parameter is number"],
    ["minItems", { minItems: 1 }, "minItems applies to array parameters, but this parameter is number"],
    ["maxItems", { maxItems: 1 }, "maxItems applies to array parameters, but this parameter is number"],
  ])("%s on a number parameter is a ScanError", (_key, options, complaint) => {
    class Wrong {
      @Tool("Wrong")
      run(@Param(options) amount: number) {
        return String(amount);
      }
    }
    expect(scanErrorOf(new Wrong()).message).toBe(`Wrong.run, parameter 0 ("amount"): ${complaint}.`);
  });

  it("minimum on a string parameter is a ScanError", () => {
    class Wrong {
      @Tool("Wrong")
      run(@Param({ minimum: 1 }) label: string) {
        return label;
      }
    }
    expect(scanErrorOf(new Wrong()).message).toBe(
      'Wrong.run, parameter 0 ("label"): minimum applies to number/integer parameters, but this parameter is string.',
    );
  });
});

describe("optional parameters and descriptions", () => {
  it("optional: true leaves the parameter out of required", () => {
    class Search {
      @Tool("Searches")
      search(query: string, @Param({ optional: true }) page?: number) {
        return `${query}${page}`;
      }
    }
    expectSchema(new Search(), {
      type: "object",
      properties: { query: { type: "string" }, page: { type: "number" } },
      required: ["query"],
      additionalProperties: false,
    });
  });

  it("when every parameter is optional there is no required key", () => {
    class Search {
      @Tool("Searches")
      search(@Param({ optional: true }) query?: string) {
        return query ?? "";
      }
    }
    expectSchema(new Search(), {
      type: "object",
      properties: { query: { type: "string" } },
      additionalProperties: false,
    });
  });

  it("a TypeScript default value in the source makes the parameter optional (no default in the schema)", () => {
    class Weather {
      @Tool("Weather")
      weather(city: string, units: string = "metric") {
        return `${city}${units}`;
      }
    }
    expectSchema(new Weather(), {
      type: "object",
      properties: { city: { type: "string" }, units: { type: "string" } },
      required: ["city"],
      additionalProperties: false,
    });
  });

  it("description goes on the property", () => {
    class Weather {
      @Tool("Weather")
      weather(@Param({ description: "City name, e.g. Paris" }) city: string) {
        return city;
      }
    }
    expectSchema(new Weather(), {
      type: "object",
      properties: { city: { type: "string", description: "City name, e.g. Paris" } },
      required: ["city"],
      additionalProperties: false,
    });
  });

  it("the schema a toolkit exposes is the scanned one", () => {
    class Weather {
      @Tool("Weather")
      weather(@Param("city", { description: "City" }) town: string) {
        return town;
      }
    }
    const kit = new Toolkit([new Weather()]);
    expect(kit.get("weather")!.inputSchema).toEqual({
      type: "object",
      properties: { city: { type: "string", description: "City" } },
      required: ["city"],
      additionalProperties: false,
    });
  });
});
