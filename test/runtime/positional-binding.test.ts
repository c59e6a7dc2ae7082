import "reflect-metadata";
import { Ctx, Param, ScanError, Tool, Toolkit, scanTools, type ToolContext } from "../../src";

/**
 * Decorated tools read their arguments through a function generated once per tool, with each
 * parameter name embedded in its code as a JSON string literal. Whatever the names hold, every
 * argument must land in its own position, and nothing in a name may run as code.
 */

// Names that would break (or inject into) generated code if they were not embedded safely.
const QUOTE = 'say "hi"';
const SINGLE = "it's";
const BACKSLASH = "back\\slash\\";
const TEMPLATE = "${(globalThis as any).injected = 'template'}";
const COMMENT_END = "*/ (globalThis.injected = 'comment'); /*";
const NEWLINE = "line\nbreak\r\n";
const LINE_SEPARATOR = "a\u2028b";
const PARAGRAPH_SEPARATOR = "a\u2029b";
const BREAKOUT = '"]); globalThis.injected = "breakout"; (["';
const BACKTICK = "`${1}`";
const EMPTY = "";

const TRICKY_NAMES = [
  QUOTE,
  SINGLE,
  BACKSLASH,
  TEMPLATE,
  COMMENT_END,
  NEWLINE,
  LINE_SEPARATOR,
  PARAGRAPH_SEPARATOR,
  BREAKOUT,
  BACKTICK,
  EMPTY,
];

const received: unknown[][] = [];

class Tricky {
  @Tool("Echoes arguments whose names hold code-like text")
  echo(
    @Param(QUOTE) a: string,
    @Param(SINGLE) b: string,
    @Param(BACKSLASH) c: string,
    @Param(TEMPLATE) d: string,
    @Param(COMMENT_END) e: string,
    @Param(NEWLINE) f: string,
    @Param(LINE_SEPARATOR) g: string,
    @Param(PARAGRAPH_SEPARATOR) h: string,
    @Param(BREAKOUT) i: string,
    @Param(BACKTICK) j: string,
    @Param(EMPTY) k: string,
  ) {
    received.push([a, b, c, d, e, f, g, h, i, j, k]);
    return "ok";
  }

  @Tool("Takes parameters named like Object.prototype members; any value is accepted")
  inherited(
    @Param("toString", { schema: {}, optional: true }) toString?: unknown,
    @Param("hasOwnProperty", { schema: {}, optional: true }) hasOwnProperty?: unknown,
    @Param("valueOf", { schema: {}, optional: true }) valueOf?: unknown,
    @Param("isPrototypeOf", { schema: {}, optional: true }) isPrototypeOf?: unknown,
    @Param("__defineGetter__", { schema: {}, optional: true }) defineGetter?: unknown,
  ) {
    received.push([toString, hasOwnProperty, valueOf, isPrototypeOf, defineGetter]);
    return "ok";
  }

  @Tool("Takes typed, optional parameters named like Object.prototype members")
  typedInherited(
    @Param("toString", { optional: true }) toString?: string,
    @Param("valueOf", { optional: true }) valueOf?: number,
    @Param("hasOwnProperty", { optional: true }) hasOwnProperty?: boolean,
  ) {
    received.push([toString, valueOf, hasOwnProperty]);
    return "ok";
  }

  @Tool("Takes a required parameter named toString")
  requiredToString(@Param("toString") value: string) {
    received.push([value]);
    return "ok";
  }

  @Tool("Takes a required parameter named toString, any value accepted")
  requiredAnyToString(@Param("toString", { schema: {} }) value: unknown) {
    received.push([value]);
    return "ok";
  }
}

const seenDefaults: unknown[][] = [];

class Mixed {
  @Tool("Ctx first, then a Date, then a defaulted list")
  ctxFirst(
    @Ctx() ctx: ToolContext,
    @Param("when") when: Date,
    @Param("tags", { type: [String], default: ["base"] }) tags: string[],
  ) {
    received.push([ctx, when, tags]);
    return "ok";
  }

  @Tool("Ctx in the middle")
  ctxMiddle(@Param("city") city: string, @Ctx() ctx: ToolContext, @Param("days") days: number) {
    received.push([city, ctx, days]);
    return "ok";
  }

  @Tool("Ctx last")
  ctxLast(
    @Param("city") city: string,
    @Param("days", { optional: true, type: Number }) days: number | undefined,
    @Ctx() ctx: ToolContext,
  ) {
    received.push([city, days, ctx]);
    return "ok";
  }

  @Tool("Defaults that the body mutates")
  mutates(
    @Param("list", { type: [String], default: ["a"] }) list: string[],
    @Param("options", { schema: { type: "object" }, default: { depth: 1, nested: { seen: [] as string[] } } })
    options: { depth: number; nested: { seen: string[] } },
    @Param("limit", { default: 10 }) limit: number,
  ) {
    seenDefaults.push(structuredClone([list, options, limit]));
    received.push([list, options, limit]);
    list.push("mutated");
    options.depth = 99;
    options.nested.seen.push("mutated");
    return "ok";
  }

  @Tool("Everything at once")
  everything(
    @Param("plain") plain: string,
    @Ctx() ctx: ToolContext,
    @Param("since", { default: "2000-01-01T00:00:00.000Z" }) since: Date,
    @Param('odd "name"', { optional: true, type: String }) odd: string | undefined,
    @Param("dates", { type: [Date], optional: true }) dates: Date[] | undefined,
    @Param("count", { integer: true, default: 3 }) count: number,
    @Ctx() again: ToolContext,
    @Param("toString", { schema: {}, optional: true }) toString?: unknown,
  ) {
    received.push([plain, ctx, since, odd, dates, count, again, toString]);
    return "ok";
  }
}

const kit = new Toolkit([new Tricky(), new Mixed()]);

beforeEach(() => {
  received.length = 0;
  seenDefaults.length = 0;
  delete (globalThis as Record<string, unknown>).injected;
});

afterAll(() => {
  delete (globalThis as Record<string, unknown>).injected;
});

describe("decorated tools: arguments by generated positional readers", () => {
  describe("parameter names", () => {
    it("refuses __proto__, constructor and prototype as names at scan time", () => {
      for (const name of ["__proto__", "constructor", "prototype"]) {
        class Refused {
          @Tool("Refused")
          run(@Param(name) value: string) {
            return value;
          }
        }
        expect(() => scanTools(new Refused(), { manifest: false })).toThrow(ScanError);
        expect(() => scanTools(new Refused(), { manifest: false })).toThrow(`"${name}" cannot be an argument name`);
      }
    });

    it("accepts names holding quotes, backslashes, ${, */, newlines, U+2028/U+2029 or nothing at all, and declares each as it is", () => {
      expect(Object.keys(kit.get("echo")!.inputSchema.properties!)).toEqual(TRICKY_NAMES);
    });

    it("binds each such name to its own position, and runs nothing the names spell", async () => {
      const args = Object.fromEntries(TRICKY_NAMES.map((name, index) => [name, `value ${index}`]));
      const result = await kit.execute("echo", args);
      expect(result).toEqual({ output: "ok", isError: false });
      expect(received).toEqual([TRICKY_NAMES.map((_, index) => `value ${index}`)]);
      expect((globalThis as Record<string, unknown>).injected).toBeUndefined();
    });

    it("binds them as well from a JSON string of arguments", async () => {
      const args = Object.fromEntries(TRICKY_NAMES.map((name, index) => [name, `json ${index}`]));
      const result = await kit.execute("echo", JSON.stringify(args));
      expect(result).toEqual({ output: "ok", isError: false });
      expect(received).toEqual([TRICKY_NAMES.map((_, index) => `json ${index}`)]);
    });

    it("gives undefined for a toString, hasOwnProperty, valueOf ... argument that was not sent, never the Object.prototype member", async () => {
      const result = await kit.execute("inherited", {});
      expect(result).toEqual({ output: "ok", isError: false });
      expect(received).toEqual([[undefined, undefined, undefined, undefined, undefined]]);
    });

    it("binds toString, hasOwnProperty, valueOf ... arguments that were sent, a sent hasOwnProperty breaking nothing", async () => {
      const result = await kit.execute("inherited", {
        toString: "s",
        hasOwnProperty: "h",
        valueOf: 3,
        isPrototypeOf: false,
        __defineGetter__: [1],
      });
      expect(result).toEqual({ output: "ok", isError: false });
      expect(received).toEqual([["s", "h", 3, false, [1]]]);
    });

    it("binds only the sent ones when some are left out", async () => {
      const result = await kit.execute("inherited", { valueOf: { nested: true } });
      expect(result).toEqual({ output: "ok", isError: false });
      expect(received).toEqual([[undefined, undefined, { nested: true }, undefined, undefined]]);
    });

    it("binds typed toString/valueOf/hasOwnProperty arguments that were sent", async () => {
      const result = await kit.execute("typedInherited", { toString: "t", valueOf: 2, hasOwnProperty: true });
      expect(result).toEqual({ output: "ok", isError: false });
      expect(received).toEqual([["t", 2, true]]);
    });

    // BUG (src/runtime/validation.ts, the shared Ajv instance): Ajv is created without
    // `ownProperties: true`, so `properties` reads `args.toString` through the prototype chain.
    // A call that leaves out an optional typed "toString"/"valueOf"/"hasOwnProperty" is refused:
    // `"toString" must be string, got function`.
    it("lets typed, optional toString/valueOf/hasOwnProperty parameters be left out (they are then undefined)", async () => {
      const result = await kit.execute("typedInherited", {});
      expect(result).toEqual({ output: "ok", isError: false });
      expect(received).toEqual([[undefined, undefined, undefined]]);
    });

    // BUG (same cause): `required` is checked as `args.toString !== undefined`, which the
    // inherited method satisfies; the call is refused as a wrong type ("got function"), not
    // reported as a missing argument.
    it("reports a required toString that was not sent as a missing argument", async () => {
      const result = await kit.execute("requiredToString", {});
      expect(result.metadata?.error).toBe("invalid_arguments");
      expect(result.output).toContain('missing required argument "toString"');
      expect(result.output).not.toContain("function");
      expect(received).toEqual([]);
    });

    // BUG (same cause): with a schema that accepts any value, the inherited method satisfies
    // `required`, so the call is accepted and the body runs with `undefined` for a required argument.
    it("refuses a call that leaves out a required any-valued toString, never running the body", async () => {
      const result = await kit.execute("requiredAnyToString", {});
      expect(result.metadata?.error).toBe("invalid_arguments");
      expect(received).toEqual([]);
    });
  });

  describe("@Ctx", () => {
    it("receives the call's context when it comes first", async () => {
      const state = { user: "u1" };
      const result = await kit.execute(
        "ctxFirst",
        { when: "2024-05-06T07:08:09.000Z", tags: ["x"] },
        { callId: "c1", state },
      );
      expect(result).toEqual({ output: "ok", isError: false });
      const [ctx, when, tags] = received[0]!;
      expect((ctx as ToolContext).callId).toBe("c1");
      expect((ctx as ToolContext).state).toBe(state);
      expect(when).toBeInstanceOf(Date);
      expect((when as Date).toISOString()).toBe("2024-05-06T07:08:09.000Z");
      expect(tags).toEqual(["x"]);
    });

    it("receives the call's context in the middle, its neighbours their arguments", async () => {
      await kit.execute("ctxMiddle", { days: 4, city: "Lima" }, { callId: "c2" });
      expect(received).toHaveLength(1);
      const [city, ctx, days] = received[0]!;
      expect(city).toBe("Lima");
      expect((ctx as ToolContext).callId).toBe("c2");
      expect(days).toBe(4);
    });

    it("receives the call's context when last, after an optional argument that was left out", async () => {
      await kit.execute("ctxLast", { city: "Oslo" }, { callId: "c3" });
      const [city, days, ctx] = received[0]!;
      expect(city).toBe("Oslo");
      expect(days).toBeUndefined();
      expect((ctx as ToolContext).callId).toBe("c3");
    });

    it("is an object even when the call carries no context", async () => {
      await kit.execute("ctxMiddle", { city: "Rome", days: 1 });
      const [, ctx] = received[0]!;
      expect(typeof ctx).toBe("object");
      expect(ctx).not.toBeNull();
    });

    it("is not part of the schema", () => {
      expect(kit.get("ctxMiddle")!.inputSchema).toEqual({
        type: "object",
        properties: { city: { type: "string" }, days: { type: "number" } },
        required: ["city", "days"],
        additionalProperties: false,
      });
    });
  });

  describe("@Param with a default", () => {
    it("gives the declared default when the argument is not sent", async () => {
      await kit.execute("mutates", {});
      expect(seenDefaults).toEqual([[["a"], { depth: 1, nested: { seen: [] } }, 10]]);
    });

    it("gives a fresh copy on each call: a body mutating it in one call does not affect the next", async () => {
      await kit.execute("mutates", {});
      await kit.execute("mutates", {});
      await kit.execute("mutates", {});
      expect(seenDefaults).toEqual([
        [["a"], { depth: 1, nested: { seen: [] } }, 10],
        [["a"], { depth: 1, nested: { seen: [] } }, 10],
        [["a"], { depth: 1, nested: { seen: [] } }, 10],
      ]);
      // Each call got objects of its own.
      expect(received[0]![0]).not.toBe(received[1]![0]);
      expect(received[0]![1]).not.toBe(received[1]![1]);
    });

    it("leaves the default declared in the schema untouched by what bodies do", async () => {
      await kit.execute("mutates", {});
      await kit.execute("mutates", {});
      const properties = kit.get("mutates")!.inputSchema.properties!;
      expect(properties.list!.default).toEqual(["a"]);
      expect(properties.limit!.default).toBe(10);
    });

    it("gives the sent value, not the default, when one is sent", async () => {
      const list = ["mine"];
      await kit.execute("mutates", { list, options: { depth: 5, nested: { seen: ["s"] } }, limit: 2 });
      expect(seenDefaults).toEqual([[["mine"], { depth: 5, nested: { seen: ["s"] } }, 2]]);
      expect(received[0]![0]).toBe(list);
    });

    it("gives the default for null sent for an optional parameter (null means not given)", async () => {
      await kit.execute("mutates", { list: null, limit: null });
      expect(seenDefaults).toEqual([[["a"], { depth: 1, nested: { seen: [] } }, 10]]);
    });

    it("makes the parameters optional in the schema", () => {
      expect(kit.get("mutates")!.inputSchema.required).toBeUndefined();
    });
  });

  describe("Date conversion", () => {
    it("turns a date-time string into a Date, and a list of them into a list of Dates", async () => {
      const result = await kit.execute("everything", {
        plain: "p",
        since: "2021-02-03T04:05:06.000Z",
        dates: ["2022-01-01T00:00:00.000Z", "2023-06-30T12:00:00.000Z"],
      });
      expect(result).toEqual({ output: "ok", isError: false });
      const [, , since, , dates] = received[0]!;
      expect(since).toBeInstanceOf(Date);
      expect((since as Date).toISOString()).toBe("2021-02-03T04:05:06.000Z");
      expect((dates as Date[]).map((d) => d instanceof Date && d.toISOString())).toEqual([
        "2022-01-01T00:00:00.000Z",
        "2023-06-30T12:00:00.000Z",
      ]);
    });

    it("turns a string default into a Date as well, a new one per call", async () => {
      await kit.execute("everything", { plain: "p" });
      await kit.execute("everything", { plain: "q" });
      const first = received[0]![2] as Date;
      const second = received[1]![2] as Date;
      expect(first).toBeInstanceOf(Date);
      expect(first.toISOString()).toBe("2000-01-01T00:00:00.000Z");
      expect(second).not.toBe(first);
    });

    it("refuses a string that is not a date-time before the body runs", async () => {
      const result = await kit.execute("ctxFirst", { when: "yesterday" });
      expect(result.metadata?.error).toBe("invalid_arguments");
      expect(received).toEqual([]);
    });
  });

  describe("a mix of all of these", () => {
    it("binds every position: plain, ctx, defaulted Date, quoted name, Date list, defaulted integer, a second ctx, toString", async () => {
      const state = { tenant: "t" };
      const result = await kit.execute(
        "everything",
        { count: 7, toString: "ts", dates: ["2020-01-01T00:00:00.000Z"], 'odd "name"': "odd", plain: "plain" },
        { callId: "mix", state },
      );
      expect(result).toEqual({ output: "ok", isError: false });
      const [plain, ctx, since, odd, dates, count, again, toString] = received[0]!;
      expect(plain).toBe("plain");
      expect((ctx as ToolContext).callId).toBe("mix");
      expect((ctx as ToolContext).state).toBe(state);
      expect((since as Date).toISOString()).toBe("2000-01-01T00:00:00.000Z");
      expect(odd).toBe("odd");
      expect((dates as Date[])[0]).toBeInstanceOf(Date);
      expect((dates as Date[])[0]!.toISOString()).toBe("2020-01-01T00:00:00.000Z");
      expect(count).toBe(7);
      expect(again).toBe(ctx);
      expect(toString).toBe("ts");
    });

    it("fills the left-out optional and defaulted positions with undefined and defaults", async () => {
      await kit.execute("everything", { plain: "only" });
      const [plain, , since, odd, dates, count, , toString] = received[0]!;
      expect(plain).toBe("only");
      expect((since as Date).toISOString()).toBe("2000-01-01T00:00:00.000Z");
      expect(odd).toBeUndefined();
      expect(dates).toBeUndefined();
      expect(count).toBe(3);
      expect(toString).toBeUndefined();
    });

    it("converts a numeric string for the integer position before binding", async () => {
      await kit.execute("everything", { plain: "p", count: "12" });
      expect(received[0]![5]).toBe(12);
    });

    it("binds the same way through the tool's own execute", async () => {
      const tool = kit.get("everything")!;
      const result = await tool.execute({ plain: "direct", count: 1 }, { callId: "own" });
      expect(result).toEqual({ output: "ok", isError: false });
      const [plain, ctx, , , , count] = received[0]!;
      expect(plain).toBe("direct");
      expect((ctx as ToolContext).callId).toBe("own");
      expect(count).toBe(1);
    });
  });

  describe("a tool whose schema Ajv cannot compile", () => {
    const calls: string[] = [];

    class Broken {
      @Tool("Has an unusable pattern")
      broken(@Param("x", { schema: { type: "string", pattern: "(" } }) x: string) {
        calls.push(x);
        return "ran";
      }

      @Tool("Works")
      works(@Param("y") y: string) {
        return `works ${y}`;
      }
    }

    it("is accepted at scan time", () => {
      expect(() => scanTools(new Broken(), { manifest: false })).not.toThrow();
    });

    it("answers every call with an execution_failed result and never rejects, its body never run", async () => {
      const brokenKit = new Toolkit([new Broken()]);
      for (let i = 0; i < 3; i++) {
        let promise: Promise<unknown> | undefined;
        expect(() => {
          promise = brokenKit.execute("broken", { x: "a" });
        }).not.toThrow();
        const result = await promise!;
        expect(result).toMatchObject({ isError: true, metadata: { error: "execution_failed" } });
        expect((result as { output: string }).output).toContain('Tool "broken" could not run');
      }
      const direct = await brokenKit.get("broken")!.execute({ x: "a" });
      expect(direct).toMatchObject({ isError: true, metadata: { error: "execution_failed" } });
      expect(calls).toEqual([]);
    });

    it("answers calls with bad arguments the same way, and leaves the other tools working", async () => {
      const brokenKit = new Toolkit([new Broken()]);
      await expect(brokenKit.execute("broken", { x: 1 })).resolves.toMatchObject({
        isError: true,
        metadata: { error: "execution_failed" },
      });
      await expect(brokenKit.execute("broken", "{}")).resolves.toMatchObject({
        isError: true,
        metadata: { error: "execution_failed" },
      });
      await expect(brokenKit.execute("works", { y: "yes" })).resolves.toEqual({ output: "works yes", isError: false });
    });
  });
});

describe("@Param({ default })", () => {
  it("passes the declared default when the argument is absent, a fresh copy each call", async () => {
    const seen: unknown[] = [];
    class Svc {
      @Tool("t")
      t(@Param({ default: 5 }) n: number, @Param({ default: ["a"], type: [String] }) tags: string[]) {
        seen.push(tags);
        tags.push("mutated");
        return n;
      }
    }
    const kit = new Toolkit([new Svc()]);
    expect(await kit.execute("t", {})).toEqual({ output: "5", isError: false });
    expect(await kit.execute("t", { n: 7 })).toEqual({ output: "7", isError: false });
    expect(seen[1]).toEqual(["a", "mutated"]);
    expect(seen[0]).not.toBe(seen[1]);
  });

  it("declares the default next to an explicit schema too (the schema's own default wins)", () => {
    class Svc {
      @Tool("t")
      t(
        @Param("units", { schema: { type: "string", enum: ["c", "f"] }, default: "c", description: "Units" })
        units: string,
        @Param("mode", { schema: { type: "string", default: "fast" }, default: "slow" }) mode: string,
      ) {
        return `${units} ${mode}`;
      }
    }
    const schema = new Toolkit([new Svc()]).get("t")!.inputSchema;
    expect(schema.properties!.units).toEqual({ type: "string", description: "Units", enum: ["c", "f"], default: "c" });
    expect(schema.properties!.mode!.default).toBe("fast");
    expect(schema.required).toBeUndefined();
  });
});

describe("arrays of Date", () => {
  it("arrive as Date instances", async () => {
    class Svc {
      @Tool("t")
      t(@Param({ type: [Date] }) days: Date[]) {
        return days.map((d) => d instanceof Date && d.toISOString());
      }
    }
    const kit = new Toolkit([new Svc()]);
    expect(kit.get("t")!.inputSchema.properties!.days).toEqual({
      type: "array",
      items: { type: "string", format: "date-time" },
    });
    const result = await kit.execute("t", { days: ["2024-01-01T00:00:00Z"] });
    expect(JSON.parse(result.output)).toEqual(["2024-01-01T00:00:00.000Z"]);
  });
});
