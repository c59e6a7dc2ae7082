import "reflect-metadata";
import { sourceParameters } from "../../src/schema/parameter-names";

/** A function from exact JavaScript source (no TypeScript compilation in between). */
function fn(source: string): Function {
  return (0, eval)(`(${source})`) as Function;
}

describe("sourceParameters", () => {
  it("plain parameters", () => {
    expect(sourceParameters(fn("function (city, units) {}"))).toEqual([
      { name: "city", hasDefault: false },
      { name: "units", hasDefault: false },
    ]);
  });

  it("no parameters → []", () => {
    expect(sourceParameters(fn("function () { return 1; }"))).toEqual([]);
  });

  it("defaults are detected", () => {
    expect(sourceParameters(fn('function (city, units = "metric", days=3) {}'))).toEqual([
      { name: "city", hasDefault: false },
      { name: "units", hasDefault: true },
      { name: "days", hasDefault: true },
    ]);
  });

  it("defaults that call functions, or hold objects and arrays with commas", () => {
    expect(sourceParameters(fn("function (a = Math.max(1, 2), b = { x: 1, y: [2, 3] }, c = [4, 5], d) {}"))).toEqual([
      { name: "a", hasDefault: true },
      { name: "b", hasDefault: true },
      { name: "c", hasDefault: true },
      { name: "d", hasDefault: false },
    ]);
  });

  it("block and line comments are ignored, even when they hold commas and parentheses", () => {
    const source = "function (a /* , fake) */, b = 1 // c, d)\n, e) {}";
    expect(sourceParameters(fn(source))).toEqual([
      { name: "a", hasDefault: false },
      { name: "b", hasDefault: true },
      { name: "e", hasDefault: false },
    ]);
  });

  it("a comment before the parameter list", () => {
    expect(sourceParameters(fn("function /* (x, y) */ (a, b) {}"))).toEqual([
      { name: "a", hasDefault: false },
      { name: "b", hasDefault: false },
    ]);
  });

  it("strings in defaults that contain commas, parentheses and quotes", () => {
    const source = `function (a = "x, y)", b = 'it\\'s (', c = \`t,\${1}\`, d) {}`;
    expect(sourceParameters(fn(source))).toEqual([
      { name: "a", hasDefault: true },
      { name: "b", hasDefault: true },
      { name: "c", hasDefault: true },
      { name: "d", hasDefault: false },
    ]);
  });

  it("destructured and rest parameters have no name", () => {
    expect(sourceParameters(fn("function ({ a, b }, [c, d], ...rest) {}"))).toEqual([
      { name: undefined, hasDefault: false },
      { name: undefined, hasDefault: false },
      { name: undefined, hasDefault: false },
    ]);
  });

  it("destructuring with a default next to named parameters", () => {
    expect(sourceParameters(fn("function (first, { a, b } = {}, last = 2) {}"))).toEqual([
      { name: "first", hasDefault: false },
      { name: undefined, hasDefault: false },
      { name: "last", hasDefault: true },
    ]);
  });

  it("arrow functions with parentheses", () => {
    expect(sourceParameters(fn("(a, b = 2) => a + b"))).toEqual([
      { name: "a", hasDefault: false },
      { name: "b", hasDefault: true },
    ]);
    expect(sourceParameters(fn("async (a) => a"))).toEqual([{ name: "a", hasDefault: false }]);
    expect(sourceParameters(fn("() => 1"))).toEqual([]);
  });

  it("arrow functions with one bare parameter", () => {
    expect(sourceParameters(fn("x => x * 2"))).toEqual([{ name: "x", hasDefault: false }]);
    expect(sourceParameters(fn("async value => value"))).toEqual([{ name: "value", hasDefault: false }]);
  });

  it("class methods (as compiled by ts-jest), async methods and $/_ names", () => {
    class Service {
      weather(city: string, units: string = "metric") {
        return city + units;
      }
      async fetch($id: number, _opts = { retries: 2 }) {
        return $id + _opts.retries;
      }
    }
    expect(sourceParameters(Service.prototype.weather)).toEqual([
      { name: "city", hasDefault: false },
      { name: "units", hasDefault: true },
    ]);
    expect(sourceParameters(Service.prototype.fetch)).toEqual([
      { name: "$id", hasDefault: false },
      { name: "_opts", hasDefault: true },
    ]);
  });

  it("methods from source text, including computed-looking bodies", () => {
    const object = fn('{ run(a, b = "(") { return ")"; } }') as unknown as { run: Function };
    expect(sourceParameters(object.run)).toEqual([
      { name: "a", hasDefault: false },
      { name: "b", hasDefault: true },
    ]);
  });

  it("a trailing comma adds no parameter", () => {
    expect(sourceParameters(fn("function (a, b,) {}"))).toEqual([
      { name: "a", hasDefault: false },
      { name: "b", hasDefault: false },
    ]);
  });
});
