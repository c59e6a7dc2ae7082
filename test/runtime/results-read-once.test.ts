/**
 * A returned ToolResult is read once: its `output`, `isError` and `metadata` are each read a
 * single time, so a getter cannot answer one thing to the check and another to the message.
 * What a provider's message carries is what was checked: a string, never a number. A
 * `metadata` that is not an object makes the call fail instead of passing it on.
 */
import { defineTool, Tool, Toolkit, type Tool as ToolShape, type ToolResult } from "../../src";
import { toMcpResult } from "../../src/mcp";

interface Reads {
  output: number;
  isError: number;
  metadata: number;
}

/** An object whose fields answer `first` on their first read and `later` on every read after. */
function flipping(
  first: { output: unknown; isError: unknown },
  later: { output: unknown; isError: unknown },
): { value: object; reads: Reads } {
  const reads: Reads = { output: 0, isError: 0, metadata: 0 };
  const value = {
    get output() {
      return reads.output++ === 0 ? first.output : later.output;
    },
    get isError() {
      return reads.isError++ === 0 ? first.isError : later.isError;
    },
    get metadata() {
      reads.metadata++;
      return undefined;
    },
  };
  return { value, reads };
}

/** A string and `false` first, then a number and `true`. */
const stringThenNumber = () => flipping({ output: "fine", isError: false }, { output: 42, isError: true });
/** A number and a string first, then a string and `false`: not a ToolResult when checked. */
const numberThenString = () => flipping({ output: 42, isError: "no" }, { output: "fine", isError: false });

/** Every object the tools below returned, in call order. */
let made: Array<{ value: object; reads: Reads }> = [];
let makeNext: () => { value: object; reads: Reads } = stringThenNumber;
const nextResult = () => {
  const result = makeNext();
  made.push(result);
  return result.value;
};

class Flipper {
  @Tool("Returns a result whose fields change after their first read")
  flip() {
    return nextResult();
  }
}

const handWritten: ToolShape = {
  name: "hand_flip",
  description: "Hand-written: returns a result whose fields change after their first read.",
  inputSchema: { type: "object", properties: {} },
  source: "custom",
  execute: (() => nextResult()) as unknown as ToolShape["execute"],
};

const toolkit = new Toolkit([
  defineTool({
    name: "define_flip",
    description: "Returns a result whose fields change after their first read.",
    execute: () => nextResult(),
  }),
  new Flipper(),
  handWritten,
]);

const kinds = ["define_flip", "flip", "hand_flip"] as const;

/** The text each provider's message carries for one call of `name`, and how many results were made for it. */
async function providerTexts(name: string): Promise<Array<[string, unknown]>> {
  const gemini = await toolkit.runGemini([{ functionCall: { name, args: {} } }]);
  const response = gemini!.parts[0]!.functionResponse.response as { output?: unknown; error?: unknown };
  const openai = await toolkit.runOpenAI([{ id: "call_1", type: "function", function: { name, arguments: "{}" } }]);
  const responses = await toolkit.runOpenAIResponses([
    { type: "function_call", call_id: "call_1", name, arguments: "{}" },
  ]);
  const anthropic = await toolkit.runAnthropic({ content: [{ type: "tool_use", id: "toolu_1", name, input: {} }] });
  const bedrock = await toolkit.runBedrock({
    output: { message: { content: [{ toolUse: { toolUseId: "tu_1", name, input: {} } }] } },
  });
  const mcp = toMcpResult(await toolkit.execute(name, {}));
  return [
    ["gemini", "output" in response ? response.output : response.error],
    ["openai", openai[0]!.content],
    ["openai-responses", responses[0]!.output],
    ["anthropic", anthropic!.content[0]!.content],
    ["bedrock", bedrock!.content[0]!.toolResult.content[0]!.text],
    ["mcp", mcp.content[0]?.type === "text" ? mcp.content[0].text : undefined],
  ];
}

beforeEach(() => {
  made = [];
  makeNext = stringThenNumber;
});

describe("a returned ToolResult whose getters change their answer", () => {
  it.each(kinds)("%s: execute keeps what was read first, reading each field once", async (name) => {
    const result = await toolkit.execute(name, {});
    expect(result).toStrictEqual({ output: "fine", isError: false });
    expect(made).toHaveLength(1);
    expect(made[0]!.reads).toEqual({ output: 1, isError: 1, metadata: 1 });
  });

  it.each(kinds)("%s: every provider message carries the string that was checked", async (name) => {
    const texts = await providerTexts(name);
    expect(texts).toEqual([
      ["gemini", "fine"],
      ["openai", "fine"],
      ["openai-responses", "fine"],
      ["anthropic", "fine"],
      ["bedrock", "fine"],
      ["mcp", "fine"],
    ]);
    expect(made).toHaveLength(texts.length);
    for (const { reads } of made) expect(reads).toEqual({ output: 1, isError: 1, metadata: 1 });
  });

  it.each(kinds)(
    "%s: a message carries a string, never a number, whichever type the first read gives",
    async (name) => {
      makeNext = numberThenString;
      const result = await toolkit.execute(name, {});
      expect(typeof result.output).toBe("string");
      expect(typeof result.isError).toBe("boolean");
      for (const [, text] of await providerTexts(name)) expect(typeof text).toBe("string");

      makeNext = stringThenNumber;
      const anthropic = await toolkit.runAnthropic([{ type: "tool_use", id: "toolu_2", name, input: {} }]);
      expect(anthropic!.content[0]).toStrictEqual({ type: "tool_result", tool_use_id: "toolu_2", content: "fine" });
    },
  );
});

describe("a returned ToolResult whose metadata is not an object", () => {
  const returning = (metadata: unknown): ToolShape =>
    defineTool({
      name: "with_metadata",
      description: "Returns a result with the given metadata.",
      execute: () => ({ output: "done", isError: false, metadata }),
    });

  it.each([
    ["a string", "oops"],
    ["a number", 7],
    ["null", null],
    ["an array", ["a", "b"]],
    ["a function", () => "x"],
  ])("fails the call when it is %s", async (_what, metadata) => {
    const result: ToolResult = await new Toolkit([returning(metadata)]).execute("with_metadata", {});
    expect(result.isError).toBe(true);
    expect(result.metadata).toEqual({ error: "execution_failed" });
    expect(result.output.startsWith("The tool returned a result whose metadata is not an object")).toBe(true);
  });

  it("says what the metadata was", async () => {
    const said = async (metadata: unknown) =>
      (await new Toolkit([returning(metadata)]).execute("with_metadata", {})).output;
    expect(await said("oops")).toBe("The tool returned a result whose metadata is not an object (got string).");
    expect(await said(null)).toBe("The tool returned a result whose metadata is not an object (got null).");
  });

  it("fails the same way from a decorated method, and in a provider message", async () => {
    class Odd {
      @Tool("Returns metadata that is text")
      odd() {
        return { output: "done", isError: false, metadata: "oops" };
      }
    }
    const odd = new Toolkit([new Odd()]);
    expect((await odd.execute("odd", {})).metadata).toEqual({ error: "execution_failed" });
    const [message] = await odd.runOpenAI([
      { id: "call_1", type: "function", function: { name: "odd", arguments: "{}" } },
    ]);
    expect(message!.content).toBe("Error: The tool returned a result whose metadata is not an object (got string).");
  });

  it("passes an object through as a copy of its own fields", async () => {
    const metadata = { code: 404, where: "lookup" };
    const result = await new Toolkit([returning(metadata)]).execute("with_metadata", {});
    expect(result).toStrictEqual({ output: "done", isError: false, metadata: { code: 404, where: "lookup" } });
    expect(result.metadata).not.toBe(metadata);
  });
});
