/**
 * No export carries what no model reads: `$schema`, `$id` and `$comment` anywhere, and empty
 * `required` lists. The change report says so once per export and keyword, naming the tools.
 */
import { defineTool, describeExport, type JSONSchemaObject, type Tool } from "../../src";
import { ADAPTERS, type ExportFormat } from "../../src/providers/registry";

const FORMATS = Object.keys(ADAPTERS) as ExportFormat[];

const documented = (name: string): Tool =>
  defineTool({
    name,
    description: `Tool ${name}.`,
    inputSchema: {
      $schema: "http://json-schema.org/draft-07/schema#",
      $id: "https://example.com/tools/" + name,
      $comment: "written by a generator",
      type: "object",
      properties: {
        filter: {
          type: "object",
          $comment: "nested",
          properties: { tag: { type: "string", $comment: "a tag" } },
          required: [],
        },
        limit: { type: "integer", minimum: 1 },
      },
      required: ["limit"],
    },
    execute: () => "ok",
  });

const needless = /"\$schema"|"\$id"|"\$comment"|"required":\[\]/;

describe.each(FORMATS)("%s", (format) => {
  const tools = [documented("first"), documented("second")];

  it("declares no document keyword and no empty required list", () => {
    expect(JSON.stringify(describeExport(format, tools).declarations)).not.toMatch(needless);
  });

  it("reports each keyword taken out once for the export, naming the tools", () => {
    const { changes } = describeExport(format, tools);
    const once = changes.filter((change) => change.tool === "*");
    expect(once.map((change) => change.keyword).sort()).toEqual(["$comment", "$id", "$schema", "required"]);
    for (const change of once) {
      expect(change.action).toBe("dropped");
      expect(change.detail).toContain('2 tools ("first", "second")');
    }
    expect(
      changes.filter((change) => change.tool !== "*" && ["$schema", "$id", "$comment"].includes(change.keyword)),
    ).toEqual([]);
  });
});

it("keeps $id while a reference outside the document may resolve by it", () => {
  const schema: JSONSchemaObject = {
    $id: "https://example.com/order",
    type: "object",
    properties: { line: { $ref: "line.json" } },
    required: ["line"],
  };
  const tool = defineTool({ name: "order", description: "Order.", inputSchema: schema, execute: () => "ok" });
  const [declared] = describeExport("mcp", [tool]).declarations as Array<{ inputSchema: JSONSchemaObject }>;
  expect(declared!.inputSchema.$id).toBe("https://example.com/order");
});

it("keeps every $id while a subschema names a resource of its own (references below it resolve against it)", () => {
  const schema: JSONSchemaObject = {
    type: "object",
    properties: {
      line: { $id: "https://example.com/line", type: "object", properties: { n: { $ref: "#/definitions/n" } } },
    },
    definitions: { n: { type: "integer" } },
  };
  const tool = defineTool({ name: "order", description: "Order.", inputSchema: schema, execute: () => "ok" });
  const [declared] = describeExport("mcp", [tool]).declarations as Array<{ inputSchema: JSONSchemaObject }>;
  expect(JSON.stringify(declared!.inputSchema)).toContain('"$id":"https://example.com/line"');
});

it("leaves the tool's own schema as it was", () => {
  const tool = documented("kept");
  const before = structuredClone(tool.inputSchema);
  for (const format of FORMATS) describeExport(format, [tool]);
  expect(tool.inputSchema).toEqual(before);
});
