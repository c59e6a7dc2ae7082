/**
 * `ctx.reportProgress(progress, total?, message?)`: always a function inside a tool. Over MCP
 * it sends notifications/progress when the client passed a progress token, only increasing
 * values; everywhere else it does nothing.
 */
import "reflect-metadata";
import type { Progress } from "@modelcontextprotocol/sdk/types.js";
import { Ctx, defineTool, Tool, Toolkit, type Tool as ToolShape, type ToolContext } from "../../src";
import { connectMcp, mcpText, providerRows } from "./support";

/** Reports 1, 1 (repeat), 0.5 (lower), NaN, 2 and 3 of 3, then answers. */
function reporter() {
  const seen: Array<ToolContext["reportProgress"]> = [];
  const tool = defineTool({
    name: "crunch",
    description: "Crunches numbers, reporting progress",
    execute: async (_args, ctx) => {
      seen.push(ctx?.reportProgress);
      ctx!.reportProgress!(1, 3, "first third");
      ctx!.reportProgress!(1, 3);
      ctx!.reportProgress!(0.5, 3);
      ctx!.reportProgress!(Number.NaN);
      await Promise.resolve();
      ctx!.reportProgress!(2, 3, "two thirds");
      ctx!.reportProgress!(3);
      return "crunched";
    },
  });
  return { tool, seen };
}

describe("progress outside MCP: a function that does nothing", () => {
  it.each([
    ["the default deadline", {}],
    ["no deadline", { timeout: false as const }],
    ["a signal", { signal: new AbortController().signal }],
  ])("execute with %s", async (_name, ctx: ToolContext) => {
    const { tool, seen } = reporter();
    expect(await new Toolkit([tool]).execute("crunch", {}, ctx)).toEqual({ output: "crunched", isError: false });
    expect(typeof seen[0]).toBe("function");
  });

  it("in @Tool methods (through @Ctx) and hand-written tools", async () => {
    class Job {
      @Tool("Runs a job")
      run(@Ctx() ctx: ToolContext) {
        ctx.reportProgress!(50, 100);
        return typeof ctx.reportProgress;
      }
    }
    const handWritten: ToolShape = {
      name: "hand",
      description: "Hand-written",
      inputSchema: { type: "object", properties: {} },
      source: "custom",
      execute: async (_args, ctx) => ({ output: typeof ctx?.reportProgress, isError: false }),
    };
    const kit = new Toolkit([new Job(), handWritten]);
    expect(await kit.execute("run", {})).toEqual({ output: "function", isError: false });
    expect((await kit.execute("hand", {})).output).toBe("function");
  });

  it("a function when the tool runs under control seams (retries, middleware)", async () => {
    const { tool, seen } = reporter();
    const kit = new Toolkit([{ ...tool, retry: 2 }]).use((_call, next) => next());
    expect((await kit.execute("crunch", {})).output).toBe("crunched");
    expect(typeof seen[0]).toBe("function");
  });
});

describe.each(providerRows)("progress through %s", (_id, provider) => {
  it("is a function that does nothing", async () => {
    const { tool, seen } = reporter();
    const answers = provider.answers(await provider.run(new Toolkit([tool]), [{ id: "p1", name: "crunch", args: {} }]));
    expect(answers).toEqual([{ id: "p1", isError: false, text: "crunched" }]);
    expect(typeof seen[0]).toBe("function");
  });
});

describe("progress over MCP (official SDK client)", () => {
  it("sends notifications/progress for the client's token, only increasing values, with total and message", async () => {
    const { tool } = reporter();
    const { client, close } = await connectMcp(new Toolkit([tool]));
    try {
      const received: Progress[] = [];
      const result = await client.callTool({ name: "crunch", arguments: {} }, undefined, {
        onprogress: (progress) => void received.push(progress),
      });
      expect(mcpText(result)).toBe("crunched");
      expect(received).toEqual([
        { progress: 1, total: 3, message: "first third" },
        { progress: 2, total: 3, message: "two thirds" },
        { progress: 3 },
      ]);
    } finally {
      await close();
    }
  });

  it("sends nothing, and the call still answers, when the client asked for no progress", async () => {
    const { tool, seen } = reporter();
    const { client, close } = await connectMcp(new Toolkit([tool]));
    try {
      const result = await client.callTool({ name: "crunch", arguments: {} });
      expect(result.isError).toBe(false);
      expect(mcpText(result)).toBe("crunched");
      expect(typeof seen[0]).toBe("function");
    } finally {
      await close();
    }
  });

  it("reaches a tool behind middleware and retries", async () => {
    let attempt = 0;
    const retried = defineTool({
      name: "retried",
      description: "Fails once, reporting progress",
      retry: { attempts: 2, delayMs: 1 },
      execute: (_args, ctx) => {
        attempt += 1;
        ctx!.reportProgress!(attempt, 2);
        if (attempt === 1) throw new Error("once");
        return "done";
      },
    });
    const kit = new Toolkit([retried]).use((_call, next) => next());
    const { client, close } = await connectMcp(kit);
    try {
      const received: Progress[] = [];
      const result = await client.callTool({ name: "retried", arguments: {} }, undefined, {
        onprogress: (progress) => void received.push(progress),
      });
      expect(mcpText(result)).toBe("done");
      expect(received.map((progress) => progress.progress)).toEqual([1, 2]);
    } finally {
      await close();
    }
  });
});
