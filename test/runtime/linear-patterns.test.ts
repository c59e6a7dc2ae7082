/**
 * Patterns run in linear time. Every schema `pattern` and every class-validator `@Matches`
 * runs on RE2, after the length, type and enum checks, so no argument a model chooses can
 * hold validation hostage: the catastrophic patterns below take exponential time on
 * JavaScript's own engine (2^40 steps and more for these inputs), so a test that finishes at
 * all has run them on the linear engine. A pattern RE2 cannot run is refused when the tool
 * is defined, unless the tool opts in.
 */
import "reflect-metadata";
import { IsString, Matches, MaxLength } from "class-validator";
import fc from "fast-check";
import {
  Args,
  Param,
  LIMITS,
  ScanError,
  Tool,
  ToolDefinitionError,
  Toolkit,
  defineTool,
  scanTools,
  type JSONSchemaObject,
} from "../../src";
import { LinearRegExp, linearPattern, testLinear } from "../../src/runtime/linear-regexp";

const { PATTERN_INPUT_LIMIT } = LIMITS;

/** Patterns known to backtrack catastrophically, each with inputs that make them do it. */
const CATASTROPHIC: Array<{ pattern: string; attacks: string[] }> = [
  { pattern: "^(a+)+$", attacks: ["a".repeat(48) + "!", "a".repeat(50_000) + "b"] },
  { pattern: "^(a|aa)+$", attacks: ["a".repeat(60) + "b"] },
  { pattern: "^(a|a?)+$", attacks: ["a".repeat(40) + "b"] },
  { pattern: "(x+x+)+y", attacks: ["x".repeat(40), "x".repeat(16_000)] },
  { pattern: "^(\\w+\\s?)*$", attacks: ["an attack ".repeat(6) + "string that does not end well!"] },
  {
    pattern:
      "^([a-zA-Z0-9])(([\\-.]|[_]+)?([a-zA-Z0-9]+))*(@){1}[a-z0-9]+[.]{1}(([a-z]{2,3})|([a-z]{2,3}[.]{1}[a-z]{2,3}))$",
    attacks: ["a".repeat(40) + "@"],
  },
  { pattern: "^(([a-z])+.)+[A-Z]([a-z])+$", attacks: ["a".repeat(40) + "!"] },
  { pattern: "^(\\d+)*$", attacks: ["1".repeat(40) + "x"] },
];

function patternTool(pattern: string, extra: JSONSchemaObject = {}) {
  return defineTool({
    name: "check",
    description: "Checks a code",
    validate: true,
    inputSchema: { type: "object", properties: { code: { type: "string", pattern, ...extra } }, required: ["code"] },
    execute: ({ code }) => `ok ${String(code).length}`,
  });
}

describe("schema patterns run on a linear-time engine", () => {
  it.each(CATASTROPHIC)("$pattern: every attack is answered, as invalid_arguments", async ({ pattern, attacks }) => {
    const tool = patternTool(pattern);
    for (const code of attacks) {
      const result = await tool.execute({ code });
      expect(result.isError).toBe(true);
      expect(result.metadata?.error).toBe("invalid_arguments");
    }
  });

  it("a fuzz over the catastrophic patterns and long adversarial inputs always answers", async () => {
    const tools = CATASTROPHIC.map(({ pattern }) => patternTool(pattern));
    const adversarial = fc
      .tuple(
        fc.constantFrom("a", "x", "1", "aa", "ab", " a", "a."),
        fc.integer({ min: 20, max: 20_000 }),
        fc.constantFrom("", "!", "b", "@", "\n"),
      )
      .map(([unit, times, tail]) => unit.repeat(times) + tail);
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: tools.length - 1 }), adversarial, async (index, code) => {
        const result = await tools[index]!.execute({ code });
        expect(typeof result.output).toBe("string");
        expect(["invalid_arguments", undefined]).toContain(result.metadata?.error);
      }),
      { numRuns: 300, seed: 1_303 },
    );
  });

  it("checks lengths before patterns: an over-long argument is refused for its length alone", async () => {
    const result = await patternTool("^(a+)+$", { maxLength: 64 }).execute({ code: "a".repeat(50_000) + "b" });
    expect(result.output).toBe(
      `Invalid arguments for tool "check": "code" must NOT have more than 64 characters, got string "${"a".repeat(57)}..."`,
    );
  });

  it("checks types and enums before patterns, then the patterns on what passed: every problem in one answer", async () => {
    const tool = defineTool({
      name: "check",
      description: "Checks",
      validate: true,
      inputSchema: {
        type: "object",
        properties: { code: { type: "string", pattern: "^(a+)+$" }, mode: { enum: ["fast", "slow"] } },
        required: ["code", "mode"],
      },
      execute: () => "ok",
    });
    const result = await tool.execute({ code: "a".repeat(40) + "!", mode: "other" });
    expect(result.output).toBe(
      [
        'Invalid arguments for tool "check":',
        '- "mode" must be one of "fast", "slow", got string "other"',
        `- "code" must match pattern "^(a+)+$", got string "${"a".repeat(40)}!"`,
      ].join("\n"),
    );
  });

  it("never runs a pattern on a string refused for its length, whatever else is wrong", async () => {
    // On JavaScript's engine (the opt-in), this pattern takes seconds on 26 characters.
    const tool = defineTool({
      name: "check",
      description: "Checks",
      validate: true,
      backtrackingPatterns: true,
      inputSchema: {
        type: "object",
        properties: {
          code: { type: "string", pattern: "^(?=a)(a+)+$", maxLength: 20 },
          mode: { enum: ["fast", "slow"] },
        },
        required: ["code", "mode"],
      },
      execute: () => "ok",
    });
    const started = performance.now();
    const result = await tool.execute({ code: "a".repeat(26) + "!", mode: "other" });
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(result.output).toBe(
      [
        'Invalid arguments for tool "check":',
        `- "code" must NOT have more than 20 characters, got string "${"a".repeat(26)}!"`,
        '- "mode" must be one of "fast", "slow", got string "other"',
      ].join("\n"),
    );
  });

  it(`checks a pattern on at most ${PATTERN_INPUT_LIMIT} characters unless the schema allows more, and says so`, async () => {
    const tool = patternTool("^[a-z]+$");
    expect((await tool.execute({ code: "a".repeat(PATTERN_INPUT_LIMIT) })).isError).toBe(false);
    const result = await tool.execute({ code: "a".repeat(PATTERN_INPUT_LIMIT + 1) });
    expect(result.output).toMatch(
      new RegExp(
        `"code" is too long to be checked against its pattern \\(at most ${PATTERN_INPUT_LIMIT} characters\\)`,
      ),
    );
    const roomy = patternTool("^[a-z]+$", { maxLength: 100_000 });
    expect((await roomy.execute({ code: "a".repeat(100_000) })).output).toBe("ok 100000");
  });

  it("applies the same bound to patternProperties keys, and still enforces them", async () => {
    const tool = defineTool({
      name: "tags",
      description: "Tags",
      validate: true,
      inputSchema: {
        type: "object",
        patternProperties: { "^(t+)+$": { type: "number" } },
        additionalProperties: false,
      },
      execute: () => "ok",
    });
    expect((await tool.execute({ ttt: 1 })).isError).toBe(false);
    expect((await tool.execute({ ttt: "one" })).isError).toBe(true);
    expect((await tool.execute({ ["t".repeat(40) + "!"]: 1 })).isError).toBe(true);
    expect((await tool.execute({ ["t".repeat(PATTERN_INPUT_LIMIT + 1)]: 1 })).isError).toBe(true);
  });
});

describe("RE2 answers as JavaScript would", () => {
  const PATTERNS = [
    "^[a-z]+$",
    "^\\s*\\S+\\s*$",
    "^a.b$",
    "^[\\s\\S]{2,4}$",
    "\\d{3}-\\d{4}",
    "^[^\\S]*$",
    "^\\u00e9+",
    "^[\\w.-]+@[\\w-]+\\.[a-z]{2,}$",
    "(?<=@)x",
    "^[a\\S]$",
    "^[\\b]$",
  ];
  const text = fc.string({
    unit: fc.constantFrom(
      "a",
      "b",
      "z",
      "1",
      "-",
      "@",
      ".",
      "x",
      "é",
      " ",
      "\t",
      "\n",
      "\r",
      "\u00a0",
      "\u2028",
      "\ufeff",
      "\v",
      "\b",
      "_",
    ),
  });

  it.each(PATTERNS)("%s matches exactly the strings JavaScript's engine matches", (source) => {
    const linear = linearPattern(source);
    if (!linear.ok) throw new Error(linear.reason);
    const native = new RegExp(source);
    fc.assert(
      fc.property(text, (input) => testLinear(linear.regexp, input) === native.test(input)),
      { numRuns: 500, seed: 7 },
    );
  });

  it("refuses backreferences, lookahead, and a negated class that holds \\S with other members", () => {
    for (const source of ["(a)\\1", "(?=a)b", "(?!a)b", "[^a\\S]", "(?<n>a)\\k<n>"])
      expect(linearPattern(source).ok).toBe(false);
  });

  it("gives class-validator a RegExp that matches on RE2 (test, match and exec)", () => {
    const linear = linearPattern("^(a+)+$");
    if (!linear.ok) throw new Error(linear.reason);
    const regexp = new LinearRegExp("^(a+)+$", linear.regexp);
    const attack = "a".repeat(48) + "!";
    expect(regexp.test(attack)).toBe(false);
    expect(attack.match(regexp)).toBeNull();
    expect(regexp.test("aaa")).toBe(true);
    expect(String(regexp)).toBe("/^(a+)+$/");
    expect(Object.prototype.toString.call(regexp)).toBe("[object RegExp]");
  });
});

class CodeDto {
  @IsString()
  @MaxLength(100_000)
  @Matches(/^(a+)+$/)
  code!: string;
}

class Codes {
  @Tool("Checks a code held in a DTO")
  viaDto(@Args() dto: CodeDto) {
    return dto.code.length;
  }

  @Tool("Checks a code given as a parameter")
  viaParam(@Param({ pattern: "^(a|aa)+$" }) code: string) {
    return code.length;
  }
}

describe("@Matches and @Param patterns in decorated tools run on RE2 too", () => {
  const toolkit = new Toolkit([new Codes()]);

  it("answers a catastrophic @Matches attack (schema check and class-validator alike)", async () => {
    for (const code of ["a".repeat(48) + "!", "a".repeat(50_000) + "b"]) {
      const result = await toolkit.execute("viaDto", { code });
      expect(result.metadata?.error).toBe("invalid_arguments");
    }
    expect(await toolkit.execute("viaDto", { code: "aaaa" })).toEqual({ output: "4", isError: false });
  });

  it("answers a catastrophic @Param pattern attack", async () => {
    expect((await toolkit.execute("viaParam", { code: "a".repeat(60) + "b" })).metadata?.error).toBe(
      "invalid_arguments",
    );
    expect(await toolkit.execute("viaParam", { code: "aaa" })).toEqual({ output: "3", isError: false });
  });
});

class Backreference {
  @Tool("Repeats")
  twice(@Param({ pattern: "^(\\w+) \\1$" }) words: string) {
    return words;
  }
}

class LookaheadDto {
  @IsString()
  @Matches(/^(?=.*\d)\w+$/)
  password!: string;
}

class Accounts {
  @Tool("Creates an account")
  create(@Args() dto: LookaheadDto) {
    return dto.password.length;
  }
}

class OptedIn {
  @Tool({ description: "Repeats", backtrackingPatterns: true })
  twice(@Param({ pattern: "^(\\w+) \\1$", maxLength: 40 }) words: string) {
    return words;
  }
}

describe("a pattern RE2 cannot run is refused when the tool is defined", () => {
  it("names the class, the method and the parameter of a @Param pattern", () => {
    expect(() => scanTools(new Backreference())).toThrow(ScanError);
    expect(() => scanTools(new Backreference())).toThrow(
      /^Backreference\.twice, parameter 0 \("words"\): the pattern "\^\(\\\\w\+\) \\\\1\$" \(at \/properties\/words\/pattern\) cannot run in linear time: .*backreferences.*@Tool\(\{ backtrackingPatterns: true \}\)/,
    );
  });

  it("names the class, the method and the DTO property of a @Matches pattern", () => {
    expect(() => scanTools(new Accounts())).toThrow(
      /^Accounts\.create, @Args property "password": the pattern .* cannot run in linear time/,
    );
  });

  it("runs it on JavaScript's engine when the tool opts in", async () => {
    const toolkit = new Toolkit([new OptedIn()]);
    expect(await toolkit.execute("twice", { words: "hey hey" })).toEqual({ output: "hey hey", isError: false });
    expect((await toolkit.execute("twice", { words: "hey you" })).metadata?.error).toBe("invalid_arguments");
    expect((await toolkit.execute("twice", { words: "hey hey".repeat(10) })).output).toMatch(
      /must NOT have more than 40 characters/,
    );
  });

  it("refuses it in defineTool with validate: true, and accepts it with backtrackingPatterns: true", async () => {
    const definition = {
      name: "twice",
      description: "Repeats",
      validate: true,
      inputSchema: { type: "object" as const, properties: { w: { type: "string" as const, pattern: "^(\\w+) \\1$" } } },
      execute: () => "ok",
    };
    expect(() => defineTool(definition)).toThrow(ToolDefinitionError);
    expect(() => defineTool(definition)).toThrow(
      /^Tool "twice": the pattern .* \(at \/properties\/w\/pattern\) cannot run in linear time: .*backtrackingPatterns: true/,
    );
    const optedIn = defineTool({ ...definition, backtrackingPatterns: true });
    expect((await optedIn.execute({ w: "a a" })).isError).toBe(false);
    expect((await optedIn.execute({ w: "a b" })).isError).toBe(true);
  });

  it("leaves a tool that does not validate alone (its patterns never run)", () => {
    expect(() =>
      defineTool({
        name: "free",
        description: "Free",
        inputSchema: { type: "object", properties: { w: { type: "string", pattern: "(a)\\1" } } },
        execute: () => "ok",
      }),
    ).not.toThrow();
  });
});
