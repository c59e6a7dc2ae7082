/**
 * Failures are observable, and what the model reads about them is a policy. `onError` hears
 * about every failed call (with the thrown value itself, its stack intact, the tool, the call
 * id and the ctx); `errorText` decides whether the model reads the thrown message (the
 * default), a fixed text with an error id, or text of the host's own.
 */
import { Param, Tool, Toolkit, defineTool, type ToolFailure } from "../../src";

class DatabaseError extends Error {
  constructor(readonly connection: string) {
    super(`connection to ${connection} refused`);
  }
}

const SECRET = "postgres://admin:hunter2@db.internal:5432/prod";

class Orders {
  @Tool("Looks up an order")
  lookup(@Param("id") id: string): string {
    throw new DatabaseError(`${SECRET} (order ${id})`);
  }
}

const flaky = defineTool({
  name: "flaky",
  description: "Fails asynchronously",
  execute: async () => {
    throw new Error("upstream said no");
  },
});
const slow = defineTool({
  name: "slow",
  description: "Never answers",
  timeout: 10,
  execute: () => new Promise(() => undefined),
});
const strict = defineTool({
  name: "strict",
  description: "Takes a number",
  validate: true,
  inputSchema: { type: "object", properties: { n: { type: "number" } }, required: ["n"] },
  execute: () => "ok",
});
const refusing = defineTool({
  name: "refusing",
  description: "Returns an error result",
  execute: () => ({ output: "no stock", isError: true }),
});

function observed(options: ConstructorParameters<typeof Toolkit>[1] = {}) {
  const failures: ToolFailure[] = [];
  const toolkit = new Toolkit([new Orders(), flaky, slow, strict, refusing], {
    onError: (failure) => void failures.push(failure),
    ...options,
  });
  return { toolkit, failures };
}

describe("onError", () => {
  it("receives a thrown value itself, with its stack, the tool, the call id, the provider and the ctx", async () => {
    const { toolkit, failures } = observed();
    const state = { user: "u-7" };
    const [message] = await toolkit.runOpenAI(
      [{ id: "call_1", type: "function", function: { name: "lookup", arguments: '{"id":"42"}' } }],
      { state },
    );
    expect(failures).toHaveLength(1);
    const [failure] = failures;
    expect(failure!.error).toBeInstanceOf(DatabaseError);
    expect((failure!.error as DatabaseError).stack).toMatch(/at Orders\.lookup/);
    expect(failure).toMatchObject({
      tool: "lookup",
      kind: "execution_failed",
      callId: "call_1",
      provider: "openai",
      ctx: { state, callId: "call_1" },
    });
    expect(failure!.errorId).toMatch(/^[0-9a-f-]{36}$/);
    expect(failure!.result.metadata).toEqual({ error: "execution_failed", errorId: failure!.errorId });
    expect(message!.content).toContain("connection to");
  });

  it("hears about every kind of failure, and about nothing else", async () => {
    const { toolkit, failures } = observed();
    await toolkit.execute("flaky", {});
    await toolkit.execute("slow", {});
    await toolkit.execute("strict", { n: "many" });
    await toolkit.execute("nope", {});
    await toolkit.execute("refusing", {});
    const controller = new AbortController();
    controller.abort("user left");
    await toolkit.execute("flaky", {}, { signal: controller.signal });
    await toolkit.execute("strict", { n: 1 });
    expect(failures.map((f) => [f.tool, f.kind, f.error === undefined])).toEqual([
      ["flaky", "execution_failed", false],
      ["slow", "timeout", true],
      ["strict", "invalid_arguments", true],
      ["nope", "unknown_tool", true],
      ["refusing", "execution_failed", true],
      ["flaky", "aborted", true],
    ]);
  });

  it("cannot change or break the call: a throwing or rejecting observer is reported as a process warning (code TOOLNEXUS_OBSERVER_FAILED)", async () => {
    const emitWarning = jest.spyOn(process, "emitWarning").mockImplementation(() => undefined);
    try {
      for (const onError of [
        () => {
          throw new Error("logger down");
        },
        () => Promise.reject(new Error("logger down")),
      ]) {
        const toolkit = new Toolkit([flaky], { onError });
        const result = await toolkit.execute("flaky", {});
        expect(result).toMatchObject({
          output: "upstream said no",
          isError: true,
          metadata: { error: "execution_failed" },
        });
      }
      await new Promise((resolve) => setImmediate(resolve));
      expect(emitWarning.mock.calls.map(([message]) => message)).toEqual([
        "toolnexus: the toolkit's onError function threw: logger down",
        "toolnexus: the toolkit's onError function threw: logger down",
      ]);
    } finally {
      emitWarning.mockRestore();
    }
  });

  it("is refused when it is not a function", () => {
    expect(() => new Toolkit([], { onError: "console" as never })).toThrow(
      "Toolkit: onError must be a function (failure) => void (got string).",
    );
  });
});

describe("errorText", () => {
  it('"message" (the default) sends the thrown message, as the reference contract requires', async () => {
    const result = await new Toolkit([new Orders()]).execute("lookup", { id: "1" });
    expect(result).toEqual({
      output: `connection to ${SECRET} (order 1) refused`,
      isError: true,
      metadata: { error: "execution_failed" },
    });
  });

  it('"errorId" keeps the message in the process and gives the model a fixed text with the id of the log line', async () => {
    const { toolkit, failures } = observed({ errorText: "errorId" });
    const turn = await toolkit.runAnthropic({
      content: [{ type: "tool_use", id: "tu_1", name: "lookup", input: { id: "9" } }],
    });
    const [failure] = failures;
    const text = `Tool "lookup" failed with an internal error (error id ${failure!.errorId}). Try another approach, or tell the user the tool is failing.`;
    expect(turn).toEqual({
      role: "user",
      content: [{ type: "tool_result", tool_use_id: "tu_1", content: text, is_error: true }],
    });
    expect(JSON.stringify(turn)).not.toContain("hunter2");
    expect((failure!.error as Error).message).toContain("hunter2");
    expect(failure!.result.output).toBe(text);
  });

  it('"errorId" leaves the messages toolnexus writes itself (arguments, unknown tools, timeouts) as they are: the model needs them', async () => {
    const toolkit = new Toolkit([strict, slow], { errorText: "errorId" });
    expect((await toolkit.execute("strict", {})).output).toBe(
      'Invalid arguments for tool "strict": missing required argument "n" (expected number)',
    );
    expect((await toolkit.execute("slow", {})).output).toBe('Tool "slow" timed out after 10 ms');
    expect((await toolkit.execute("nope", {})).output).toMatch(/^Unknown tool "nope"\./);
  });

  it("a function writes the text from the failure; when it throws, the fixed text is sent", async () => {
    const toolkit = new Toolkit([new Orders(), flaky], {
      errorText: (failure) => {
        if (failure.tool === "flaky") throw new Error("policy bug");
        return `The ${failure.tool} service is unavailable (ref ${failure.errorId.slice(0, 8)}).`;
      },
    });
    const emitWarning = jest.spyOn(process, "emitWarning").mockImplementation(() => undefined);
    try {
      const looked = await toolkit.execute("lookup", { id: "1" });
      expect(looked.output).toBe(
        `The lookup service is unavailable (ref ${String(looked.metadata?.errorId).slice(0, 8)}).`,
      );
      const fallback = await toolkit.execute("flaky", {});
      expect(fallback.output).toBe(
        `Tool "flaky" failed with an internal error (error id ${String(fallback.metadata?.errorId)}). Try another approach, or tell the user the tool is failing.`,
      );
      expect(emitWarning.mock.calls.map(([message]) => message)).toEqual([
        "toolnexus: the toolkit's errorText function threw: policy bug",
      ]);
    } finally {
      emitWarning.mockRestore();
    }
  });

  it("is refused when it is none of the three", () => {
    expect(() => new Toolkit([], { errorText: "stack" as never })).toThrow(
      'Toolkit: errorText must be "message", "errorId" or a function (failure) => string (got "stack").',
    );
  });
});
