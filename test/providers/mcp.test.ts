import { defineTool, ExportError, toMcp, Toolkit, type JSONSchemaObject, type ToolResult } from "../../src";
import { toMcpResult } from "../../src/mcp";
import { dottedTool, makeKit, threeTools, UNKNOWN_GET_WETHER, weatherTool } from "./fixtures/tools";

function annotatedTools() {
  return [
    defineTool({
      name: "delete_file",
      description: "Delete a file",
      inputSchema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
      annotations: { title: "Delete file", readOnly: false, destructive: true, idempotent: true, openWorld: false },
      execute: () => "deleted",
    }),
    defineTool({
      name: "read_page",
      description: "Fetch a web page",
      annotations: { readOnly: true, openWorld: true },
      execute: () => "<html/>",
    }),
    defineTool({ name: "plain", description: "No annotations", execute: () => "" }),
    defineTool({ name: "empty_hints", description: "Empty annotations object", annotations: {}, execute: () => "" }),
  ];
}

describe("toMcp declarations: full JSON Schema 2020-12 at an object root", () => {
  const contact: JSONSchemaObject = {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    type: "object",
    $defs: { address: { $anchor: "addressDef", type: "object", properties: { city: { type: "string" } } } },
    properties: {
      address: { $ref: "#/$defs/address" },
      contactMethod: { type: "string", enum: ["phone", "email"] },
      phone: { type: "string" },
      email: { type: "string" },
    },
    allOf: [{ anyOf: [{ required: ["phone"] }, { required: ["email"] }] }],
    if: { properties: { contactMethod: { const: "phone" } }, required: ["contactMethod"] },
    then: { required: ["phone"] },
    else: { required: ["email"] },
    additionalProperties: false,
  };

  it("keeps combinators, conditionals, anchors and additionalProperties at the root, as MCP reads them", () => {
    const tool = defineTool({
      name: "contact",
      description: "Contact someone",
      inputSchema: contact,
      execute: () => "",
    });
    expect(toMcp([tool])[0]!.inputSchema).toEqual(contact);
  });

  it("states type object at a root whose branches all describe objects, and keeps the branches", () => {
    const either: JSONSchemaObject = {
      anyOf: [
        { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
        { type: "object", properties: { email: { type: "string" } }, required: ["email"] },
      ],
    };
    const tool = defineTool({ name: "find_user", description: "Find a user", inputSchema: either, execute: () => "" });
    expect(toMcp([tool])[0]!.inputSchema).toEqual({ ...either, type: "object" });
  });
});

describe("toMcp declarations (tools/list)", () => {
  it("{ name, description, inputSchema } for a tool without annotations: no title, no annotations key", () => {
    const [tool] = toMcp([weatherTool()]);
    expect(tool).toEqual({
      name: "get_weather",
      description: "Current weather for a city",
      inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
    });
    expect(Object.keys(tool!).sort()).toEqual(["description", "inputSchema", "name"]);
  });

  it("maps annotations to readOnlyHint / destructiveHint / idempotentHint / openWorldHint and lifts the title", () => {
    expect(toMcp(annotatedTools())).toEqual([
      {
        name: "delete_file",
        title: "Delete file",
        description: "Delete a file",
        inputSchema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
        annotations: {
          title: "Delete file",
          readOnlyHint: false,
          destructiveHint: true,
          idempotentHint: true,
          openWorldHint: false,
        },
      },
      {
        name: "read_page",
        description: "Fetch a web page",
        inputSchema: { type: "object", properties: {} },
        annotations: { readOnlyHint: true, openWorldHint: true },
      },
      { name: "plain", description: "No annotations", inputSchema: { type: "object", properties: {} } },
      { name: "empty_hints", description: "Empty annotations object", inputSchema: { type: "object", properties: {} } },
    ]);
  });

  it("hints the tool did not set are absent (not false, not undefined)", () => {
    const [, readPage, plain, emptyHints] = toMcp(annotatedTools());
    expect(Object.keys(readPage!.annotations!).sort()).toEqual(["openWorldHint", "readOnlyHint"]);
    expect("title" in readPage!).toBe(false);
    expect("annotations" in plain!).toBe(false);
    expect("annotations" in emptyHints!).toBe(false);
  });

  it("three tools in order; zero tools give an empty list", () => {
    expect(toMcp(threeTools()).map((t) => t.name)).toEqual(["search", "ping", "kv_get"]);
    expect(toMcp([])).toEqual([]);
  });

  it("accepts dotted names and refuses a name MCP rejects, naming it", () => {
    expect(toMcp([dottedTool()])[0]!.name).toBe("billing.refund");
    const colon = defineTool({ name: "crm:lookup", description: "Look up a contact", execute: () => "" });
    expect(() => toMcp([colon])).toThrow(ExportError);
    expect(() => toMcp([colon])).toThrow(/"crm:lookup"/);
  });

  it("Toolkit#toMcp gives the same output as the free function", () => {
    const tools = annotatedTools();
    expect(new Toolkit(tools).toMcp()).toEqual(toMcp(tools));
  });
});

describe("toMcpResult (tools/call)", () => {
  it("a success is one text content item with isError false", () => {
    expect(toMcpResult({ output: "sunny in Paris", isError: false })).toEqual({
      content: [{ type: "text", text: "sunny in Paris" }],
      isError: false,
    });
  });

  it("a failure is a result with isError true (metadata is not sent)", () => {
    const failed: ToolResult = { output: "boom", isError: true, metadata: { error: "execution_failed" } };
    expect(toMcpResult(failed)).toEqual({ content: [{ type: "text", text: "boom" }], isError: true });
  });

  it("results of real executions: success, throw, unknown tool, invalid arguments", async () => {
    const { toolkit, calls } = makeKit();
    const results = await Promise.all([
      toolkit.execute("get_weather", { city: "Paris" }, { callId: "m-1", provider: "mcp" }),
      toolkit.execute("explode", {}, { callId: "m-2", provider: "mcp" }),
      toolkit.execute("get_wether", { city: "Paris" }),
      toolkit.execute("get_weather", "{not json"),
    ]);
    const mcp = results.map(toMcpResult);
    expect(mcp.slice(0, 3)).toEqual([
      { content: [{ type: "text", text: "sunny in Paris" }], isError: false },
      { content: [{ type: "text", text: "boom" }], isError: true },
      { content: [{ type: "text", text: UNKNOWN_GET_WETHER }], isError: true },
    ]);
    expect(mcp[3]).toEqual({
      content: [
        {
          type: "text",
          text: expect.stringMatching(/^Invalid arguments for tool "get_weather": arguments are not valid JSON/),
        },
      ],
      isError: true,
    });
    expect(calls.map((c) => [c.tool, c.callId, c.provider])).toEqual([
      ["get_weather", "m-1", "mcp"],
      ["explode", "m-2", "mcp"],
    ]);
  });
});
