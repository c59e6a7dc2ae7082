import { defineTool, errorResult, isToolResult, toToolResult, type ToolResult } from "../../src";

describe("toToolResult: what a tool returned, as a result", () => {
  it("passes a string through as the output, unchanged", () => {
    expect(toToolResult("sunny in Chennai")).toEqual({ output: "sunny in Chennai", isError: false });
    expect(toToolResult("")).toEqual({ output: "", isError: false });
    expect(toToolResult('{"already":"json"}')).toEqual({ output: '{"already":"json"}', isError: false });
  });

  it('turns undefined into the empty output ""', () => {
    expect(toToolResult(undefined)).toEqual({ output: "", isError: false });
  });

  it("passes a ToolResult through (output, isError and metadata kept)", () => {
    expect(toToolResult({ output: "done", isError: false })).toEqual({ output: "done", isError: false });
    expect(toToolResult({ output: "no such city", isError: true, metadata: { code: 404 } })).toEqual({
      output: "no such city",
      isError: true,
      metadata: { code: 404 },
    });
  });

  it("keeps only output, isError and metadata of a passed-through ToolResult", () => {
    const result = toToolResult({ output: "x", isError: false, extra: "dropped" });
    expect(result).toStrictEqual({ output: "x", isError: false });
  });

  it("writes objects, arrays, numbers, booleans and null as JSON", () => {
    expect(toToolResult({ city: "Chennai", temp: 31 }).output).toBe('{"city":"Chennai","temp":31}');
    expect(toToolResult([1, "two", { three: 3 }]).output).toBe('[1,"two",{"three":3}]');
    expect(toToolResult(42).output).toBe("42");
    expect(toToolResult(-1.5).output).toBe("-1.5");
    expect(toToolResult(true).output).toBe("true");
    expect(toToolResult(null).output).toBe("null");
    expect(toToolResult({ a: 1 }).isError).toBe(false);
  });

  it("writes a BigInt as its decimal string", () => {
    expect(toToolResult({ id: 12345678901234567890n }).output).toBe('{"id":"12345678901234567890"}');
    expect(toToolResult([1n, -2n]).output).toBe('["1","-2"]');
  });

  it('writes an object cycle as "[Circular]" and does not throw', () => {
    const node: Record<string, unknown> = { name: "a" };
    node.self = node;
    expect(() => toToolResult(node)).not.toThrow();
    expect(toToolResult(node)).toEqual({ output: '{"name":"a","self":"[Circular]"}', isError: false });
  });

  it('writes an array cycle as "[Circular]"', () => {
    const list: unknown[] = [1];
    list.push(list);
    expect(toToolResult(list)).toEqual({ output: '[1,"[Circular]"]', isError: false });
  });

  it('writes a cycle through a deeper ancestor as "[Circular]"', () => {
    const root: Record<string, unknown> = { name: "root" };
    root.child = { grandchild: { up: root } };
    expect(toToolResult(root).output).toBe('{"name":"root","child":{"grandchild":{"up":"[Circular]"}}}');
  });

  it("writes an object that appears twice, but not inside itself, in full both times", () => {
    const shared = { v: 1 };
    expect(toToolResult({ a: shared, b: shared, list: [shared, shared] }).output).toBe(
      '{"a":{"v":1},"b":{"v":1},"list":[{"v":1},{"v":1}]}',
    );
  });

  it("honours toJSON", () => {
    const money = { cents: 1050, toJSON: () => ({ amount: "10.50", currency: "EUR" }) };
    expect(toToolResult({ price: money }).output).toBe('{"price":{"amount":"10.50","currency":"EUR"}}');
    expect(toToolResult({ at: new Date(0) }).output).toBe('{"at":"1970-01-01T00:00:00.000Z"}');
  });

  it("writes a Map as an object of its entries", () => {
    const map = new Map<string, unknown>([
      ["Chennai", 31],
      ["Oslo", -2],
    ]);
    expect(toToolResult(map).output).toBe('{"Chennai":31,"Oslo":-2}');
    expect(toToolResult({ temps: map }).output).toBe('{"temps":{"Chennai":31,"Oslo":-2}}');
  });

  it("writes a Set as an array of its values", () => {
    expect(toToolResult(new Set(["a", "b"])).output).toBe('["a","b"]');
    expect(toToolResult({ tags: new Set([1, 2, 3]) }).output).toBe('{"tags":[1,2,3]}');
  });

  it("writes an Error as its name and message (no stack)", () => {
    expect(toToolResult(new TypeError("boom")).output).toBe('{"name":"TypeError","message":"boom"}');
    expect(toToolResult({ failed: new RangeError("too far") }).output).toBe(
      '{"failed":{"name":"RangeError","message":"too far"}}',
    );
    expect(toToolResult(new Error("boom")).output).not.toContain("at ");
  });

  it('turns a throwing toJSON into an error result with metadata.error "execution_failed"', () => {
    const value = {
      toJSON() {
        throw new Error("cannot serialize me");
      },
    };
    let result: ToolResult | undefined;
    expect(() => (result = toToolResult(value))).not.toThrow();
    expect(result).toEqual({
      output: "The tool's result could not be serialized: cannot serialize me",
      isError: true,
      metadata: { error: "execution_failed" },
    });
  });

  it('turns a throwing getter into an error result with metadata.error "execution_failed"', () => {
    const value = {
      get broken(): never {
        throw new Error("getter failed");
      },
    };
    expect(toToolResult(value)).toEqual({
      output: "The tool's result could not be serialized: getter failed",
      isError: true,
      metadata: { error: "execution_failed" },
    });
  });
});

describe("errorResult and isToolResult", () => {
  it("errorResult carries its kind in metadata.error, after any other metadata", () => {
    expect(errorResult("timeout", "too slow", { timeoutMs: 5 })).toEqual({
      output: "too slow",
      isError: true,
      metadata: { timeoutMs: 5, error: "timeout" },
    });
    expect(errorResult("aborted", "stopped", { error: "overridden" }).metadata).toEqual({ error: "aborted" });
  });

  it("isToolResult recognises an object with a string output and a boolean isError, and nothing else", () => {
    expect(isToolResult({ output: "", isError: false })).toBe(true);
    expect(isToolResult({ output: "x", isError: true, metadata: {} })).toBe(true);
    expect(isToolResult({ output: 1, isError: false })).toBe(false);
    expect(isToolResult({ output: "x", isError: "no" })).toBe(false);
    expect(isToolResult({ output: "x" })).toBe(false);
    expect(isToolResult(null)).toBe(false);
    expect(isToolResult("x")).toBe(false);
  });
});

describe("a throw of anything becomes an error result with its message (errorMessage, through defineTool)", () => {
  const throwing = (thrown: unknown) =>
    defineTool({
      name: "thrower",
      description: "Throws what it is given.",
      execute: () => {
        throw thrown;
      },
    }).execute({});

  it("uses an Error's message", async () => {
    expect(await throwing(new Error("city is required"))).toEqual({
      output: "city is required",
      isError: true,
      metadata: { error: "execution_failed" },
    });
  });

  it("uses an Error's name when its message is empty", async () => {
    expect((await throwing(new TypeError(""))).output).toBe("TypeError");
    expect((await throwing(new Error())).output).toBe("Error");
  });

  it("never puts a stack trace in the output", async () => {
    const result = await throwing(new Error("boom"));
    expect(result.output).toBe("boom");
    expect(result.output).not.toMatch(/\n\s+at /);
  });

  it("uses a thrown string as it is", async () => {
    expect(await throwing("quota exceeded")).toEqual({
      output: "quota exceeded",
      isError: true,
      metadata: { error: "execution_failed" },
    });
  });

  it("uses the message of a thrown object that has one", async () => {
    expect((await throwing({ message: "not found", status: 404 })).output).toBe("not found");
  });

  it("writes a thrown object without a message as JSON", async () => {
    expect((await throwing({ code: "E_LIMIT", retryAfter: 3 })).output).toBe('{"code":"E_LIMIT","retryAfter":3}');
  });

  it("writes a thrown number as its digits", async () => {
    expect(await throwing(42)).toEqual({ output: "42", isError: true, metadata: { error: "execution_failed" } });
  });

  it('writes a thrown undefined as "undefined" and a thrown null as "null"', async () => {
    expect(await throwing(undefined)).toEqual({
      output: "undefined",
      isError: true,
      metadata: { error: "execution_failed" },
    });
    expect(await throwing(null)).toEqual({ output: "null", isError: true, metadata: { error: "execution_failed" } });
  });

  it("treats a rejected promise like a throw", async () => {
    const tool = defineTool({
      name: "rejecter",
      description: "Rejects.",
      execute: async () => Promise.reject(new Error("upstream 503")),
    });
    expect(await tool.execute({})).toEqual({
      output: "upstream 503",
      isError: true,
      metadata: { error: "execution_failed" },
    });
  });
});

describe("results with cycles through Maps and Sets", () => {
  it("writes a Map that contains itself with [Circular]", () => {
    const map = new Map<string, unknown>();
    map.set("self", map);
    expect(toToolResult(map)).toEqual({ output: '{"self":"[Circular]"}', isError: false });
  });

  it("writes a Set that contains itself with [Circular]", () => {
    const set = new Set<unknown>();
    set.add(set);
    expect(toToolResult(set)).toEqual({ output: '["[Circular]"]', isError: false });
  });

  it("writes an object cycle that passes through a Map with [Circular]", () => {
    const root: Record<string, unknown> = {};
    root.m = new Map([["r", root]]);
    expect(toToolResult(root)).toEqual({ output: '{"m":{"r":"[Circular]"}}', isError: false });
  });

  it("writes a top-level BigInt as its digits", () => {
    expect(toToolResult(10n)).toEqual({ output: "10", isError: false });
  });
});
