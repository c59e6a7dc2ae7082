/**
 * `toLangChainTools(toolkit)`: each tool is a LangChain structured tool whose schema is the
 * tool's JSON Schema. Invoked with a ToolCall (as agents and ToolNode invoke tools) it answers a
 * ToolMessage; every failure is a ToolMessage with `status: "error"` the model reads, never a
 * throw. The call runs through LangChain's own `invoke`/`call` (callbacks, run names), with
 * the toolkit checking the arguments instead of LangChain.
 */
// Keeps LangChain's current run in AsyncLocalStorage, as LangGraph turns it on in Node.
import "@langchain/core/context";
import { HumanMessage, ToolMessage, type ToolCall } from "@langchain/core/messages";
import {
  DynamicStructuredTool,
  isLangChainTool,
  isStructuredTool,
  ToolInputParsingException,
  type StructuredToolInterface,
} from "@langchain/core/tools";
import { RunnableLambda } from "@langchain/core/runnables";
import { convertToOpenAITool } from "@langchain/core/utils/function_calling";
import { defineTool, Toolkit, type JSONSchemaObject, type ToolContext } from "toolnexus";
import { toLangChainTools } from "toolnexus/langchain";
import { callsTools, says, ScriptedChatModel } from "./support/scripted-chat-model";

const addSchema: JSONSchemaObject = {
  type: "object",
  properties: { a: { type: "number", description: "First term" }, b: { type: "number", description: "Second term" } },
  required: ["a", "b"],
  additionalProperties: false,
};

const add = defineTool<{ a: number; b: number }>({
  name: "add",
  description: "Adds two numbers",
  inputSchema: addSchema,
  validate: true,
  execute: ({ a, b }) => String(a + b),
});

/** A ToolCall as a chat model emits it. */
function call(name: string, args: Record<string, unknown>, id = "call_1"): ToolCall {
  return { type: "tool_call", name, args, id };
}

describe("a toolkit's tools in LangChain", () => {
  it("are structured tools whose schema is the tool's JSON Schema, declared to the model through bindTools", async () => {
    const tools = toLangChainTools(new Toolkit([add]));
    const typed: StructuredToolInterface[] = tools;
    expect(typed.map((t) => [t.name, t.description])).toEqual([["add", "Adds two numbers"]]);
    expect(isStructuredTool(tools[0]) && isLangChainTool(tools[0])).toBe(true);
    expect(tools[0]!.schema).toBe(add.inputSchema);

    const model = new ScriptedChatModel([() => says("done")]);
    await model.bindTools(tools).invoke([new HumanMessage("2 + 3?")]);
    expect(model.requests[0]!.tools).toEqual([
      { type: "function", function: { name: "add", description: "Adds two numbers", parameters: add.inputSchema } },
    ]);
    expect(convertToOpenAITool(tools[0]!)).toEqual(model.requests[0]!.tools[0]);
  });

  it("answer a ToolCall with a ToolMessage: its id and name, status success, the result as content and the toolkit's result as artifact", async () => {
    const [tool] = toLangChainTools(new Toolkit([add]));
    const message = await tool!.invoke(call("add", { a: 2, b: 3 }));
    expect(ToolMessage.isInstance(message)).toBe(true);
    expect(message).toMatchObject({
      tool_call_id: "call_1",
      name: "add",
      status: "success",
      content: "5",
      artifact: { output: "5", isError: false },
    });
  });

  it("answer plain arguments with the content alone, as LangChain's own tools do", async () => {
    const [tool] = toLangChainTools(new Toolkit([add]));
    await expect(tool!.invoke({ a: 2, b: 3 })).resolves.toBe("5");
    await expect(tool!.invoke({ a: 2 })).resolves.toMatch(/^Invalid arguments for tool "add"/);
  });

  it("leave the arguments to the toolkit: what LangChain's own check refuses, the toolkit reads as the schema means it", async () => {
    const [tool] = toLangChainTools(new Toolkit([add]));
    // Models send "2" for a number; the toolkit coerces it, LangChain's validator refuses it.
    await expect(tool!.invoke(call("add", { a: "2", b: 3 }))).resolves.toMatchObject({
      status: "success",
      content: "5",
    });
    const plain = new DynamicStructuredTool({
      name: "add",
      description: "Adds two numbers",
      schema: addSchema,
      func: async ({ a, b }: Record<string, number>) => String(a! + b!),
    });
    await expect(plain.invoke(call("add", { a: "2", b: 3 }))).rejects.toBeInstanceOf(ToolInputParsingException);
  });

  it("answer invalid arguments with an error ToolMessage naming every problem, for the model to correct", async () => {
    const [tool] = toLangChainTools(new Toolkit([add]));
    const message = await tool!.invoke(call("add", { a: "two", c: 1 }));
    expect(message.status).toBe("error");
    expect(message.content).toMatch(/^Invalid arguments for tool "add"/);
    expect(message.content).toContain('"a" must be number');
    expect(message.content).toContain('"b"');
    expect(message.content).toContain('"c"');
    expect(message.artifact).toMatchObject({ isError: true, metadata: { error: "invalid_arguments" } });
  });

  it("answer a throw with an error ToolMessage carrying the thrown message, without LangChain's tool error callback", async () => {
    const failing = defineTool({
      name: "lookup",
      description: "Looks up an order",
      execute: () => {
        throw new Error("Order database is down");
      },
    });
    const [tool] = toLangChainTools(new Toolkit([failing]));
    const errors: unknown[] = [];
    const message = await tool!.invoke(call("lookup", {}), {
      callbacks: [{ handleToolError: (error: unknown) => void errors.push(error) }],
    });
    expect(message).toMatchObject({
      status: "error",
      content: "Order database is down",
      artifact: { metadata: { error: "execution_failed" } },
    });
    expect(errors).toEqual([]);
  });

  it("keep the toolkit's timeouts: a call past its deadline is a timeout ToolMessage, and the tool's signal is aborted", async () => {
    let seen: AbortSignal | undefined;
    const slow = defineTool({
      name: "slow",
      description: "Takes its time",
      timeout: 30,
      execute: (_args, ctx) =>
        new Promise((resolve) => {
          seen = ctx.signal;
          setTimeout(() => resolve("late"), 2_000).unref();
        }),
    });
    const [tool] = toLangChainTools(new Toolkit([slow]));
    const message = await tool!.invoke(call("slow", {}));
    expect(message).toMatchObject({ status: "error", artifact: { metadata: { error: "timeout" } } });
    expect(message.content).toMatch(/timed out after 30 ms/);
    expect(seen?.aborted).toBe(true);
  });

  it("end a call when the run's signal aborts: an aborted ToolMessage, the tool told through its own signal", async () => {
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    let seen: AbortSignal | undefined;
    const wait = defineTool({
      name: "wait",
      description: "Waits for a reply",
      execute: (_args, ctx) =>
        new Promise(() => {
          seen = ctx.signal;
          started();
        }),
    });
    const [tool] = toLangChainTools(new Toolkit([wait]));
    const controller = new AbortController();
    const answer = tool!.invoke(call("wait", {}), { signal: controller.signal });
    await running;
    controller.abort(new Error("user cancelled"));
    const message = await answer;
    expect(message).toMatchObject({ status: "error", artifact: { metadata: { error: "aborted" } } });
    expect(message.content).toBe('Tool "wait" was aborted: user cancelled');
    expect(seen?.aborted).toBe(true);
  });

  it("give the tool the tool call's id, and state from the run's config (here its configurable)", async () => {
    const seen: ToolContext[] = [];
    const whoami = defineTool({
      name: "whoami",
      description: "Who is asking",
      execute: (_args, ctx) => (seen.push(ctx), String(ctx.state?.user)),
    });
    const [tool] = toLangChainTools(new Toolkit([whoami]), { state: (config) => config.configurable });
    const message = await tool!.invoke(call("whoami", {}, "call_42"), { configurable: { user: "ada@example.com" } });
    expect(message.content).toBe("ada@example.com");
    expect(seen[0]).toMatchObject({ callId: "call_42", provider: "langchain", state: { user: "ada@example.com" } });
  });

  it("throw a host's mistakes, naming the option: a state function that gives no object, options of the wrong kind", async () => {
    const [tool] = toLangChainTools(new Toolkit([add]), { state: () => 42 as unknown as Record<string, unknown> });
    await expect(tool!.invoke(call("add", { a: 1, b: 2 }))).rejects.toThrow(
      "the state option of toLangChainTools must give an object or undefined (got number)",
    );
    expect(() => toLangChainTools(new Toolkit([add]), { approve: "yes" as never })).toThrow(
      "toLangChainTools: approve must be a function",
    );
    expect(() => toLangChainTools(new Toolkit([add]), { state: "ada" as never })).toThrow(
      "toLangChainTools: state must be an object or a function",
    );
    expect(() => toLangChainTools({} as Toolkit)).toThrow("toLangChainTools takes a Toolkit");
  });

  it("take state as an object too, which also picks the tools listed (those visible to it)", async () => {
    const refund = defineTool({
      name: "refund",
      description: "Refunds an order",
      visible: (ctx) => ctx.state?.role === "support",
      execute: () => "refunded",
    });
    const toolkit = new Toolkit([add, refund]);
    expect(toLangChainTools(toolkit, { state: { role: "support" } }).map((t) => t.name)).toEqual(["add", "refund"]);
    expect(toLangChainTools(toolkit, { state: { role: "customer" } }).map((t) => t.name)).toEqual(["add"]);
    // With state read per call, every tool is listed, and a hidden one is unknown to the call.
    const [, perCall] = toLangChainTools(toolkit, { state: (config) => config.configurable });
    const message = await perCall!.invoke(call("refund", {}), { configurable: { role: "customer" } });
    expect(message).toMatchObject({ status: "error", artifact: { metadata: { error: "unknown_tool" } } });
  });

  it("run through LangChain's callbacks under the tool's name, with the call's input and the ToolMessage", async () => {
    const [tool] = toLangChainTools(new Toolkit([add]));
    const events: Array<[string, unknown, string | undefined]> = [];
    await tool!.invoke(call("add", { a: 1, b: 1 }, "call_7"), {
      callbacks: [
        {
          handleToolStart: (_tool, input, _runId, _parent, _tags, _metadata, runName, toolCallId) =>
            void events.push(["start", input, `${runName}/${toolCallId}`]),
          handleToolEnd: (output: unknown) => void events.push(["end", (output as ToolMessage).content, undefined]),
        },
      ],
    });
    expect(events).toEqual([
      ["start", '{"a":1,"b":1}', "add/call_7"],
      ["end", "2", undefined],
    ]);
  });

  it("trace the runnables a tool invokes as children of the tool's run, as LangChain's tool() does", async () => {
    const shout = RunnableLambda.from((text: string) => text.toUpperCase()).withConfig({ runName: "shout" });
    const loud = defineTool({
      name: "loud",
      description: "Says it loudly",
      inputSchema: { type: "object", properties: { text: { type: "string" } } },
      execute: ({ text }) => shout.invoke(String(text)),
    });
    const [tool] = toLangChainTools(new Toolkit([loud]));
    const runs: Record<string, { id: string; parent?: string }> = {};
    const handler = {
      handleToolStart: (_tool: unknown, _input: string, runId: string, parent?: string) =>
        void (runs.tool = { id: runId, ...(parent ? { parent } : {}) }),
      // LangChain's callback manager passes the parent run's id fourth.
      handleChainStart: (_chain: unknown, _inputs: unknown, runId: string, parent?: string) =>
        void (runs.chain = { id: runId, ...(parent ? { parent } : {}) }),
    };
    await expect(tool!.invoke(call("loud", { text: "hi" }), { callbacks: [handler] })).resolves.toMatchObject({
      content: "HI",
    });
    expect(runs.chain?.parent).toBe(runs.tool?.id);
  });

  it("answer ToolCalls given to batch, each with its own message, in order", async () => {
    const [tool] = toLangChainTools(new Toolkit([add]));
    const messages = await tool!.batch([call("add", { a: 1, b: 2 }, "c1"), call("add", { a: 1 }, "c2")]);
    expect(messages.map((m) => [(m as ToolMessage).tool_call_id, (m as ToolMessage).status])).toEqual([
      ["c1", "success"],
      ["c2", "error"],
    ]);
  });

  it("work the ToolCalls of a model's answer", async () => {
    const model = new ScriptedChatModel([() => callsTools(["add", { a: 20, b: 22 }, "call_9"])]);
    const tools = toLangChainTools(new Toolkit([add]));
    const answer = await model.bindTools(tools).invoke([new HumanMessage("20 + 22?")]);
    const [toolCall] = answer.tool_calls ?? [];
    await expect(tools[0]!.invoke(toolCall!)).resolves.toMatchObject({ tool_call_id: "call_9", content: "42" });
  });
});
