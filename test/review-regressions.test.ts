import "reflect-metadata";
import { defineTool, DuplicateToolError, Param, ScanError, Tool, ToolDefinitionError, Toolkit, type JSONSchemaObject, type Tool as ToolShape } from "../src";
import { canonicalSchema } from "../src/schema/canonical";

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
    const reply = await kit.runGemini([{ functionCall: { name: "broken", args: { x: 1 } } }, { functionCall: { name: "fine", args: {} } }]);
    expect(reply!.parts[0]!.functionResponse.response).toEqual({ error: expect.stringMatching(/^Tool "broken" could not run: .*Missing/) });
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
    expect(await kit.execute("t", {})).toEqual({ output: "unknown error", isError: true, metadata: { error: "execution_failed" } });
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

describe("validation does not accumulate or collide", () => {
  it("compiles two tools whose schemas carry the same $id", async () => {
    const schema: JSONSchemaObject = { $id: "https://example.com/args", type: "object", properties: { a: { type: "string" } } };
    const one = defineTool({ name: "one", description: "d", inputSchema: schema, validate: true, execute: () => "1" });
    const two = defineTool({ name: "two", description: "d", inputSchema: schema, validate: true, execute: () => "2" });
    expect(await one.execute({ a: "x" })).toEqual({ output: "1", isError: false });
    expect(await two.execute({ a: "x" })).toEqual({ output: "2", isError: false });
  });
});

describe("parameter names", () => {
  it("accepts a parameter named like an Object.prototype member such as toString", () => {
    class Svc {
      @Tool("t") t(@Param("toString") s: string) {
        return s;
      }
    }
    expect(Object.keys(new Toolkit([new Svc()]).get("t")!.inputSchema.properties!)).toEqual(["toString"]);
  });

  it("refuses an argument named constructor, naming the parameter", () => {
    class Svc {
      @Tool("t") t(@Param("constructor") s: string) {
        return s;
      }
    }
    expect(() => new Toolkit([new Svc()])).toThrow(ScanError);
    expect(() => new Toolkit([new Svc()])).toThrow(/Svc\.t, parameter 0 \("constructor"\): "constructor" cannot be an argument name/);
  });

  it("lets an explicit optional: false win over a default value in the source", () => {
    class Svc {
      @Tool("t") t(@Param({ optional: false }) units: string = "metric") {
        return units;
      }
    }
    expect(new Toolkit([new Svc()]).get("t")!.inputSchema.required).toEqual(["units"]);
  });
});

describe("registration is all or nothing", () => {
  it("registers nothing from a batch that holds a duplicate", () => {
    const tool = (name: string) => defineTool({ name, description: "d", execute: () => "" });
    const kit = new Toolkit([tool("a")]);
    expect(() => kit.register(tool("b"), tool("a"))).toThrow(DuplicateToolError);
    expect(kit.tools().map((t) => t.name)).toEqual(["a"]);
    expect(() => kit.register(tool("c"), tool("c"))).toThrow(DuplicateToolError);
    expect(kit.has("c")).toBe(false);
  });
});

describe("Bedrock results", () => {
  it("never sends an empty text block", async () => {
    const kit = new Toolkit([defineTool({ name: "quiet", description: "d", execute: () => undefined })]);
    const reply = await kit.runBedrock([{ toolUse: { toolUseId: "u1", name: "quiet", input: {} } }]);
    expect(reply!.content[0]!.toolResult.content).toEqual([{ text: "(no output)" }]);
  });
});

describe("canonical key order", () => {
  it("orders unknown keywords by code unit, whatever the locale", () => {
    expect(Object.keys(canonicalSchema({ type: "object", "x-b": 1, "x-B": 2, "x-a": 3 }))).toEqual(["type", "x-B", "x-a", "x-b"]);
  });
});
