import "reflect-metadata";
import { IsString } from "class-validator";
import {
  Args,
  defineTool,
  Param,
  Tool,
  Toolkit,
  type Tool as ToolType,
  type ToolContext,
  type ToolResult,
} from "../../src";

/**
 * Toolkit.execute never rejects and never throws, whatever the host passes as the call's
 * context: a context whose `timeout` getter throws, or whose `signal` is not an AbortSignal,
 * gives an `execution_failed` result, and the tool body is not run.
 */

const ran: string[] = [];

/** Written by hand: a plain object, not made by defineTool. */
const foreign: ToolType = {
  name: "foreign",
  description: "A hand-written tool",
  inputSchema: { type: "object", properties: { q: { type: "string" } } },
  source: "hand-written",
  async execute(args) {
    ran.push("foreign");
    return { output: `foreign ${String(args.q)}`, isError: false };
  },
};

/** Also hand-written, answering synchronously with a bare value. */
const foreignSync: ToolType = {
  name: "foreign_sync",
  description: "A hand-written tool that answers at once",
  inputSchema: { type: "object" },
  source: "hand-written",
  execute: (() => {
    ran.push("foreign_sync");
    return "sync";
  }) as unknown as ToolType["execute"],
};

const native = defineTool({
  name: "native",
  description: "Made by defineTool",
  inputSchema: { type: "object", properties: { q: { type: "string" } } },
  execute: ({ q }) => {
    ran.push("native");
    return `native ${String(q)}`;
  },
});

const validated = defineTool({
  name: "validated",
  description: "Made by defineTool, arguments checked",
  inputSchema: { type: "object", properties: { q: { type: "string" } }, required: ["q"] },
  validate: true,
  timeout: 5_000,
  execute: ({ q }) => {
    ran.push("validated");
    return `validated ${String(q)}`;
  },
});

class QueryDto {
  @IsString() q!: string;
}

class Decorated {
  @Tool("A decorated tool")
  decorated(@Param("q") q: string) {
    ran.push("decorated");
    return `decorated ${q}`;
  }

  @Tool({ description: "A decorated tool with its own timeout", timeout: 5_000 })
  decoratedTimed(@Param("q") q: string) {
    ran.push("decoratedTimed");
    return `decoratedTimed ${q}`;
  }

  @Tool("A decorated tool taking a DTO (its body is awaited)")
  decoratedDto(@Args() dto: QueryDto) {
    ran.push("decoratedDto");
    return `decoratedDto ${dto.q}`;
  }
}

const TOOLS = [
  "foreign",
  "foreign_sync",
  "native",
  "validated",
  "decorated",
  "decoratedTimed",
  "decoratedDto",
] as const;

const throwingTimeout = (): ToolContext =>
  ({
    get timeout(): number {
      throw new Error("the host's timeout getter failed");
    },
  }) as ToolContext;

const CONTEXTS: Array<[string, () => ToolContext]> = [
  ["whose timeout getter throws", throwingTimeout],
  ["whose signal is {} (not an AbortSignal)", () => ({ signal: {} as AbortSignal })],
  ["whose signal is {} and that carries a timeout", () => ({ signal: {} as AbortSignal, timeout: 1_000 })],
  [
    "whose signal's addEventListener throws",
    () => ({
      signal: {
        aborted: false,
        addEventListener() {
          throw new Error("no listeners here");
        },
        removeEventListener() {},
      } as unknown as AbortSignal,
    }),
  ],
  [
    "whose signal getter throws",
    () =>
      ({
        get signal(): AbortSignal {
          throw new Error("the host's signal getter failed");
        },
      }) as ToolContext,
  ],
];

const ARGS = { q: "x" };

/** Calls execute, asserting it returns (does not throw) a promise; the promise is returned unawaited. */
function executeWithoutThrowing(kit: Toolkit, name: string, ctx: ToolContext): Promise<ToolResult> {
  let promise: Promise<ToolResult> | undefined;
  expect(() => {
    promise = kit.execute(name, ARGS, ctx);
  }).not.toThrow();
  expect(promise).toBeInstanceOf(Promise);
  return promise!;
}

describe("Toolkit.execute with a host context it cannot use", () => {
  const kit = new Toolkit([foreign, foreignSync, native, validated, new Decorated()]);
  const timedKit = new Toolkit([foreign, native, new Decorated()], { timeout: 2_000 });

  beforeEach(() => {
    ran.length = 0;
  });

  it("runs every tool normally with a usable context (the tools themselves work)", async () => {
    for (const name of TOOLS) {
      const result = await kit.execute(name, ARGS, { callId: "ok", timeout: 1_000 });
      expect(result.isError).toBe(false);
    }
    expect(ran).toEqual([...TOOLS]);
  });

  describe.each(CONTEXTS)("a context %s", (_label, makeCtx) => {
    it.each(TOOLS.map((name) => [name]))(
      "%s: resolves to an execution_failed result, never throws or rejects, and does not run the body",
      async (name) => {
        const promise = executeWithoutThrowing(kit, name, makeCtx());
        await expect(promise).resolves.toMatchObject({ isError: true, metadata: { error: "execution_failed" } });
        const result = await promise;
        expect(typeof result.output).toBe("string");
        expect(result.output).toContain(`"${name}"`);
        expect(ran).toEqual([]);
      },
    );

    it("gives the same with a toolkit-wide timeout", async () => {
      for (const name of ["foreign", "native", "decorated", "decoratedDto"]) {
        const result = await executeWithoutThrowing(timedKit, name, makeCtx());
        expect(result).toMatchObject({ isError: true, metadata: { error: "execution_failed" } });
      }
      expect(ran).toEqual([]);
    });
  });

  it("says what went wrong: the host's own error message is in the output", async () => {
    const fromTimeout = await kit.execute("foreign", ARGS, throwingTimeout());
    expect(fromTimeout.output).toContain("the host's timeout getter failed");
    const fromSignal = await kit.execute("native", ARGS, { signal: {} as AbortSignal });
    expect(fromSignal.output).toContain('Tool "native"');
  });

  it("keeps answering normally afterwards: a bad context harms only its own call", async () => {
    await kit.execute("decorated", ARGS, throwingTimeout());
    await kit.execute("foreign", ARGS, { signal: {} as AbortSignal });
    expect(await kit.execute("decorated", ARGS)).toEqual({ output: "decorated x", isError: false });
    expect(await kit.execute("foreign", ARGS)).toEqual({ output: "foreign x", isError: false });
    expect(ran).toEqual(["decorated", "foreign"]);
  });

  it("answers calls running concurrently each on its own: bad contexts fail, good ones succeed", async () => {
    const results = await Promise.all([
      kit.execute("native", ARGS, throwingTimeout()),
      kit.execute("native", ARGS, { callId: "good" }),
      kit.execute("decorated", ARGS, { signal: {} as AbortSignal }),
      kit.execute("decorated", ARGS, { signal: new AbortController().signal }),
    ]);
    expect(results.map((r) => r.metadata?.error ?? "ok")).toEqual(["execution_failed", "ok", "execution_failed", "ok"]);
  });

  it("gives the same through a tool's own execute (the toolnexus-made tools)", async () => {
    for (const tool of [native, validated, ...kit.tools().filter((t) => t.source === "decorator")]) {
      for (const [, makeCtx] of CONTEXTS) {
        let promise: Promise<ToolResult> | undefined;
        expect(() => {
          promise = tool.execute(ARGS, makeCtx());
        }).not.toThrow();
        await expect(promise!).resolves.toMatchObject({ isError: true, metadata: { error: "execution_failed" } });
      }
    }
    expect(ran).toEqual([]);
  });
});
