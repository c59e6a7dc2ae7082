import "reflect-metadata";
import { defineTool, Param, Tool, ToolDefinitionError, Toolkit, type Tool as ToolShape } from "../../src";

/**
 * Whatever escapes a tool (a pattern JavaScript reads differently from a unicode-mode regex, a
 * schema that cannot compile, a result or a thrown value whose getters throw, a hand-written
 * runner that throws) becomes an error result for that call alone; the other calls still run.
 * A validated schema that cannot compile is refused when the tool is defined.
 */
describe("a run never rejects, whatever escapes it", () => {
  it("reads patterns as JavaScript does (no unicode-mode surprises)", async () => {
    class Svc {
      // Valid for JavaScript, refused by a unicode-mode regex: compiled without the u flag, it works.
      @Tool("t") t(@Param({ pattern: "^[\\w-.]+$" }) s: string) {
        return s;
      }
    }
    const kit = new Toolkit([new Svc()]);
    expect(await kit.execute("t", { s: "a-b.c" })).toEqual({ output: "a-b.c", isError: false });
  });

  it("turns a schema that cannot compile on the first call into an error result, and the other calls still run", async () => {
    class Svc {
      @Tool("broken") broken(@Param({ schema: { $ref: "#/definitions/Missing" } }) x: unknown) {
        return x;
      }
      @Tool("fine") fine() {
        return "fine";
      }
    }
    const kit = new Toolkit([new Svc()]);
    const reply = await kit.runGemini([
      { functionCall: { name: "broken", args: { x: 1 } } },
      { functionCall: { name: "fine", args: {} } },
    ]);
    expect(reply!.parts[0]!.functionResponse.response).toEqual({
      error: expect.stringMatching(/^Tool "broken" could not run: .*Missing/),
    });
    expect(reply!.parts[1]!.functionResponse.response).toEqual({ output: "fine" });
  });

  it("refuses at definition time a validated schema that cannot be compiled", () => {
    expect(() =>
      defineTool({
        name: "t",
        description: "d",
        validate: true,
        inputSchema: { type: "object", properties: { a: { $ref: "#/definitions/Missing" } } },
        execute: () => "",
      }),
    ).toThrow(ToolDefinitionError);
  });

  it("handles a result whose output getter throws", async () => {
    const hostile = {
      get output(): string {
        throw new Error("boom");
      },
      isError: false,
    };
    const kit = new Toolkit([defineTool({ name: "t", description: "d", execute: async () => hostile })]);
    const result = await kit.execute("t", {});
    expect(result.isError).toBe(true);
    expect(result.output).toBe("The tool's result could not be serialized: boom");
  });

  it("handles a thrown value whose message getter throws", async () => {
    const thrown = {
      get message(): string {
        throw new Error("no");
      },
    };
    const kit = new Toolkit([
      defineTool({
        name: "t",
        description: "d",
        execute: () => {
          throw thrown;
        },
      }),
    ]);
    expect(await kit.execute("t", {})).toEqual({
      output: "unknown error",
      isError: true,
      metadata: { error: "execution_failed" },
    });
  });

  it("isolates a runner whose execute throws inside a provider round trip", async () => {
    const kit = new Toolkit([defineTool({ name: "ok", description: "d", execute: () => "fine" })]);
    const broken: ToolShape = {
      name: "broken",
      description: "d",
      inputSchema: { type: "object" },
      source: "native",
      execute: () => {
        throw new Error("sync");
      },
    };
    kit.register(broken);
    const messages = await kit.runOpenAI([
      { id: "1", type: "function", function: { name: "broken", arguments: "{}" } },
      { id: "2", type: "function", function: { name: "ok", arguments: "{}" } },
    ]);
    expect(messages).toEqual([
      { role: "tool", tool_call_id: "1", content: "Error: sync" },
      { role: "tool", tool_call_id: "2", content: "fine" },
    ]);
  });
});
