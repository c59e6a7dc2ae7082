/**
 * Outside MCP (`execute`, the run* loops), a tool's `ctx.elicit` and `ctx.sample` go to the
 * toolkit's `elicit` / `sample` hooks; without a hook they reject with an error that says
 * how to give one, which an uncaught throw turns into the call's error result.
 */
import { defineTool, InputUnavailableError, Toolkit, type ElicitRequest, type SampleRequest } from "toolnexus";

const confirm = defineTool({
  name: "confirm_order",
  description: "Places an order once the user confirms",
  inputSchema: { type: "object", properties: { item: { type: "string" } }, required: ["item"] },
  execute: async ({ item }, ctx) => {
    const answer = await ctx.elicit({
      message: `Order ${String(item)}?`,
      schema: { type: "object", properties: { yes: { type: "boolean" } }, required: ["yes"] },
    });
    return answer.action === "accept" && answer.content?.yes === true ? `ordered ${String(item)}` : "not ordered";
  },
});

const summarize = defineTool({
  name: "summarize",
  description: "Summarizes with the host's model",
  inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
  execute: async ({ text }, ctx) => {
    const result = await ctx.sample({ messages: `Summarize: ${String(text)}`, maxTokens: 20 });
    return (result.content as { text: string }).text;
  },
});

describe("the toolkit's elicit hook", () => {
  it("answers ctx.elicit with the request and the call's ctx", async () => {
    const asked: Array<{ request: ElicitRequest; user: unknown }> = [];
    const toolkit = new Toolkit([confirm], {
      elicit: (request, ctx) => {
        asked.push({ request, user: ctx.state?.user });
        return { action: "accept", content: { yes: true } };
      },
    });
    expect(await toolkit.execute("confirm_order", { item: "tea" }, { state: { user: "ada" } })).toEqual({
      output: "ordered tea",
      isError: false,
    });
    expect(asked).toEqual([
      {
        request: {
          message: "Order tea?",
          schema: { type: "object", properties: { yes: { type: "boolean" } }, required: ["yes"] },
        },
        user: "ada",
      },
    ]);
  });

  it("hands a decline to the tool as an answer", async () => {
    const toolkit = new Toolkit([confirm], { elicit: () => ({ action: "decline" }) });
    expect(await toolkit.execute("confirm_order", { item: "tea" })).toEqual({ output: "not ordered", isError: false });
  });

  it("is not asked a request that no user could answer, and the tool is told why", async () => {
    const elicit = jest.fn();
    const nested = defineTool({
      name: "nested_form",
      description: "Asks for a nested form",
      inputSchema: { type: "object", properties: {} },
      execute: (_args, ctx) =>
        ctx.elicit({ message: "Address?", schema: { type: "object", properties: { address: { type: "object" } } } }),
    });
    const result = await new Toolkit([nested], { elicit }).execute("nested_form", {});
    expect(result).toMatchObject({ isError: true, metadata: { error: "execution_failed" } });
    expect(result.output).toContain('field "address" must be a string, number, integer, boolean or enum');
    expect(elicit).not.toHaveBeenCalled();
  });

  it("leaves a caller's own elicit in place (an MCP server's)", async () => {
    const hook = jest.fn();
    const toolkit = new Toolkit([confirm], { elicit: hook });
    const result = await toolkit.execute(
      "confirm_order",
      { item: "tea" },
      { elicit: async () => ({ action: "cancel" }) },
    );
    expect(result.output).toBe("not ordered");
    expect(hook).not.toHaveBeenCalled();
  });
});

describe("the toolkit's sample hook", () => {
  it("answers ctx.sample; a string of messages is one user message for the hook as given", async () => {
    const asked: SampleRequest[] = [];
    const toolkit = new Toolkit([summarize], {
      sample: (request) => {
        asked.push(request);
        return { role: "assistant", content: { type: "text", text: "short" }, model: "host-model" };
      },
    });
    expect(await toolkit.execute("summarize", { text: "a long text" })).toEqual({ output: "short", isError: false });
    expect(asked).toEqual([{ messages: "Summarize: a long text", maxTokens: 20 }]);
  });

  it("is not asked without maxTokens", async () => {
    const sample = jest.fn();
    const careless = defineTool({
      name: "careless",
      description: "Samples without a budget",
      inputSchema: { type: "object", properties: {} },
      execute: (_args, ctx) => ctx.sample({ messages: "hi" } as SampleRequest),
    });
    const result = await new Toolkit([careless], { sample }).execute("careless", {});
    expect(result.output).toContain("ctx.sample needs `maxTokens`");
    expect(sample).not.toHaveBeenCalled();
  });
});

describe("without hooks", () => {
  it("ctx.elicit rejects with InputUnavailableError naming the toolkit option", async () => {
    let thrown: unknown;
    const probe = defineTool({
      name: "probe",
      description: "Asks and keeps the error",
      inputSchema: { type: "object", properties: {} },
      execute: async (_args, ctx) => {
        thrown = await ctx
          .elicit({ message: "?", url: "https://example.com/sign-in" })
          .catch((error: unknown) => error);
        return "asked";
      },
    });
    await new Toolkit([probe]).execute("probe", {});
    expect(thrown).toBeInstanceOf(InputUnavailableError);
    expect((thrown as Error).message).toContain("pass the toolkit option `elicit`");
  });

  it("an uncaught ctx.sample rejection is the call's error result", async () => {
    const result = await new Toolkit([summarize]).execute("summarize", { text: "x" });
    expect(result).toMatchObject({ isError: true, metadata: { error: "execution_failed" } });
    expect(result.output).toContain("pass the toolkit option `sample`");
  });

  it("a hook that is not a function is refused when the toolkit is made", () => {
    expect(() => new Toolkit([summarize], { sample: "model" as never })).toThrow(
      "Toolkit: sample must be a function (got string).",
    );
  });
});
