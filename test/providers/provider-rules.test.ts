/**
 * The providers' rules, one at a time: each rule of test/support/dialect-rules.ts is shown to
 * refuse a small bad input and to accept the good input next to it. Read top to bottom, this
 * file is the specification of what each provider's API takes. The sources of each rule are
 * cited at the rule in dialect-rules.ts.
 */
import Ajv from "ajv";
import addFormats from "ajv-formats";
import {
  OPENAI_ROOT_FORBIDDEN,
  OPENAI_STRICT_LIMITS,
  checkAnthropicTools,
  checkBedrockToolConfig,
  checkGeminiParameters,
  checkGeminiSchema,
  checkGeminiTools,
  checkMcpTools,
  checkOpenAIChatTools,
  checkOpenAIParameters,
  checkOpenAIResponsesTools,
  checkOpenAIStrictSchema,
  describeViolations,
  geminiSchemaToJsonSchema,
  type Violation,
} from "../support/dialect-rules";

type Schema = Record<string, unknown>;

/** "at: message" lines, for readable failures and `toContain` checks. */
const lines = (violations: Violation[]): string[] => describeViolations(violations).split("\n").filter(Boolean);
const where = (violations: Violation[]): string[] => violations.map((v) => v.at);

// ---- Gemini ---------------------------------------------------------------------------------

describe("Gemini Schema (a function declaration's parameters)", () => {
  const obj = (properties: Schema, extra: Schema = {}): Schema => ({ type: "OBJECT", properties, ...extra });

  it("every node has a type", () => {
    expect(checkGeminiSchema(obj({ a: { type: "STRING" } }))).toEqual([]);
    expect(lines(checkGeminiSchema(obj({ a: { description: "no type" } })))).toEqual([
      "parameters.properties.a.type: missing field type: every schema needs a type (TYPE_UNSPECIFIED is refused); only a schema holding just anyOf may leave it out",
    ]);
    // Both spellings are Gemini types (the SDK sends upper case, the REST API takes either).
    expect(checkGeminiSchema({ type: "object", properties: { a: { type: "string" } } })).toEqual([]);
  });

  it("a node holding only anyOf needs no type; anyOf must be alone on its node", () => {
    expect(checkGeminiSchema(obj({ a: { anyOf: [{ type: "STRING" }, { type: "INTEGER" }] } }))).toEqual([]);
    expect(lines(checkGeminiSchema(obj({ a: { anyOf: [{ type: "STRING" }], description: "x" } })))).toEqual([
      "parameters.properties.a: anyOf must be the only field set on its schema, found also: description",
    ]);
    expect(where(checkGeminiSchema(obj({ a: { anyOf: [{ type: "STRING" }, { nullable: true }] } })))).toEqual([
      "parameters.properties.a.anyOf[1].type",
    ]);
  });

  it("enum: only on STRING, a non-empty array of non-empty strings", () => {
    expect(checkGeminiSchema(obj({ a: { type: "STRING", enum: ["x", "y"] } }))).toEqual([]);
    expect(checkGeminiSchema(obj({ a: { type: "STRING", format: "enum", enum: ["1", "2"] } }))).toEqual([]);
    expect(lines(checkGeminiSchema(obj({ a: { type: "INTEGER", enum: ["1", "2"] } })))).toEqual([
      "parameters.properties.a.enum: enum: only allowed for STRING type, got INTEGER",
    ]);
    expect(lines(checkGeminiSchema(obj({ a: { type: "STRING", enum: [1, 2] } })))).toEqual([
      "parameters.properties.a.enum: enum values must be strings, got [1,2]",
    ]);
    expect(lines(checkGeminiSchema(obj({ a: { type: "STRING", enum: ["x", ""] } })))).toEqual([
      "parameters.properties.a.enum: enum values must be non-empty strings",
    ]);
    expect(lines(checkGeminiSchema(obj({ a: { type: "STRING", enum: [] } })))).toEqual([
      "parameters.properties.a.enum: enum must be a non-empty array of strings, got []",
    ]);
    // An enum without a type breaks both rules (users saw "enum: only allowed for STRING type" for it).
    expect(lines(checkGeminiSchema(obj({ a: { enum: ["x"] } })))).toEqual([
      "parameters.properties.a.type: missing field type: every schema needs a type (TYPE_UNSPECIFIED is refused); only a schema holding just anyOf may leave it out",
      "parameters.properties.a.enum: enum: only allowed for STRING type, got no type",
    ]);
  });

  it("every ARRAY has items, and items is one schema object", () => {
    expect(checkGeminiSchema(obj({ a: { type: "ARRAY", items: { type: "STRING" } } }))).toEqual([]);
    expect(lines(checkGeminiSchema(obj({ a: { type: "ARRAY" } })))).toEqual([
      "parameters.properties.a.items: items: missing field (every ARRAY needs items)",
    ]);
    expect(lines(checkGeminiSchema(obj({ a: { type: "ARRAY", items: [{ type: "STRING" }] } })))).toEqual([
      "parameters.properties.a.items: items must be a single schema (tuple items are not supported)",
    ]);
    expect(lines(checkGeminiSchema(obj({ a: { type: "ARRAY", items: true } })))).toEqual([
      "parameters.properties.a.items: a boolean schema (true) is not a Gemini Schema: write an object with a type",
    ]);
  });

  it("boolean schemas are refused anywhere", () => {
    expect(where(checkGeminiSchema(obj({ a: true, b: { anyOf: [false, { type: "STRING" }] } })))).toEqual([
      "parameters.properties.a",
      "parameters.properties.b.anyOf[0]",
    ]);
    expect(where(checkGeminiSchema(true))).toEqual(["parameters"]);
  });

  it("the root of parameters is type OBJECT (either case)", () => {
    expect(checkGeminiParameters({ type: "OBJECT", properties: { a: { type: "STRING" } } })).toEqual([]);
    expect(checkGeminiParameters({ type: "object" })).toEqual([]);
    expect(lines(checkGeminiParameters({ type: "STRING" }))).toEqual([
      'parameters.type: parameters schema should be of type OBJECT, got "STRING"',
    ]);
    expect(lines(checkGeminiParameters({ anyOf: [{ type: "OBJECT" }] }))).toEqual([
      "parameters.type: parameters schema should be of type OBJECT, got no type",
    ]);
    // checkGeminiSchema is the node rule alone: a STRING schema is a fine schema, just not a fine parameters root.
    expect(checkGeminiSchema({ type: "STRING" })).toEqual([]);
    // checkGeminiTools holds every declaration's parameters to the root rule.
    const declaration = (parameters: Schema) => [
      { functionDeclarations: [{ name: "f", description: "d", parameters }] },
    ];
    expect(checkGeminiTools(declaration({ type: "OBJECT", properties: { a: { type: "STRING" } } }))).toEqual([]);
    expect(where(checkGeminiTools(declaration({ type: "ARRAY", items: { type: "STRING" } })))).toEqual([
      "tools[0].functionDeclarations[0].parameters.type",
    ]);
  });

  it("properties: non-empty, Gemini property names, required names defined; nullable is a boolean; no unknown fields", () => {
    expect(checkGeminiSchema(obj({ a_1: { type: "STRING", nullable: true } }, { required: ["a_1"] }))).toEqual([]);
    expect(lines(checkGeminiSchema(obj({ a: { type: "OBJECT", properties: {} } })))).toEqual([
      "parameters.properties.a.properties: should be non-empty for OBJECT type",
    ]);
    expect(where(checkGeminiSchema(obj({ "a-b": { type: "STRING" } })))).toEqual(['parameters.properties["a-b"]']);
    expect(lines(checkGeminiSchema(obj({ a: { type: "STRING" } }, { required: ["a", "ghost"] })))).toEqual([
      'parameters.required[1]: property is not defined: "ghost"',
    ]);
    expect(lines(checkGeminiSchema(obj({ a: { type: "STRING", nullable: "yes" } })))).toEqual([
      "parameters.properties.a.nullable: nullable must be a boolean",
    ]);
    expect(lines(checkGeminiSchema(obj({ a: { type: "STRING", const: "x" } })))).toEqual([
      'parameters.properties.a.const: Invalid JSON payload received. Unknown name "const": Cannot find field.',
    ]);
  });
});

describe("geminiSchemaToJsonSchema: a Gemini Schema as the JSON Schema that takes the same values", () => {
  const gemini = {
    type: "OBJECT",
    description: "a search",
    properties: {
      query: { type: "STRING", minLength: "1", example: "cats" },
      unit: { type: "STRING", format: "enum", enum: ["C", "F"], nullable: true },
      limit: { type: "INTEGER", format: "int32", minimum: 1, nullable: true },
      tags: { type: "ARRAY", items: { type: "STRING" }, maxItems: "2" },
      when: { anyOf: [{ type: "STRING", format: "date-time" }, { type: "NUMBER" }] },
    },
    required: ["query"],
    propertyOrdering: ["query", "unit", "limit", "tags", "when"],
  };
  const json = geminiSchemaToJsonSchema(gemini);

  it("lower-cases types, folds nullable into the type (and the enum), drops format enum / propertyOrdering / example, and adds no additionalProperties", () => {
    expect(json).toEqual({
      type: "object",
      description: "a search",
      properties: {
        query: { type: "string", minLength: 1 },
        unit: { type: ["string", "null"], enum: ["C", "F", null] },
        limit: { type: ["integer", "null"], format: "int32", minimum: 1 },
        tags: { type: "array", items: { type: "string" }, maxItems: 2 },
        when: { anyOf: [{ type: "string", format: "date-time" }, { type: "number" }] },
      },
      required: ["query"],
    });
    expect(checkGeminiParameters(gemini)).toEqual([]);
  });

  it("lets Ajv say which values the Gemini schema takes", () => {
    const ajv = new Ajv({ allowUnionTypes: true });
    addFormats(ajv);
    const validate = ajv.compile(json);
    expect(validate({ query: "cats" })).toBe(true);
    expect(
      validate({ query: "cats", unit: null, limit: null, tags: ["a", "b"], when: 3, extra: "Gemini objects are open" }),
    ).toBe(true);
    expect(validate({ query: "cats", when: "2026-01-01T00:00:00Z" })).toBe(true);
    expect(validate({})).toBe(false); // query is required
    expect(validate({ query: "" })).toBe(false); // minLength "1"
    expect(validate({ query: "cats", unit: "K" })).toBe(false);
    expect(validate({ query: "cats", tags: ["a", "b", "c"] })).toBe(false); // maxItems "2"
    expect(validate({ query: "cats", limit: 0 })).toBe(false);
  });

  it("refuses a non-object schema", () => {
    expect(() => geminiSchemaToJsonSchema(true)).toThrow(TypeError);
  });
});

// ---- OpenAI strict ----------------------------------------------------------------------------

describe("OpenAI strict parameters (strict: true)", () => {
  /** A closed object with every property required: the strict shape. */
  const closed = (properties: Record<string, unknown>, extra: Schema = {}): Schema => ({
    type: "object",
    properties,
    required: Object.keys(properties),
    additionalProperties: false,
    ...extra,
  });

  it("accepts a closed object whose optional values are nullable", () => {
    expect(
      checkOpenAIStrictSchema(
        closed({ name: { type: "string" }, unit: { type: ["string", "null"], enum: ["C", "F", null] } }),
      ),
    ).toEqual([]);
  });

  it.each([
    ["additionalItems", { type: "array", items: { type: "string" }, additionalItems: false }],
    ["contentEncoding", { type: "string", contentEncoding: "base64" }],
    ["contentMediaType", { type: "string", contentMediaType: "image/png" }],
    ["minContains", { type: "array", items: { type: "string" }, minContains: 1 }],
    ["maxContains", { type: "array", items: { type: "string" }, maxContains: 2 }],
    ["dependencies", closed({ a: { type: "string" } }, { dependencies: { a: ["a"] } })],
    ["if", { type: "string", if: { type: "string" } }],
    ["then", { type: "string", then: { type: "string" } }],
    ["else", { type: "string", else: { type: "string" } }],
    ["allOf", { type: "string", allOf: [{ type: "string" }] }],
    ["not", { type: "string", not: { type: "number" } }],
    ["oneOf", { oneOf: [{ type: "string" }, { type: "number" }] }],
    ["uniqueItems", { type: "array", items: { type: "string" }, uniqueItems: true }],
    ["patternProperties", closed({}, { patternProperties: { "^x": { type: "string" } } })],
  ])("forbids '%s' anywhere", (keyword, property) => {
    const v = checkOpenAIStrictSchema(closed({ p: property }));
    expect(lines(v)).toContain(`parameters.properties.p.${keyword}: '${keyword}' is not permitted in strict mode`);
  });

  it("takes $schema and $id at the root only (the openai SDK itself sends $schema there)", () => {
    expect(
      checkOpenAIStrictSchema(
        closed({ a: { type: "string" } }, { $schema: "http://json-schema.org/draft-07/schema#", $id: "x" }),
      ),
    ).toEqual([]);
    expect(lines(checkOpenAIStrictSchema(closed({ a: { type: "string", $id: "a" } })))).toEqual([
      "parameters.properties.a.$id: '$id' is only allowed at the root of a strict schema",
    ]);
  });

  it("every node has a type, except a node that is only anyOf or only $ref (annotations aside)", () => {
    const ok = closed(
      {
        either: { description: "string or number", anyOf: [{ type: "string" }, { type: "number" }] },
        step: { $ref: "#/$defs/step" },
      },
      { $defs: { step: closed({ text: { type: "string" } }) } },
    );
    expect(checkOpenAIStrictSchema(ok)).toEqual([]);
    const v = checkOpenAIStrictSchema(
      closed({ any: {}, described: { description: "x" }, constant: { const: "x" }, listed: { enum: ["a", "b"] } }),
    );
    expect(lines(v)).toEqual([
      "parameters.properties.any: schema must have a 'type' key",
      "parameters.properties.described: schema must have a 'type' key",
      "parameters.properties.constant: schema must have a 'type' key",
      "parameters.properties.listed: schema must have a 'type' key",
    ]);
  });

  it("every array has items, one schema; boolean schemas are refused", () => {
    expect(checkOpenAIStrictSchema(closed({ a: { type: "array", items: { type: "string" } } }))).toEqual([]);
    expect(lines(checkOpenAIStrictSchema(closed({ a: { type: "array" } })))).toEqual([
      "parameters.properties.a.items: an array schema must have 'items' (one schema for every item)",
    ]);
    expect(lines(checkOpenAIStrictSchema(closed({ a: { type: "array", items: [{ type: "string" }] } })))).toEqual([
      "parameters.properties.a.items: tuple 'items' (an array) is not permitted in strict mode",
    ]);
    expect(lines(checkOpenAIStrictSchema(closed({ a: { type: "array", items: true }, b: false })))).toEqual([
      "parameters.properties.a.items: a boolean schema (true) is not allowed in strict mode",
      "parameters.properties.b: a boolean schema (false) is not allowed in strict mode",
    ]);
  });

  it("required names only properties that exist; enum and const values are of the node's type", () => {
    expect(lines(checkOpenAIStrictSchema(closed({ a: { type: "string" } }, { required: ["a", "ghost"] })))).toEqual([
      `parameters.required: 'required' names keys that are not in properties: ["ghost"]`,
    ]);
    expect(
      lines(
        checkOpenAIStrictSchema(closed({ a: { type: "string", enum: ["x", 1] }, b: { type: "null", const: "y" } })),
      ),
    ).toEqual([
      `parameters.properties.a.enum[1]: enum value 1 does not validate against {'type': "string"}`,
      `parameters.properties.b.const: enum value "y" does not validate against {'type': "null"}`,
    ]);
  });

  it("the root is an object: no root union, enum or const", () => {
    expect(where(checkOpenAIStrictSchema({ ...closed({}), anyOf: [closed({})] }))).toEqual(["parameters.anyOf"]);
    expect(where(checkOpenAIStrictSchema({ ...closed({}), oneOf: [closed({})] }))).toEqual(["parameters.oneOf"]);
    expect(where(checkOpenAIStrictSchema({ ...closed({}), enum: [{}] }))).toEqual(["parameters.enum"]);
    expect(where(checkOpenAIStrictSchema({ type: "string" }))).toEqual(["parameters.type"]);
  });

  describe("documented size limits", () => {
    /** `levels` objects nested one inside the next (the root is level 1). */
    const nested = (levels: number): Schema =>
      levels === 1 ? closed({ leaf: { type: "string" } }) : closed({ child: nested(levels - 1) });
    const many = (
      count: number,
      name: (i: number) => string,
      schema: (i: number) => unknown = () => ({ type: "string" }),
    ): Record<string, unknown> => Object.fromEntries(Array.from({ length: count }, (_, i) => [name(i), schema(i)]));
    const values = (count: number, length: number): string[] =>
      Array.from({ length: count }, (_, i) => String(i).padStart(length, "v"));

    it(`nesting: at most ${OPENAI_STRICT_LIMITS.maxNestingDepth} levels of objects`, () => {
      expect(checkOpenAIStrictSchema(nested(10))).toEqual([]);
      expect(lines(checkOpenAIStrictSchema(nested(11)))).toEqual([
        `parameters${".properties.child".repeat(10)}: 11 levels of nesting exceeds limit of 10`,
      ]);
      // Arrays are not object levels.
      const arrays = closed({ list: { type: "array", items: { type: "array", items: nested(9) } } });
      expect(checkOpenAIStrictSchema(arrays)).toEqual([]);
    });

    it(`at most ${OPENAI_STRICT_LIMITS.maxObjectProperties} object properties in total`, () => {
      expect(checkOpenAIStrictSchema(closed(many(5000, (i) => `p${i}`)))).toEqual([]);
      expect(
        lines(
          checkOpenAIStrictSchema(
            closed({ ...many(4999, (i) => `p${i}`), more: closed({ a: { type: "string" }, b: { type: "string" } }) }),
          ),
        ),
      ).toEqual(["parameters: 5002 object properties in total exceeds limit of 5000"]);
    });

    it(`at most ${OPENAI_STRICT_LIMITS.maxEnumValues} enum values in total`, () => {
      const enums = (total: number) =>
        closed(
          many(
            4,
            (i) => `e${i}`,
            (i) => ({ type: "string", enum: values(i === 3 ? total - 750 : 250, 4) }),
          ),
        );
      expect(checkOpenAIStrictSchema(enums(1000))).toEqual([]);
      expect(lines(checkOpenAIStrictSchema(enums(1001)))).toEqual([
        "parameters: 1001 enum values in total exceeds limit of 1000",
      ]);
    });

    it(`at most ${OPENAI_STRICT_LIMITS.maxTotalStringLength} characters of property names, definition names, enum and const values`, () => {
      // 99 property names of 1,200 characters, then 1,200 more characters made of a definition name, an enum value and a const value.
      const rest = (extra: number) =>
        closed(
          {
            ...many(99, (i) => String(i).padStart(1200, "n")),
            e: { type: "string", enum: ["x".repeat(398)] },
            c: { type: "string", const: "y".repeat(400) },
          },
          { $defs: { ["d".repeat(400 + extra)]: { type: "string" } } },
        );
      // 99 * 1200 + "e" + "c" + 398 (enum) + 400 (const) + 400 (definition name) = 120,000.
      expect(checkOpenAIStrictSchema(rest(0))).toEqual([]);
      expect(lines(checkOpenAIStrictSchema(rest(1)))).toEqual([
        "parameters: total string length of property names, definition names, enum and const values is 120001, exceeds limit of 120000",
      ]);
    });

    it(`a string enum with more than ${OPENAI_STRICT_LIMITS.largeEnumValueCount} values totals at most ${OPENAI_STRICT_LIMITS.maxLargeEnumStringLength} characters`, () => {
      expect(checkOpenAIStrictSchema(closed({ e: { type: "string", enum: values(250, 60) } }))).toEqual([]); // 15,000 characters, but only 250 values
      expect(checkOpenAIStrictSchema(closed({ e: { type: "string", enum: values(251, 59) } }))).toEqual([]); // 251 values, 14,809 characters
      expect(lines(checkOpenAIStrictSchema(closed({ e: { type: "string", enum: values(251, 60) } })))).toEqual([
        "parameters.properties.e.enum: an enum with more than 250 string values may total at most 15000 characters, this one has 251 values totalling 15060",
      ]);
    });
  });
});

// ---- OpenAI, not strict -----------------------------------------------------------------------

describe("OpenAI parameters without strict (Chat Completions and Responses)", () => {
  const open = { type: "object", properties: { a: { anyOf: [{ type: "string" }, { type: "number" }] } } };

  it("takes an open object root, with unions below the root, or no parameters at all", () => {
    expect(checkOpenAIParameters(open)).toEqual([]);
    expect(checkOpenAIParameters(undefined)).toEqual([]);
    expect(checkOpenAIChatTools([{ type: "function", function: { name: "f", parameters: open } }])).toEqual([]);
    expect(checkOpenAIResponsesTools([{ type: "function", name: "f", parameters: open, strict: false }])).toEqual([]);
  });

  it("refuses a root that is not type object", () => {
    expect(lines(checkOpenAIParameters({ type: "array", items: { type: "string" } }))).toEqual([
      `parameters.type: schema must be a JSON Schema of 'type: "object"', got 'type: "array"'`,
    ]);
    expect(where(checkOpenAIParameters({ properties: {} }))).toEqual(["parameters.type"]);
  });

  it.each(OPENAI_ROOT_FORBIDDEN.map((k) => [k]))("refuses '%s' at the root, even with type object", (keyword) => {
    const parameters = {
      ...open,
      [keyword]:
        keyword === "enum"
          ? [{}]
          : keyword === "const"
            ? {}
            : keyword === "not"
              ? { type: "string" }
              : [{ type: "object" }],
    };
    const message = `schema must have type 'object' and not have 'oneOf'/'anyOf'/'allOf'/'enum'/'const'/'not' at the top level (found '${keyword}')`;
    expect(lines(checkOpenAIParameters(parameters))).toEqual([`parameters.${keyword}: ${message}`]);
    expect(lines(checkOpenAIChatTools([{ type: "function", function: { name: "f", parameters } }]))).toEqual([
      `tools[0].function.parameters.${keyword}: ${message}`,
    ]);
    expect(lines(checkOpenAIResponsesTools([{ type: "function", name: "f", parameters, strict: false }]))).toEqual([
      `tools[0].parameters.${keyword}: ${message}`,
    ]);
  });
});

// ---- Anthropic and Bedrock --------------------------------------------------------------------

describe("Anthropic input_schema and Bedrock inputSchema.json", () => {
  const anthropic = (input_schema: Schema) => checkAnthropicTools([{ name: "f", description: "d", input_schema }]);
  const bedrock = (json: Schema) =>
    checkBedrockToolConfig({ tools: [{ toolSpec: { name: "f", description: "d", inputSchema: { json } } }] });
  const good = { type: "object", properties: { a: { oneOf: [{ type: "string" }, { type: "number" }] } } };

  it("take an object root, with combinators below the root", () => {
    expect(anthropic(good)).toEqual([]);
    expect(bedrock(good)).toEqual([]);
  });

  it("refuse a root that is not type object", () => {
    expect(lines(anthropic({ type: "array" }))).toEqual([
      `tools[0].input_schema.type: Input should be 'object', got "array"`,
    ]);
    expect(where(bedrock({ properties: {} }))).toEqual(["toolConfig.tools[0].toolSpec.inputSchema.json.type"]);
  });

  it.each([["anyOf"], ["oneOf"], ["allOf"]])("refuse '%s' at the root", (combinator) => {
    const schema = { type: "object", [combinator]: [{ type: "object" }] };
    expect(lines(anthropic(schema))).toEqual([
      `tools[0].input_schema.${combinator}: input_schema does not support ${combinator} at the top level`,
    ]);
    expect(where(bedrock(schema))).toEqual([`toolConfig.tools[0].toolSpec.inputSchema.json.${combinator}`]);
  });

  it("do not report a root 'not': Anthropic's error and docs name only oneOf, allOf and anyOf", () => {
    expect(anthropic({ type: "object", not: { required: ["a"] } })).toEqual([]);
    expect(bedrock({ type: "object", not: { required: ["a"] } })).toEqual([]);
  });

  it("Anthropic takes every field of the SDK's Tool, and no other", () => {
    expect(
      checkAnthropicTools([
        {
          name: "f",
          input_schema: { type: "object" },
          strict: true,
          defer_loading: false,
          input_examples: [{}],
          type: null,
        },
      ]),
    ).toEqual([]);
    expect(lines(checkAnthropicTools([{ name: "f", input_schema: { type: "object" }, parameters: {} }]))).toEqual([
      "tools[0].parameters: Extra inputs are not permitted",
    ]);
  });
});

// ---- MCP --------------------------------------------------------------------------------------

describe("MCP tools/list tools (hand-written rules plus the MCP SDK's zod ToolSchema)", () => {
  const tool = (extra: Schema = {}): Schema => ({
    name: "search",
    description: "d",
    inputSchema: { type: "object", properties: { q: { type: "string" } } },
    ...extra,
  });

  it("takes a tool with every field of the SDK's Tool", () => {
    expect(checkMcpTools([tool()])).toEqual([]);
    const full = tool({
      title: "Search",
      outputSchema: { type: "object", properties: { hits: { type: "array", items: { type: "string" } } } },
      annotations: { title: "Search", readOnlyHint: true, openWorldHint: false },
      icons: [{ src: "https://example.com/i.png", mimeType: "image/png" }],
      execution: { taskSupport: "optional" },
      _meta: { "example.com/x": 1 },
    });
    expect(checkMcpTools([full])).toEqual([]);
  });

  it("reports each ToolSchema issue at its path", () => {
    const v = checkMcpTools([
      tool({ outputSchema: { type: "array" }, execution: { taskSupport: "always" }, icons: [{}] }),
    ]);
    expect(lines(v)).toEqual([
      "tools[0].icons[0].src: Invalid input: expected string, received undefined (MCP SDK ToolSchema, invalid_type)",
      'tools[0].outputSchema.type: Invalid input: expected "object" (MCP SDK ToolSchema, invalid_value)',
      'tools[0].execution.taskSupport: Invalid option: expected one of "required"|"optional"|"forbidden" (MCP SDK ToolSchema, invalid_value)',
    ]);
    expect(lines(checkMcpTools([tool({ inputSchema: { type: "object", required: ["q", 1] } })]))).toEqual([
      "tools[0].inputSchema.required[1]: Invalid input: expected string, received number (MCP SDK ToolSchema, invalid_type)",
    ]);
  });

  it("ToolSchema refuses a boolean property schema at the top of inputSchema.properties, and takes deeper ones", () => {
    expect(lines(checkMcpTools([tool({ inputSchema: { type: "object", properties: { anything: true } } })]))).toEqual([
      "tools[0].inputSchema.properties.anything: Invalid input (MCP SDK ToolSchema, custom)",
    ]);
    const deeper = {
      type: "object",
      properties: { list: { type: "array", items: true }, inner: { type: "object", properties: { x: false } } },
      additionalProperties: true,
    };
    expect(checkMcpTools([tool({ inputSchema: deeper })])).toEqual([]);
  });

  it("does not report a place twice: a hand-written rule's violation hides ToolSchema's issue there", () => {
    expect(
      lines(checkMcpTools([{ name: "a b", inputSchema: { type: "string" }, annotations: { readOnlyHint: "yes" } }])),
    ).toEqual([
      'tools[0].name: invalid mcp function name "a b" (must match /^[A-Za-z0-9._-]{1,128}$/)',
      'tools[0].inputSchema: inputSchema must be an object schema (type "object")',
      "tools[0].annotations.readOnlyHint: a hint must be a boolean",
    ]);
    expect(lines(checkMcpTools([{ inputSchema: { type: "object" } }]))).toEqual([
      "tools[0].name: name must be a string, got undefined",
    ]);
  });
});
