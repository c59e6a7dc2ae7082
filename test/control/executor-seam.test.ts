/**
 * The `executor` toolkit option: where a call runs once visibility, authorization, approval and
 * middleware let it through. Without one, calls run in process as always.
 */
import { defineTool, Toolkit, ToolDefinitionError, type ExecutorCall, type ToolExecutor } from "toolnexus";
import { runCallHere } from "../../src/toolkit";

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
    expect(call!.timeout).toBe(5_000);
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
    const reply = await toolkit.runAnthropic({ content: [{ type: "tool_use", id: "toolu_1", name: "add", input: { a: 1, b: 2 } }] });
    expect(reply?.content[0]).toMatchObject({ tool_use_id: "toolu_1", content: "remote add" });
  });

  it("turns an executor that throws or answers no result into an execution_failed result", async () => {
    const throwing = new Toolkit([add], { executor: { run: () => Promise.reject(new Error("queue down")) } });
    const result = await throwing.execute("add", { a: 1, b: 2 });
    expect(result).toMatchObject({ isError: true, metadata: { error: "execution_failed" } });
    expect(result.output).toContain("queue down");
    const odd = new Toolkit([add], { executor: { run: async () => "3" as never } });
    expect((await odd.execute("add", { a: 1, b: 2 })).metadata?.error).toBe("execution_failed");
  });

  it("refuses an executor that has no run method, saying what to pass", () => {
    expect(() => new Toolkit([add], { executor: (() => undefined) as never })).toThrow(ToolDefinitionError);
    expect(() => new Toolkit([add], { executor: {} as never })).toThrow(/run\(call\) method, such as queueExecutor/);
  });
});

describe("a worker's entry into its toolkit", () => {
  it("runs validation and the body without approval or middleware", async () => {
    const guarded = defineTool({ name: "wipe", description: "Wipe", needsApproval: true, execute: () => "wiped" });
    let middlewareRan = false;
    const toolkit = new Toolkit([add, guarded]).use((_call, next) => ((middlewareRan = true), next()));
    expect(await runCallHere(toolkit, "wipe", {}, {})).toEqual({ output: "wiped", isError: false });
    expect((await runCallHere(toolkit, "add", { a: "x", b: 2 }, {})).metadata?.error).toBe("invalid_arguments");
    expect(middlewareRan).toBe(false);
  });

  it("answers a tool the worker does not have with a result saying to register it there", async () => {
    const result = await runCallHere(new Toolkit([add]), "missing", {}, {});
    expect(result).toMatchObject({ isError: true, metadata: { error: "execution_failed" } });
    expect(result.output).toContain("Register the same tools in the workers");
  });
});
