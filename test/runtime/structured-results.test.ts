/**
 * Output schemas: `@Tool({ output })` (a DTO class or an object schema) and
 * `defineTool({ outputSchema })` set `Tool.outputSchema`; an object a tool returns becomes
 * `structuredContent` (its JSON the `output`), checked against it. A result that breaks the
 * schema's promise is an `invalid_output` error result that `onError` is told about.
 */
import "reflect-metadata";
import { IsInt, IsString, Min } from "class-validator";
import {
  defineTool,
  image,
  ScanError,
  Tool,
  Toolkit,
  ToolDefinitionError,
  type JSONSchemaObject,
  type ToolFailure,
} from "toolnexus";

class Order {
  /** The order's id. */
  @IsString() id!: string;
  @IsInt() @Min(0) total!: number;
}

const ORDER_SCHEMA: JSONSchemaObject = {
  type: "object",
  properties: { id: { type: "string" }, total: { type: "number" } },
  required: ["id", "total"],
  additionalProperties: false,
};

class Orders {
  @Tool({ description: "Look up an order", output: Order })
  lookUp(id: string): Order | Record<string, unknown> {
    if (id === "wrong-type") return { id, total: "12" };
    if (id === "negative") return { id, total: -1 };
    return { id, total: 12 };
  }

  @Tool({ description: "Summarize an order", output: ORDER_SCHEMA })
  summarize(id: string): unknown {
    if (id === "text") return "just text";
    if (id === "error") return { output: "No such order", isError: true };
    if (id === "explicit")
      return { output: "Order o-1: 12 EUR", isError: false, structuredContent: { id: "o-1", total: 12 } };
    if (id === "explicit-wrong") return { output: "?", isError: false, structuredContent: { id: 1 } };
    if (id === "parts") return [image(Buffer.from("89504e470d0a1a0a", "hex"))];
    if (id === "extra") return { id, total: 1, secret: "leaked" };
    return { id, total: 12, placedAt: undefined };
  }
}

describe("structured results", () => {
  const failures: ToolFailure[] = [];
  const toolkit = new Toolkit([new Orders()], { onError: (failure) => void failures.push(failure) });
  beforeEach(() => (failures.length = 0));

  it("sets the tool's outputSchema from a DTO class or an object schema", () => {
    const [lookUp, summarize] = toolkit.tools();
    expect(lookUp!.outputSchema).toMatchObject({
      type: "object",
      properties: { id: { type: "string" }, total: { type: "integer", minimum: 0 } },
      required: ["id", "total"],
    });
    expect(summarize!.outputSchema).toEqual(ORDER_SCHEMA);
  });

  it("makes an object result structuredContent, with its JSON as the text form", async () => {
    expect(await toolkit.execute("lookUp", { id: "o-1" })).toEqual({
      output: '{"id":"o-1","total":12}',
      isError: false,
      structuredContent: { id: "o-1", total: 12 },
    });
    // As JSON: an undefined property is not there.
    expect((await toolkit.execute("summarize", { id: "o-2" })).structuredContent).toEqual({ id: "o-2", total: 12 });
  });

  it("answers a result that does not match with invalid_output, and tells onError", async () => {
    const wrong = await toolkit.execute("lookUp", { id: "wrong-type" });
    expect(wrong).toEqual({
      output:
        'Tool "lookUp" returned a result that does not match its output schema:\n- "total" must be integer, got string "12"',
      isError: true,
      metadata: { tool: "lookUp", error: "invalid_output", errorId: expect.any(String) },
    });
    expect((await toolkit.execute("lookUp", { id: "negative" })).output).toContain('"total" must be >= 0');
    expect((await toolkit.execute("summarize", { id: "extra" })).output).toContain('"secret"');
    expect(failures.map((failure) => [failure.tool, failure.kind])).toEqual([
      ["lookUp", "invalid_output"],
      ["lookUp", "invalid_output"],
      ["summarize", "invalid_output"],
    ]);
  });

  it("checks a ToolResult's own structuredContent, and lets error results through", async () => {
    expect(await toolkit.execute("summarize", { id: "explicit" })).toEqual({
      output: "Order o-1: 12 EUR",
      isError: false,
      structuredContent: { id: "o-1", total: 12 },
    });
    expect((await toolkit.execute("summarize", { id: "explicit-wrong" })).metadata?.error).toBe("invalid_output");
    expect(await toolkit.execute("summarize", { id: "error" })).toMatchObject({
      output: "No such order",
      isError: true,
    });
  });

  it("refuses text or parts from a tool that promised structured results", async () => {
    for (const id of ["text", "parts"]) {
      const result = await toolkit.execute("summarize", { id });
      expect(result.metadata?.error).toBe("invalid_output");
      expect(result.output).toContain("the result must be an object that matches the output schema");
    }
  });

  it("defineTool({ outputSchema }) does the same", async () => {
    const quote = defineTool({
      name: "quote",
      description: "Quote a price",
      outputSchema: { type: "object", properties: { price: { type: "number" } }, required: ["price"] },
      execute: async ({ sku }) => (sku === "none" ? {} : { price: 12 }),
    });
    expect(quote.outputSchema).toEqual({
      type: "object",
      properties: { price: { type: "number" } },
      required: ["price"],
    });
    expect(await quote.execute({ sku: "a" })).toEqual({
      output: '{"price":12}',
      isError: false,
      structuredContent: { price: 12 },
    });
    expect((await quote.execute({ sku: "none" })).output).toContain(
      'missing required property "price" (expected number)',
    );
  });

  it("refuses an output schema that does not describe an object, at definition or scan time", () => {
    expect(() =>
      defineTool({ name: "t", description: "d", outputSchema: { type: "string" }, execute: () => "x" }),
    ).toThrow(ToolDefinitionError);
    expect(() =>
      defineTool({ name: "t", description: "d", outputSchema: { type: "string" }, execute: () => "x" }),
    ).toThrow('Tool "t": the output schema must describe an object (type "object" at its root)');
    expect(() =>
      defineTool({
        name: "t",
        description: "d",
        outputSchema: { type: "object", properties: 3 } as never,
        execute: () => "x",
      }),
    ).toThrow("the output schema is not a valid JSON Schema");
    class Listing {
      @Tool({ description: "List", output: { type: "array" } })
      list() {
        return [];
      }
    }
    expect(() => new Toolkit([new Listing()])).toThrow(ScanError);
    expect(() => new Toolkit([new Listing()])).toThrow("Listing.list: the output schema must describe an object");
  });

  it("refuses a declared mime type that is not one", () => {
    expect(() => defineTool({ name: "t", description: "d", mimeType: "png", execute: () => "x" })).toThrow(
      'Tool "t": mimeType must look like "type/subtype"',
    );
  });
});
