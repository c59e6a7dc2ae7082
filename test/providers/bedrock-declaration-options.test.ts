import type { Message, ToolResultContentBlock } from "@aws-sdk/client-bedrock-runtime";
import { defineTool, describeExport, ExportError, toBedrock, Toolkit, type Tool } from "../../src";
import { bedrock } from "../../src/providers/bedrock";

const book = defineTool({
  name: "book",
  description: "Books a stay",
  inputSchema: {
    type: "object",
    properties: { nights: { type: "integer", minimum: 1 }, note: { type: "string" } },
    required: ["nights"],
  },
  validate: true,
  execute: ({ nights }) => `booked ${String(nights)} nights`,
});
const settings = defineTool({
  name: "save_settings",
  description: "Saves free-form settings",
  inputSchema: { type: "object", properties: { values: { type: "object", additionalProperties: true } } },
  execute: () => "saved",
});
const refund: Tool = {
  ...defineTool({
    name: "refund_order",
    description: "Refunds an order",
    inputSchema: { type: "object", properties: { order: { type: "string" } }, required: ["order"] },
    execute: ({ order }) => `refunded ${String(order)}`,
  }),
  defer: true,
};

/** A Converse conversation where search_tools was called once and answered with the tools it found. */
function searchedConversation(answer: ToolResultContentBlock[]): Message[] {
  return [
    { role: "user", content: [{ text: "refund order 7" }] },
    {
      role: "assistant",
      content: [
        { toolUse: { toolUseId: "t1", name: "search_tools", input: { query: "refund" } } },
        { toolUse: { toolUseId: "t2", name: "book", input: { nights: 2 } } },
      ],
    },
    {
      role: "user",
      content: [
        { toolResult: { toolUseId: "t2", content: [{ text: '{"query":"x","tools":[{"name":"book"}]}' }] } },
        { toolResult: { toolUseId: "t1", content: answer } },
      ],
    },
  ];
}

describe("Bedrock strict tool use", () => {
  it("declares toolSpec.strict for a strict schema, every object closed and limits stated in descriptions", () => {
    expect(toBedrock([book], { strict: true })).toEqual({
      tools: [
        {
          toolSpec: {
            name: "book",
            description: "Books a stay",
            inputSchema: {
              json: {
                type: "object",
                properties: { nights: { type: "integer", description: "At least 1." }, note: { type: "string" } },
                required: ["nights"],
                additionalProperties: false,
              },
            },
            strict: true,
          },
        },
      ],
    });
  });

  it("reports the changes strict made, as Anthropic's strict lowering does", () => {
    expect(describeExport("bedrock", [book], { strict: true }).changes).toEqual(
      describeExport("anthropic", [book], { strict: true }).changes,
    );
  });

  it("leaves a tool that cannot be strict without strict, with the reason", () => {
    const { declarations, changes } = describeExport("bedrock", [settings], { strict: true });
    expect(declarations).toEqual({ tools: [{ toolSpec: expect.not.objectContaining({ strict: true }) }] });
    expect(changes).toEqual([expect.objectContaining({ keyword: "strict", action: "disabled" })]);
  });

  it("lets a tool's own strict win over the export's", () => {
    const config = toBedrock([
      { ...book, strict: true },
      { ...settings, name: "other", strict: false },
    ]);
    expect(config.tools.map(({ toolSpec }) => toolSpec.strict)).toEqual([true, undefined]);
  });

  it("refuses more strict tools than one request takes", () => {
    const many = Array.from({ length: 21 }, (_, i) => ({ ...book, name: `book_${i}` }));
    expect(() => toBedrock(many, { strict: true })).toThrow(ExportError);
    expect(() => toBedrock(many, { strict: true })).toThrow(/Bedrock takes at most 20 strict tools/);
  });
});

describe("Bedrock answersIn", () => {
  it("gives the json values and texts of the results that answered calls of the tool, by toolUseId", () => {
    const conversation = searchedConversation([{ json: { query: "refund", tools: [] } }, { text: "and more" }]);
    expect(bedrock.answersIn!(conversation, "search_tools")).toEqual([{ query: "refund", tools: [] }, "and more"]);
    expect(bedrock.answersIn!({ messages: conversation }, "book")).toEqual(['{"query":"x","tools":[{"name":"book"}]}']);
  });

  it("gives nothing for a tool never called, or a conversation it cannot read", () => {
    const conversation = searchedConversation([{ text: "x" }]);
    expect(bedrock.answersIn!(conversation, "refund_order")).toEqual([]);
    expect(bedrock.answersIn!("not a conversation", "search_tools")).toEqual([]);
    const hostile = new Proxy([], {
      get() {
        throw new Error("unreadable");
      },
    });
    expect(bedrock.answersIn!(hostile, "search_tools")).toEqual([]);
  });

  it("declares a deferred tool once an earlier search_tools answer in the conversation found it", () => {
    const toolkit = new Toolkit([book, refund]);
    const names = (conversation?: Message[]) =>
      toolkit.toBedrock(conversation && { conversation }).tools.map(({ toolSpec }) => toolSpec.name);
    expect(names()).toEqual(["book", "search_tools"]);
    const found = searchedConversation([{ json: { query: "refund", tools: [{ name: "refund_order" }] } }]);
    expect(names(found)).toEqual(["book", "refund_order", "search_tools"]);
  });
});
