import "reflect-metadata";
import { Param, ScanError, Tool, Toolkit } from "../../src";

/**
 * The names and optionality of a scanned method's parameters: a name like an Object.prototype
 * member is an ordinary argument, `constructor` is refused naming the parameter, and an
 * explicit `optional: false` outranks a default value in the source.
 */
describe("parameter names", () => {
  it("accepts a parameter named like an Object.prototype member such as toString", () => {
    class Svc {
      @Tool("t") t(@Param("toString") s: string) {
        return s;
      }
    }
    expect(Object.keys(new Toolkit([new Svc()]).get("t")!.inputSchema.properties!)).toEqual(["toString"]);
  });

  it("refuses an argument named constructor, naming the parameter", () => {
    class Svc {
      @Tool("t") t(@Param("constructor") s: string) {
        return s;
      }
    }
    expect(() => new Toolkit([new Svc()])).toThrow(ScanError);
    expect(() => new Toolkit([new Svc()])).toThrow(
      /Svc\.t, parameter 0 \("constructor"\): "constructor" cannot be an argument name/,
    );
  });

  it("lets an explicit optional: false win over a default value in the source", () => {
    class Svc {
      @Tool("t") t(@Param({ optional: false }) units: string = "metric") {
        return units;
      }
    }
    expect(new Toolkit([new Svc()]).get("t")!.inputSchema.required).toEqual(["units"]);
  });
});
