/**
 * `toAiSdkTools(toolkit)` in the AI SDK's own loop (`generateText` with the AI SDK's mock
 * model): each call runs through `toolkit.execute`, so the toolkit validates the arguments,
 * keeps every failure as data the model reads, applies its deadlines and the AI SDK's abort
 * signal, and gives the tool a ctx made from the AI SDK's call options.
 */
import { asSchema, generateText, stepCountIs } from "ai";
import { defineTool, Toolkit, ToolDefinitionError, type ToolContext, type ToolResult } from "toolnexus";
import { toAiSdkTools } from "toolnexus/ai-sdk";
import { scriptedModel, text, toolCall, toolResultsIn } from "./scripted-model";

const weather = defineTool({
  name: "get_weather",
  description: "Current weather for a city",
  annotations: { title: "Weather", readOnly: true },
  inputSchema: {
    type: "object",
    properties: { city: { type: "string", minLength: 2 } },
    required: ["city"],
    additionalProperties: false,
  },
  validate: true,
  execute: ({ city }) => `sunny in ${String(city)}`,
});
const deleteCustomer = defineTool({
  name: "delete_customer",
  description: "Deletes a customer",
  visible: (ctx) => ctx.state?.role === "admin",
  execute: () => "deleted",
});

describe("toAiSdkTools: the tools the AI SDK is given", () => {
  const toolkit = new Toolkit([weather, deleteCustomer]);

  it("gives each tool visible to the ctx, with its description, title and JSON Schema, and no validator of the AI SDK's", async () => {
    const tools = toAiSdkTools(toolkit);
    expect(Object.keys(tools)).toEqual(["get_weather"]);
    const schema = asSchema(tools.get_weather!.inputSchema);
    expect(await schema.jsonSchema).toEqual(weather.inputSchema);
    // Without a validator the AI SDK passes the arguments on as parsed: the toolkit validates, once.
    expect(schema.validate).toBeUndefined();
    expect(tools.get_weather).toMatchObject({ description: "Current weather for a city", title: "Weather" });
    expect(tools.get_weather!.needsApproval).toBeUndefined();

    const model = scriptedModel([text("hello")]);
    await generateText({ model, tools, prompt: "hi" });
    expect(model.doGenerateCalls[0]!.tools).toEqual([
      {
        type: "function",
        name: "get_weather",
        description: "Current weather for a city",
        inputSchema: weather.inputSchema,
      },
    ]);
  });

  it("gives a hidden tool to a ctx that may see it (ctx.state or an object state)", () => {
    expect(Object.keys(toAiSdkTools(toolkit, { ctx: { state: { role: "admin" } } }))).toEqual([
      "get_weather",
      "delete_customer",
    ]);
    expect(Object.keys(toAiSdkTools(toolkit, { state: { role: "admin" } }))).toEqual([
      "get_weather",
      "delete_customer",
    ]);
  });

  it("narrows the set with include and exclude, and refuses a name the toolkit does not have", () => {
    const admin = { state: { role: "admin" } };
    expect(Object.keys(toAiSdkTools(toolkit, { ctx: admin, include: ["delete_customer"] }))).toEqual([
      "delete_customer",
    ]);
    expect(Object.keys(toAiSdkTools(toolkit, { ctx: admin, exclude: ["delete_customer"] }))).toEqual(["get_weather"]);
    // Included but hidden from this ctx: not given, as everywhere else.
    expect(Object.keys(toAiSdkTools(toolkit, { include: ["delete_customer"] }))).toEqual([]);
    expect(() => toAiSdkTools(toolkit, { include: ["get_wether"] })).toThrow(
      new ToolDefinitionError('toAiSdkTools: include names no tool of this toolkit: "get_wether".'),
    );
    expect(() => toAiSdkTools(toolkit, { exclude: ["nope"] })).toThrow(ToolDefinitionError);
  });
});

describe("toAiSdkTools: failures are results the model reads", () => {
  it("answers invalid arguments with the toolkit's message; the model corrects its call and it runs", async () => {
    const toolkit = new Toolkit([weather]);
    let read: unknown;
    const model = scriptedModel(
      [toolCall("get_weather", { city: 42, country: "IN" }, "call_1")],
      (prompt) => {
        read = toolResultsIn(prompt)[0]?.output;
        return [toolCall("get_weather", { city: "Chennai" }, "call_2")];
      },
      (prompt) => [text(`It is ${String((toolResultsIn(prompt)[0]?.output as { value: string }).value)}.`)],
    );
    const result = await generateText({
      model,
      tools: toAiSdkTools(toolkit),
      prompt: "Weather in Chennai?",
      stopWhen: stepCountIs(5),
    });

    expect(read).toEqual({
      type: "error-text",
      value:
        'Invalid arguments for tool "get_weather":\n- unknown argument "country"; expected only: city\n- "city" must be string, got number 42',
    });
    expect(result.text).toBe("It is sunny in Chennai.");
    const [first, second] = result.steps.slice(0, 2).map((step) => step.toolResults[0]!.output as ToolResult);
    expect(first).toMatchObject({ isError: true, metadata: { error: "invalid_arguments" } });
    expect(second).toEqual({ output: "sunny in Chennai", isError: false });
  });

  it("answers a tool that throws with the thrown message as an error result; the loop goes on", async () => {
    const failures: string[] = [];
    const flaky = defineTool({
      name: "get_rate",
      description: "EUR to USD",
      execute: () => {
        throw new Error("upstream answered 503");
      },
    });
    const toolkit = new Toolkit([flaky], {
      onError: (failure) => void failures.push(`${failure.kind} ${failure.provider} ${failure.callId}`),
    });
    const model = scriptedModel([toolCall("get_rate", {}, "call_rate")], (prompt) => [
      text(JSON.stringify(toolResultsIn(prompt)[0]!.output)),
    ]);
    const result = await generateText({
      model,
      tools: toAiSdkTools(toolkit),
      prompt: "rate?",
      stopWhen: stepCountIs(5),
    });

    expect(JSON.parse(result.text)).toEqual({ type: "error-text", value: "upstream answered 503" });
    expect(result.steps[0]!.toolResults[0]!.output).toMatchObject({
      output: "upstream answered 503",
      isError: true,
      metadata: { error: "execution_failed" },
    });
    // A result, not a throw: the AI SDK records no tool error.
    expect(result.steps[0]!.content.some((part) => part.type === "tool-error")).toBe(false);
    expect(failures).toEqual(["execution_failed ai-sdk call_rate"]);
  });

  it("ends a call past its deadline with a timeout result, and aborts the tool's signal", async () => {
    let toolSignal: AbortSignal | undefined;
    const slow = defineTool({
      name: "slow_report",
      description: "A report that takes long",
      timeout: 50,
      execute: (_args, ctx) => {
        toolSignal = ctx.signal;
        return new Promise((resolve) => setTimeout(() => resolve("too late"), 5_000).unref());
      },
    });
    const model = scriptedModel([toolCall("slow_report", {})], (prompt) => [
      text(JSON.stringify(toolResultsIn(prompt)[0]!.output)),
    ]);
    const started = Date.now();
    const result = await generateText({
      model,
      tools: toAiSdkTools(new Toolkit([slow])),
      prompt: "report",
      stopWhen: stepCountIs(5),
    });

    expect(Date.now() - started).toBeLessThan(2_000);
    expect(JSON.parse(result.text)).toEqual({ type: "error-text", value: 'Tool "slow_report" timed out after 50 ms' });
    expect(result.steps[0]!.toolResults[0]!.output).toMatchObject({
      isError: true,
      metadata: { error: "timeout", timeoutMs: 50 },
    });
    expect(toolSignal?.aborted).toBe(true);
  });

  it("applies ctx.timeout of the options to every call", async () => {
    const slow = defineTool({
      name: "slow",
      description: "Slow",
      execute: (_args, ctx) =>
        new Promise((resolve) => ctx.signal?.addEventListener("abort", () => resolve("stopped"))),
    });
    const tools = toAiSdkTools(new Toolkit([slow]), { ctx: { timeout: 30 } });
    const result = await generateText({
      model: scriptedModel([toolCall("slow", {})], [text("done")]),
      tools,
      prompt: "go",
      stopWhen: stepCountIs(5),
    });
    expect(result.steps[0]!.toolResults[0]!.output).toMatchObject({
      isError: true,
      metadata: { error: "timeout", timeoutMs: 30 },
    });
  });

  it("aborts a running call through generateText's abortSignal: the tool's signal fires and the toolkit answers aborted", async () => {
    const controller = new AbortController();
    let toolSignal: AbortSignal | undefined;
    const wait = defineTool({
      name: "wait_for_payment",
      description: "Waits until a payment settles",
      execute: (_args, ctx) => {
        toolSignal = ctx.signal;
        setTimeout(() => controller.abort(new Error("the user left")), 10);
        return new Promise(() => {}); // settles only by the abort
      },
    });
    const finished: unknown[] = [];
    const run = generateText({
      model: scriptedModel([toolCall("wait_for_payment", {})], [text("never asked")]),
      tools: toAiSdkTools(new Toolkit([wait])),
      prompt: "wait",
      abortSignal: controller.signal,
      stopWhen: stepCountIs(5),
      experimental_onToolCallFinish: (event) => void finished.push(event.success ? event.output : event.error),
    });

    // The AI SDK stops its loop on the aborted signal; the call itself ended as data.
    await expect(run).rejects.toThrow("the user left");
    expect(toolSignal?.aborted).toBe(true);
    expect(finished).toEqual([
      { output: 'Tool "wait_for_payment" was aborted: the user left', isError: true, metadata: { error: "aborted" } },
    ]);
  });
  it("aborts a running call through options.ctx.signal too, beside the AI SDK's abortSignal", async () => {
    const shutdown = new AbortController();
    const wait = defineTool({
      name: "wait",
      description: "Waits",
      execute: () => {
        setTimeout(() => shutdown.abort(new Error("server shutting down")), 10);
        return new Promise(() => {});
      },
    });
    const tools = toAiSdkTools(new Toolkit([wait]), { ctx: { signal: shutdown.signal } });
    const result = await generateText({
      model: scriptedModel([toolCall("wait", {})], [text("ok")]),
      tools,
      prompt: "wait",
      abortSignal: new AbortController().signal,
      stopWhen: stepCountIs(5),
    });
    expect(result.steps[0]!.toolResults[0]!.output).toEqual({
      output: 'Tool "wait" was aborted: server shutting down',
      isError: true,
      metadata: { error: "aborted" },
    });
  });
});

describe("toAiSdkTools: the ctx a tool gets", () => {
  const seen: ToolContext[] = [];
  const whoami = defineTool({
    name: "whoami",
    description: "Who is asking",
    execute: (_args, ctx) => {
      seen.push(ctx);
      return `you are ${String(ctx.state?.user)}`;
    },
  });
  const toolkit = new Toolkit([whoami]);
  const ask = (options: Parameters<typeof toAiSdkTools>[1], experimental_context?: unknown) =>
    generateText({
      model: scriptedModel([toolCall("whoami", {}, "call_who")], [text("ok")]),
      tools: toAiSdkTools(toolkit, options),
      prompt: "who am I?",
      experimental_context,
    });

  beforeEach(() => (seen.length = 0));

  it("has the AI SDK's toolCallId as callId, provider ai-sdk, and experimental_context as state by default", async () => {
    const result = await ask(undefined, { user: "ada@example.com" });
    expect(seen[0]).toMatchObject({ callId: "call_who", provider: "ai-sdk", state: { user: "ada@example.com" } });
    expect(seen[0]!.signal).toBeDefined();
    expect(result.steps[0]!.toolResults[0]!.output).toEqual({ output: "you are ada@example.com", isError: false });
  });

  it("takes state from an object or a function of the call, over ctx.state", async () => {
    await ask({ ctx: { state: { tenant: "acme" } }, state: { user: "grace@example.com" } });
    expect(seen[0]!.state).toEqual({ tenant: "acme", user: "grace@example.com" });

    const calls: unknown[] = [];
    await ask(
      {
        ctx: { state: { tenant: "acme" } },
        state: (call) => {
          calls.push({ toolCallId: call.toolCallId, messages: call.messages.length });
          return { user: (call.context as { session: { user: string } }).session.user };
        },
      },
      { session: { user: "alan@example.com" } },
    );
    expect(seen[1]!.state).toEqual({ tenant: "acme", user: "alan@example.com" });
    expect(calls).toEqual([{ toolCallId: "call_who", messages: 1 }]);
  });

  it("checks visibility per call with the call's state: a hidden tool is an unknown tool", async () => {
    const admin = new Toolkit([deleteCustomer]);
    const tools = toAiSdkTools(admin, {
      ctx: { state: { role: "admin" } },
      state: (call) => call.context as Record<string, unknown>,
    });
    const result = await generateText({
      model: scriptedModel([toolCall("delete_customer", {})], [text("ok")]),
      tools,
      prompt: "delete",
      experimental_context: { role: "customer" },
    });
    expect(result.steps[0]!.toolResults[0]!.output).toMatchObject({
      isError: true,
      metadata: { error: "unknown_tool" },
    });
  });

  it("answers as data when the state function gives something that is no object, telling the host what is wrong", async () => {
    const warn = jest.spyOn(process, "emitWarning").mockImplementation(() => {});
    const result = await ask({ state: () => "ada" as unknown as Record<string, unknown> });
    expect(seen).toEqual([]);
    const output = result.steps[0]!.toolResults[0]!.output as ToolResult;
    expect(output).toMatchObject({ isError: true, metadata: { error: "execution_failed" } });
    expect(output.output).toBe(
      `Tool "whoami" could not run: the state function of toAiSdkTools failed (error id ${String(output.metadata?.errorId)}). Tell the user the tool is failing.`,
    );
    expect(String(warn.mock.calls[0]![0])).toContain(
      `(error id ${String(output.metadata?.errorId)}): state must give an object or undefined (got string)`,
    );
    warn.mockRestore();
  });

  it("answers as data when the state function throws, and keeps what it threw from the model", async () => {
    const warn = jest.spyOn(process, "emitWarning").mockImplementation(() => {});
    const result = await ask({
      state: () => {
        throw new Error("no session for token sk_live_123");
      },
    });
    expect(seen).toEqual([]);
    const output = result.steps[0]!.toolResults[0]!.output as ToolResult;
    expect(output).toMatchObject({ isError: true, metadata: { error: "execution_failed" } });
    expect(JSON.stringify(result.steps[0]!.toolResults)).not.toContain("sk_live");
    expect(String(warn.mock.calls[0]![0])).toContain("no session for token sk_live_123");
    warn.mockRestore();
  });
});
