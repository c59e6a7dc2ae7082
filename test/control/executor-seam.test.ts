/**
 * The `executor` toolkit option: where a call runs once visibility, authorization, approval and
 * middleware let it through. Without one, calls run in process as always.
 */
import "reflect-metadata";
import { IsInt, Max } from "class-validator";
import { z } from "zod";
import { defineTool, Param, Tool, Toolkit, ToolDefinitionError, type ExecutorCall, type ToolExecutor } from "toolnexus";
import { runQueuedCall } from "../../src/toolkit/queued-calls";

const add = defineTool({
  name: "add",
  description: "Add two numbers",
  inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] },
  validate: true,
  execute: ({ a, b }: { a: number; b: number }) => String(a + b),
});

/** An executor that records what it is handed and runs the call here. */
function recordingExecutor(): ToolExecutor & { calls: ExecutorCall[] } {
  const calls: ExecutorCall[] = [];
  return { calls, run: (call) => (calls.push(call), call.runHere()) };
}

describe("the executor seam", () => {
  it("hands every call to the executor with its tool, arguments, ctx and deadline", async () => {
    const executor = recordingExecutor();
    const toolkit = new Toolkit([add], { executor, timeout: 5_000 });
    expect(await toolkit.execute("add", { a: 1, b: 2 }, { callId: "c1" })).toEqual({ output: "3", isError: false });
    expect(executor.calls).toHaveLength(1);
    const [call] = executor.calls;
    expect(call!.tool.name).toBe("add");
    expect(call!.args).toEqual({ a: 1, b: 2 });
    expect(call!.ctx.callId).toBe("c1");
    // The toolkit's 5 s, less what checking the arguments here took.
    expect(call!.timeout).toBeGreaterThan(4_900);
    expect(call!.timeout).toBeLessThanOrEqual(5_000);
  });

  it("gets the arguments as middleware left them, after approval", async () => {
    const executor = recordingExecutor();
    const order: string[] = [];
    const toolkit = new Toolkit([add], {
      executor,
      approveDestructive: true,
      authorize: () => (order.push("authorize"), true),
    }).use(async (call, next) => {
      order.push("middleware");
      call.args = { ...call.args, b: 10 };
      return next();
    });
    expect((await toolkit.execute("add", { a: 1, b: 2 })).output).toBe("11");
    expect(order).toEqual(["authorize", "middleware"]);
    expect(executor.calls[0]!.args).toEqual({ a: 1, b: 10 });
  });

  it("is never reached by a call the seams refused", async () => {
    const executor = recordingExecutor();
    const guarded = defineTool({ name: "wipe", description: "Wipe", needsApproval: true, execute: () => "wiped" });
    const toolkit = new Toolkit([add, guarded], { executor, authorize: (_ctx, _args, tool) => tool.name !== "add" });
    expect((await toolkit.execute("add", { a: 1, b: 2 })).metadata?.error).toBe("forbidden");
    expect((await toolkit.execute("wipe", {})).metadata?.error).toBe("denied");
    expect((await toolkit.execute("nope", {})).metadata?.error).toBe("unknown_tool");
    expect(executor.calls).toHaveLength(0);
  });

  it("answers what the executor answers, also through a provider's round trip", async () => {
    const executor: ToolExecutor = { run: async (call) => ({ output: `remote ${call.tool.name}`, isError: false }) };
    const toolkit = new Toolkit([add], { executor });
    const reply = await toolkit.runAnthropic({
      content: [{ type: "tool_use", id: "toolu_1", name: "add", input: { a: 1, b: 2 } }],
    });
    expect(reply?.content[0]).toMatchObject({ tool_use_id: "toolu_1", content: "remote add" });
  });

  it("turns an executor that throws or answers no result into an execution_failed result", async () => {
    const throwing = new Toolkit([add], { executor: { run: () => Promise.reject(new Error("queue down")) } });
    const result = await throwing.execute("add", { a: 1, b: 2 });
    expect(result).toMatchObject({ isError: true, metadata: { error: "execution_failed" } });
    expect(result.output).toBe(
      `Tool "add" could not run: the toolkit's executor failed (error id ${String(result.metadata?.errorId)}). Try again later, or tell the user the tool is failing.`,
    );
    const odd = new Toolkit([add], { executor: { run: async () => "3" as never } });
    expect((await odd.execute("add", { a: 1, b: 2 })).metadata?.error).toBe("execution_failed");
  });

  it("answers for an executor that never answers: a timeout once the call's deadline (and a grace for the executor's own answer) has passed", async () => {
    const silent: ToolExecutor = { run: () => new Promise<never>(() => {}) };
    const result = await new Toolkit([add], { executor: silent, timeout: 50 }).execute("add", { a: 1, b: 2 });
    expect(result).toMatchObject({ isError: true, metadata: { error: "timeout", timeoutMs: 50 } });
    expect(result.output).toBe('Tool "add" timed out after 50 ms: the toolkit\'s executor did not answer in time.');
  });

  it("states the call's deadline in the timeout, not what was left of it once the arguments were checked", async () => {
    const slowlyChecked = defineTool({
      name: "slowly_checked",
      description: "Arguments checked by an asynchronous refinement",
      inputSchema: z
        .object({ a: z.number() })
        .refine(() => new Promise<boolean>((resolve) => setTimeout(() => resolve(true), 20))),
      execute: ({ a }: { a: number }) => String(a),
    });
    const silent: ToolExecutor = { run: () => new Promise<never>(() => {}) };
    const result = await new Toolkit([slowlyChecked], { executor: silent, timeout: 100 }).execute("slowly_checked", {
      a: 1,
    });
    expect(result).toMatchObject({ isError: true, metadata: { error: "timeout", timeoutMs: 100 } });
    expect(result.output).toBe(
      'Tool "slowly_checked" timed out after 100 ms: the toolkit\'s executor did not answer in time.',
    );
  });

  it("answers for an executor that has not answered when the call's signal aborts", async () => {
    const silent: ToolExecutor = { run: () => new Promise<never>(() => {}) };
    const controller = new AbortController();
    const pending = new Toolkit([add], { executor: silent, timeout: false }).execute(
      "add",
      { a: 1, b: 2 },
      { signal: controller.signal },
    );
    controller.abort(new Error("the user left"));
    expect(await pending).toMatchObject({
      isError: true,
      output: 'Tool "add" was aborted: the user left',
      metadata: { error: "aborted" },
    });
  });

  it("keeps an executor's own answer to a call that ran out of time, when it comes within the grace", async () => {
    const late: ToolExecutor = {
      run: (call) =>
        new Promise((resolve) =>
          setTimeout(
            () => resolve({ output: "the worker's timeout", isError: true, metadata: { error: "timeout" } }),
            Number(call.timeout) + 20,
          ),
        ),
    };
    expect(await new Toolkit([add], { executor: late, timeout: 30 }).execute("add", { a: 1, b: 2 })).toMatchObject({
      output: "the worker's timeout",
    });
  });

  it("refuses an executor that has no run method, saying what to pass", () => {
    expect(() => new Toolkit([add], { executor: (() => undefined) as never })).toThrow(ToolDefinitionError);
    expect(() => new Toolkit([add], { executor: {} as never })).toThrow(/run\(call\) method, such as queueExecutor/);
  });
});

class Booking {
  @IsInt()
  @Max(8)
  seats!: number;
}

class Reservations {
  @Tool("Book seats")
  book(@Param("booking") booking: Booking, @Param("note", { optional: true }) note?: string): string {
    return `${booking.seats} seats${note === undefined ? "" : ` (${note})`}`;
  }
}

describe("validation where the call arrives", () => {
  const refusals = [
    ["a JSON Schema tool", add, { a: "x", b: 2 }],
    ["a DTO's class-validator rules", new Reservations(), { booking: { seats: 20 } }],
    [
      "a Standard Schema",
      defineTool({
        name: "greet",
        description: "Greet",
        inputSchema: z.object({ name: z.string().min(2) }),
        execute: ({ name }) => `hi ${name}`,
      }),
      { name: "x" },
    ],
  ] as const;

  it.each(refusals)(
    "answers invalid_arguments for %s without handing the call to the executor",
    async (_kind, source, args) => {
      const executor = recordingExecutor();
      const toolkit = new Toolkit([source], { executor });
      const [name] = toolkit.tools().map((tool) => tool.name);
      expect((await toolkit.execute(name!, args)).metadata?.error).toBe("invalid_arguments");
      expect(executor.calls).toHaveLength(0);
    },
  );

  it("hands the executor the arguments as the tool reads them: coerced, a null for an optional value left out", async () => {
    const executor = recordingExecutor();
    const toolkit = new Toolkit([add, new Reservations()], { executor });
    expect((await toolkit.execute("add", { a: "40", b: 2 })).output).toBe("42");
    expect(executor.calls[0]!.args).toEqual({ a: 40, b: 2 });
    expect((await toolkit.execute("book", { booking: { seats: 2 }, note: null })).output).toBe("2 seats");
    expect(executor.calls[1]!.args).toEqual({ booking: { seats: 2 } });
  });

  it("sends a Standard Schema tool what was sent, not the schema's output, which the worker makes again", async () => {
    const executor = recordingExecutor();
    const when = defineTool({
      name: "when",
      description: "Day of a date",
      inputSchema: z.object({ on: z.string().transform((text) => new Date(text)) }),
      execute: ({ on }) => on.toISOString(),
    });
    const toolkit = new Toolkit([when], { executor });
    expect((await toolkit.execute("when", { on: "2026-12-03" })).output).toBe("2026-12-03T00:00:00.000Z");
    expect(executor.calls[0]!.args).toEqual({ on: "2026-12-03" });
  });

  it("ends a check that does not finish with the call's timeout, and a check that throws with execution_failed", async () => {
    const executor = recordingExecutor();
    const never = z.object({ id: z.string().refine(() => new Promise<boolean>(() => {})) });
    const throwing = z.object({
      id: z.string().refine(() => {
        throw new Error("lookup failed");
      }),
    });
    const toolkit = new Toolkit(
      [
        defineTool({ name: "slow", description: "Slow check", inputSchema: never, execute: () => "ran" }),
        defineTool({ name: "broken", description: "Broken check", inputSchema: throwing, execute: () => "ran" }),
      ],
      { executor },
    );
    expect((await toolkit.execute("slow", { id: "a" }, { timeout: 50 })).metadata?.error).toBe("timeout");
    const broken = await toolkit.execute("broken", { id: "a" });
    expect(broken).toMatchObject({ isError: true, metadata: { error: "execution_failed" } });
    expect(broken.output).toContain("lookup failed");
    expect(executor.calls).toHaveLength(0);
  });

  it("gives the executor what is left of the call's time after the check", async () => {
    const executor = recordingExecutor();
    const slowCheck = z.object({
      id: z.string().refine(async () => (await new Promise((resolve) => setTimeout(resolve, 60)), true)),
    });
    const toolkit = new Toolkit(
      [defineTool({ name: "lookup", description: "Look up", inputSchema: slowCheck, execute: () => "found" })],
      { executor },
    );
    expect((await toolkit.execute("lookup", { id: "a" }, { timeout: 1_000 })).output).toBe("found");
    expect(executor.calls[0]!.timeout).toBeLessThanOrEqual(950);
  });

  it("sends a Tool written by hand as it is: its own execute checks", async () => {
    const executor = recordingExecutor();
    const handWritten = {
      name: "echo",
      description: "Echo",
      inputSchema: { type: "object", properties: { text: { type: "string" } } },
      source: "native",
      execute: async (args: Record<string, unknown>) => ({ output: String(args.text), isError: false }),
    } as const;
    const toolkit = new Toolkit([handWritten], { executor });
    expect((await toolkit.execute("echo", { text: 5 })).output).toBe("5");
    expect(executor.calls[0]!.args).toEqual({ text: 5 });
  });
});

describe("a worker's entry into its toolkit", () => {
  it("runs validation and the body without approval or middleware", async () => {
    const guarded = defineTool({ name: "wipe", description: "Wipe", needsApproval: true, execute: () => "wiped" });
    let middlewareRan = false;
    const toolkit = new Toolkit([add, guarded]).use((_call, next) => ((middlewareRan = true), next()));
    expect(await runQueuedCall(toolkit, "wipe", {}, {})).toEqual({ output: "wiped", isError: false });
    expect((await runQueuedCall(toolkit, "add", { a: "x", b: 2 }, {})).metadata?.error).toBe("invalid_arguments");
    expect(middlewareRan).toBe(false);
  });

  it("answers a tool the worker does not have with a result saying to register it there", async () => {
    const result = await runQueuedCall(new Toolkit([add]), "missing", {}, {});
    expect(result).toMatchObject({ isError: true, metadata: { error: "execution_failed" } });
    expect(result.output).toContain("Register the same tools in the workers");
  });
});
