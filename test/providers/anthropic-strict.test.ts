import type { ContentBlock } from "@anthropic-ai/sdk/resources/messages";
import {
  defineTool,
  describeExport,
  ExportError,
  toAnthropic,
  Toolkit,
  type JSONSchemaObject,
  type SchemaChange,
  type Tool,
} from "../../src";
import type { AnthropicTool } from "../../src/providers";

const bookingSchema: JSONSchemaObject = {
  type: "object",
  properties: {
    nights: { type: "integer", minimum: 1, maximum: 30 },
    note: { type: "string", maxLength: 200 },
    site: { type: "string", format: "uri" },
    iban: { type: "string", format: "iban" },
    tags: { type: "array", items: { type: "string" }, minItems: 1, maxItems: 5 },
  },
  required: ["nights"],
};
const book = defineTool({
  name: "book",
  description: "Books a stay",
  inputSchema: bookingSchema,
  validate: true,
  execute: ({ nights }) => `booked ${String(nights)} nights`,
});

/** A tree of nodes: a recursive schema, which strict tool use cannot compile. */
const tree = defineTool({
  name: "plant_tree",
  description: "Plants a tree",
  inputSchema: {
    type: "object",
    properties: { root: { $ref: "#/$defs/node" } },
    required: ["root"],
    $defs: { node: { type: "object", properties: { children: { type: "array", items: { $ref: "#/$defs/node" } } } } },
  },
  execute: () => "planted",
});

const settings = defineTool({
  name: "save_settings",
  description: "Saves free-form settings",
  inputSchema: { type: "object", properties: { values: { type: "object", additionalProperties: true } } },
  execute: () => "saved",
});

function onlyTool(declarations: ReturnType<typeof toAnthropic>): AnthropicTool {
  const [declared] = declarations;
  if (declared === undefined || !("input_schema" in declared)) throw new Error("expected one tool of yours");
  return declared;
}

/** `count` optional string properties, p0, p1 ... */
function optionalStrings(count: number): JSONSchemaObject {
  const properties: Record<string, JSONSchemaObject> = {};
  for (let p = 0; p < count; p++) properties[`p${p}`] = { type: "string" };
  return { type: "object", properties };
}

const changeOf = (changes: SchemaChange[], pointer: string) => changes.find((change) => change.pointer === pointer);

describe("Anthropic strict tool use", () => {
  it("closes every object and states limits strict tool use cannot say in descriptions", () => {
    expect(onlyTool(toAnthropic([book], { strict: true }))).toEqual({
      name: "book",
      description: "Books a stay",
      input_schema: {
        type: "object",
        properties: {
          nights: { type: "integer", description: "At least 1. At most 30." },
          note: { type: "string", description: "At most 200 characters." },
          site: { type: "string", format: "uri" },
          iban: { type: "string", description: "Format: iban." },
          tags: { type: "array", items: { type: "string" }, minItems: 1, description: "At most 5 items." },
        },
        required: ["nights"],
        additionalProperties: false,
      },
      strict: true,
    });
  });

  it("reports each keyword it moved, that the tool still enforces it, and the object it closed", () => {
    const { changes } = describeExport("anthropic", [book], { strict: true });
    expect(changes.map(({ pointer, action }) => `${action} ${pointer}`)).toEqual([
      "moved /properties/nights/minimum",
      "moved /properties/nights/maximum",
      "moved /properties/note/maxLength",
      "moved /properties/iban/format",
      "moved /properties/tags/maxItems",
      "lossy /additionalProperties",
    ]);
    expect(changeOf(changes, "/properties/nights/minimum")!.detail).toContain("still enforced when the call runs");
  });

  it("still refuses a call that passes a limit the declaration only states", async () => {
    const content: ContentBlock[] = [
      { type: "tool_use", id: "toolu_1", name: "book", input: { nights: 90 }, caller: { type: "direct" } },
    ];
    const reply = await new Toolkit([book]).runAnthropic(content);
    expect(reply!.content).toEqual([
      expect.objectContaining({ tool_use_id: "toolu_1", is_error: true, content: expect.stringMatching(/nights/) }),
    ]);
  });

  it("turns oneOf into anyOf and merges allOf, saying so", () => {
    const tool = defineTool({
      name: "pay",
      description: "Pays",
      inputSchema: {
        type: "object",
        properties: {
          amount: { allOf: [{ type: "number" }, { minimum: 0 }] },
          method: {
            oneOf: [
              { type: "string", enum: ["card"] },
              { type: "string", enum: ["cash"] },
            ],
          },
        },
        required: ["amount", "method"],
        additionalProperties: false,
      },
      execute: () => "paid",
    });
    const { declarations, changes } = describeExport("anthropic", [tool], { strict: true });
    expect(declarations).toEqual([
      expect.objectContaining({
        strict: true,
        input_schema: expect.objectContaining({
          properties: {
            amount: { type: "number", description: "At least 0." },
            method: {
              anyOf: [
                { type: "string", enum: ["card"] },
                { type: "string", enum: ["cash"] },
              ],
            },
          },
        }),
      }),
    ]);
    expect(changeOf(changes, "/properties/amount/allOf")!.action).toBe("rewritten");
    expect(changeOf(changes, "/properties/method/oneOf")!.detail).toMatch(/oneOf → anyOf/);
  });

  it("leaves a recursive schema non-strict, as it was, with the reason", () => {
    const { declarations, changes } = describeExport("anthropic", [tree], { strict: true });
    expect(declarations).toEqual([
      { name: "plant_tree", description: tree.description, input_schema: tree.inputSchema },
    ]);
    expect(changes).toEqual([
      {
        tool: "plant_tree",
        pointer: "",
        keyword: "strict",
        action: "disabled",
        detail: expect.stringMatching(/^a recursive reference \(#\/\$defs\/node\) at .*declared without strict: true$/),
      },
    ]);
  });

  it("leaves a free-form object non-strict, with the reason", () => {
    const { declarations, changes } = describeExport("anthropic", [settings], { strict: true });
    expect(declarations).toEqual([expect.not.objectContaining({ strict: expect.anything() })]);
    expect(changes.map(({ action, detail }) => `${action}: ${detail}`)).toEqual([
      "disabled: an object that takes keys beyond its declared properties at /properties/values; this tool is " +
        "declared without strict: true",
    ]);
  });

  it("marks only the tools whose schema is strict", () => {
    const names = toAnthropic([book, tree], { strict: true }).flatMap((tool) => ("strict" in tool ? [tool.name] : []));
    expect(names).toEqual(["book"]);
  });

  it("changes nothing without strict", () => {
    const { declarations, changes } = describeExport("anthropic", [book]);
    expect(declarations).toEqual([{ name: "book", description: book.description, input_schema: bookingSchema }]);
    expect(changes).toEqual([]);
  });

  it("lets a tool's own strict win over the export's, both ways", () => {
    const strictTool: Tool = { ...book, name: "book_strict", strict: true };
    const looseTool: Tool = { ...book, name: "book_loose", strict: false };
    const plain = toAnthropic([strictTool, looseTool]).map((tool) => ("strict" in tool ? tool.strict : "-"));
    const strict = toAnthropic([strictTool, looseTool], { strict: true }).map((tool) =>
      "strict" in tool ? tool.strict : "-",
    );
    expect(plain).toEqual([true, "-"]);
    expect(strict).toEqual([true, "-"]);
  });

  it("refuses more strict tools than one request takes, saying what to do", () => {
    const many = Array.from({ length: 21 }, (_, i) => ({ ...book, name: `book_${i}` }));
    expect(() => toAnthropic(many, { strict: true })).toThrow(ExportError);
    expect(() => toAnthropic(many, { strict: true })).toThrow(/21 tools .* at most 20 strict tools .*mark fewer/);
    expect(toAnthropic(many)).toHaveLength(21);
  });

  it("refuses more optional parameters across strict tools than one request takes", () => {
    const optional = (i: number): Tool =>
      defineTool({
        name: `tool_${i}`,
        description: "Takes ten optional parameters",
        inputSchema: optionalStrings(10),
        execute: () => "ok",
      });
    expect(() => toAnthropic([optional(1), optional(2)], { strict: true })).not.toThrow();
    expect(() => toAnthropic([optional(1), optional(2), optional(3)], { strict: true })).toThrow(
      /30 optional parameters .* at most 24/,
    );
  });

  it("leaves non-strict a tool that alone passes a request's limit, with the reason", () => {
    const wide = defineTool({
      name: "wide",
      description: "Takes thirty optional parameters",
      inputSchema: optionalStrings(30),
      execute: () => "ok",
    });
    const { declarations, changes } = describeExport("anthropic", [wide], { strict: true });
    expect(declarations).toEqual([expect.not.objectContaining({ strict: true })]);
    expect(changes).toEqual([
      expect.objectContaining({ action: "disabled", detail: expect.stringMatching(/^30 optional/) }),
    ]);
  });

  it("keeps a simple pattern and states one with lookaround in the description", () => {
    const tool = defineTool({
      name: "code",
      description: "Checks a code",
      inputSchema: {
        type: "object",
        properties: {
          simple: { type: "string", pattern: "^[A-Z]{3}-\\d{4}$" },
          tricky: { type: "string", pattern: "^(?!x)" },
        },
        required: ["simple", "tricky"],
      },
      execute: () => "ok",
    });
    expect(onlyTool(toAnthropic([tool], { strict: true })).input_schema.properties).toEqual({
      simple: { type: "string", pattern: "^[A-Z]{3}-\\d{4}$" },
      tricky: { type: "string", description: 'Matches the regular expression "^(?!x)".' },
    });
  });
});
