import { defineTool, describeExport, ExportError, toAnthropic, Toolkit, type Tool } from "../../src";

const weather = defineTool({
  name: "get_weather",
  description: "Current weather for a city",
  inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  execute: ({ city }) => `sunny in ${String(city)}`,
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
const examples = [{ city: "Paris" }, { city: "Oslo" }];

describe("Anthropic deferred tools and tool search", () => {
  it("marks deferred tools defer_loading and declares the BM25 tool search after them", () => {
    expect(toAnthropic([weather, refund])).toEqual([
      { name: "get_weather", description: weather.description, input_schema: weather.inputSchema },
      { name: "refund_order", description: refund.description, input_schema: refund.inputSchema, defer_loading: true },
      { type: "tool_search_tool_bm25_20251119", name: "tool_search_tool_bm25" },
    ]);
  });

  it("declares the regex tool search when the export asks for it", () => {
    expect(toAnthropic([weather, refund], { toolSearch: "regex" }).at(-1)).toEqual({
      type: "tool_search_tool_regex_20251119",
      name: "tool_search_tool_regex",
    });
  });

  it("declares no tool search when no tool is deferred, whatever toolSearch says", () => {
    expect(toAnthropic([weather], { toolSearch: "regex" })).toEqual([
      { name: "get_weather", description: weather.description, input_schema: weather.inputSchema },
    ]);
  });

  it("declares every tool, deferred or not, and adds no search_tools of toolnexus's own", () => {
    const names = toAnthropic([weather, refund]).map((tool) => tool.name);
    expect(names).toEqual(["get_weather", "refund_order", "tool_search_tool_bm25"]);
  });

  it("accepts every tool deferred: the tool search, never deferred, is the tool loaded up front", () => {
    const declarations = toAnthropic([{ ...weather, defer: true }, refund]);
    expect(declarations.filter((tool) => !("defer_loading" in tool))).toEqual([
      { type: "tool_search_tool_bm25_20251119", name: "tool_search_tool_bm25" },
    ]);
  });

  it("refuses a toolSearch other than bm25 or regex, saying which to use", () => {
    const options = { toolSearch: "vector" } as unknown as { toolSearch: "bm25" };
    expect(() => toAnthropic([weather, refund], options)).toThrow(ExportError);
    expect(() => toAnthropic([weather, refund], options)).toThrow(/"bm25" or "regex"/);
  });

  it("refuses a tool named like the tool search it declares, saying to rename it", () => {
    const clash = { ...weather, name: "tool_search_tool_bm25" };
    expect(() => toAnthropic([clash, refund])).toThrow(ExportError);
    expect(() => toAnthropic([clash, refund])).toThrow(/"tool_search_tool_bm25".*rename the tool/);
    expect(toAnthropic([clash]).map((tool) => tool.name)).toEqual(["tool_search_tool_bm25"]);
  });

  it("gives a toolkit's deferred tools the same declarations as the free function", () => {
    expect(new Toolkit([weather, refund]).toAnthropic({ toolSearch: "regex" })).toEqual(
      toAnthropic([weather, refund], { toolSearch: "regex" }),
    );
  });
});

describe("Anthropic input_examples", () => {
  it("sends a tool's examples as input_examples, its description as it is", () => {
    expect(toAnthropic([{ ...weather, examples }])).toEqual([
      {
        name: "get_weather",
        description: weather.description,
        input_schema: weather.inputSchema,
        input_examples: examples,
      },
    ]);
  });

  it("never puts examples in the description, even when the export asks for examplesInDescription", () => {
    const [declared] = toAnthropic([{ ...weather, examples }], { examplesInDescription: true });
    expect(declared).toMatchObject({ description: weather.description, input_examples: examples });
  });

  it("states the examples in the description beside tool search, which takes no input_examples", () => {
    const [declared] = toAnthropic([{ ...weather, examples }, refund]);
    expect(declared).toEqual({
      name: "get_weather",
      description: `${weather.description}\nExamples: {"city":"Paris"}; {"city":"Oslo"}`,
      input_schema: weather.inputSchema,
    });
  });

  it("reports no schema change for examples", () => {
    expect(describeExport("anthropic", [{ ...weather, examples }]).changes).toEqual([]);
  });
});
