import "reflect-metadata";
import { Ctx, Param, ScanError, Tool, Toolkit, scanTools } from "../../src";

describe("@Param names", () => {
  it("the name is read from the source when omitted", () => {
    class Weather {
      @Tool("Weather")
      weather(@Param() city: string, @Param({ description: "Days ahead" }) days: number) {
        return `${city}${days}`;
      }
    }
    expect(scanTools(new Weather())[0]!.inputSchema).toEqual({
      type: "object",
      properties: { city: { type: "string" }, days: { type: "number", description: "Days ahead" } },
      required: ["city", "days"],
      additionalProperties: false,
    });
  });

  it("an explicit name wins over the source name, and arguments are bound by position", async () => {
    class Weather {
      @Tool("Weather")
      weather(@Param("city") c: string, @Param("units", { enum: ["c", "f"] }) u: string) {
        return `${c}/${u}`;
      }
    }
    const kit = new Toolkit([new Weather()]);
    expect(kit.get("weather")!.inputSchema).toEqual({
      type: "object",
      properties: { city: { type: "string" }, units: { type: "string", enum: ["c", "f"] } },
      required: ["city", "units"],
      additionalProperties: false,
    });
    expect(await kit.execute("weather", { units: "f", city: "Rome" })).toEqual({ output: "Rome/f", isError: false });
    const wrong = await kit.execute("weather", { c: "Rome", u: "f" });
    expect(wrong.isError).toBe(true);
    expect(wrong.output).toContain('unknown argument "c"');
  });

  it("parameters without any decorator are still tool parameters (names from source)", () => {
    class Mixed {
      @Tool("Mixed")
      run(first: string, @Param("second") x: number, third: boolean) {
        return `${first}${x}${third}`;
      }
    }
    expect(Object.keys(scanTools(new Mixed())[0]!.inputSchema.properties!)).toEqual(["first", "second", "third"]);
  });

  it("a destructured parameter without a name is a ScanError asking for @Param(name)", () => {
    class Point {
      x = 0;
    }
    class Geometry {
      @Tool("Moves")
      move({ x }: Point) {
        return String(x);
      }
    }
    expect(() => scanTools(new Geometry())).toThrow(ScanError);
    expect(() => scanTools(new Geometry())).toThrow(
      'Geometry.move, parameter 0: its name cannot be read from the source (destructuring or rest). Name it: @Param("name").',
    );
  });

  it("two parameters with one name is a ScanError", () => {
    class Twice {
      @Tool("Twice")
      run(@Param("value") a: string, @Param("value") b: string) {
        return a + b;
      }
    }
    expect(() => scanTools(new Twice())).toThrow(
      'Twice.run, parameter 1 ("value"): another parameter of this tool is also named "value".',
    );
  });
});

describe("decorator misuse throws a TypeError naming the class", () => {
  it("@Param on a constructor parameter", () => {
    expect(() => {
      class Service {
        constructor(@Param("apiKey") readonly apiKey: string) {}
      }
      return Service;
    }).toThrow(
      new TypeError("@Param on a constructor parameter of class Service: use it on parameters of @Tool methods."),
    );
  });

  it("@Ctx on a constructor parameter", () => {
    expect(() => {
      class Service {
        constructor(@Ctx() readonly ctx: object) {}
      }
      return Service;
    }).toThrow(
      new TypeError("@Ctx on a constructor parameter of class Service: use it on parameters of @Tool methods."),
    );
  });

  it("@Param on a static method", () => {
    expect(() => {
      class Helpers {
        static format(@Param("value") value: string) {
          return value;
        }
      }
      return Helpers;
    }).toThrow(new TypeError("@Param on static method Helpers.format: tools are instance methods."));
  });

  it("two parameter decorators on one parameter", () => {
    expect(() => {
      class Confused {
        @Tool("Confused")
        run(@Param("x") @Ctx() x: string) {
          return x;
        }
      }
      return Confused;
    }).toThrow(new TypeError("Confused.run, parameter 0: only one of @Param, @Ctx, @Args per parameter."));
  });

  it("a parameter decorator on a symbol-named method", () => {
    const key = Symbol("hidden");
    const decorate = Param("x");
    class Holder {}
    expect(() => decorate(Holder.prototype, key, 0)).toThrow(
      new TypeError("@Param on Holder.Symbol(hidden): tool methods need string names."),
    );
  });
});
