/**
 * The provider dialects, one class of defect at a time. Each case exports a small tool through
 * the Toolkit, holds the declaration to the provider's own rules, answers it by hand the way a
 * model answers under the lowered schema, and requires the tool to receive exactly the value it
 * declared; where a dialect cannot say something, the change report has to say so, honestly.
 */
import { ToolSchema } from "@modelcontextprotocol/sdk/types.js";
import Ajv from "ajv";
import { defineTool, Toolkit, type ExportFormat, type JSONSchemaObject, type SchemaChange } from "../../src";
import type { OpenAIExportOptions } from "../../src/providers";
import {
  checkAnthropicTools,
  checkBedrockToolConfig,
  checkGeminiTools,
  checkMcpTools,
  checkOpenAIChatTools,
  checkOpenAIResponsesTools,
  describeViolations,
  geminiSchemaToJsonSchema,
  type Violation,
} from "../support/dialect-rules";

// ---- Fixtures -----------------------------------------------------------------------------

type Args = Record<string, unknown>;
/** A schema node as a declaration holds it. */
type Node = Record<string, unknown>;

interface Fixture {
  name: string;
  kit: Toolkit;
  /** The arguments of every call the tool ran, in order. */
  received: Args[];
}

/** One recording tool in its own toolkit. Boolean subschemas are JSON Schema too, so any object is taken. */
function fixture(name: string, inputSchema: object, validate = true): Fixture {
  const received: Args[] = [];
  const tool = defineTool({
    name,
    description: `Specification fixture ${name}.`,
    inputSchema: inputSchema as JSONSchemaObject,
    validate,
    execute: (args) => {
      received.push(args);
      return "ok";
    },
  });
  return { name, kit: new Toolkit([tool], { manifest: false }), received };
}

/** What came back to the model for one call. */
interface Reply {
  isError: boolean;
  text: string;
}

const OK: Reply = { isError: false, text: "ok" };

async function callGemini(kit: Toolkit, name: string, args: Args): Promise<Reply> {
  const turn = await kit.runGemini({
    candidates: [{ content: { role: "model", parts: [{ functionCall: { name, args } }] } }],
  });
  const response = turn!.parts[0]!.functionResponse.response;
  return "error" in response
    ? { isError: true, text: response.error }
    : { isError: false, text: typeof response.output === "string" ? response.output : JSON.stringify(response.output) };
}

async function callOpenAIChat(kit: Toolkit, name: string, args: string): Promise<Reply> {
  const [message] = await kit.runOpenAI({
    choices: [
      {
        message: {
          role: "assistant",
          content: null,
          tool_calls: [{ id: "call_1", type: "function", function: { name, arguments: args } }],
        },
      },
    ],
  });
  if (message?.role !== "tool") throw new Error("expected the call's tool message first");
  return { isError: message.content.startsWith("Error: "), text: message.content };
}

async function callOpenAIResponses(kit: Toolkit, name: string, args: string): Promise<Reply> {
  const [item] = await kit.runOpenAIResponses({
    output: [{ type: "function_call", call_id: "call_1", name, arguments: args }],
  });
  if (typeof item?.output !== "string") throw new Error("expected a text output");
  return { isError: item.output.startsWith("Error: "), text: item.output };
}

async function callAnthropic(kit: Toolkit, name: string, args: Args): Promise<Reply> {
  const turn = await kit.runAnthropic({ content: [{ type: "tool_use", id: "toolu_1", name, input: args }] });
  const block = turn!.content[0]!;
  if (typeof block.content !== "string") throw new Error("expected a text tool_result");
  return { isError: block.is_error === true, text: block.content };
}

async function callBedrock(kit: Toolkit, name: string, args: Args): Promise<Reply> {
  const turn = await kit.runBedrock({
    output: { message: { content: [{ toolUse: { toolUseId: "tooluse_1", name, input: args } }] } },
  });
  const { toolResult } = turn!.content[0]!;
  return { isError: toolResult.status === "error", text: toolResult.content[0]!.text ?? "" };
}

function expectNoViolations(violations: Violation[]): void {
  expect(describeViolations(violations)).toBe("");
}

const ajv = new Ajv({ strict: false, allErrors: true });

/** The hand-written answer is one the lowered schema allows: a model could have sent it. */
function expectAllowedBy(schema: object, answer: unknown): void {
  const validate = ajv.compile(schema);
  const valid = validate(answer);
  expect({ valid, errors: validate.errors ?? null }).toEqual({ valid: true, errors: null });
}

/** The node at `path` (property names, keywords, indexes) below `node`. */
function at(node: unknown, ...path: Array<string | number>): Node {
  let current = node;
  for (const step of path) current = (current as Record<string | number, unknown>)[step];
  expect(typeof current).toBe("object");
  return current as Node;
}

function stringsOf(value: unknown): string[] {
  expect(Array.isArray(value)).toBe(true);
  return value as string[];
}

/** Every schema node of a declaration: properties, items, anyOf branches and definitions, at every depth. */
function nodesOf(schema: unknown, out: Node[] = []): Node[] {
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) return out;
  const node = schema as Node;
  out.push(node);
  for (const map of ["properties", "$defs", "definitions"])
    for (const child of Object.values((node[map] as Node | undefined) ?? {})) nodesOf(child, out);
  if (Array.isArray(node.items)) for (const item of node.items) nodesOf(item, out);
  else nodesOf(node.items, out);
  for (const union of ["anyOf", "oneOf", "allOf"])
    if (Array.isArray(node[union])) for (const branch of node[union] as unknown[]) nodesOf(branch, out);
  return out;
}

/** Every keyword used anywhere in a declaration's schema. */
function keywordsOf(schema: unknown): Set<string> {
  return new Set(nodesOf(schema).flatMap((node) => Object.keys(node)));
}

function hasType(node: Node, type: string): boolean {
  return node.type === type || (Array.isArray(node.type) && node.type.includes(type));
}

// ---- Gemini ---------------------------------------------------------------------------------

/** The tool's `parameters` as `toGemini()` declares it, the whole export held to Gemini's rules. */
function geminiParameters({ kit, name }: Fixture): Node {
  const tools = kit.toGemini();
  expectNoViolations(checkGeminiTools(tools));
  const declaration = tools[0].functionDeclarations.find((d) => d.name === name);
  expect(declaration).toBeDefined();
  return declaration!.parameters as Node;
}

/** Sends `answer` as Gemini would under `parameters`; the tool must run without error. */
async function answerGemini(f: Fixture, parameters: Node, answer: Args): Promise<void> {
  expectAllowedBy(geminiSchemaToJsonSchema(parameters), answer);
  expect(await callGemini(f.kit, f.name, answer)).toEqual(OK);
}

function geminiChanges(f: Fixture): SchemaChange[] {
  return f.kit.describeExport("gemini").changes;
}

describe("Gemini: every node has a type", () => {
  it("declares an enum without a type as a STRING enum, and its answer reaches the tool as sent", async () => {
    const f = fixture("paint", {
      type: "object",
      properties: { color: { enum: ["red", "green"] } },
      required: ["color"],
    });
    const parameters = geminiParameters(f);
    expect(at(parameters, "properties", "color")).toMatchObject({ type: "string", enum: ["red", "green"] });

    await answerGemini(f, parameters, { color: "green" });
    expect(f.received).toStrictEqual([{ color: "green" }]);
  });

  it("declares a const without a type as a typed one-value enum, and reads its answer back as the const", async () => {
    const f = fixture("fixed_values", {
      type: "object",
      properties: { level: { const: 3 }, label: { const: "fixed" } },
      required: ["level", "label"],
    });
    const parameters = geminiParameters(f);
    expect(at(parameters, "properties", "level")).toMatchObject({ type: "string", enum: ["3"] });
    expect(at(parameters, "properties", "label")).toMatchObject({ type: "string", enum: ["fixed"] });
    expect(at(parameters, "properties", "level")).not.toHaveProperty("const");

    await answerGemini(f, parameters, { level: "3", label: "fixed" });
    expect(f.received).toStrictEqual([{ level: 3, label: "fixed" }]);
  });

  it("declares an object written as properties without a type as an OBJECT", async () => {
    const f = fixture("ship", {
      type: "object",
      properties: {
        address: { properties: { city: { type: "string" }, zip: { type: "string" } }, required: ["city"] },
      },
      required: ["address"],
    });
    const parameters = geminiParameters(f);
    const address = at(parameters, "properties", "address");
    expect(address).toMatchObject({ type: "object", required: ["city"] });
    expect(at(address, "properties", "city")).toMatchObject({ type: "string" });

    await answerGemini(f, parameters, { address: { city: "Oslo", zip: "0150" } });
    expect(f.received).toStrictEqual([{ address: { city: "Oslo", zip: "0150" } }]);
  });
});

describe("Gemini: enum holds non-empty strings only, decoded back to the declared values", () => {
  it("writes numbers, booleans, the empty string, null and object values as non-empty strings and reads each back", async () => {
    const f = fixture("settings", {
      type: "object",
      properties: {
        count: { enum: [2, 3] },
        toggle: { enum: [true, false] },
        blank: { enum: ["", "x"] },
        maybe: { enum: [null, "a"] },
        shape: { enum: [{ kind: "box" }, [1, 2]] },
      },
      required: ["count", "toggle", "blank", "maybe", "shape"],
    });
    const parameters = geminiParameters(f);
    for (const node of nodesOf(parameters).filter((n) => "enum" in n)) {
      expect(node.type).toBe("string");
      expect(stringsOf(node.enum).every((value) => typeof value === "string" && value !== "")).toBe(true);
    }
    expect(at(parameters, "properties", "count").enum).toEqual(["2", "3"]);
    expect(at(parameters, "properties", "blank").enum).toEqual(["(empty string)", "x"]);
    expect(at(parameters, "properties", "maybe")).toMatchObject({ nullable: true, enum: ["a"] });
    const toggle = stringsOf(at(parameters, "properties", "toggle").enum);
    const shape = stringsOf(at(parameters, "properties", "shape").enum);
    expect(new Set(toggle).size).toBe(2);
    expect(new Set(shape).size).toBe(2);

    await answerGemini(f, parameters, {
      count: "2",
      toggle: toggle[1]!,
      blank: "(empty string)",
      maybe: null,
      shape: shape[0]!,
    });
    await answerGemini(f, parameters, { count: "3", toggle: toggle[0]!, blank: "x", maybe: "a", shape: shape[1]! });
    expect(f.received).toStrictEqual([
      { count: 2, toggle: false, blank: "", maybe: null, shape: { kind: "box" } },
      { count: 3, toggle: true, blank: "x", maybe: "a", shape: [1, 2] },
    ]);
  });

  it('gives the enum [1, "1"] two distinct strings, each read back as its own value', async () => {
    const f = fixture("one_or_one", { type: "object", properties: { n: { enum: [1, "1"] } }, required: ["n"] });
    const parameters = geminiParameters(f);
    const values = stringsOf(at(parameters, "properties", "n").enum);
    expect(values).toHaveLength(2);
    expect(new Set(values).size).toBe(2);
    expect(values).toContain("1");
    const numberOne = values.find((value) => value !== "1")!;
    expect(numberOne).not.toBe("");

    await answerGemini(f, parameters, { n: numberOne });
    await answerGemini(f, parameters, { n: "1" });
    expect(f.received).toStrictEqual([{ n: 1 }, { n: "1" }]);
  });

  it('makes a const true an enum before writing it as a string, and keeps it apart from the string "true" elsewhere', async () => {
    const f = fixture("flags", {
      type: "object",
      properties: { flag: { const: true }, word: { type: "string", enum: ["true", "false"] } },
      required: ["flag", "word"],
    });
    const parameters = geminiParameters(f);
    const flag = at(parameters, "properties", "flag");
    expect(flag).not.toHaveProperty("const");
    expect(flag.type).toBe("string");
    const flagValues = stringsOf(flag.enum);
    expect(flagValues).toHaveLength(1);
    expect(flagValues[0]).not.toBe("");
    expect(at(parameters, "properties", "word").enum).toEqual(["true", "false"]);

    await answerGemini(f, parameters, { flag: flagValues[0]!, word: "true" });
    expect(f.received).toStrictEqual([{ flag: true, word: "true" }]);
  });

  it("writes enums as strings in array items, nested objects and union branches too", async () => {
    const f = fixture("nested_enums", {
      type: "object",
      properties: {
        levels: { type: "array", items: { enum: [1, 2, 3] } },
        inner: { type: "object", properties: { on: { const: false } }, required: ["on"] },
        either: { anyOf: [{ enum: [10, 20] }, { type: "boolean" }] },
      },
      required: ["levels", "inner", "either"],
    });
    const parameters = geminiParameters(f);
    const enums = nodesOf(parameters).filter((n) => "enum" in n);
    expect(enums.length).toBeGreaterThanOrEqual(3);
    for (const node of enums)
      expect(stringsOf(node.enum).every((value) => typeof value === "string" && value !== "")).toBe(true);
    expect(at(parameters, "properties", "levels", "items").enum).toEqual(["1", "2", "3"]);
    const off = stringsOf(at(parameters, "properties", "inner", "properties", "on").enum);
    expect(off).toHaveLength(1);

    await answerGemini(f, parameters, { levels: ["3", "1"], inner: { on: off[0]! }, either: "20" });
    await answerGemini(f, parameters, { levels: [], inner: { on: off[0]! }, either: true });
    expect(f.received).toStrictEqual([
      { levels: [3, 1], inner: { on: false }, either: 20 },
      { levels: [], inner: { on: false }, either: true },
    ]);
  });
});

describe("Gemini: the root stays an OBJECT", () => {
  const byId = { type: "object", properties: { id: { type: "integer" } }, required: ["id"] } as const;
  const byEmail = { type: "object", properties: { email: { type: "string" } }, required: ["email"] } as const;

  it.each(["anyOf", "oneOf"])(
    "merges a root %s of objects into one object, and either branch's call runs",
    async (combinator) => {
      const f = fixture(`find_by_${combinator}`, { [combinator]: [byId, byEmail] });
      const parameters = geminiParameters(f);
      expect(parameters.type).toBe("object");
      expect(parameters).not.toHaveProperty("anyOf");
      expect(parameters).not.toHaveProperty("oneOf");
      expect(at(parameters, "properties", "id").type).toBe("integer");
      expect(at(parameters, "properties", "email").type).toBe("string");

      await answerGemini(f, parameters, { id: 7 });
      await answerGemini(f, parameters, { email: "a@b.co" });
      expect(f.received).toStrictEqual([{ id: 7 }, { email: "a@b.co" }]);
    },
  );

  it("merges a root allOf into one object", async () => {
    const f = fixture("merged", {
      allOf: [
        { type: "object", properties: { a: { type: "string" } }, required: ["a"] },
        { type: "object", properties: { b: { type: "integer" } } },
      ],
    });
    const parameters = geminiParameters(f);
    expect(parameters).toMatchObject({ type: "object", required: ["a"] });
    expect(parameters).not.toHaveProperty("allOf");
    expect(Object.keys(at(parameters, "properties")).sort()).toEqual(["a", "b"]);

    await answerGemini(f, parameters, { a: "x", b: 2 });
    expect(f.received).toStrictEqual([{ a: "x", b: 2 }]);
  });

  it("replaces a root $ref by its definition in $defs, with no reference left anywhere", async () => {
    const f = fixture("search", {
      $ref: "#/$defs/Query",
      $defs: {
        Query: {
          type: "object",
          properties: { q: { type: "string" }, kind: { $ref: "#/$defs/Kind" } },
          required: ["q"],
        },
        Kind: { enum: [1, 2] },
      },
    });
    const parameters = geminiParameters(f);
    expect(parameters).toMatchObject({ type: "object", required: ["q"] });
    const keywords = keywordsOf(parameters);
    for (const reference of ["$ref", "$defs", "definitions"]) expect(keywords).not.toContain(reference);
    expect(at(parameters, "properties", "kind")).toMatchObject({ type: "string", enum: ["1", "2"] });
    expect(geminiChanges(f)).toContainEqual(
      expect.objectContaining({ tool: "search", keyword: "$ref", action: "inlined" }),
    );

    await answerGemini(f, parameters, { q: "x", kind: "2" });
    expect(f.received).toStrictEqual([{ q: "x", kind: 2 }]);
  });
});

describe("Gemini: every array has items, tuples included", () => {
  it("gives an array without items JSON-text items, each parsed back", async () => {
    const f = fixture("bag", { type: "object", properties: { bag: { type: "array" } }, required: ["bag"] });
    const parameters = geminiParameters(f);
    expect(at(parameters, "properties", "bag", "items").type).toBe("string");

    await answerGemini(f, parameters, { bag: ['"a"', "3", '{"k":true}', "null"] });
    expect(f.received).toStrictEqual([{ bag: ["a", 3, { k: true }, null] }]);
  });

  it("declares a prefixItems tuple with one item schema and reads each position back by its own schema", async () => {
    const f = fixture("pair", {
      type: "object",
      properties: { pair: { type: "array", prefixItems: [{ enum: [1, 2] }, { type: "string" }], items: false } },
      required: ["pair"],
    });
    const parameters = geminiParameters(f);
    const pair = at(parameters, "properties", "pair");
    expect(pair).not.toHaveProperty("prefixItems");
    expect(Array.isArray(pair.items)).toBe(false);
    expect(typeof pair.items).toBe("object");
    expect(Number(pair.maxItems)).toBe(2);

    await answerGemini(f, parameters, { pair: ["2", "x"] });
    await answerGemini(f, parameters, { pair: ["1", "2"] });
    expect(f.received).toStrictEqual([{ pair: [2, "x"] }, { pair: [1, "2"] }]);
  });

  it("declares a draft-7 tuple (items as a list) the same way", async () => {
    const f = fixture("legacy_pair", {
      type: "object",
      properties: { pair: { type: "array", items: [{ const: 0 }, { type: "boolean" }], additionalItems: false } },
      required: ["pair"],
    });
    const parameters = geminiParameters(f);
    const pair = at(parameters, "properties", "pair");
    expect(pair).not.toHaveProperty("additionalItems");
    expect(Array.isArray(pair.items)).toBe(false);

    await answerGemini(f, parameters, { pair: ["0", true] });
    expect(f.received).toStrictEqual([{ pair: [0, true] }]);
  });

  it("gives the elements after an open tuple an item schema of their own, read back as any value", async () => {
    const f = fixture("row", {
      type: "object",
      properties: { row: { type: "array", prefixItems: [{ type: "string" }] } },
      required: ["row"],
    });
    const parameters = geminiParameters(f);
    expect(at(parameters, "properties", "row")).toHaveProperty("items");

    await answerGemini(f, parameters, { row: ["name", "5", '{"a":1}'] });
    expect(f.received).toStrictEqual([{ row: ["name", 5, { a: 1 }] }]);
  });
});

describe("Gemini: boolean subschemas keep their meaning", () => {
  it("does not declare a property false, and writes true and {} as JSON-text strings parsed back", async () => {
    const f = fixture("booleans", {
      type: "object",
      properties: { never: false, anything: true, blank: {}, name: { type: "string" } },
      required: ["name"],
    });
    const parameters = geminiParameters(f);
    expect(Object.keys(at(parameters, "properties")).sort()).toEqual(["anything", "blank", "name"]);
    expect(at(parameters, "properties", "anything").type).toBe("string");
    expect(at(parameters, "properties", "blank").type).toBe("string");
    expect(geminiChanges(f)).toContainEqual(
      expect.objectContaining({ tool: "booleans", pointer: "/properties/never", action: "dropped" }),
    );

    await answerGemini(f, parameters, { name: "n", anything: '{"x":[1,null]}', blank: "42" });
    await answerGemini(f, parameters, { name: "m", anything: '"text"', blank: "false" });
    expect(f.received).toStrictEqual([
      { name: "n", anything: { x: [1, null] }, blank: 42 },
      { name: "m", anything: "text", blank: false },
    ]);
  });

  it("never turns false items or a false union branch into a schema that takes any value", async () => {
    const f = fixture("falses", {
      type: "object",
      properties: {
        none: { type: "array", items: false },
        num: { anyOf: [false, { type: "integer" }] },
      },
    });
    const parameters = geminiParameters(f);
    expect(Number(at(parameters, "properties", "none").maxItems)).toBe(0);
    expect(at(parameters, "properties", "num")).toMatchObject({ type: "integer" });

    await answerGemini(f, parameters, { none: [], num: 4 });
    expect(f.received).toStrictEqual([{ none: [], num: 4 }]);
  });

  it("ends a tuple at a false position instead of taking any value there", async () => {
    const f = fixture("short_tuple", {
      type: "object",
      properties: { first: { type: "array", prefixItems: [{ type: "string" }, false] } },
    });
    const parameters = geminiParameters(f);
    expect(Number(at(parameters, "properties", "first").maxItems)).toBe(1);
    expect(at(parameters, "properties", "first", "items")).toMatchObject({ type: "string" });

    await answerGemini(f, parameters, { first: ["a"] });
    expect(f.received).toStrictEqual([{ first: ["a"] }]);
  });
});

// ---- OpenAI ---------------------------------------------------------------------------------

interface OpenAIDeclared {
  name: string;
  parameters: Node;
  strict: boolean | undefined;
}

interface OpenAIApi {
  api: string;
  format: "openai" | "openai-responses";
  /** The export's tools, the whole export held to the API's rules. */
  declare(kit: Toolkit, options: OpenAIExportOptions): OpenAIDeclared[];
  call(kit: Toolkit, name: string, args: string): Promise<Reply>;
}

const OPENAI_APIS: OpenAIApi[] = [
  {
    api: "Chat Completions",
    format: "openai",
    declare(kit, options) {
      const tools = kit.toOpenAI(options);
      expectNoViolations(checkOpenAIChatTools(tools));
      return tools.map((tool) => {
        if (tool.type !== "function") throw new Error(`expected a function tool, got a ${tool.type} tool`);
        const { function: fn } = tool;
        return { name: fn.name, parameters: fn.parameters, strict: fn.strict };
      });
    },
    call: callOpenAIChat,
  },
  {
    api: "Responses",
    format: "openai-responses",
    declare(kit, options) {
      const tools = kit.toOpenAIResponses(options);
      expectNoViolations(checkOpenAIResponsesTools(tools));
      return tools.map((tool) => {
        if (tool.type !== "function") throw new Error(`expected a function tool, got a ${tool.type} tool`);
        return { name: tool.name, parameters: tool.parameters, strict: tool.strict };
      });
    },
    call: callOpenAIResponses,
  },
];

function openaiDeclared(api: OpenAIApi, f: Fixture, options: OpenAIExportOptions): OpenAIDeclared {
  const declared = api.declare(f.kit, options).find((tool) => tool.name === f.name);
  expect(declared).toBeDefined();
  return declared!;
}

/** Sends `answer` as OpenAI would (JSON text in `arguments`) under `parameters`; the tool must run without error. */
async function answerOpenAI(api: OpenAIApi, f: Fixture, parameters: Node, answer: Args): Promise<void> {
  expectAllowedBy(parameters, answer);
  expect(await api.call(f.kit, f.name, JSON.stringify(answer))).toEqual(OK);
}

/** `levels` object schemas, each inside the one before, the innermost holding `leaf`. */
function nestedObjects(levels: number): { schema: JSONSchemaObject; value: Args } {
  let schema: JSONSchemaObject = {
    type: "object",
    properties: { leaf: { type: "string" } },
    required: ["leaf"],
    additionalProperties: false,
  };
  let value: Args = { leaf: "deep" };
  for (let level = 1; level < levels; level++) {
    schema = { type: "object", properties: { next: schema }, required: ["next"], additionalProperties: false };
    value = { next: value };
  }
  return { schema, value };
}

function manyProperties(count: number): JSONSchemaObject {
  return {
    type: "object",
    properties: Object.fromEntries(Array.from({ length: count }, (_, i) => [`p${i}`, { type: "string" }])),
    additionalProperties: false,
  };
}

function enumsOf(sizes: number[]): JSONSchemaObject {
  const names = sizes.map((_, i) => `e${i}`);
  return {
    type: "object",
    properties: Object.fromEntries(
      sizes.map((size, i) => [names[i], { type: "string", enum: Array.from({ length: size }, (_, v) => `v${v}`) }]),
    ),
    required: names,
    additionalProperties: false,
  };
}

describe.each(OPENAI_APIS)("OpenAI strict ($api): only what strict mode takes", (api) => {
  const strict: OpenAIExportOptions = { strict: true };

  it("sends none of additionalItems, contentEncoding, contentMediaType, contains, minContains, maxContains", async () => {
    const f = fixture("media", {
      type: "object",
      properties: {
        image: { type: "string", contentEncoding: "base64", contentMediaType: "image/png" },
        scores: {
          type: "array",
          items: { type: "integer" },
          contains: { type: "integer", minimum: 10 },
          minContains: 1,
          maxContains: 2,
        },
        pair: { type: "array", items: [{ type: "string" }, { type: "integer" }], additionalItems: false },
        plain: { type: "array", items: { type: "string" }, additionalItems: false },
      },
      required: ["image", "scores", "pair", "plain"],
      additionalProperties: false,
    });
    const declared = openaiDeclared(api, f, strict);
    expect(declared.strict).toBe(true);
    const keywords = keywordsOf(declared.parameters);
    for (const keyword of [
      "additionalItems",
      "contentEncoding",
      "contentMediaType",
      "contains",
      "minContains",
      "maxContains",
    ])
      expect(keywords).not.toContain(keyword);

    await answerOpenAI(api, f, declared.parameters, { image: "aGk=", scores: [12, 3], pair: ["a", 1], plain: ["x"] });
    expect(f.received).toStrictEqual([{ image: "aGk=", scores: [12, 3], pair: ["a", 1], plain: ["x"] }]);
  });

  it("gives every array it sends an item schema", async () => {
    const f = fixture("bags", {
      type: "object",
      properties: {
        bag: { type: "array" },
        nested: {
          type: "object",
          properties: { list: { type: "array", maxItems: 3 } },
          required: ["list"],
          additionalProperties: false,
        },
      },
      required: ["bag", "nested"],
      additionalProperties: false,
    });
    const declared = openaiDeclared(api, f, strict);
    const arrays = nodesOf(declared.parameters).filter((node) => hasType(node, "array"));
    expect(arrays).toHaveLength(2);
    for (const array of arrays) expect(array).toHaveProperty("items");
    if (declared.strict !== true) {
      expect(f.kit.describeExport(api.format, strict).changes).toContainEqual(
        expect.objectContaining({ tool: "bags", action: "disabled" }),
      );
    }

    await answerOpenAI(api, f, declared.parameters, { bag: [1, "two", { three: 3 }], nested: { list: ["a"] } });
    expect(f.received).toStrictEqual([{ bag: [1, "two", { three: 3 }], nested: { list: ["a"] } }]);
  });

  it("types every node: an enum, a const and an object written as properties", async () => {
    const f = fixture("typed", {
      type: "object",
      properties: {
        level: { const: 3 },
        color: { enum: ["red", "green"] },
        point: { properties: { x: { type: "number" } }, required: ["x"], additionalProperties: false },
      },
      required: ["level", "color", "point"],
      additionalProperties: false,
    });
    const declared = openaiDeclared(api, f, strict);
    expect(declared.strict).toBe(true);
    for (const node of nodesOf(declared.parameters)) expect(node).toHaveProperty("type");
    expect(at(declared.parameters, "properties", "level").type).toBe("integer");
    expect(at(declared.parameters, "properties", "color").type).toBe("string");
    expect(at(declared.parameters, "properties", "point").type).toBe("object");

    await answerOpenAI(api, f, declared.parameters, { level: 3, color: "red", point: { x: 1.5 } });
    expect(f.received).toStrictEqual([{ level: 3, color: "red", point: { x: 1.5 } }]);
  });
});

describe.each(OPENAI_APIS)("OpenAI strict ($api): documented limits", (api) => {
  const strict: OpenAIExportOptions = { strict: true };

  function expectDisabled(f: Fixture, why: RegExp[]): void {
    const disabled = f.kit
      .describeExport(api.format, strict)
      .changes.filter((change) => change.tool === f.name && change.action === "disabled");
    expect(disabled).toHaveLength(1);
    for (const pattern of why) expect(disabled[0]!.detail).toMatch(pattern);
  }

  it("keeps strict mode for objects nested 10 deep", async () => {
    const { schema, value } = nestedObjects(10);
    const f = fixture("ten_deep", schema);
    const declared = openaiDeclared(api, f, strict);
    expect(declared.strict).toBe(true);

    await answerOpenAI(api, f, declared.parameters, value);
    expect(f.received).toStrictEqual([value]);
  });

  it("sends objects nested 11 deep with strict: false, and the report says why", async () => {
    const { schema, value } = nestedObjects(11);
    const f = fixture("eleven_deep", schema);
    const declared = openaiDeclared(api, f, strict);
    expect(declared.strict).toBe(false);
    expectDisabled(f, [/nest/, /11/, /10/]);

    await answerOpenAI(api, f, declared.parameters, value);
    expect(f.received).toStrictEqual([value]);
  });

  it("keeps strict mode for 5,000 properties, every unfilled one answered null and read as not given", async () => {
    const f = fixture("five_thousand", manyProperties(5_000));
    const declared = openaiDeclared(api, f, strict);
    expect(declared.strict).toBe(true);
    const answer: Args = Object.fromEntries(Array.from({ length: 5_000 }, (_, i) => [`p${i}`, null]));
    answer.p0 = "x";

    await answerOpenAI(api, f, declared.parameters, answer);
    expect(f.received).toStrictEqual([{ p0: "x" }]);
  });

  it("sends 5,001 properties with strict: false, and the report says why", async () => {
    const f = fixture("five_thousand_one", manyProperties(5_001));
    const declared = openaiDeclared(api, f, strict);
    expect(declared.strict).toBe(false);
    expectDisabled(f, [/5001|5,001/, /5000|5,000/]);

    await answerOpenAI(api, f, declared.parameters, { p0: "x" });
    expect(f.received).toStrictEqual([{ p0: "x" }]);
  });

  it("keeps strict mode for 1,000 enum values in all", async () => {
    const f = fixture("thousand_values", enumsOf([500, 500]));
    const declared = openaiDeclared(api, f, strict);
    expect(declared.strict).toBe(true);

    await answerOpenAI(api, f, declared.parameters, { e0: "v499", e1: "v0" });
    expect(f.received).toStrictEqual([{ e0: "v499", e1: "v0" }]);
  });

  it("sends 1,002 enum values in all with strict: false, and the report says why", async () => {
    const f = fixture("too_many_values", enumsOf([501, 501]));
    const declared = openaiDeclared(api, f, strict);
    expect(declared.strict).toBe(false);
    expectDisabled(f, [/enum/, /1002|1,002/, /1000|1,000/]);

    await answerOpenAI(api, f, declared.parameters, { e0: "v500", e1: "v1" });
    expect(f.received).toStrictEqual([{ e0: "v500", e1: "v1" }]);
  });
});

describe.each(OPENAI_APIS)(
  "OpenAI strict ($api): optional means required and nullable, null means not given",
  (api) => {
    const strict: OpenAIExportOptions = { strict: true };
    const schema: JSONSchemaObject = {
      type: "object",
      properties: {
        city: { type: "string" },
        units: { enum: ["c", "f"] },
        mode: { const: "fast" },
        count: { type: "integer", minimum: 0 },
        window: {
          type: "object",
          properties: { from: { type: "string" }, to: { type: "string" } },
          required: ["from"],
          additionalProperties: false,
        },
      },
      required: ["city"],
      additionalProperties: false,
    };

    it.each([true, false])(
      "declares every optional value required and nullable, and a null answer reaches the tool as absent (validate: %s)",
      async (validate) => {
        const f = fixture("weather", schema, validate);
        const declared = openaiDeclared(api, f, strict);
        expect(declared.strict).toBe(true);
        const parameters = declared.parameters;
        expect(stringsOf(parameters.required).sort()).toEqual(["city", "count", "mode", "units", "window"]);
        expect(at(parameters, "properties", "city").type).toBe("string");
        expect(at(parameters, "properties", "units").enum).toEqual(expect.arrayContaining(["c", "f", null]));
        const mode = at(parameters, "properties", "mode");
        expect(mode).not.toHaveProperty("const");
        expect(mode.enum).toEqual(expect.arrayContaining(["fast", null]));
        expect(hasType(at(parameters, "properties", "count"), "null")).toBe(true);
        const window = at(parameters, "properties", "window");
        expect(hasType(window, "null")).toBe(true);
        expect(stringsOf(window.required).sort()).toEqual(["from", "to"]);
        expect(hasType(at(window, "properties", "to"), "null")).toBe(true);

        await answerOpenAI(api, f, parameters, { city: "Oslo", units: null, mode: null, count: null, window: null });
        await answerOpenAI(api, f, parameters, {
          city: "Bergen",
          units: "f",
          mode: "fast",
          count: 2,
          window: { from: "09:00", to: null },
        });
        expect(f.received).toStrictEqual([
          { city: "Oslo" },
          { city: "Bergen", units: "f", mode: "fast", count: 2, window: { from: "09:00" } },
        ]);
        expect(Object.keys(f.received[0]!)).toEqual(["city"]);
      },
    );

    it("reports a required name with no property as dropped, still enforced when the tool validates", async () => {
      const f = fixture("ghostly", { type: "object", properties: { a: { type: "string" } }, required: ["a", "ghost"] });
      const declared = openaiDeclared(api, f, strict);
      expect(declared.parameters.required).toEqual(["a"]);
      const changes = f.kit.describeExport(api.format, strict).changes;
      const dropped = changes.filter((change) => change.keyword === "required" && change.action === "dropped");
      expect(dropped).toEqual([
        expect.objectContaining({ tool: "ghostly", pointer: "/required", detail: expect.stringContaining("ghost") }),
      ]);
      expect(dropped[0]!.detail).toMatch(/still enforced when the call runs/);

      const reply = await api.call(f.kit, f.name, JSON.stringify({ a: "x" }));
      expect(reply.isError).toBe(true);
      expect(reply.text).toMatch(/ghost/);
      expect(f.received).toStrictEqual([]);
    });

    it("reports a required name with no property as dropped and not enforced when the tool does not validate", async () => {
      const f = fixture(
        "ghostly_loose",
        { type: "object", properties: { a: { type: "string" } }, required: ["a", "ghost"] },
        false,
      );
      const declared = openaiDeclared(api, f, strict);
      expect(declared.parameters.required).toEqual(["a"]);
      const dropped = f.kit
        .describeExport(api.format, strict)
        .changes.filter((change) => change.keyword === "required" && change.action === "dropped");
      expect(dropped).toEqual([
        expect.objectContaining({
          tool: "ghostly_loose",
          pointer: "/required",
          detail: expect.stringContaining("ghost"),
        }),
      ]);
      expect(dropped[0]!.detail).toMatch(/not enforced/);
      expect(dropped[0]!.detail).not.toMatch(/still enforced/);

      await answerOpenAI(api, f, declared.parameters, { a: "x" });
      expect(f.received).toStrictEqual([{ a: "x" }]);
    });
  },
);

describe.each(OPENAI_APIS)("OpenAI ($api, not strict): no oneOf, anyOf, allOf, enum or not at the root", (api) => {
  const byId = { type: "object", properties: { id: { type: "integer" } }, required: ["id"] } as const;
  const byEmail = { type: "object", properties: { email: { type: "string" } }, required: ["email"] } as const;
  const roots: Array<[string, JSONSchemaObject, Args]> = [
    ["a root oneOf of objects", { oneOf: [byId, byEmail] }, { email: "a@b.co" }],
    ["a root anyOf of objects", { anyOf: [byId, byEmail] }, { id: 7 }],
    [
      "a root allOf",
      { allOf: [byId, { type: "object", properties: { note: { type: "string" } } }] },
      { id: 7, note: "n" },
    ],
    [
      "a root not",
      { type: "object", properties: { a: { type: "string" }, b: { type: "string" } }, not: { required: ["a", "b"] } },
      { a: "x" },
    ],
    [
      "a root enum",
      {
        type: "object",
        properties: { size: { type: "string" } },
        required: ["size"],
        enum: [{ size: "S" }, { size: "L" }],
      },
      { size: "L" },
    ],
  ];

  it.each(roots)("sends %s as a plain object, and the call runs", async (_what, schema, answer) => {
    const f = fixture("rooted", schema);
    const declared = openaiDeclared(api, f, {});
    expect(declared.parameters.type).toBe("object");
    for (const keyword of ["oneOf", "anyOf", "allOf", "enum", "const", "not"])
      expect(declared.parameters).not.toHaveProperty(keyword);

    await answerOpenAI(api, f, declared.parameters, answer);
    expect(f.received).toStrictEqual([answer]);
  });
});

// ---- Anthropic and Bedrock --------------------------------------------------------------------

interface ObjectRootProvider {
  provider: string;
  /** The tool's input schema as declared, the whole export held to the provider's rules. */
  declare(f: Fixture): Node;
  call(kit: Toolkit, name: string, args: Args): Promise<Reply>;
}

const OBJECT_ROOT_PROVIDERS: ObjectRootProvider[] = [
  {
    provider: "Anthropic",
    declare({ kit, name }) {
      const tools = kit.toAnthropic();
      expectNoViolations(checkAnthropicTools(tools));
      const tool = tools.find((declared) => declared.name === name)!;
      return "input_schema" in tool ? tool.input_schema : {};
    },
    call: callAnthropic,
  },
  {
    provider: "Bedrock",
    declare({ kit, name }) {
      const config = kit.toBedrock();
      expectNoViolations(checkBedrockToolConfig(config));
      return config.tools.find((tool) => tool.toolSpec.name === name)!.toolSpec.inputSchema.json;
    },
    call: callBedrock,
  },
];

describe.each(OBJECT_ROOT_PROVIDERS)("$provider: no combinators at the root", (provider) => {
  const byId = {
    type: "object",
    properties: { id: { type: "integer" } },
    required: ["id"],
    additionalProperties: false,
  } as const;
  const byEmail = {
    type: "object",
    properties: { email: { type: "string" } },
    required: ["email"],
    additionalProperties: false,
  } as const;

  it.each(["oneOf", "anyOf"])(
    "merges a root %s of two objects, and the call with either branch's arguments runs",
    async (combinator) => {
      const f = fixture("lookup", { [combinator]: [byId, byEmail] });
      const schema = provider.declare(f);
      expect(schema.type).toBe("object");
      for (const keyword of ["oneOf", "anyOf", "allOf"]) expect(schema).not.toHaveProperty(keyword);
      expect(Object.keys(at(schema, "properties")).sort()).toEqual(["email", "id"]);

      expect(await provider.call(f.kit, f.name, { id: 7 })).toEqual(OK);
      expect(await provider.call(f.kit, f.name, { email: "a@b.co" })).toEqual(OK);
      expect(f.received).toStrictEqual([{ id: 7 }, { email: "a@b.co" }]);
    },
  );

  it("merges a root allOf into one object", async () => {
    const f = fixture("combined", {
      allOf: [
        { type: "object", properties: { a: { type: "string" } }, required: ["a"] },
        { type: "object", properties: { b: { type: "integer" } } },
      ],
    });
    const schema = provider.declare(f);
    expect(schema).toMatchObject({ type: "object", required: ["a"] });
    expect(schema).not.toHaveProperty("allOf");

    expect(await provider.call(f.kit, f.name, { a: "x", b: 2 })).toEqual(OK);
    expect(f.received).toStrictEqual([{ a: "x", b: 2 }]);
  });
});

// ---- MCP ----------------------------------------------------------------------------------------

describe("MCP: every tool passes the MCP SDK's own ToolSchema", () => {
  const schemas: Array<[string, object, Args]> = [
    [
      "boolean_props",
      {
        type: "object",
        properties: {
          anything: true,
          nothing: false,
          list: { type: "array", prefixItems: [true, { type: "string" }], items: false },
        },
      },
      { anything: { x: 1 }, list: [5, "s"] },
    ],
    [
      "root_union",
      {
        oneOf: [
          { type: "object", properties: { id: { type: "integer" } }, required: ["id"] },
          { type: "object", properties: { email: { type: "string" } }, required: ["email"] },
        ],
      },
      { id: 7 },
    ],
    [
      "root_ref",
      {
        $ref: "#/$defs/Args",
        $defs: {
          Args: {
            type: "object",
            properties: { q: { type: "string" }, tags: { type: "array", items: true } },
            required: ["q"],
          },
        },
      },
      { q: "x", tags: [1, "a"] },
    ],
  ];

  it.each(schemas)("declares %s so that ToolSchema parses it, and the call runs", async (name, schema, answer) => {
    const f = fixture(name, schema);
    const tools = f.kit.toMcp();
    expectNoViolations(checkMcpTools(tools));
    for (const tool of tools) expect(ToolSchema.safeParse(tool).success).toBe(true);
    const inputSchema = tools.find((tool) => tool.name === name)!.inputSchema;
    expect(inputSchema.type).toBe("object");
    for (const property of Object.values(inputSchema.properties ?? {})) expect(typeof property).toBe("object");

    expect(await f.kit.execute(name, answer)).toMatchObject({ isError: false, output: "ok" });
    expect(f.received).toStrictEqual([answer]);
  });

  it("writes boolean property schemas as the schema objects they mean", () => {
    const f = fixture("boolean_meaning", { type: "object", properties: { anything: true, nothing: false } });
    const inputSchema = f.kit.toMcp()[0]!.inputSchema;
    expect(at(inputSchema, "properties", "anything")).toEqual({});
    expect(at(inputSchema, "properties", "nothing")).toEqual({ not: {} });
  });
});

// ---- What the change report says about enforcement ------------------------------------------------

describe("The change report says a keyword is still enforced only when it is", () => {
  const schema = {
    type: "object",
    properties: {
      step: { type: "integer", multipleOf: 5 },
      tags: { type: "array", items: { type: "string" }, uniqueItems: true },
      pair: { type: "array", prefixItems: [{ type: "string" }, { type: "integer" }], items: false },
    },
    not: { required: ["step", "tags"] },
  };
  const exports: Array<[string, ExportFormat, OpenAIExportOptions]> = [
    ["gemini", "gemini", {}],
    ["openai strict", "openai", { strict: true }],
    ["openai-responses strict", "openai-responses", { strict: true }],
    ["anthropic", "anthropic", {}],
    ["bedrock", "bedrock", {}],
  ];

  it("mcp takes the schema as it is, root `not` included: nothing changes, nothing is said about enforcement", () => {
    const f = fixture("unchecked", schema, false);
    expect(f.kit.describeExport("mcp").changes).toEqual([]);
    expect((f.kit.toMcp()[0]!.inputSchema as { not?: unknown }).not).toEqual({ required: ["step", "tags"] });
  });

  it.each(exports)(
    "%s: for a tool defined without validate, every note about enforcement says it is not enforced",
    (_label, format, options) => {
      const f = fixture("unchecked", schema, false);
      const changes = f.kit.describeExport(format, options).changes;
      const aboutEnforcement = changes.filter((change) => /enforced/.test(change.detail));
      expect(aboutEnforcement.length).toBeGreaterThan(0);
      for (const change of aboutEnforcement) {
        expect(change.detail).not.toMatch(/still enforced/);
        expect(change.detail).toMatch(/not enforced/);
      }
    },
  );

  it("for a validating tool, says the tuple order is still enforced, and a wrong-order tuple is refused when the call runs", async () => {
    const f = fixture("checked", schema);
    const tuple = f.kit
      .describeExport("gemini")
      .changes.filter((change) => change.pointer === "/properties/pair/prefixItems" && /order/.test(change.detail));
    expect(tuple).toHaveLength(1);
    expect(tuple[0]!.detail).toMatch(/the order is still enforced when the call runs/);

    const wrongOrder = await f.kit.execute("checked", { pair: [1, "a"] });
    expect(wrongOrder).toMatchObject({ isError: true, metadata: { error: "invalid_arguments" } });
    expect(await f.kit.execute("checked", { pair: ["a", 1] })).toMatchObject({ isError: false, output: "ok" });
    expect(f.received).toStrictEqual([{ pair: ["a", 1] }]);
  });

  it("for a validating tool, every keyword the Gemini report calls still enforced is refused when the call runs", async () => {
    const f = fixture("checked_all", schema);
    const enforced = f.kit
      .describeExport("gemini")
      .changes.filter((change) => /still enforced/.test(change.detail))
      .map((change) => change.keyword);
    expect(enforced).toEqual(expect.arrayContaining(["multipleOf", "uniqueItems", "not", "prefixItems"]));

    const violations: Args[] = [{ step: 7 }, { tags: ["a", "a"] }, { step: 5, tags: ["a"] }, { pair: [1, "a"] }];
    for (const args of violations)
      expect(await f.kit.execute("checked_all", args)).toMatchObject({
        isError: true,
        metadata: { error: "invalid_arguments" },
      });
    expect(f.received).toStrictEqual([]);
  });
});

// ---- Names ------------------------------------------------------------------------------------

describe("Name mapping: a call runs the tool it names, never another", () => {
  const amount: JSONSchemaObject = { type: "object", properties: { amount: { type: "number" } }, required: ["amount"] };

  it.each(OPENAI_APIS)(
    'with names: "sanitize", $api declares billing.refund as billing_refund and a call to billing_refund runs it',
    async (api) => {
      const f = fixture("billing.refund", amount);
      const declared = api.declare(f.kit, { names: "sanitize" });
      expect(declared.map((tool) => tool.name)).toEqual(["billing_refund"]);

      expect(await api.call(f.kit, "billing_refund", JSON.stringify({ amount: 12.5 }))).toEqual(OK);
      expect(f.received).toStrictEqual([{ amount: 12.5 }]);
    },
  );

  function twoTools(): { kit: Toolkit; received: Record<string, Args[]> } {
    const received: Record<string, Args[]> = { "a.b": [], a_b: [] };
    const tools = ["a.b", "a_b"].map((name) =>
      defineTool({
        name,
        description: `Specification fixture ${name}.`,
        inputSchema: amount,
        validate: true,
        execute: (args) => {
          received[name]!.push(args);
          return "ok";
        },
      }),
    );
    return { kit: new Toolkit(tools, { manifest: false }), received };
  }

  it("exports a.b and a_b to Gemini under their own names, and each call runs the tool it names", async () => {
    const { kit, received } = twoTools();
    const tools = kit.toGemini();
    expectNoViolations(checkGeminiTools(tools));
    expect(tools[0].functionDeclarations.map((d) => d.name)).toEqual(["a.b", "a_b"]);

    expect(await callGemini(kit, "a_b", { amount: 1 })).toEqual(OK);
    expect(received).toStrictEqual({ "a.b": [], a_b: [{ amount: 1 }] });
    expect(await callGemini(kit, "a.b", { amount: 2 })).toEqual(OK);
    expect(received).toStrictEqual({ "a.b": [{ amount: 2 }], a_b: [{ amount: 1 }] });
  });

  it("never redirects a Gemini call to a sanitized alias that was not exported to Gemini", async () => {
    const f = fixture("a.b", amount);
    f.kit.toOpenAI({ names: "sanitize" });
    const tools = f.kit.toGemini();
    expectNoViolations(checkGeminiTools(tools));
    expect(tools[0].functionDeclarations.map((d) => d.name)).toEqual(["a.b"]);

    const reply = await callGemini(f.kit, "a_b", { amount: 3 });
    expect(reply.isError).toBe(true);
    expect(reply.text).toMatch(/Unknown tool "a_b"/);
    expect(f.received).toStrictEqual([]);
  });
});
