/**
 * Middleware: `toolkit.use((call, next) => ...)` wraps every call that passed visibility,
 * authorization and approval. The first used is the outermost; it may answer without `next`,
 * change the result, or replace `call.args`; a throw becomes an `execution_failed` result.
 */
import fc from "fast-check";
import {
  defineTool,
  ToolDefinitionError,
  Toolkit,
  type ToolCall,
  type ToolFailure,
  type ToolMiddleware,
  type ToolResult,
} from "../../src";
import { connectMcp, mcpText, pendingOf, providerRows } from "./support";

function echo() {
  const ran: Array<Record<string, unknown>> = [];
  const tool = defineTool({
    name: "echo",
    description: "Echoes its text",
    validate: true,
    inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
    execute: (args) => {
      ran.push(args);
      return `echo: ${String(args.text)}`;
    },
  });
  return { tool, ran };
}

describe("middleware: execute", () => {
  it("use() returns the toolkit and refuses anything but a function", () => {
    const kit = new Toolkit([echo().tool]);
    expect(kit.use((_call, next) => next())).toBe(kit);
    expect(() => kit.use("logger" as unknown as ToolMiddleware)).toThrow(ToolDefinitionError);
  });

  it("runs the first used outermost, around the tool", async () => {
    const log: string[] = [];
    const { tool } = echo();
    const kit = new Toolkit([tool]);
    for (const name of ["a", "b", "c"]) {
      kit.use(async (_call, next) => {
        log.push(`${name} in`);
        const result = await next();
        log.push(`${name} out`);
        return result;
      });
    }
    expect(await kit.execute("echo", { text: "hi" })).toEqual({ output: "echo: hi", isError: false });
    expect(log).toEqual(["a in", "b in", "c in", "c out", "b out", "a out"]);
  });

  it("sees the tool, the arguments and the ctx of the call", async () => {
    const { tool } = echo();
    const seen: ToolCall[] = [];
    const kit = new Toolkit([tool]).use((call, next) => {
      seen.push(call);
      return next();
    });
    await kit.execute("echo", '{"text":"x"}', { callId: "id-1", state: { user: "u" } });
    expect(seen).toHaveLength(1);
    expect(seen[0]!.tool).toBe(tool);
    expect(seen[0]!.args).toEqual({ text: "x" });
    expect(seen[0]!.ctx).toMatchObject({ callId: "id-1", state: { user: "u" } });
  });

  it("may answer without next (a cache): the tool does not run; what it returns becomes the result as a tool's return would", async () => {
    const { tool, ran } = echo();
    const answers: unknown[] = [
      "cached",
      { hits: 3 },
      { output: "limited", isError: true, metadata: { error: "rate_limited" } },
      undefined,
    ];
    const results: ToolResult[] = [];
    for (const answer of answers) {
      const kit = new Toolkit([tool]).use(() => answer);
      results.push(await kit.execute("echo", { text: "hi" }));
    }
    expect(results).toEqual([
      { output: "cached", isError: false },
      { output: '{"hits":3}', isError: false },
      { output: "limited", isError: true, metadata: { error: "rate_limited" } },
      { output: "", isError: false },
    ]);
    expect(ran).toEqual([]);
  });

  it("may change the result next gives", async () => {
    const kit = new Toolkit([echo().tool]).use(async (_call, next) => {
      const result = await next();
      return { ...result, output: result.output.toUpperCase(), metadata: { shouted: true } };
    });
    expect(await kit.execute("echo", { text: "hi" })).toEqual({
      output: "ECHO: HI",
      isError: false,
      metadata: { shouted: true },
    });
  });

  it("may replace call.args before next: the tool gets them, validated", async () => {
    const { tool, ran } = echo();
    const kit = new Toolkit([tool]).use((call, next) => {
      call.args =
        call.args.text === "bad" ? { text: { not: "a string" } } : { ...call.args, text: `${String(call.args.text)}!` };
      return next();
    });
    expect(await kit.execute("echo", { text: "hi" })).toEqual({ output: "echo: hi!", isError: false });
    expect(ran).toEqual([{ text: "hi!" }]);
    // Validation runs after the middleware, on what the tool would get.
    expect((await kit.execute("echo", { text: "bad" })).metadata?.error).toBe("invalid_arguments");
    expect(ran).toHaveLength(1);
  });

  it("runs the tool once when next is called twice; both calls give its result", async () => {
    const { tool, ran } = echo();
    const kit = new Toolkit([tool]).use(async (_call, next) => {
      const first = await next();
      const second = await next();
      return { ...first, output: `${first.output} | ${second.output}` };
    });
    expect((await kit.execute("echo", { text: "once" })).output).toBe("echo: once | echo: once");
    expect(ran).toHaveLength(1);
  });

  it("answers a middleware that throws or rejects with an execution_failed result (an errorId, not what it threw), never a rejection, and tells onError what it threw", async () => {
    const failures: ToolFailure[] = [];
    const thrown = new Error("logger exploded");
    const throwing: ToolMiddleware[] = [
      () => {
        throw thrown;
      },
      async () => {
        throw thrown;
      },
      async (_call, next) => {
        await next();
        throw thrown;
      },
    ];
    for (const middleware of throwing) {
      const kit = new Toolkit([echo().tool], { onError: (failure) => void failures.push(failure) }).use(middleware);
      const result = await kit.execute("echo", { text: "hi" });
      expect(result).toMatchObject({ isError: true, metadata: { error: "execution_failed" } });
      expect(result.output).toBe(
        `Tool "echo" failed in a middleware (error id ${String(result.metadata?.errorId)}). Try another approach, or tell the user the tool is failing.`,
      );
    }
    expect(failures.map((failure) => [failure.kind, failure.error])).toEqual([
      ["execution_failed", thrown],
      ["execution_failed", thrown],
      ["execution_failed", thrown],
    ]);
  });

  it("is not called for unknown or hidden tools, forbidden calls, denied calls, or calls handed back as pending", async () => {
    const middleware = jest.fn((_call: ToolCall, next: () => Promise<ToolResult>) => next());
    const hidden = defineTool({ name: "hidden", description: "Hidden", visible: () => false, execute: () => "" });
    const locked = defineTool({ name: "locked", description: "Locked", authorize: () => false, execute: () => "" });
    const gated = defineTool({ name: "gated", description: "Gated", needsApproval: true, execute: () => "" });
    const denying = new Toolkit([hidden, locked, gated], { approve: () => false }).use(middleware);
    expect((await denying.execute("nope", {})).metadata?.error).toBe("unknown_tool");
    expect((await denying.execute("hidden", {})).metadata?.error).toBe("unknown_tool");
    expect((await denying.execute("locked", {})).metadata?.error).toBe("forbidden");
    expect((await denying.execute("gated", {})).metadata?.error).toBe("denied");
    const deferring = new Toolkit([gated]).use(middleware);
    expect(
      pendingOf(
        await deferring.runOpenAI([{ id: "g", type: "function", function: { name: "gated", arguments: "{}" } }]),
      ),
    ).toBeDefined();
    expect(middleware).not.toHaveBeenCalled();
  });

  it("runs after approval: approve is asked first, then the middleware, then the tool", async () => {
    const log: string[] = [];
    const gated = defineTool({
      name: "gated",
      description: "Gated",
      needsApproval: true,
      authorize: () => {
        log.push("authorize");
        return true;
      },
      execute: () => {
        log.push("tool");
        return "ok";
      },
    });
    const kit = new Toolkit([gated], {
      approve: () => {
        log.push("approve");
        return true;
      },
    }).use((_call, next) => {
      log.push("middleware");
      return next();
    });
    await kit.execute("gated", {});
    expect(log).toEqual(["authorize", "approve", "middleware", "tool"]);
  });

  it("wraps retries: called once per call, it sees the final result with its attempts", async () => {
    let attempt = 0;
    const flaky = defineTool({
      name: "flaky",
      description: "Fails twice",
      retry: { attempts: 3, delayMs: 1 },
      execute: () => {
        attempt += 1;
        if (attempt < 3) throw new Error(`attempt ${attempt} failed`);
        return "finally";
      },
    });
    const seen: ToolResult[] = [];
    const kit = new Toolkit([flaky]).use(async (_call, next) => {
      const result = await next();
      seen.push(result);
      return result;
    });
    expect(await kit.execute("flaky", {})).toEqual({ output: "finally", isError: false, metadata: { attempts: 3 } });
    expect(seen).toEqual([{ output: "finally", isError: false, metadata: { attempts: 3 } }]);
  });

  it("applies to calls from the moment it is used", async () => {
    const kit = new Toolkit([echo().tool]);
    expect((await kit.execute("echo", { text: "a" })).output).toBe("echo: a");
    kit.use(() => "intercepted");
    expect((await kit.execute("echo", { text: "a" })).output).toBe("intercepted");
  });
});

describe("middleware order (property)", () => {
  type Kind = "pass" | "short" | "tag" | "suffix";

  /** What the chain should give: the log and the result, computed by hand from the kinds. */
  function expected(kinds: readonly Kind[]): { log: string[]; output: string; ran: boolean } {
    const log: string[] = [];
    const tags: number[] = [];
    let output: string | undefined;
    let entered = kinds.length;
    for (let i = 0; i < kinds.length; i++) {
      log.push(`in ${i}`);
      if (kinds[i] === "short") {
        output = `short ${i}`;
        entered = i;
        break;
      }
      if (kinds[i] === "tag") tags.push(i);
    }
    const ran = output === undefined;
    output ??= `tags ${tags.join(",")}`;
    for (let i = entered - 1; i >= 0; i--) {
      if (kinds[i] === "suffix") output += ` +${i}`;
      log.push(`out ${i}`);
    }
    return { log, output, ran };
  }

  it("any chain of pass-through, short-circuiting, argument-changing and result-changing middleware composes outermost-first", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom<Kind>("pass", "short", "tag", "suffix"), { maxLength: 8 }),
        fc.boolean(),
        async (kinds, asyncStyle) => {
          const log: string[] = [];
          let ran = false;
          const tool = defineTool({
            name: "tagged",
            description: "Reports its tags",
            inputSchema: {
              type: "object",
              properties: { tags: { type: "array", items: { type: "integer" } } },
              required: ["tags"],
            },
            execute: ({ tags }) => {
              ran = true;
              return `tags ${(tags as number[]).join(",")}`;
            },
          });
          const kit = new Toolkit([tool]);
          kinds.forEach((kind, i) => {
            kit.use((call, next) => {
              log.push(`in ${i}`);
              if (kind === "short") return asyncStyle ? Promise.resolve(`short ${i}`) : `short ${i}`;
              if (kind === "tag") call.args = { ...call.args, tags: [...(call.args.tags as number[]), i] };
              return next().then((result) => {
                log.push(`out ${i}`);
                return kind === "suffix" ? { ...result, output: `${result.output} +${i}` } : result;
              });
            });
          });
          const result = await kit.execute("tagged", { tags: [] });
          const want = expected(kinds);
          expect(result).toEqual({ output: want.output, isError: false });
          expect(log).toEqual(want.log);
          expect(ran).toBe(want.ran);
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe.each(providerRows)("middleware through %s", (_id, provider) => {
  it("wraps each call of the turn, with the provider and call id in its ctx", async () => {
    const { tool } = echo();
    const seen: Array<[string | undefined, string | undefined]> = [];
    const kit = new Toolkit([tool]).use(async (call, next) => {
      seen.push([call.ctx.callId, call.ctx.provider]);
      const result = await next();
      return { ...result, output: `[${result.output}]` };
    });
    const answers = provider.answers(
      await provider.run(kit, [
        { id: "m1", name: "echo", args: { text: "one" } },
        { id: "m2", name: "echo", args: { text: "two" } },
      ]),
    );
    expect(answers).toEqual([
      { id: "m1", isError: false, text: "[echo: one]" },
      { id: "m2", isError: false, text: "[echo: two]" },
    ]);
    expect(seen.sort()).toEqual([
      ["m1", provider.id],
      ["m2", provider.id],
    ]);
  });

  it("a throwing middleware fails only its call", async () => {
    const kit = new Toolkit([echo().tool]).use((call, next) => {
      if (call.args.text === "boom") throw new Error("middleware broke");
      return next();
    });
    const answers = provider.answers(
      await provider.run(kit, [
        { id: "t1", name: "echo", args: { text: "boom" } },
        { id: "t2", name: "echo", args: { text: "fine" } },
      ]),
    );
    expect(answers.map((answer) => answer.isError)).toEqual([true, false]);
    expect(answers[0]!.text).toMatch(/^Tool "echo" failed in a middleware \(error id [0-9a-f-]{36}\)\./);
  });
});

describe("middleware over MCP (official SDK client)", () => {
  it("wraps MCP calls, and a throwing middleware is an error result", async () => {
    const kit = new Toolkit([echo().tool]).use(async (call, next) => {
      if (call.args.text === "boom") throw new Error("middleware broke");
      const result = await next();
      return { ...result, output: `${result.output} (via ${String(call.ctx.provider)})` };
    });
    const { client, close } = await connectMcp(kit);
    try {
      const ok = await client.callTool({ name: "echo", arguments: { text: "hi" } });
      expect(mcpText(ok)).toBe("echo: hi (via mcp)");
      const failed = await client.callTool({ name: "echo", arguments: { text: "boom" } });
      expect(failed.isError).toBe(true);
      expect(mcpText(failed)).toMatch(/^Tool "echo" failed in a middleware \(error id [0-9a-f-]{36}\)\./);
    } finally {
      await close();
    }
  });
});
