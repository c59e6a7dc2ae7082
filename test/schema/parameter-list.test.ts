import "reflect-metadata";
import { Param, Tool, Toolkit } from "../../src";
import { sourceParameters } from "../../src/schema/parameter-names";

/** A function from exact JavaScript source (no TypeScript compilation in between). */
function fn(source: string): Function {
  return (0, eval)(`(${source})`) as Function;
}

/** The method `name` of an object literal written as exact JavaScript source. */
function method(source: string, name = "run"): Function {
  return (fn(source) as unknown as Record<string, Function>)[name]!;
}

describe("sourceParameters reads the parameter list only, up to its closing parenthesis", () => {
  describe("a bare arrow", () => {
    it("x => f(1, 2) has the one parameter x, whatever its body calls", () => {
      expect(sourceParameters(fn("x => f(1, 2)"))).toEqual([{ name: "x", hasDefault: false }]);
    });

    it("an async bare arrow whose body holds parentheses, commas and defaults has its one parameter", () => {
      expect(sourceParameters(fn("async value => g(value, (a = 1, b) => a + b)"))).toEqual([
        { name: "value", hasDefault: false },
      ]);
    });

    it("a bare arrow whose body is an object literal or a string with a parenthesis has its one parameter", () => {
      expect(sourceParameters(fn("item => ({ a: item, b: '(' })"))).toEqual([{ name: "item", hasDefault: false }]);
    });

    it("an => inside a comment or a string before the list is not taken for a bare arrow", () => {
      expect(sourceParameters(fn("function /* x => y */ (a, b) {}"))).toEqual([
        { name: "a", hasDefault: false },
        { name: "b", hasDefault: false },
      ]);
      expect(sourceParameters(method(`{ "x => y"(a, b) { return a; } }`, "x => y"))).toEqual([
        { name: "a", hasDefault: false },
        { name: "b", hasDefault: false },
      ]);
    });
  });

  describe("a body that could not be read as a list", () => {
    it("an unbalanced quote in the body (inside a regular expression) does not matter", () => {
      expect(sourceParameters(fn(`function (a, b = 2) { return /["'\`]/.test(a); }`))).toEqual([
        { name: "a", hasDefault: false },
        { name: "b", hasDefault: true },
      ]);
    });

    it("an unterminated-looking comment in the body (a regular expression holding /*) does not matter", () => {
      expect(sourceParameters(fn("function (a, b) { return /[/*]/.test(a) ? b : a; }"))).toEqual([
        { name: "a", hasDefault: false },
        { name: "b", hasDefault: false },
      ]);
    });

    it("a method whose body holds both still gives its parameters", () => {
      const run = method(
        `{ run(city, units = "metric") { const q = /'/; const c = /[/*]/; return q.test(city) || c.test(units); } }`,
      );
      expect(sourceParameters(run)).toEqual([
        { name: "city", hasDefault: false },
        { name: "units", hasDefault: true },
      ]);
    });

    it("an async method and a generator method with such bodies still give their parameters", () => {
      const object = fn(
        `{ async fetch(id, retries = 3) { return /"/.exec(id); }, *walk(node, depth) { yield /[/*'"]/g; } }`,
      ) as unknown as Record<string, Function>;
      expect(sourceParameters(object.fetch!)).toEqual([
        { name: "id", hasDefault: false },
        { name: "retries", hasDefault: true },
      ]);
      expect(sourceParameters(object.walk!)).toEqual([
        { name: "node", hasDefault: false },
        { name: "depth", hasDefault: false },
      ]);
    });

    it("a class method compiled by ts-jest, whose body holds a lone quote and /*, still gives its parameters", () => {
      class Service {
        search(query: string, limit = 10) {
          const quote = /'/;
          const comment = /\/*x/;
          return quote.test(query) || comment.test(String(limit));
        }
      }
      expect(sourceParameters(Service.prototype.search)).toEqual([
        { name: "query", hasDefault: false },
        { name: "limit", hasDefault: true },
      ]);
    });

    it("a method named by a string holding a parenthesis still gives its parameters", () => {
      expect(sourceParameters(method(`{ "a(b, c"(x, y = 1) { return x; } }`, "a(b, c"))).toEqual([
        { name: "x", hasDefault: false },
        { name: "y", hasDefault: true },
      ]);
    });
  });

  describe("comments inside the list", () => {
    it("removes block comments holding commas, parentheses and quotes", () => {
      expect(sourceParameters(fn(`function (a /* , ( ' " \` ) */, b /* ), c */) {}`))).toEqual([
        { name: "a", hasDefault: false },
        { name: "b", hasDefault: false },
      ]);
    });

    it("removes line comments holding commas, parentheses and quotes", () => {
      const source = 'function (\n  a, // first, (the city) \'quoted\n  b = 1, // "second", ) done\n  c\n) {}';
      expect(sourceParameters(fn(source))).toEqual([
        { name: "a", hasDefault: false },
        { name: "b", hasDefault: true },
        { name: "c", hasDefault: false },
      ]);
    });

    it("removes a comment that stands before a parameter's name", () => {
      expect(sourceParameters(fn("function (/* the city */ city, /* how many, at most */ days = 3) {}"))).toEqual([
        { name: "city", hasDefault: false },
        { name: "days", hasDefault: true },
      ]);
    });

    it("removes a comment between a name and its default", () => {
      expect(sourceParameters(fn("function (units /* , x */ = 'metric', z) {}"))).toEqual([
        { name: "units", hasDefault: true },
        { name: "z", hasDefault: false },
      ]);
    });

    it("removes several comments in one parameter", () => {
      expect(sourceParameters(fn("function (a /* 1, */ /* 2) */ // 3, (\n, b) {}"))).toEqual([
        { name: "a", hasDefault: false },
        { name: "b", hasDefault: false },
      ]);
    });

    it("removes comments inside an arrow's parenthesized list", () => {
      expect(sourceParameters(fn("(a /* ) => */, b // , c)\n) => a + b"))).toEqual([
        { name: "a", hasDefault: false },
        { name: "b", hasDefault: false },
      ]);
    });
  });

  describe("strings in default values", () => {
    it("keeps a default holding // whole and marks it as a default", () => {
      expect(sourceParameters(fn(`function (url = "https://example.com/a,b", next) {}`))).toEqual([
        { name: "url", hasDefault: true },
        { name: "next", hasDefault: false },
      ]);
    });

    it("keeps a default holding /* whole and marks it as a default", () => {
      expect(sourceParameters(fn(`function (glob = '/* , ) */', next) {}`))).toEqual([
        { name: "glob", hasDefault: true },
        { name: "next", hasDefault: false },
      ]);
    });

    it("keeps a template default holding // and /* whole", () => {
      expect(sourceParameters(fn("function (a = `//, /* ) x`, b) {}"))).toEqual([
        { name: "a", hasDefault: true },
        { name: "b", hasDefault: false },
      ]);
    });

    it("keeps a default holding an escaped quote and //, followed by a comment", () => {
      expect(sourceParameters(fn(`function (a = "say \\"//\\", (", /* c, */ b = '/*', c) {}`))).toEqual([
        { name: "a", hasDefault: true },
        { name: "b", hasDefault: true },
        { name: "c", hasDefault: false },
      ]);
    });
  });
});

describe("parameter names next to string defaults that look like comments", () => {
  it("reads every parameter when a default contains // or /* */", () => {
    expect(
      sourceParameters(function (url = "http://x.y", b: number) {
        return [url, b];
      }).map((p) => p.name),
    ).toEqual(["url", "b"]);
    expect(
      sourceParameters(function (a = "/* x", b = "*/", c: number) {
        return [a, b, c];
      }).map((p) => p.name),
    ).toEqual(["a", "b", "c"]);
  });

  it("scans a tool whose first parameter defaults to a URL", async () => {
    class Fetcher {
      @Tool("Fetch a page")
      fetch(@Param() url: string = "http://example.com", @Param() depth: number) {
        return `${url} ${depth}`;
      }
    }
    const kit = new Toolkit([new Fetcher()]);
    expect(kit.get("fetch")!.inputSchema.required).toEqual(["depth"]);
    expect((await kit.execute("fetch", { depth: 2 })).output).toBe("http://example.com 2");
  });
});
