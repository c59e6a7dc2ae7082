import { defineTool, describeExport, type Tool } from "../src";
type Args = Record<string, unknown>;
const calls: Array<{ tool: string; args: Args }> = [];
const tool = (name: string, inputSchema: Tool["inputSchema"], validate = true): Tool =>
  defineTool({
    name,
    description: `Nasty schema: ${name}`,
    inputSchema,
    validate,
    execute: (args) => {
      calls.push({ tool: name, args });
      return { ok: true, received: args };
    },
  });

const nullableTypes = tool("nullable_types", {
  type: "object",
  properties: {
    nickname: { type: ["string", "null"], description: "May be null" },
    age: { type: ["integer", "null"], minimum: 0 },
    idOrName: { type: ["string", "integer", "null"] },
  },
  required: ["nickname"],
  additionalProperties: false,
});

const refChain = tool("ref_chain", {
  type: "object",
  $defs: {
    Address: {
      type: "object",
      properties: { street: { type: "string" }, geo: { $ref: "#/$defs/Geo" } },
      required: ["street"],
      additionalProperties: false,
    },
    Geo: {
      type: "object",
      properties: { lat: { type: "number" }, lng: { type: "number" } },
      required: ["lat", "lng"],
      additionalProperties: false,
    },
  },
  properties: { home: { $ref: "#/$defs/Address" }, work: { $ref: "#/$defs/Address" } },
  required: ["home"],
  additionalProperties: false,
});

const recursiveTree = tool("recursive_tree", {
  type: "object",
  $defs: {
    Node: {
      type: "object",
      properties: { label: { type: "string" }, children: { type: "array", items: { $ref: "#/$defs/Node" } } },
      required: ["label"],
      additionalProperties: false,
    },
  },
  properties: { root: { $ref: "#/$defs/Node" } },
  required: ["root"],
  additionalProperties: false,
});

const constOneOf = tool("const_one_of", {
  type: "object",
  properties: {
    kind: { const: "refund" },
    // Overlapping branches: "a@b.co" matches the first two, which oneOf forbids.
    target: { oneOf: [{ type: "string", format: "email" }, { type: "string", maxLength: 40 }, { type: "integer", minimum: 1 }] },
  },
  required: ["kind", "target"],
  additionalProperties: false,
});

const additional = tool("additional_props", {
  type: "object",
  properties: {
    labels: { type: "object", properties: { team: { type: "string" } }, additionalProperties: { type: "string" } },
    closed: { type: "object", properties: { a: { type: "string" } }, required: ["a"], additionalProperties: false },
    sku: { type: "string" },
  },
  required: ["sku"],
  additionalProperties: false,
});

/** A free-form map (additionalProperties: true, no properties): strict mode cannot express it. */
const freeForm = tool("free_form", {
  type: "object",
  properties: { id: { type: "string" }, extras: { type: "object", additionalProperties: true } },
  required: ["id"],
});

const priced = tool("priced", {
  type: "object",
  properties: {
    price: { type: "number", exclusiveMinimum: 0, exclusiveMaximum: 10000 },
    priority: { type: "integer", enum: [1, 2, 3] },
    tags: { type: "array", items: { type: "integer", enum: [10, 20] } },
  },
  required: ["price"],
  additionalProperties: false,
});

const emptyObjects = tool("empty_objects", {
  type: "object",
  properties: {
    options: { type: "object", properties: {}, additionalProperties: false },
    note: { type: "string" },
  },
  additionalProperties: false,
});

const noArguments = tool("no_arguments", { type: "object", properties: {} });

const deep = tool("deep_nesting", {
  type: "object",
  properties: {
    l1: {
      type: "object",
      properties: {
        l2: {
          type: "object",
          properties: {
            l3: {
              type: "object",
              properties: {
                l4: {
                  type: "object",
                  properties: {
                    l5: {
                      type: "object",
                      properties: { l6: { type: "object", properties: { leaf: { type: ["string", "null"], const: "bottom" } }, required: ["leaf"] } },
                      required: ["l6"],
                    },
                  },
                },
              },
              required: ["l4"],
            },
          },
        },
      },
      required: ["l2"],
    },
  },
  required: ["l1"],
});

const formats = tool("formats", {
  type: "object",
  properties: {
    email: { type: "string", format: "email", description: "Contact" },
    homepage: { type: "string", format: "uri" },
    when: { type: "string", format: "date-time" },
    id: { type: "string", format: "uuid" },
  },
  required: ["email", "homepage"],
  additionalProperties: false,
});

const allOf = tool("all_of", {
  type: "object",
  properties: {
    item: {
      allOf: [
        { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
        { properties: { qty: { type: "integer", minimum: 1 } }, required: ["qty"] },
      ],
    },
  },
  required: ["item"],
});

const nasty: Tool[] = [nullableTypes, refChain, recursiveTree, constOneOf, additional, freeForm, priced, emptyObjects, noArguments, deep, formats, allOf];


it("x", () => {
  for (const f of ["openai","gemini","anthropic","mcp","bedrock"] as const) {
    const r = describeExport(f, nasty, { strict: true });
    console.log(f + "\n" + r.changes.map((c) => [c.tool, c.pointer, c.keyword, c.action, c.detail].join(" | ")).join("\n"));
  }
});
