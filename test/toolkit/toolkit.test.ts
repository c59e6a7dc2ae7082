import {
  defineTool,
  DuplicateToolError,
  Toolkit,
  ToolDefinitionError,
  type Tool,
  type ToolContext,
  type ToolResult,
} from "../../src";

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const getWeather = () =>
  defineTool({
    name: "get_weather",
    description: "Current weather for a city.",
    inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
    execute: ({ city }) => `sunny in ${String(city)}`,
  });
const getTime = () => defineTool({ name: "get_time", description: "Current time.", execute: () => "12:00" });
const convertCurrency = () =>
  defineTool({ name: "convert_currency", description: "Converts money.", execute: () => "1.00" });

/** A Tool written by hand, not made by defineTool. */
function handWritten(name: string, execute: (args: Record<string, unknown>, ctx?: ToolContext) => unknown): Tool {
  return {
    name,
    description: `Hand-written ${name}.`,
    inputSchema: { type: "object", properties: {} },
    source: "custom",
    execute: execute as Tool["execute"],
  };
}

describe("Toolkit: a set of uniquely named tools", () => {
  it("takes tools in its constructor and lists them in registration order", () => {
    const weather = getWeather();
    const time = getTime();
    const toolkit = new Toolkit([weather, time]);
    expect(toolkit.tools()).toEqual([weather, time]);
    expect(toolkit.size).toBe(2);
  });

  it("starts empty without arguments", () => {
    const toolkit = new Toolkit();
    expect(toolkit.size).toBe(0);
    expect(toolkit.tools()).toEqual([]);
  });

  it("registers more tools later, flattening arrays, and returns itself for chaining", () => {
    const toolkit = new Toolkit([getWeather()]);
    expect(toolkit.register([getTime(), [convertCurrency()]])).toBe(toolkit);
    expect(toolkit.tools().map((t) => t.name)).toEqual(["get_weather", "get_time", "convert_currency"]);
    expect(toolkit.size).toBe(3);
  });

  it("gets a tool by name and says whether it has one", () => {
    const weather = getWeather();
    const toolkit = new Toolkit([weather]);
    expect(toolkit.get("get_weather")).toBe(weather);
    expect(toolkit.get("get_time")).toBeUndefined();
    expect(toolkit.has("get_weather")).toBe(true);
    expect(toolkit.has("get_time")).toBe(false);
  });

  it("returns a copy from tools(), so changing it does not change the toolkit", () => {
    const toolkit = new Toolkit([getWeather()]);
    toolkit.tools().pop();
    expect(toolkit.size).toBe(1);
  });

  it("throws DuplicateToolError naming the tool when a name is taken", () => {
    const toolkit = new Toolkit([getWeather()]);
    expect(() => toolkit.register(getWeather())).toThrow(DuplicateToolError);
    expect(() => toolkit.register(getWeather())).toThrow(
      'A tool named "get_weather" is already registered (native tool); tool names must be unique in a toolkit. Rename one of them.',
    );
    expect(() => new Toolkit([getTime(), getTime()])).toThrow(/"get_time" is already registered/);
    expect(toolkit.size).toBe(1);
  });

  it("refuses a hand-written tool whose name no provider accepts", () => {
    const toolkit = new Toolkit();
    expect(() => toolkit.register(handWritten("has space", () => "x"))).toThrow(ToolDefinitionError);
    expect(() => toolkit.register(handWritten("has space", () => "x"))).toThrow(
      'Tool name "has space" is accepted by no provider.',
    );
    expect(() => toolkit.register(handWritten("", () => "x"))).toThrow(ToolDefinitionError);
    expect(toolkit.size).toBe(0);
  });

  it("accepts a name some provider accepts, even if not every one does", () => {
    const toolkit = new Toolkit([handWritten("weather.get", () => "x")]);
    expect(toolkit.has("weather.get")).toBe(true);
  });

  it("refuses a hand-written tool with an empty description", () => {
    const tool = { ...handWritten("blank", () => "x"), description: "" };
    expect(() => new Toolkit([tool])).toThrow('Tool "blank" needs a non-empty description: models choose tools by it.');
  });

  it("refuses things that are neither tools nor objects", () => {
    expect(() => new Toolkit(["get_weather" as unknown as Tool])).toThrow(ToolDefinitionError);
    expect(() => new Toolkit(["get_weather" as unknown as Tool])).toThrow(
      "A toolkit takes Tools and decorated instances; got string.",
    );
  });

  it("refuses a toolkit timeout that is not a positive number", () => {
    expect(() => new Toolkit([], { timeout: 0 })).toThrow(ToolDefinitionError);
    expect(() => new Toolkit([], { timeout: -1 })).toThrow(
      "Toolkit: timeout must be a positive number of milliseconds, at most 2147483647, or false for none (got -1).",
    );
  });
});

describe("Toolkit.execute: one call, never a rejection", () => {
  it("runs the named tool with object arguments", async () => {
    const toolkit = new Toolkit([getWeather(), getTime()]);
    expect(await toolkit.execute("get_weather", { city: "Chennai" })).toEqual({
      output: "sunny in Chennai",
      isError: false,
    });
    expect(await toolkit.execute("get_time", undefined)).toEqual({ output: "12:00", isError: false });
  });

  it("accepts the arguments as a JSON string", async () => {
    const toolkit = new Toolkit([getWeather()]);
    expect(await toolkit.execute("get_weather", '{"city":"Oslo"}')).toEqual({
      output: "sunny in Oslo",
      isError: false,
    });
  });

  it("answers invalid JSON arguments with an invalid_arguments result naming the tool", async () => {
    const toolkit = new Toolkit([getWeather()]);
    const result = await toolkit.execute("get_weather", '{"city":');
    expect(result.isError).toBe(true);
    expect(result.output).toMatch(/^Invalid arguments for tool "get_weather": arguments are not valid JSON/);
    expect(result.metadata).toEqual({ tool: "get_weather", error: "invalid_arguments" });
  });

  it("refuses a prototype-reaching key before the tool runs", async () => {
    const body = jest.fn(() => "ran");
    const toolkit = new Toolkit([defineTool({ name: "echo", description: "Echo.", execute: body })]);
    expect(await toolkit.execute("echo", '{"nested":{"constructor":{"prototype":{"polluted":true}}}}')).toEqual({
      output: 'Invalid arguments for tool "echo": argument key "constructor" at /nested is not allowed',
      isError: true,
      metadata: { tool: "echo", error: "invalid_arguments" },
    });
    expect(body).not.toHaveBeenCalled();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  describe("an unknown tool is an error result, not an exception", () => {
    const toolkit = new Toolkit([getWeather(), getTime(), convertCurrency()]);

    it('names the tool, suggests the closest name ("get_wether" -> "get_weather") and lists the valid ones', async () => {
      const result = await toolkit.execute("get_wether", { city: "Chennai" });
      expect(result).toEqual({
        output:
          'Unknown tool "get_wether". Did you mean "get_weather"? Available tools: get_weather, get_time, convert_currency.',
        isError: true,
        metadata: { tool: "get_wether", suggestions: ["get_weather"], error: "unknown_tool" },
      });
    });

    it("suggests several close names, closest first", async () => {
      const result = await toolkit.execute("get_tim", {});
      expect(result.metadata?.suggestions).toEqual(["get_time"]);
      const two = await new Toolkit([getWeather(), getTime()]).execute("get_", {});
      expect(two.output).toBe(
        'Unknown tool "get_". Did you mean "get_time" or "get_weather"? Available tools: get_weather, get_time.',
      );
    });

    it("suggests nothing when no name is close, but still lists the valid ones", async () => {
      expect(await toolkit.execute("launch_rocket", {})).toEqual({
        output: 'Unknown tool "launch_rocket". Available tools: get_weather, get_time, convert_currency.',
        isError: true,
        metadata: { tool: "launch_rocket", suggestions: [], error: "unknown_tool" },
      });
    });

    it("matches names without regard to case when suggesting", async () => {
      expect((await toolkit.execute("GET_WEATHER", {})).metadata?.suggestions).toEqual(["get_weather"]);
    });

    it("says so when the toolkit has no tools", async () => {
      expect(await new Toolkit().execute("anything", {})).toEqual({
        output: 'Unknown tool "anything". This toolkit has no tools.',
        isError: true,
        metadata: { tool: "anything", suggestions: [], error: "unknown_tool" },
      });
    });

    it("does not look names up on Object.prototype", async () => {
      for (const name of ["constructor", "__proto__", "toString", "hasOwnProperty"]) {
        const result = await toolkit.execute(name, {});
        expect(result.metadata?.error).toBe("unknown_tool");
        expect(result.output.startsWith(`Unknown tool "${name}".`)).toBe(true);
      }
    });
  });

  describe("a hand-written Tool is still held to the contract", () => {
    it("turns a synchronous throw into an execution_failed result", async () => {
      const toolkit = new Toolkit([
        handWritten("sync_thrower", () => {
          throw new Error("sync failure");
        }),
      ]);
      await expect(toolkit.execute("sync_thrower", {})).resolves.toEqual({
        output: "sync failure",
        isError: true,
        metadata: { error: "execution_failed" },
      });
    });

    it("turns a rejection into an execution_failed result", async () => {
      const toolkit = new Toolkit([handWritten("rejecter", () => Promise.reject("plain string rejection"))]);
      await expect(toolkit.execute("rejecter", {})).resolves.toEqual({
        output: "plain string rejection",
        isError: true,
        metadata: { error: "execution_failed" },
      });
    });

    it("normalizes a return that is not a ToolResult", async () => {
      const toolkit = new Toolkit([
        handWritten("raw_object", async () => ({ temp: 31 })),
        handWritten("raw_string", () => "plain text"),
        handWritten("raw_undefined", () => undefined),
        handWritten("raw_number", () => 7),
      ]);
      expect(await toolkit.execute("raw_object", {})).toEqual({ output: '{"temp":31}', isError: false });
      expect(await toolkit.execute("raw_string", {})).toEqual({ output: "plain text", isError: false });
      expect(await toolkit.execute("raw_undefined", {})).toEqual({ output: "", isError: false });
      expect(await toolkit.execute("raw_number", {})).toEqual({ output: "7", isError: false });
    });

    it("passes a proper ToolResult through", async () => {
      const toolkit = new Toolkit([
        handWritten("proper", async () => ({ output: "fine", isError: false, metadata: { cached: true } })),
      ]);
      expect(await toolkit.execute("proper", {})).toEqual({
        output: "fine",
        isError: false,
        metadata: { cached: true },
      });
    });

    it("gets parsed arguments (a JSON string becomes an object) and an object ctx", async () => {
      const calls: Array<[unknown, unknown]> = [];
      const toolkit = new Toolkit([
        handWritten("probe", (args, ctx) => {
          calls.push([args, ctx]);
          return "ok";
        }),
      ]);
      await toolkit.execute("probe", '{"a":1}');
      expect(calls).toEqual([[{ a: 1 }, {}]]);
    });

    it("is ended by a timeout like any other tool", async () => {
      const toolkit = new Toolkit([handWritten("hangs", () => new Promise(() => undefined))]);
      expect(await toolkit.execute("hangs", {}, { timeout: 20 })).toEqual({
        output: 'Tool "hangs" timed out after 20 ms',
        isError: true,
        metadata: { timeoutMs: 20, error: "timeout" },
      });
    });
  });

  describe("the toolkit-level timeout option", () => {
    it("ends a call to a tool without its own timeout", async () => {
      let signal: AbortSignal | undefined;
      const hangs = defineTool({
        name: "hangs",
        description: "Never finishes.",
        execute: (_args, ctx) => {
          signal = ctx.signal;
          return new Promise(() => undefined);
        },
      });
      const toolkit = new Toolkit([hangs], { timeout: 25 });
      expect(await toolkit.execute("hangs", {})).toEqual({
        output: 'Tool "hangs" timed out after 25 ms',
        isError: true,
        metadata: { timeoutMs: 25, error: "timeout" },
      });
      expect(signal?.aborted).toBe(true);
    });

    it("applies to hand-written tools too", async () => {
      const toolkit = new Toolkit([handWritten("hangs", () => new Promise(() => undefined))], { timeout: 20 });
      expect((await toolkit.execute("hangs", {})).metadata).toEqual({ timeoutMs: 20, error: "timeout" });
    });

    it("gives way to a call's own ctx.timeout", async () => {
      const slow = defineTool({
        name: "slow",
        description: "Takes a moment.",
        execute: async () => {
          await sleep(50);
          return "finished";
        },
      });
      const toolkit = new Toolkit([slow], { timeout: 10 });
      expect(await toolkit.execute("slow", {}, { timeout: 10_000 })).toEqual({ output: "finished", isError: false });
    });

    it("does not hold back a tool that finishes in time", async () => {
      const toolkit = new Toolkit([getTime()], { timeout: 1000 });
      expect(await toolkit.execute("get_time", {})).toEqual({ output: "12:00", isError: false });
    });
  });

  describe("ctx inside a tool", () => {
    function ctxProbe() {
      const seen: ToolContext[] = [];
      const tool = defineTool({
        name: "probe",
        description: "Records ctx.",
        execute: (_args, ctx) => {
          seen.push(ctx);
          return "ok";
        },
      });
      return { tool, seen };
    }

    it("is an object even when the caller passes none", async () => {
      const { tool, seen } = ctxProbe();
      await new Toolkit([tool]).execute("probe", {});
      expect(seen).toEqual([{}]);
    });

    it("carries the caller's fields", async () => {
      const { tool, seen } = ctxProbe();
      await new Toolkit([tool]).execute("probe", {}, { callId: "abc", state: { user: "u1" } });
      expect(seen).toEqual([{ callId: "abc", state: { user: "u1" } }]);
    });

    it("carries the call id and provider in a provider round trip, and the host state", async () => {
      const { tool, seen } = ctxProbe();
      const toolkit = new Toolkit([tool]);
      const messages = await toolkit.runOpenAI(
        [{ id: "call_9", type: "function", function: { name: "probe", arguments: "{}" } }],
        { state: { tenant: "acme" } },
      );
      expect(messages).toEqual([{ role: "tool", tool_call_id: "call_9", content: "ok" }]);
      expect(seen).toEqual([{ state: { tenant: "acme" }, callId: "call_9", provider: "openai" }]);
    });

    it("carries a live signal when a timeout applies", async () => {
      const { tool, seen } = ctxProbe();
      await new Toolkit([tool], { timeout: 500 }).execute("probe", {});
      expect(seen).toHaveLength(1);
      expect(seen[0]!.signal).toBeInstanceOf(AbortSignal);
      expect(seen[0]!.signal!.aborted).toBe(false);
    });
  });

  it("runs a batch of calls concurrently, one failure never affecting another", async () => {
    const order: string[] = [];
    const toolkit = new Toolkit([
      defineTool({
        name: "slow_ok",
        description: "Slow.",
        execute: async () => {
          await sleep(30);
          order.push("slow_ok");
          return "slow done";
        },
      }),
      defineTool({
        name: "fast_fail",
        description: "Fails.",
        execute: () => {
          order.push("fast_fail");
          throw new Error("bad input");
        },
      }),
    ]);
    const results: ToolResult[] = await Promise.all([
      toolkit.execute("slow_ok", {}),
      toolkit.execute("fast_fail", {}),
      toolkit.execute("nope", {}),
    ]);
    expect(results[0]).toEqual({ output: "slow done", isError: false });
    expect(results[1]).toEqual({ output: "bad input", isError: true, metadata: { error: "execution_failed" } });
    expect(results[2]!.metadata?.error).toBe("unknown_tool");
    expect(order).toEqual(["fast_fail", "slow_ok"]);
  });
});

describe("registration is all or nothing", () => {
  it("registers nothing from a batch that holds a duplicate", () => {
    const tool = (name: string) => defineTool({ name, description: "d", execute: () => "" });
    const kit = new Toolkit([tool("a")]);
    expect(() => kit.register(tool("b"), tool("a"))).toThrow(DuplicateToolError);
    expect(kit.tools().map((t) => t.name)).toEqual(["a"]);
    expect(() => kit.register(tool("c"), tool("c"))).toThrow(DuplicateToolError);
    expect(kit.has("c")).toBe(false);
  });
});

describe("unknown tool with an empty name", () => {
  it("suggests nothing and lists the tools", async () => {
    const kit = new Toolkit([defineTool({ name: "alpha", description: "d", execute: () => "" })]);
    const result = await kit.execute("", {});
    expect(result.output).toBe('Unknown tool "". Available tools: alpha.');
  });
});

describe("unknown tool names no provider could send", () => {
  it("cuts a very long name and suggests nothing", async () => {
    const kit = new Toolkit([defineTool({ name: "alpha", description: "d", execute: () => "" })]);
    const result = await kit.execute("a".repeat(100_000), {});
    expect(result.output).toBe(`Unknown tool "${"a".repeat(128)}...". Available tools: alpha.`);
  });
});
