import { defineTool } from "../../src";
import { acceptArguments, describeValue } from "../../src/runtime/arguments";

describe("acceptArguments: what a tool call's arguments may be", () => {
  describe("accepted", () => {
    it("accepts a plain object as it is (same object, not a copy)", () => {
      const args = { city: "Chennai", days: 3, nested: { list: [1, 2] } };
      const check = acceptArguments(args);
      expect(check).toEqual({ ok: true, args });
      expect(check.ok && check.args).toBe(args);
    });

    it("parses a JSON string of an object (OpenAI sends arguments as a string)", () => {
      expect(acceptArguments('{"city":"Chennai","days":3}')).toEqual({ ok: true, args: { city: "Chennai", days: 3 } });
      expect(acceptArguments('  { "a": [1, {"b": null}] }  ')).toEqual({ ok: true, args: { a: [1, { b: null }] } });
    });

    it('treats "", a blank string, null and undefined as "no arguments" ({})', () => {
      expect(acceptArguments("")).toEqual({ ok: true, args: {} });
      expect(acceptArguments("   \n")).toEqual({ ok: true, args: {} });
      expect(acceptArguments(null)).toEqual({ ok: true, args: {} });
      expect(acceptArguments(undefined)).toEqual({ ok: true, args: {} });
      expect(acceptArguments("null")).toEqual({ ok: true, args: {} });
    });

    it("accepts keys that merely contain a forbidden word", () => {
      expect(acceptArguments({ my_constructor: 1, prototypeName: "x", proto: 2 })).toEqual({
        ok: true,
        args: { my_constructor: 1, prototypeName: "x", proto: 2 },
      });
    });

    it("accepts forbidden words as values (only keys are dangerous)", () => {
      expect(acceptArguments('{"name":"__proto__","list":["constructor","prototype"]}')).toEqual({
        ok: true,
        args: { name: "__proto__", list: ["constructor", "prototype"] },
      });
    });
  });

  describe("refused, with a sentence a model can act on", () => {
    it("refuses invalid JSON, quoting the parser and asking for one JSON object", () => {
      const check = acceptArguments('{"city": "Chennai"');
      expect(check.ok).toBe(false);
      expect(!check.ok && check.problem).toMatch(/^arguments are not valid JSON \(.+\); send one JSON object$/);
    });

    it("refuses a JSON array, saying how long it was", () => {
      expect(acceptArguments("[1,2]")).toEqual({
        ok: false,
        problem: "arguments must be a JSON object, got an array of 2",
      });
      expect(acceptArguments([])).toEqual({ ok: false, problem: "arguments must be a JSON object, got an array of 0" });
    });

    it("refuses numbers, booleans and strings that are JSON of a non-object, saying what came", () => {
      expect(acceptArguments(42)).toEqual({ ok: false, problem: "arguments must be a JSON object, got number 42" });
      expect(acceptArguments("42")).toEqual({ ok: false, problem: "arguments must be a JSON object, got number 42" });
      expect(acceptArguments(true)).toEqual({
        ok: false,
        problem: "arguments must be a JSON object, got boolean true",
      });
      expect(acceptArguments('"Chennai"')).toEqual({
        ok: false,
        problem: 'arguments must be a JSON object, got string "Chennai"',
      });
    });

    it("refuses a top-level __proto__ key (as JSON.parse makes it, an own key)", () => {
      expect(acceptArguments('{"__proto__":{"polluted":1}}')).toEqual({
        ok: false,
        problem: 'argument key "__proto__" at the top level is not allowed',
      });
    });

    it("refuses constructor and prototype keys", () => {
      expect(acceptArguments({ constructor: { prototype: { polluted: 1 } } })).toEqual({
        ok: false,
        problem: 'argument key "constructor" at the top level is not allowed',
      });
      expect(acceptArguments('{"a":{"prototype":{}}}')).toEqual({
        ok: false,
        problem: 'argument key "prototype" at /a is not allowed',
      });
    });

    it("refuses a forbidden key at any depth, giving the JSON pointer of the object holding it", () => {
      expect(acceptArguments('{"a":{"b":{"c":{"__proto__":{"x":1}}}}}')).toEqual({
        ok: false,
        problem: 'argument key "__proto__" at /a/b/c is not allowed',
      });
    });

    it("refuses a forbidden key inside arrays, with array indexes in the pointer", () => {
      expect(acceptArguments('{"stops":[{"name":"a"},{"name":"b","__proto__":{"x":1}}]}')).toEqual({
        ok: false,
        problem: 'argument key "__proto__" at /stops/1 is not allowed',
      });
      expect(acceptArguments('{"matrix":[[{"ok":1}],[{"ok":2},{"constructor":1}]]}')).toEqual({
        ok: false,
        problem: 'argument key "constructor" at /matrix/1/1 is not allowed',
      });
    });

    it("escapes ~ and / in the pointer as JSON Pointer does", () => {
      expect(acceptArguments('{"a/b":{"c~d":{"prototype":1}}}')).toEqual({
        ok: false,
        problem: 'argument key "prototype" at /a~1b/c~0d is not allowed',
      });
    });

    it("never touches Object.prototype while checking", () => {
      acceptArguments('{"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":1}}}');
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect(Object.prototype.hasOwnProperty.call(Object.prototype, "polluted")).toBe(false);
    });
  });

  describe("deep nesting", () => {
    const depth = 1000;
    const nested = (inner: string) => '{"a":'.repeat(depth) + inner + "}".repeat(depth);

    it("accepts a 1,000-deep object without overflowing the stack", () => {
      const check = acceptArguments(nested("{}"));
      expect(check.ok).toBe(true);
      let node = check.ok ? (check.args as Record<string, unknown>) : {};
      let levels = 0;
      while (typeof node.a === "object" && node.a !== null) {
        node = node.a as Record<string, unknown>;
        levels++;
      }
      expect(levels).toBe(depth);
    });

    it("finds a forbidden key at the bottom of a 1,000-deep object, and names where with a path cut to a readable length", () => {
      const found = acceptArguments(nested('{"__proto__":{"polluted":1}}'));
      expect(found).toEqual({
        ok: false,
        problem: expect.stringMatching(
          /^argument key "__proto__" at (\/a)+\/? \.\.\. \(\d+ more characters\) is not allowed$/,
        ),
      });
      expect(!found.ok && found.problem.length).toBeLessThan(300);
    });

    it("accepts 1,000 nested arrays", () => {
      const json = '{"deep":' + "[".repeat(depth) + "1" + "]".repeat(depth) + "}";
      expect(acceptArguments(json).ok).toBe(true);
    });
  });
});

describe("describeValue: the short description of what came", () => {
  it("names the type and shows a preview", () => {
    expect(describeValue(null)).toBe("null");
    expect(describeValue([1, 2, 3])).toBe("an array of 3");
    expect(describeValue("hi")).toBe('string "hi"');
    expect(describeValue(7)).toBe("number 7");
    expect(describeValue(false)).toBe("boolean false");
    expect(describeValue(5n)).toBe("bigint 5");
    expect(describeValue({ a: 1 })).toBe("an object");
    expect(describeValue(undefined)).toBe("undefined");
  });

  it("shortens a long string to 57 characters and an ellipsis", () => {
    expect(describeValue("x".repeat(100))).toBe(`string "${"x".repeat(57)}..."`);
    expect(describeValue("y".repeat(60))).toBe(`string "${"y".repeat(60)}"`);
  });
});

describe("a tool refuses unacceptable arguments without calling its function", () => {
  const body = jest.fn(() => "called");
  const tool = defineTool({ name: "echo", description: "Echoes.", execute: body });

  beforeEach(() => body.mockClear());

  it("answers invalid JSON with an invalid_arguments result naming the tool", async () => {
    const result = await tool.execute("{not json" as unknown as Record<string, unknown>);
    expect(result.isError).toBe(true);
    expect(result.output).toMatch(
      /^Invalid arguments for tool "echo": arguments are not valid JSON \(.+\); send one JSON object$/,
    );
    expect(result.metadata).toEqual({ tool: "echo", error: "invalid_arguments" });
    expect(body).not.toHaveBeenCalled();
  });

  it("answers an array with an invalid_arguments result", async () => {
    expect(await tool.execute([1, 2] as unknown as Record<string, unknown>)).toEqual({
      output: 'Invalid arguments for tool "echo": arguments must be a JSON object, got an array of 2',
      isError: true,
      metadata: { tool: "echo", error: "invalid_arguments" },
    });
    expect(body).not.toHaveBeenCalled();
  });

  it("answers a __proto__ payload with an invalid_arguments result", async () => {
    const args = JSON.parse('{"__proto__":{"polluted":1}}') as Record<string, unknown>;
    expect(await tool.execute(args)).toEqual({
      output: 'Invalid arguments for tool "echo": argument key "__proto__" at the top level is not allowed',
      isError: true,
      metadata: { tool: "echo", error: "invalid_arguments" },
    });
    expect(body).not.toHaveBeenCalled();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe("arguments a host passes with cycles", () => {
  it("accepts a cyclic object without looping forever", () => {
    const args: Record<string, unknown> = { x: 1 };
    args.self = args;
    expect(acceptArguments(args)).toEqual({ ok: true, args });
  });

  it("still finds a forbidden key behind a cycle", () => {
    const inner: Record<string, unknown> = {};
    const args: Record<string, unknown> = { inner };
    inner.back = args;
    Object.defineProperty(inner, "__proto__", { value: 1, enumerable: true });
    expect(acceptArguments(args)).toEqual({ ok: false, problem: 'argument key "__proto__" at /inner is not allowed' });
  });
});
