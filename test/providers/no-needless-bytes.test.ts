/**
 * No export carries what no model reads: `$schema`, `$id` and `$comment` anywhere, and empty
 * `required` lists. The change report says so once per export and keyword, naming the tools.
 * A format that reads a schema's dialect from its root `$schema` (MCP, 2020-12 without one)
 * keeps the root's: without it, a draft-07 schema would be read as 2020-12.
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

const DRAFT_07 = "http://json-schema.org/draft-07/schema#";
const readsDialect = (format: ExportFormat) => ADAPTERS[format].readsDialect === true;

describe.each(FORMATS.filter((format) => !readsDialect(format)))("%s", (format) => {
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

describe.each(FORMATS.filter(readsDialect))("%s, which reads the dialect from the root's $schema", (format) => {
  const tools = [documented("first"), documented("second")];

  it("keeps the root's $schema and declares no other document keyword or empty required list", () => {
    const declared = JSON.stringify(describeExport(format, tools).declarations);
    expect(declared.split(`"$schema":${JSON.stringify(DRAFT_07)}`)).toHaveLength(tools.length + 1);
    expect(declared.replaceAll(`"$schema":${JSON.stringify(DRAFT_07)}`, "")).not.toMatch(needless);
  });

  it("reports the other keywords taken out once for the export, and not $schema", () => {
    const once = describeExport(format, tools).changes.filter((change) => change.tool === "*");
    expect(once.map((change) => change.keyword).sort()).toEqual(["$comment", "$id", "required"]);
  });

  it("adds no $schema to a schema that declares none (2020-12 is the default)", () => {
    const plain = defineTool({
      name: "plain",
      description: "Plain.",
      inputSchema: { type: "object" },
      execute: () => "ok",
    });
    expect(JSON.stringify(describeExport(format, [plain]).declarations)).not.toContain("$schema");
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
