/**
 * The provider dialects held to the providers' own rules: a set of "nasty" but valid JSON
 * Schemas is lowered for every format by `describeExport`, and the result must pass the
 * dialect checkers of test/support/dialect-rules.ts with zero violations. The report must
 * name each change; what a dialect cannot say is still enforced when the call runs.
 */
import Ajv from "ajv";
import {
  defineTool,
  describeExport,
  ExportError,
  toGemini,
  toOpenAI,
  Toolkit,
  type ExportFormat,
  type SchemaChange,
  type Tool,
} from "../../src";
import type { GeminiTools, OpenAIFunctionTool } from "../../src/providers";
import {
  checkAnthropicToolResults,
  checkAnthropicTools,
  checkBedrockToolConfig,
  checkGeminiSchema,
  checkGeminiToolResults,
  checkGeminiTools,
  checkMcpTools,
  checkOllamaTools,
  checkOpenAIChatToolResults,
  checkOpenAIChatTools,
  checkOpenAIResponsesToolResults,
  checkOpenAIResponsesTools,
  checkOpenAIStrictSchema,
  describeViolations,
  type Violation,
} from "../support/dialect-rules";

// ---- The nasty set -------------------------------------------------------------------------

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
    target: {
      oneOf: [
        { type: "string", format: "email" },
        { type: "string", maxLength: 40 },
        { type: "integer", minimum: 1 },
      ],
    },
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
                      properties: {
                        l6: {
                          type: "object",
                          properties: { leaf: { type: ["string", "null"], const: "bottom" } },
                          required: ["leaf"],
                        },
                      },
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

const nasty: Tool[] = [
  nullableTypes,
  refChain,
  recursiveTree,
  constOneOf,
  additional,
  freeForm,
  priced,
  emptyObjects,
  noArguments,
  deep,
  formats,
  allOf,
];

// ---- Checkers by format ------------------------------------------------------------------------

const CHECKERS: Record<ExportFormat, (declarations: unknown) => Violation[]> = {
  gemini: (d) => checkGeminiTools(d),
  openai: (d) => checkOpenAIChatTools(d),
  "openai-responses": (d) => checkOpenAIResponsesTools(d),
  anthropic: (d) => checkAnthropicTools(d),
  mcp: (d) => checkMcpTools(d),
  bedrock: (d) => checkBedrockToolConfig(d),
  ollama: (d) => checkOllamaTools(d),
};
const FORMATS = Object.keys(CHECKERS) as ExportFormat[];
const OPTIONS = { strict: true } as const;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
function declaredNames(format: ExportFormat, declarations: any): string[] {
  if (format === "gemini") return declarations[0].functionDeclarations.map((d: { name: string }) => d.name);
  if (format === "openai") return declarations.map((d: { function: { name: string } }) => d.function.name);
  if (format === "bedrock") return declarations.tools.map((d: { toolSpec: { name: string } }) => d.toolSpec.name);
  if (format === "ollama") return declarations.map((d: { function: { name: string } }) => d.function.name);
  return declarations.map((d: { name: string }) => d.name);
}

function lowered(format: ExportFormat, tools: Tool[] = nasty) {
  return describeExport(format, tools, OPTIONS);
}

function change(changes: SchemaChange[], wanted: Partial<SchemaChange>): SchemaChange | undefined {
  return changes.find((c) => Object.entries(wanted).every(([k, v]) => c[k as keyof SchemaChange] === v));
}

// ---- Tests -------------------------------------------------------------------------------------

describe("the dialect checkers catch what the providers refuse", () => {
  // A checker that finds nothing proves nothing: each rule is shown to fire.
  it("Gemini: unknown keys, $ref/$defs, type arrays, non-string enums, anyOf with siblings, empty properties, bad names", () => {
    const v = checkGeminiSchema({
      type: "object",
      $defs: { A: { type: "string" } },
      properties: {
        a: { $ref: "#/$defs/A" },
        b: { type: ["string", "null"] },
        c: { type: "integer", enum: [1, 2] },
        d: { anyOf: [{ type: "string" }, { type: "integer" }], description: "sibling" },
        e: { type: "object", properties: {} },
        "bad-name": { type: "string", additionalProperties: false, exclusiveMinimum: 1 },
        f: { type: "string", format: "email" },
      },
      required: ["a", "ghost"],
    });
    const text = describeViolations(v);
    expect(text).toContain('parameters.$defs: Invalid JSON payload received. Unknown name "$defs"');
    expect(text).toContain('parameters.properties.a.$ref: Invalid JSON payload received. Unknown name "$ref"');
    expect(text).toContain("parameters.properties.b.type: type must be a single string");
    expect(text).toContain("parameters.properties.c.enum: enum values must be strings");
    expect(text).toContain(
      "parameters.properties.d: anyOf must be the only field set on its schema, found also: description",
    );
    expect(text).toContain("parameters.properties.e.properties: should be non-empty for OBJECT type");
    expect(text).toContain('invalid property name "bad-name"');
    expect(text).toContain('Unknown name "additionalProperties"');
    expect(text).toContain('Unknown name "exclusiveMinimum"');
    expect(text).toContain('format "email" is not supported for STRING');
    expect(text).toContain('property is not defined: "ghost"');
    expect(
      checkGeminiTools([{ functionDeclarations: [] }, { functionDeclarations: [] }]).map((x) => x.message),
    ).toContain("expected exactly one tool with functionDeclarations (one wrapper holds every function), found 2");
    expect(
      checkGeminiTools([
        { functionDeclarations: [{ name: "9lives", description: "x", parameters: { type: "OBJECT" }, strict: true }] },
      ]).map((x) => x.at),
    ).toEqual(["tools[0].functionDeclarations[0].strict", "tools[0].functionDeclarations[0].name"]);
    expect(
      checkGeminiTools([
        { functionDeclarations: [{ name: "f", parameters: { type: "object" }, parametersJsonSchema: {} }] },
      ]),
    ).toHaveLength(1);
    // The SDK upper-cases types on the wire; both spellings are Gemini types.
    expect(
      checkGeminiSchema({ type: "OBJECT", properties: { a: { type: "STRING", format: "enum", enum: ["x"] } } }),
    ).toEqual([]);
  });

  it("OpenAI strict: open objects, optional properties, forbidden keywords, root unions, unsupported formats", () => {
    const v = checkOpenAIStrictSchema({
      type: "object",
      anyOf: [{ required: ["a"] }],
      properties: {
        a: { type: "object", properties: { x: { type: "string" } }, required: [] },
        b: { type: "array", items: { type: "string" }, uniqueItems: true },
        c: { type: "string", format: "uri" },
        d: { allOf: [{ type: "string" }] },
      },
      $defs: { Open: { type: "object", properties: { y: { type: "string" } }, required: ["y"] } },
      required: ["a", "b", "c"],
      additionalProperties: false,
    });
    const text = describeViolations(v);
    expect(text).toContain("parameters.anyOf: the root must be an object, not a union (anyOf)");
    expect(text).toContain(
      "parameters.properties.a.additionalProperties: 'additionalProperties' is required to be supplied and to be false",
    );
    expect(text).toContain(
      "parameters.properties.a.required: 'required' is required to be supplied and to be an array including every key in properties. Missing 'x'",
    );
    expect(text).toContain(
      "parameters.required: 'required' is required to be supplied and to be an array including every key in properties. Missing 'd'",
    );
    expect(text).toContain("parameters.properties.b.uniqueItems: 'uniqueItems' is not permitted in strict mode");
    expect(text).toContain("parameters.properties.c.format: 'uri' is not a valid format");
    expect(text).toContain("parameters.properties.d.allOf: 'allOf' is not permitted in strict mode");
    expect(text).toContain("parameters.$defs.Open.additionalProperties");
    expect(checkOpenAIStrictSchema({ type: "array" })[0]!.message).toContain("'type: \"object\"'");
    // Strict rules only where strict is on; Responses wants strict said out loud.
    const open = { type: "object", properties: { a: { type: "string" } } };
    expect(checkOpenAIChatTools([{ type: "function", function: { name: "f", parameters: open } }])).toEqual([]);
    expect(
      checkOpenAIChatTools([{ type: "function", function: { name: "f", parameters: open, strict: true } }]),
    ).toHaveLength(2);
    expect(
      checkOpenAIChatTools([{ type: "function", function: { name: "billing.refund", parameters: open } }])[0]!.message,
    ).toContain('invalid openai function name "billing.refund"');
    expect(checkOpenAIResponsesTools([{ type: "function", name: "f", parameters: open }])[0]!.at).toBe(
      "tools[0].strict",
    );
    expect(checkOpenAIResponsesTools([{ type: "function", name: "f", parameters: open, strict: false }])).toEqual([]);
  });

  it("Anthropic, MCP, Bedrock: an object root without combinators, and their name rules", () => {
    expect(checkAnthropicTools([{ name: "f", input_schema: { type: "object", anyOf: [] } }]).map((x) => x.at)).toEqual([
      "tools[0].input_schema.anyOf",
    ]);
    expect(checkAnthropicTools([{ name: "a.b", input_schema: { type: "array" } }]).map((x) => x.at)).toEqual([
      "tools[0].name",
      "tools[0].input_schema.type",
    ]);
    expect(checkAnthropicTools([{ name: "f", input_schema: { type: "object" }, parameters: {} }])[0]!.message).toBe(
      "Extra inputs are not permitted",
    );
    expect(
      checkMcpTools([{ name: "a b", inputSchema: { type: "string" }, annotations: { readOnlyHint: "yes" } }]),
    ).toHaveLength(3);
    expect(
      checkBedrockToolConfig({
        tools: [
          {
            toolSpec: { name: "x".repeat(65), description: "d", inputSchema: { json: { type: "object", oneOf: [] } } },
          },
        ],
      }),
    ).toHaveLength(2);
  });

  it("tool results: counts, ids, order and shapes", () => {
    const geminiCall = {
      role: "model",
      parts: [{ functionCall: { id: "1", name: "a", args: {} } }, { functionCall: { id: "2", name: "b", args: {} } }],
    };
    const split = [
      { role: "user", parts: [{ text: "hi" }] },
      geminiCall,
      { role: "user", parts: [{ functionResponse: { id: "1", name: "a", response: { output: "x" } } }] },
      { role: "user", parts: [{ functionResponse: { id: "2", name: "b", response: { error: "y" } } }] },
    ];
    expect(describeViolations(checkGeminiToolResults(split))).toContain(
      "Please ensure that the number of function response parts (1) is equal to the number of function call parts (2)",
    );
    const badResponse = [
      geminiCall,
      {
        role: "user",
        parts: [
          { functionResponse: { name: "a", response: { result: "x" } } },
          { functionResponse: { id: "2", name: "b", response: { output: "y" } } },
        ],
      },
    ];
    expect(describeViolations(checkGeminiToolResults(badResponse))).toMatch(
      /expected id "1".*\n.*response must be \{ output \} or \{ error \}/,
    );

    const assistant = {
      role: "assistant",
      content: null,
      tool_calls: [
        { id: "c1", type: "function", function: { name: "a", arguments: "{}" } },
        { id: "c2", type: "function", function: { name: "b", arguments: "{}" } },
      ],
    };
    expect(
      checkOpenAIChatToolResults([
        { role: "user", content: "x" },
        assistant,
        { role: "tool", tool_call_id: "c1", content: "ok" },
      ])[0]!.message,
    ).toContain("did not have response messages: c2");
    expect(
      checkOpenAIChatToolResults([
        { role: "user", content: "x" },
        { role: "tool", tool_call_id: "c1", content: "ok" },
      ])[0]!.message,
    ).toContain("must be a response to a preceeding message with 'tool_calls'");

    expect(
      checkOpenAIResponsesToolResults([{ type: "function_call_output", call_id: "c9", output: "x" }])[0]!.message,
    ).toBe("No tool call found for function call output with call_id c9.");
    expect(
      checkOpenAIResponsesToolResults([{ type: "function_call", call_id: "c1", name: "a", arguments: "{}" }])[0]!
        .message,
    ).toBe("No tool output found for function call c1.");

    const use = {
      role: "assistant",
      content: [
        { type: "tool_use", id: "t1", name: "a", input: {} },
        { type: "tool_use", id: "t2", name: "b", input: {} },
      ],
    };
    expect(
      checkAnthropicToolResults([
        use,
        { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "ok" }] },
      ])[0]!.message,
    ).toContain("`tool_use` ids were found without `tool_result` blocks immediately after: t2");
    expect(
      checkAnthropicToolResults([
        use,
        {
          role: "user",
          content: [
            { type: "text", text: "here" },
            { type: "tool_result", tool_use_id: "t1" },
            { type: "tool_result", tool_use_id: "t2" },
          ],
        },
      ])[0]!.message,
    ).toBe("tool_result blocks must come first in the user message content");
  });
});

describe.each(FORMATS)("describeExport(%s) of the nasty set", (format) => {
  const { declarations } = lowered(format);

  for (const t of nasty) {
    it(`${t.name} passes the ${format} rules with zero violations`, () => {
      expect(describeViolations(CHECKERS[format](lowered(format, [t]).declarations))).toBe("");
    });
  }

  it("the whole set breaks no rule", () => {
    const names = nasty.map((t) => t.name);
    expect(describeViolations(CHECKERS[format](declarations))).toBe("");
    // Every tool is there, in order, under its own name.
    expect(declaredNames(format, declarations)).toEqual(names);
  });

  it("is deterministic and reports only changes it can point at", () => {
    const first = lowered(format);
    expect(JSON.stringify(lowered(format))).toBe(JSON.stringify(first));
    for (const c of first.changes) {
      expect(nasty.map((t) => t.name)).toContain(c.tool);
      expect(c.pointer === "" || c.pointer.startsWith("/")).toBe(true);
      expect(c.detail.length).toBeGreaterThan(0);
    }
  });
});

describe("probes beyond the nasty set", () => {
  const requiredGhost = tool("required_ghost", {
    type: "object",
    properties: { a: { type: "string" } },
    required: ["a", "b"],
  });
  const multiTypeEnum = tool("multi_type_enum", {
    type: "object",
    properties: { v: { type: ["integer", "string"], enum: [1, "a"] } },
  });

  it("gemini drops a `required` name that no property has, and reports it", () => {
    const { declarations, changes } = describeExport("gemini", [requiredGhost]);
    expect(describeViolations(checkGeminiTools(declarations))).toBe("");
    expect(changes).toEqual([
      expect.objectContaining({ tool: "required_ghost", pointer: "/required", keyword: "required", action: "dropped" }),
    ]);
  });

  it("gemini lowers an enum over a type array to one string enum", () => {
    const { declarations } = describeExport("gemini", [multiTypeEnum]);
    expect(describeViolations(checkGeminiTools(declarations))).toBe("");
    const [{ functionDeclarations }] = declarations as GeminiTools;
    expect(functionDeclarations[0]!.parameters.properties!.v).toEqual({
      type: "string",
      format: "enum",
      enum: ["1", "a"],
    });
  });

  it("gemini and strict mode turn tuple items into one item schema, and strict mode merges allOf", () => {
    // A closed tuple: strict mode cannot say "any further elements", so an open one is not strict (below).
    const tuple = tool("tuple_items", {
      type: "object",
      properties: {
        pair: { type: "array", items: [{ type: "string" }, { type: "integer" }], additionalItems: false },
        merged: {
          allOf: [
            { type: "object", properties: { a: { type: "string" } }, required: ["a"] },
            { properties: { b: { type: "integer" } } },
          ],
        },
      },
      required: ["pair", "merged"],
    });
    expect(describeViolations(checkGeminiTools(describeExport("gemini", [tuple]).declarations))).toBe("");
    const strict = describeExport("openai", [tuple], { strict: true });
    expect(describeViolations(CHECKERS.openai(strict.declarations))).toBe("");
    const parameters = (strict.declarations as OpenAIFunctionTool[])[0]!.function.parameters;
    expect((strict.declarations as OpenAIFunctionTool[])[0]!.function.strict).toBe(true);
    expect(parameters.properties!.pair).toEqual({
      type: "array",
      items: { anyOf: [{ type: "string" }, { type: "integer" }] },
      maxItems: 2,
    });
    expect(parameters.properties!.merged).toEqual({
      type: "object",
      properties: { a: { type: "string" }, b: { type: ["integer", "null"] } },
      required: ["a", "b"],
      additionalProperties: false,
    });
    // A tuple open to any further elements cannot be strict: it goes out with strict: false, and the report says why.
    const open = tool("open_tuple", {
      type: "object",
      properties: { pair: { type: "array", items: [{ type: "string" }, { type: "integer" }] } },
      required: ["pair"],
    });
    const openStrict = describeExport("openai", [open], { strict: true });
    expect(describeViolations(CHECKERS.openai(openStrict.declarations))).toBe("");
    expect((openStrict.declarations as OpenAIFunctionTool[])[0]!.function.strict).toBe(false);
    expect(openStrict.changes).toEqual([
      expect.objectContaining({
        tool: "open_tuple",
        pointer: "",
        keyword: "strict",
        action: "disabled",
        detail: expect.stringContaining("a tuple that takes any further elements at /properties/pair"),
      }),
    ]);
  });
});

describe("the change report names each change (tool, pointer, keyword, action)", () => {
  it("gemini", () => {
    const { changes } = lowered("gemini");
    const expected: Array<Partial<SchemaChange>> = [
      { tool: "nullable_types", pointer: "/properties/nickname", keyword: "type", action: "rewritten" },
      { tool: "nullable_types", pointer: "/properties/idOrName", keyword: "type", action: "rewritten" },
      { tool: "nullable_types", pointer: "/additionalProperties", keyword: "additionalProperties", action: "dropped" },
      { tool: "ref_chain", pointer: "", keyword: "$ref", action: "inlined" },
      { tool: "recursive_tree", keyword: "$ref", action: "cut" },
      { tool: "recursive_tree", pointer: "", keyword: "$ref", action: "inlined" },
      { tool: "const_one_of", pointer: "/properties/kind", keyword: "const", action: "rewritten" },
      { tool: "const_one_of", pointer: "/properties/target", keyword: "oneOf", action: "rewritten" },
      { tool: "const_one_of", pointer: "/properties/target/anyOf/0/format", keyword: "format", action: "moved" },
      {
        tool: "additional_props",
        pointer: "/properties/labels/additionalProperties",
        keyword: "additionalProperties",
        action: "dropped",
      },
      { tool: "priced", pointer: "/properties/price", keyword: "exclusiveMinimum", action: "rewritten" },
      { tool: "priced", pointer: "/properties/price", keyword: "exclusiveMaximum", action: "rewritten" },
      { tool: "priced", pointer: "/properties/priority/enum", keyword: "enum", action: "rewritten" },
      { tool: "priced", pointer: "/properties/tags/items/enum", keyword: "enum", action: "rewritten" },
      { tool: "empty_objects", pointer: "/properties/options/properties", keyword: "properties", action: "dropped" },
      { tool: "no_arguments", pointer: "/properties", keyword: "properties", action: "dropped" },
      { tool: "formats", pointer: "/properties/email/format", keyword: "format", action: "moved" },
      { tool: "formats", pointer: "/properties/homepage/format", keyword: "format", action: "moved" },
      { tool: "all_of", pointer: "/properties/item", keyword: "allOf", action: "rewritten" },
    ];
    for (const wanted of expected)
      expect({ wanted, found: change(changes, wanted) !== undefined }).toEqual({ wanted, found: true });
    // A format Gemini knows is left alone.
    expect(change(changes, { tool: "formats", pointer: "/properties/when/format" })).toBeUndefined();
  });

  it("openai strict (and openai-responses, the same dialect)", () => {
    const { changes } = lowered("openai");
    const expected: Array<Partial<SchemaChange>> = [
      // Optional and already nullable: "not given" can only be sent as null.
      { tool: "nullable_types", pointer: "/properties/age", keyword: "required", action: "lossy" },
      { tool: "priced", pointer: "/properties/priority", keyword: "required", action: "rewritten" },
      // Closing an object that did not say additionalProperties: false loses the undeclared keys.
      {
        tool: "all_of",
        pointer: "/properties/item/additionalProperties",
        keyword: "additionalProperties",
        action: "lossy",
      },
      // A typed additionalProperties map is keys strict mode cannot take: the tool is not strict.
      { tool: "additional_props", pointer: "", keyword: "strict", action: "disabled" },
      { tool: "const_one_of", pointer: "/properties/target/oneOf", keyword: "oneOf", action: "rewritten" },
      { tool: "free_form", pointer: "", keyword: "strict", action: "disabled" },
      { tool: "all_of", pointer: "/properties/item/allOf", keyword: "allOf", action: "rewritten" },
    ];
    for (const wanted of expected)
      expect({ wanted, found: change(changes, wanted) !== undefined }).toEqual({ wanted, found: true });
    expect(lowered("openai-responses").changes).toEqual(changes);
    // The free-form tool goes out non-strict, said explicitly for Responses.
    const responses = lowered("openai-responses").declarations as Array<{ name: string; strict: boolean }>;
    expect(responses.find((d) => d.name === "free_form")!.strict).toBe(false);
    expect(responses.filter((d) => d.strict).map((d) => d.name)).toContain("nullable_types");
  });

  it("anthropic, mcp and bedrock take the schemas as they are without strict (every root is already a plain object)", () => {
    for (const format of ["anthropic", "mcp", "bedrock"] as const)
      expect(describeExport(format, nasty).changes).toEqual([]);
  });

  it("a note about a dropped keyword says whether it still holds: validating tools, tools that do not validate, hand-written Tools", () => {
    const schema: Tool["inputSchema"] = {
      type: "object",
      properties: { n: { type: "number", multipleOf: 2 } },
      additionalProperties: false,
    };
    const handWritten: Tool = {
      name: "hand_written",
      description: "Written by hand.",
      inputSchema: schema,
      source: "test",
      execute: () => Promise.resolve({ output: "", isError: false }),
    };
    const notes = (t: Tool) =>
      describeExport("gemini", [t])
        .changes.filter((c) => c.action === "dropped")
        .map((c) => [c.keyword, c.detail]);
    expect(notes(tool("validating", schema))).toEqual([
      [
        "additionalProperties",
        "additionalProperties is not supported by Gemini (it is still enforced when the call runs)",
      ],
      ["multipleOf", "multipleOf is not supported by Gemini (it is still enforced when the call runs)"],
    ]);
    expect(notes(tool("not_validating", schema, false))).toEqual([
      [
        "additionalProperties",
        "additionalProperties is not supported by Gemini (it is not enforced: this tool does not validate its arguments)",
      ],
      [
        "multipleOf",
        "multipleOf is not supported by Gemini (it is not enforced: this tool does not validate its arguments)",
      ],
    ]);
    expect(notes(handWritten)).toEqual([
      [
        "additionalProperties",
        "additionalProperties is not supported by Gemini (it is enforced only if the tool validates its arguments)",
      ],
      ["multipleOf", "multipleOf is not supported by Gemini (it is enforced only if the tool validates its arguments)"],
    ]);
  });
});

describe("a schema already inside the Gemini subset", () => {
  const inside = tool("inside_subset", {
    type: "object",
    description: "Already Gemini-shaped",
    properties: {
      city: { type: "string", description: "City", minLength: 1, maxLength: 80, pattern: "^[A-Za-z ]+$" },
      units: { type: "string", format: "enum", enum: ["celsius", "fahrenheit"], default: "celsius" },
      when: { type: "string", format: "date-time", nullable: true },
      days: { type: "integer", format: "int32", minimum: 1, maximum: 14 },
      stops: {
        type: "array",
        minItems: 0,
        maxItems: 5,
        items: {
          type: "object",
          properties: { name: { type: "string" }, lat: { type: "number", format: "double" } },
          required: ["name"],
          propertyOrdering: ["name", "lat"],
        },
      },
      either: { anyOf: [{ type: "string" }, { type: "number" }] },
    },
    required: ["city"],
    propertyOrdering: ["city", "units", "when", "days", "stops", "either"],
  });

  it("comes out byte-identical, with zero changes, and passes the Gemini rules", () => {
    const { declarations, changes } = describeExport("gemini", [inside]);
    expect(changes).toEqual([]);
    const [{ functionDeclarations }] = declarations as ReturnType<typeof toGemini>;
    expect(JSON.stringify(functionDeclarations[0]!.parameters)).toBe(JSON.stringify(inside.inputSchema));
    expect(checkGeminiTools(declarations)).toEqual([]);
  });
});

describe("what a dialect drops is still enforced when the call runs (validate: true)", () => {
  const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false, logger: false });
  const declaredGemini = (name: string) => {
    const [{ functionDeclarations }] = toGemini(nasty);
    return functionDeclarations.find((d) => d.name === name)!.parameters as Record<string, unknown>;
  };
  const toolkit = new Toolkit(nasty);

  beforeEach(() => (calls.length = 0));

  it("price 0 with exclusiveMinimum 0: the Gemini declaration allows it, the tool refuses it", async () => {
    expect(ajv.validate(declaredGemini("priced"), { price: 0 })).toBe(true);
    expect(ajv.validate(priced.inputSchema, { price: 0 })).toBe(false);
    const result = await toolkit.execute("priced", { price: 0 });
    expect(result.isError).toBe(true);
    expect(result.metadata?.error).toBe("invalid_arguments");
    expect(result.output).toContain('"price"');
    expect(result.output).toContain("> 0");
    expect(calls).toEqual([]);
    expect((await toolkit.execute("priced", { price: 0.01 })).isError).toBe(false);
  });

  it("an extra property: the Gemini declaration allows it (additionalProperties dropped), the tool refuses it", async () => {
    const args = { sku: "A-1", surprise: true };
    expect(ajv.validate(declaredGemini("additional_props"), args)).toBe(true);
    const result = await toolkit.execute("additional_props", args);
    expect(result.isError).toBe(true);
    expect(result.output).toContain('unknown argument "surprise"');
    expect(calls).toEqual([]);
  });

  it("oneOf lowered to anyOf: a value matching two branches passes the declaration, not the tool", async () => {
    const args = { kind: "refund", target: "a@b.co" };
    expect(ajv.validate(declaredGemini("const_one_of"), args)).toBe(true);
    const result = await toolkit.execute("const_one_of", args);
    expect(result.isError).toBe(true);
    expect(result.output).toContain('"target" must match exactly one schema in oneOf');
    expect(calls).toEqual([]);
    // The const became a one-value enum; another value is refused by both.
    expect((await toolkit.execute("const_one_of", { kind: "chargeback", target: 5 })).output).toContain(
      '"kind" must be "refund"',
    );
    expect((await toolkit.execute("const_one_of", { kind: "refund", target: 5 })).isError).toBe(false);
  });

  it("the recursive $ref cut: the declaration stops, the tool still validates deeper levels", async () => {
    const deepTree = (depth: number): Args =>
      depth === 0 ? { label: 7 } : { label: `d${depth}`, children: [deepTree(depth - 1)] };
    const declared = JSON.stringify(declaredGemini("recursive_tree"));
    expect(declared).not.toContain("$ref");
    const result = await toolkit.execute("recursive_tree", { root: deepTree(6) });
    expect(result.isError).toBe(true);
    expect(result.output).toContain("label");
    expect(result.output).toContain("must be string");
    expect(
      (await toolkit.execute("recursive_tree", { root: { label: "ok", children: [{ label: "leaf" }] } })).isError,
    ).toBe(false);
  });
});

describe("answers converted back before the call", () => {
  beforeEach(() => (calls.length = 0));

  it('Gemini integer enums are declared as strings, and "2" reaches the tool as 2 (runGemini)', async () => {
    const [{ functionDeclarations }] = toGemini([priced]);
    const priority = (functionDeclarations[0]!.parameters.properties as Record<string, Record<string, unknown>>)
      .priority!;
    expect(priority).toMatchObject({ type: "string", format: "enum", enum: ["1", "2", "3"] });

    const toolkit = new Toolkit([priced]);
    const reply = await toolkit.runGemini({
      candidates: [
        {
          content: {
            role: "model",
            parts: [{ functionCall: { name: "priced", args: { price: 5, priority: "2", tags: ["10", "20"] } } }],
          },
        },
      ],
    });
    expect(reply!.parts[0]!.functionResponse.response).toHaveProperty("output");
    expect(calls).toEqual([{ tool: "priced", args: { price: 5, priority: 2, tags: [10, 20] } }]);
    expect(
      checkGeminiToolResults([{ role: "model", parts: [{ functionCall: { name: "priced", args: {} } }] }, reply]),
    ).toEqual([]);
  });

  it("OpenAI strict null for an optional argument reaches the tool as absent (runOpenAI)", async () => {
    const ab = tool("ab", {
      type: "object",
      properties: { a: { type: "string" }, b: { type: "string" } },
      required: ["a"],
      additionalProperties: false,
    });
    const [declaration] = toOpenAI([ab], { strict: true });
    expect(declaration).toMatchObject({ type: "function", function: { parameters: { required: ["a", "b"] } } });
    const toolkit = new Toolkit([ab]);
    const messages = await toolkit.runOpenAI({
      choices: [
        {
          message: {
            tool_calls: [{ id: "call_1", type: "function", function: { name: "ab", arguments: '{"a":"x","b":null}' } }],
          },
        },
      ],
    });
    expect(messages).toEqual([{ role: "tool", tool_call_id: "call_1", content: expect.stringContaining('"ok":true') }]);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.args).toEqual({ a: "x" });
    expect("b" in calls[0]!.args).toBe(false);
  });
});

describe("names", () => {
  beforeEach(() => (calls.length = 0));
  const refund = tool("billing.refund", {
    type: "object",
    properties: { amount: { type: "number" } },
    required: ["amount"],
  });

  it('names: "sanitize" maps billing.refund to billing_refund for openai, and runOpenAI maps it back', async () => {
    expect(() => toOpenAI([refund])).toThrow(ExportError);
    const declarations = toOpenAI([refund], { names: "sanitize" });
    expect(declarations.map((d) => (d.type === "function" ? d.function.name : d.type))).toEqual(["billing_refund"]);
    expect(checkOpenAIChatTools(declarations)).toEqual([]);

    const toolkit = new Toolkit([refund]);
    expect(toolkit.toOpenAI({ names: "sanitize" })[0]).toMatchObject({
      type: "function",
      function: { name: "billing_refund" },
    });
    const [message] = await toolkit.runOpenAI([
      { id: "call_r", type: "function", function: { name: "billing_refund", arguments: '{"amount":12.5}' } },
    ]);
    expect(message).toEqual({ role: "tool", tool_call_id: "call_r", content: expect.stringContaining('"ok":true') });
    expect(calls).toEqual([{ tool: "billing.refund", args: { amount: 12.5 } }]);
    // Gemini accepts the dot: the name is kept as it is.
    expect(describeExport("gemini", [refund], { names: "sanitize" }).declarations).toMatchObject([
      { functionDeclarations: [{ name: "billing.refund" }] },
    ]);
  });

  it("two tools that collide (a.b and a_b) throw ExportError naming both", () => {
    const tools = [tool("a.b", { type: "object", properties: {} }), tool("a_b", { type: "object", properties: {} })];
    let error: unknown;
    try {
      describeExport("openai", tools, { names: "sanitize" });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ExportError);
    expect((error as Error).message).toContain('"a.b"');
    expect((error as Error).message).toContain('"a_b"');
    expect(() => toOpenAI(tools, { names: "sanitize" })).toThrow(ExportError);
  });
});

describe("toGemini(tools, { jsonSchema: true })", () => {
  it("emits parametersJsonSchema (the full schema, each const as a one-value enum) and no parameters", () => {
    const [wrapper] = toGemini(nasty, { jsonSchema: true });
    expect(wrapper.functionDeclarations).toHaveLength(nasty.length);
    const constsAsEnums = (node: unknown): unknown => {
      if (Array.isArray(node)) return node.map(constsAsEnums);
      if (typeof node !== "object" || node === null) return node;
      const entries = Object.entries(node).map(([key, value]) => [key, constsAsEnums(value)] as const);
      const copy: Record<string, unknown> = Object.fromEntries(entries.filter(([key]) => key !== "const"));
      if ("const" in node) copy.enum = [(node as { const: unknown }).const];
      return copy;
    };
    for (const [i, declaration] of wrapper.functionDeclarations.entries()) {
      expect(Object.keys(declaration).sort()).toEqual(["description", "name", "parametersJsonSchema"]);
      expect(declaration.parametersJsonSchema).toEqual(constsAsEnums(nasty[i]!.inputSchema));
    }
    expect(checkGeminiTools([wrapper])).toEqual([]);
  });
});
