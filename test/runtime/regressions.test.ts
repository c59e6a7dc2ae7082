import { acceptArguments } from "../../src/runtime/arguments";
import { defineTool, toToolResult, Toolkit, type JSONSchemaObject } from "../../src";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

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

describe("timeouts: the call's, then the tool's, then the toolkit's", () => {
  it("lets a tool's own longer timeout win over the toolkit's", async () => {
    const slow = defineTool({ name: "slow", description: "d", timeout: 10_000, execute: async () => (await sleep(60), "done") });
    const result = await new Toolkit([slow], { timeout: 20 }).execute("slow", {});
    expect(result).toEqual({ output: "done", isError: false });
  });

  it("lets a tool's own shorter timeout win over the toolkit's", async () => {
    const slow = defineTool({ name: "slow", description: "d", timeout: 20, execute: async () => (await sleep(200), "done") });
    const result = await new Toolkit([slow], { timeout: 10_000 }).execute("slow", {});
    expect(result.metadata?.error).toBe("timeout");
    expect(result.output).toBe('Tool "slow" timed out after 20 ms');
  });

  it("applies the toolkit's timeout to a tool without one", async () => {
    const slow = defineTool({ name: "slow", description: "d", execute: async () => (await sleep(200), "done") });
    const result = await new Toolkit([slow], { timeout: 20 }).execute("slow", {});
    expect(result.output).toBe('Tool "slow" timed out after 20 ms');
  });

  it("refuses a tool timeout beyond what a timer can hold", () => {
    expect(() => defineTool({ name: "t", description: "d", timeout: 3_000_000_000, execute: () => "x" })).toThrow(
      'Tool "t": timeout must be a positive number of milliseconds, at most 2147483647, or false for none (got 3000000000).',
    );
  });

  it("treats a call timeout beyond what a timer can hold as no deadline, and Infinity likewise", async () => {
    const fast = defineTool({ name: "fast", description: "d", execute: async () => (await sleep(20), "ok") });
    expect(await fast.execute({}, { timeout: 3_000_000_000 })).toEqual({ output: "ok", isError: false });
    expect(await fast.execute({}, { timeout: Number.POSITIVE_INFINITY })).toEqual({ output: "ok", isError: false });
  });

  it("does not run a call whose timeout is not a positive number, and says why", async () => {
    const body = jest.fn(() => "ran");
    const tool = defineTool({ name: "t", description: "d", execute: body });
    for (const timeout of [0, -1, Number.NaN]) {
      const result = await tool.execute({}, { timeout });
      expect(result.isError).toBe(true);
      expect(result.output).toBe(`Tool "t" was not run: the timeout must be a positive number of milliseconds or false (got ${String(timeout)}).`);
    }
    expect(body).not.toHaveBeenCalled();
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

describe("defineTool with validate: true reads arguments as its schema does", () => {
  const schema: JSONSchemaObject = {
    type: "object",
    properties: { n: { type: "number" }, o: { type: "string" } },
    required: ["n"],
  };

  it('accepts "42" for a number and passes 42 to the function', async () => {
    const body = jest.fn((args: Record<string, unknown>) => typeof args.n);
    const tool = defineTool({ name: "t", description: "d", inputSchema: schema, validate: true, execute: body });
    expect(await tool.execute({ n: "42" })).toEqual({ output: "number", isError: false });
    expect(body.mock.calls[0]![0]).toEqual({ n: 42 });
  });

  it("reads null for an optional argument as not given", async () => {
    const body = jest.fn((args: Record<string, unknown>) => JSON.stringify(args));
    const tool = defineTool({ name: "t", description: "d", inputSchema: schema, validate: true, execute: body });
    expect(await tool.execute({ n: 1, o: null })).toEqual({ output: '{"n":1}', isError: false });
  });

  it("leaves arguments exactly as sent without validate", async () => {
    const body = jest.fn((args: Record<string, unknown>) => JSON.stringify(args));
    const tool = defineTool({ name: "t", description: "d", inputSchema: schema, execute: body });
    expect(await tool.execute({ n: "42", o: null })).toEqual({ output: '{"n":"42","o":null}', isError: false });
  });
});

describe("unknown tool with an empty name", () => {
  it("suggests nothing and lists the tools", async () => {
    const kit = new Toolkit([defineTool({ name: "alpha", description: "d", execute: () => "" })]);
    const result = await kit.execute("", {});
    expect(result.output).toBe('Unknown tool "". Available tools: alpha.');
  });
});

describe("numeric strings the model sends for number parameters", () => {
  // A long run of digits followed by a letter once made the numeric pattern backtrack for
  // seconds (blocking every other call); it must now be refused at once like any other text.
  it("refuses a million digits followed by a letter as not a number", async () => {
    const tool = defineTool({
      name: "n",
      description: "d",
      inputSchema: { type: "object", properties: { n: { type: "number" } }, required: ["n"] },
      validate: true,
      execute: () => "ran",
    });
    const result = await tool.execute({ n: `${"9".repeat(1_000_000)}x` });
    expect(result.isError).toBe(true);
    expect(result.output).toMatch(/"n" must be number, got string "9{57}\.\.\."/);
  });

  it("still reads the usual numeric forms", async () => {
    const tool = defineTool({
      name: "n",
      description: "d",
      inputSchema: { type: "object", properties: { n: { type: "number" } }, required: ["n"] },
      validate: true,
      execute: ({ n }) => JSON.stringify(n),
    });
    for (const [text, value] of [
      ["42", 42],
      ["-1.5", -1.5],
      [".5", 0.5],
      ["3.", 3],
      ["1e3", 1000],
      [" 7 ", 7],
    ] as const) {
      expect((await tool.execute({ n: text })).output).toBe(JSON.stringify(value));
    }
  });
});

describe("unknown tool names no provider could send", () => {
  it("cuts a very long name and suggests nothing", async () => {
    const kit = new Toolkit([defineTool({ name: "alpha", description: "d", execute: () => "" })]);
    const result = await kit.execute("a".repeat(100_000), {});
    expect(result.output).toBe(`Unknown tool "${"a".repeat(128)}...". Available tools: alpha.`);
  });
});

describe("numeric strings for nullable and union number types", () => {
  const tool = (property: JSONSchemaObject) =>
    defineTool({
      name: "t",
      description: "d",
      inputSchema: { type: "object", properties: { n: property }, required: ["n"] },
      validate: true,
      execute: ({ n }) => JSON.stringify(n),
    });

  it('reads "42" as 42 for type ["number", "null"] and for anyOf [integer, null]', async () => {
    expect((await tool({ type: ["number", "null"] }).execute({ n: "42" })).output).toBe("42");
    expect((await tool({ anyOf: [{ type: "integer" }, { type: "null" }] }).execute({ n: "7" })).output).toBe("7");
  });

  it("keeps the string when the schema also takes strings", async () => {
    expect((await tool({ type: ["string", "number"] }).execute({ n: "42" })).output).toBe('"42"');
  });
});
