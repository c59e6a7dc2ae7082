import "reflect-metadata";
import { Param, Tool, scanTools } from "../../src";
import { scanErrorOf } from "../support/scan-error";

// Without a manifest a parameter's type is what `design:paramtypes` holds: one constructor.
// Literal types, enums and `?` never reach it, so those parameters are widened (the README's
// table says so); what is written as `Object` or `Array` fails the scan instead of guessing.

enum Units {
  Celsius = "celsius",
  Fahrenheit = "fahrenheit",
}

interface Point {
  x: number;
  y: number;
}

const schemaOf = (instance: object) => scanTools(instance, { manifest: false })[0]!.inputSchema;

describe("what run-time metadata sees of a parameter's type (no manifest)", () => {
  it("a string literal union is any string, a numeric one any number, an enum any string", () => {
    class Search {
      @Tool("Search")
      search(mode: "fast" | "exact", level: 1 | 2 | 3, units: Units) {
        return [mode, level, units];
      }
    }
    expect(schemaOf(new Search()).properties).toEqual({
      mode: { type: "string" },
      level: { type: "number" },
      units: { type: "string" },
    });
  });

  it("the same values are kept when the decorator says them", () => {
    class Search {
      @Tool("Search")
      search(@Param({ enum: ["fast", "exact"] }) mode: "fast" | "exact", @Param({ enum: Units }) units: Units) {
        return [mode, units];
      }
    }
    expect(schemaOf(new Search()).properties).toEqual({
      mode: { type: "string", enum: ["fast", "exact"] },
      units: { type: "string", enum: ["celsius", "fahrenheit"] },
    });
  });

  it("`?` leaves no trace: the parameter is required unless optional: true says otherwise", () => {
    class Weather {
      @Tool("Weather")
      weather(city?: string, @Param({ optional: true }) country?: string) {
        return [city, country];
      }
    }
    expect(schemaOf(new Weather()).required).toEqual(["city"]);
  });

  it("a default value is read from the compiled source: the parameter is optional", () => {
    class Weather {
      @Tool("Weather")
      weather(city: string, units: string = "metric") {
        return [city, units];
      }
    }
    expect(schemaOf(new Weather()).required).toEqual(["city"]);
  });

  class Mixed {
    @Tool("Mixed")
    mixed(city: string | undefined) {
      return city;
    }
  }
  class Shapes {
    @Tool("Shapes")
    shapes(point: Point) {
      return point;
    }
  }
  class Values {
    @Tool("Values")
    values(value: string | number) {
      return value;
    }
  }
  class Tags {
    @Tool("Tags")
    tags(tags: string[]) {
      return tags;
    }
  }

  it.each([
    ["X | undefined", new Mixed(), 'Mixed.mixed, parameter 0 ("city")', "metadata says Object"],
    ["an interface", new Shapes(), 'Shapes.shapes, parameter 0 ("point")', "metadata says Object"],
    ["a mixed union", new Values(), 'Values.values, parameter 0 ("value")', "metadata says Object"],
    ["an array", new Tags(), 'Tags.tags, parameter 0 ("tags")', "an array whose element type metadata cannot see"],
  ])(
    "%s fails the scan, naming class, method and parameter, and saying what to write",
    (_kind, instance, where, detail) => {
      const message = scanErrorOf(instance).message;
      expect(message).toContain(where);
      expect(message).toContain(detail);
      expect(message).toContain("@Param({ type: [String] })");
    },
  );
});
