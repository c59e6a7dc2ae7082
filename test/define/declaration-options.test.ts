import "reflect-metadata";
import { defineTool, Param, scanTools, Tool, ToolDefinitionError, type JSONSchemaObject } from "../../src";
import { ScanError } from "../../src/core/errors";

const orderSchema: JSONSchemaObject = {
  type: "object",
  properties: { orderId: { type: "string", minLength: 2 }, reason: { type: "string" } },
  required: ["orderId"],
};

const refund = (extra: Record<string, unknown>) =>
  defineTool({
    name: "refund",
    description: "Refund an order",
    inputSchema: orderSchema,
    execute: () => "ok",
    ...extra,
  });

describe("declaration options on defineTool", () => {
  it("carries defer, namespace, examples and strict onto the tool", () => {
    const tool = refund({ defer: true, namespace: "billing", examples: [{ orderId: "A1" }], strict: true });
    expect(tool).toMatchObject({ defer: true, namespace: "billing", examples: [{ orderId: "A1" }], strict: true });
  });

  it("leaves out what was not asked for (defer: false is the default, no empty examples list)", () => {
    const tool = refund({ defer: false, examples: [] });
    expect("defer" in tool).toBe(false);
    expect("examples" in tool).toBe(false);
    expect("namespace" in tool).toBe(false);
  });

  it("keeps a copy of the examples it checked: changing the caller's object later changes nothing", () => {
    const example = { orderId: "A1" };
    const tool = refund({ examples: [example] });
    example.orderId = "";
    expect(tool.examples).toEqual([{ orderId: "A1" }]);
    expect(Object.isFrozen(tool.examples)).toBe(true);
  });

  it("refuses an example that does not fit the input schema, naming the tool, the example and the problem", () => {
    expect(() => refund({ examples: [{ orderId: "A1" }, { orderId: "x" }] })).toThrow(ToolDefinitionError);
    expect(() => refund({ examples: [{ orderId: "A1" }, { orderId: "x" }] })).toThrow(
      /Tool "refund": example 2 \(\{"orderId":"x"\}\) does not fit the input schema: .*orderId.*2 characters/,
    );
    expect(() => refund({ examples: [{ reason: "late" }] })).toThrow(/example 1 .*orderId/);
  });

  it("refuses examples that are not a list of arguments objects", () => {
    expect(() => refund({ examples: { orderId: "A1" } })).toThrow(/examples must be a list of arguments objects/);
    expect(() => refund({ examples: ["A1"] })).toThrow(/example 1 \("A1"\) must be an arguments object/);
    expect(() => refund({ examples: [[1]] })).toThrow(/must be an arguments object/);
  });

  it("refuses a namespace no provider takes, and defer or strict that are not booleans", () => {
    expect(() => refund({ namespace: "billing.v2" })).toThrow(/namespace must be a name providers accept/);
    expect(() => refund({ namespace: "" })).toThrow(/namespace/);
    expect(() => refund({ defer: "yes" })).toThrow(/Tool "refund": defer must be true or false \(got "yes"\)/);
    expect(() => refund({ strict: 1 })).toThrow(/strict must be true or false/);
  });

  it("checks examples of a Standard Schema tool against the JSON Schema it writes", () => {
    const standard = {
      "~standard": {
        version: 1,
        vendor: "test",
        validate: (value: unknown) => ({ value }),
        jsonSchema: { input: () => ({ type: "object", properties: { n: { type: "integer" } }, required: ["n"] }) },
      },
    } as const;
    expect(() =>
      defineTool({
        name: "count",
        description: "Counts",
        inputSchema: standard,
        execute: () => 1,
        examples: [{ n: 1.5 }],
      }),
    ).toThrow(/example 1 .* does not fit/);
  });
});

describe("declaration options on @Tool", () => {
  it("are carried onto the scanned tool", () => {
    class Billing {
      @Tool({ description: "Refund an order", defer: true, namespace: "billing", examples: [{ orderId: "A1" }] })
      refund(@Param() orderId: string) {
        return orderId;
      }
    }
    const [tool] = scanTools(new Billing());
    expect(tool).toMatchObject({ name: "refund", defer: true, namespace: "billing", examples: [{ orderId: "A1" }] });
  });

  it("fail the scan naming the class and method when an example does not fit", () => {
    class Billing {
      @Tool({ description: "Refund an order", examples: [{ order: "A1" }] })
      refund(@Param() orderId: string) {
        return orderId;
      }
    }
    const scan = () => scanTools(new Billing());
    expect(scan).toThrow(ScanError);
    expect(scan).toThrow(/Billing\.refund.*example 1 \(\{"order":"A1"\}\) does not fit the input schema/);
  });
});

describe("free-text tools", () => {
  it("take one string, given to the body as the text, and declare it as one string parameter", async () => {
    const shell = defineTool({
      name: "shell",
      description: "Runs a shell command",
      input: "text",
      inputDescription: "The command line.",
      execute: (text) => `ran ${text}`,
    });
    expect(shell.freeText).toEqual({});
    expect(shell.inputSchema).toEqual({
      type: "object",
      properties: { input: { type: "string", description: "The command line." } },
      required: ["input"],
      additionalProperties: false,
    });
    await expect(shell.execute({ input: "ls -l" })).resolves.toMatchObject({ output: "ran ls -l", isError: false });
    await expect(shell.execute({ input: 42 })).resolves.toMatchObject({
      isError: true,
      metadata: { error: "invalid_arguments" },
    });
    await expect(shell.execute({})).resolves.toMatchObject({ isError: true, metadata: { error: "invalid_arguments" } });
  });

  it("check a regex grammar on every call: the whole text must match", async () => {
    const tool = defineTool({
      name: "sku",
      description: "Looks up a SKU",
      input: "text",
      grammar: { syntax: "regex", definition: "[A-Z]{3}-\\d{4}" },
      execute: (text) => text,
    });
    expect(tool.freeText).toEqual({ grammar: { syntax: "regex", definition: "[A-Z]{3}-\\d{4}" } });
    await expect(tool.execute({ input: "ABC-1234" })).resolves.toMatchObject({ isError: false, output: "ABC-1234" });
    for (const input of ["ABC-12345", "xABC-1234", "abc-1234"])
      await expect(tool.execute({ input })).resolves.toMatchObject({
        isError: true,
        metadata: { error: "invalid_arguments" },
      });
  });

  it("state a Lark grammar to the model in the parameter's description", () => {
    const definition = 'start: "SELECT " NAME\nNAME: /[a-z]+/';
    const tool = defineTool({
      name: "query",
      description: "Runs a query",
      input: "text",
      grammar: { syntax: "lark", definition },
      execute: (text) => text,
    });
    const input = tool.inputSchema.properties!.input!;
    expect(input.description).toContain(definition);
    expect(input.pattern).toBeUndefined();
  });

  it("refuse what cannot work, saying what to do", () => {
    const base = { name: "t", description: "d", execute: (text: string) => text };
    expect(() => defineTool({ ...base, input: "text", grammar: { syntax: "peg", definition: "x" } as never })).toThrow(
      /grammar must be \{ syntax: "lark" \| "regex", definition/,
    );
    expect(() => defineTool({ ...base, input: "text", grammar: { syntax: "regex", definition: " " } })).toThrow(
      /grammar must be/,
    );
    expect(() => defineTool({ ...base, input: "text", grammar: { syntax: "regex", definition: "(a)\\1" } })).toThrow(
      /cannot be checked in linear time/,
    );
    expect(() => defineTool({ ...base, input: "json" as "text" })).toThrow(/input takes "text"/);
    expect(() => defineTool({ ...base, input: "text", inputSchema: { type: "object" } } as never)).toThrow(
      /has no inputSchema; drop one of the two/,
    );
    expect(() => defineTool({ ...base, input: "text", execute: undefined as never })).toThrow(
      /execute must be a function/,
    );
  });

  it("check their examples like any tool's", () => {
    expect(() =>
      defineTool({
        name: "sku",
        description: "Looks up a SKU",
        input: "text",
        grammar: { syntax: "regex", definition: "[A-Z]+" },
        examples: [{ input: "abc" }],
        execute: (text) => text,
      }),
    ).toThrow(/example 1 .* does not fit/);
  });
});
