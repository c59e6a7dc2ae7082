import { toStandardJsonSchema } from "@valibot/to-json-schema";
import * as v from "valibot";
import { z } from "zod";
import { defineTool, ToolDefinitionError, Toolkit, type StandardSchemaV1, type Tool } from "toolnexus";

// arktype ships ES modules only; jest compiles them (jest.config.ts), typed as the module they are.
const { scope, type } = require("arktype") as typeof import("arktype", { with: { "resolution-mode": "import" } });

/** A schema of the same shape in each library, described the same way to the model. */
const WEATHER_JSON_SCHEMA = {
  type: "object",
  properties: {
    city: { type: "string", minLength: 1 },
    days: { type: "number" },
  },
  required: ["city"],
};

function echoTool(inputSchema: StandardSchemaV1<unknown, object>, options: { validate?: boolean } = {}) {
  const execute = jest.fn((args: unknown) => JSON.stringify(args));
  const tool = defineTool({ name: "weather", description: "Weather for a city.", inputSchema, execute, ...options });
  return { tool, execute };
}

/**
 * A schema given the Standard JSON Schema interface by hand, with the JSON Schema it writes:
 * for checks that are about validation (the written schema does not matter to them), and for
 * schemas of a library of one's own.
 */
function withStandardJsonSchema<S extends StandardSchemaV1>(schema: S, written: Record<string, unknown>): S {
  const jsonSchema = {
    input: jest.fn(() => ({ $schema: "http://json-schema.org/draft-07/schema#", ...written })),
    output: () => written,
  };
  return { ...schema, "~standard": { ...schema["~standard"], jsonSchema } };
}

describe.each([
  ["zod", () => z.object({ city: z.string().min(1), days: z.number().optional() })],
  [
    "valibot",
    () => toStandardJsonSchema(v.object({ city: v.pipe(v.string(), v.minLength(1)), days: v.optional(v.number()) })),
  ],
  ["arktype", () => type({ city: "string > 0", "days?": "number" })],
])("defineTool with a schema from %s", (_library, weatherSchema) => {
  it("declares the JSON Schema the library writes for its input, without $schema", () => {
    expect(echoTool(weatherSchema()).tool.inputSchema).toEqual(WEATHER_JSON_SCHEMA);
  });

  it("exports it for Gemini and for OpenAI strict mode", () => {
    const kit = new Toolkit([echoTool(weatherSchema()).tool]);
    expect(kit.toGemini()).toEqual([
      {
        functionDeclarations: [
          { name: "weather", description: "Weather for a city.", parameters: WEATHER_JSON_SCHEMA },
        ],
      },
    ]);
    expect(kit.toOpenAI({ strict: true })).toEqual([
      {
        type: "function",
        function: {
          name: "weather",
          description: "Weather for a city.",
          parameters: {
            type: "object",
            properties: { city: { type: "string", minLength: 1 }, days: { type: ["number", "null"] } },
            required: ["city", "days"],
            additionalProperties: false,
          },
          strict: true,
        },
      },
    ]);
  });

  it("validates by default: the schema's issues come back as an invalid_arguments result, each under its path", async () => {
    const { tool, execute } = echoTool(weatherSchema());
    const result = await tool.execute({ city: 3, days: "two" });
    expect(result).toMatchObject({ isError: true, metadata: { error: "invalid_arguments", tool: "weather" } });
    expect(result.output).toMatch(/^Invalid arguments for tool "weather":\n- "city": .+\n- "days": .+$/);
    expect(execute).not.toHaveBeenCalled();
  });

  it("hands execute the arguments the schema accepted", async () => {
    const { tool, execute } = echoTool(weatherSchema());
    expect(await tool.execute({ city: "Oslo" })).toEqual({ output: '{"city":"Oslo"}', isError: false });
    expect(execute).toHaveBeenCalledWith({ city: "Oslo" }, expect.anything());
  });

  it("reads an OpenAI strict-mode null for an optional argument as left out", async () => {
    const { tool, execute } = echoTool(weatherSchema());
    const kit = new Toolkit([tool]);
    kit.toOpenAI({ strict: true });
    const [reply] = await kit.runOpenAI([
      { id: "call_1", type: "function", function: { name: "weather", arguments: '{"city":"Oslo","days":null}' } },
    ]);
    expect(reply).toMatchObject({ role: "tool", tool_call_id: "call_1", content: '{"city":"Oslo"}' });
    expect(execute).toHaveBeenCalledWith({ city: "Oslo" }, expect.anything());
  });

  it("reads null for an optional argument as left out in every call, as for a JSON Schema tool with validate: true", async () => {
    const { tool, execute } = echoTool(weatherSchema());
    expect(await new Toolkit([tool]).execute("weather", { city: "Oslo", days: null })).toEqual({
      output: '{"city":"Oslo"}',
      isError: false,
    });
    expect(execute).toHaveBeenCalledWith({ city: "Oslo" }, expect.anything());
    expect((await tool.execute({ city: null })).isError).toBe(true);
  });

  it("with validate: false, hands execute the arguments as sent", async () => {
    const { tool } = echoTool(weatherSchema(), { validate: false });
    expect(await tool.execute({ city: 3 })).toEqual({ output: '{"city":3}', isError: false });
  });
});

describe("paths and messages of the issues", () => {
  it("zod: nested paths, lists by index, keys the object does not take", async () => {
    const { tool } = echoTool(z.strictObject({ stops: z.array(z.object({ city: z.string() })) }));
    const result = await tool.execute({ stops: [{ city: "Oslo" }, { city: 7 }], extra: true });
    expect(result.output).toBe(
      'Invalid arguments for tool "weather":\n- "stops[1].city": Invalid input: expected string, received number\n- Unrecognized key: "extra"',
    );
  });

  it("valibot: its path segments ({ key }) read the same way", async () => {
    const { tool } = echoTool(
      withStandardJsonSchema(v.object({ stops: v.array(v.object({ city: v.string() })) }), { type: "object" }),
    );
    const result = await tool.execute({ stops: [{ city: 7 }] });
    expect(result.output).toBe(
      'Invalid arguments for tool "weather": "stops[0].city": Invalid type: Expected string but received 7',
    );
  });

  it("arktype: a message that begins with its own path says it once", async () => {
    const { tool } = echoTool(type({ stops: type({ city: "string" }).array() }));
    const result = await tool.execute({ stops: [{ city: 7 }] });
    expect(result.output).toBe(
      'Invalid arguments for tool "weather": "stops[0].city": must be a string (was a number)',
    );
  });
});

describe("transforms and defaults reach execute", () => {
  it("zod: defaults, coercion and transforms", async () => {
    const { tool, execute } = echoTool(
      z.object({
        city: z.string().trim().toUpperCase(),
        days: z.coerce.number().default(3),
        tags: z.string().transform((text) => text.split(",")),
      }),
    );
    await tool.execute({ city: "  oslo ", tags: "a,b" });
    expect(execute).toHaveBeenCalledWith({ city: "OSLO", days: 3, tags: ["a", "b"] }, expect.anything());
    expect(tool.inputSchema).toEqual({
      type: "object",
      properties: { city: { type: "string" }, days: { type: "number", default: 3 }, tags: { type: "string" } },
      required: ["city", "tags"],
    });
  });

  it("valibot: optional with a default, and a transform", async () => {
    const schema = v.object({
      city: v.pipe(v.string(), v.trim()),
      days: v.optional(v.number(), 3),
      when: v.pipe(
        v.string(),
        v.transform((text) => text.length),
      ),
    });
    const { tool, execute } = echoTool(withStandardJsonSchema(schema, { type: "object" }));
    await tool.execute({ city: " oslo ", when: "today" });
    expect(execute).toHaveBeenCalledWith({ city: "oslo", days: 3, when: 5 }, expect.anything());
  });

  it("arktype: defaults and morphs", async () => {
    const { tool, execute } = echoTool(
      type({ city: "string.trim", days: "number = 3", count: "string.numeric.parse" }),
    );
    await tool.execute({ city: " oslo ", count: "12" });
    expect(execute).toHaveBeenCalledWith({ city: "oslo", days: 3, count: 12 }, expect.anything());
  });

  it("the caller's arguments are left as they were", async () => {
    const { tool } = echoTool(z.object({ city: z.string().trim() }));
    const sent = { city: " oslo " };
    await tool.execute(sent);
    expect(sent).toEqual({ city: " oslo " });
  });
});

describe("async validation", () => {
  it("zod: an async refinement is awaited before execute", async () => {
    const known = new Set(["Oslo"]);
    const { tool, execute } = echoTool(
      z.object({ city: z.string().refine(async (city) => known.has(city), "unknown city") }),
    );
    expect(await tool.execute({ city: "Atlantis" })).toMatchObject({
      output: 'Invalid arguments for tool "weather": "city": unknown city',
      isError: true,
    });
    expect(execute).not.toHaveBeenCalled();
    expect(await tool.execute({ city: "Oslo" })).toEqual({ output: '{"city":"Oslo"}', isError: false });
  });

  it("valibot: an async schema", async () => {
    const schema = v.objectAsync({
      city: v.pipeAsync(
        v.string(),
        v.checkAsync(async (city) => city === "Oslo", "unknown city"),
      ),
    });
    const { tool } = echoTool(withStandardJsonSchema(schema, { type: "object" }));
    expect((await tool.execute({ city: "Atlantis" })).output).toBe(
      'Invalid arguments for tool "weather": "city": unknown city',
    );
    expect((await tool.execute({ city: "Oslo" })).output).toBe('{"city":"Oslo"}');
  });

  it("a check that does not finish within the call's deadline is a timeout", async () => {
    const never = z.object({ city: z.string().refine(() => new Promise<boolean>(() => {})) });
    const tool = defineTool({
      name: "slow",
      description: "Never checked.",
      inputSchema: never,
      timeout: 30,
      execute: () => "ran",
    });
    expect(await tool.execute({ city: "Oslo" })).toMatchObject({ isError: true, metadata: { error: "timeout" } });
  });

  it("an aborted call ends while its check is pending", async () => {
    const controller = new AbortController();
    const never = z.object({ city: z.string().refine(() => new Promise<boolean>(() => {})) });
    const tool = defineTool({ name: "slow", description: "Never checked.", inputSchema: never, execute: () => "ran" });
    const pending = tool.execute({ city: "Oslo" }, { signal: controller.signal });
    controller.abort(new Error("user left"));
    expect(await pending).toMatchObject({
      isError: true,
      output: 'Tool "slow" was aborted: user left',
      metadata: { error: "aborted" },
    });
  });
});

describe("a schema whose validate fails", () => {
  const throwing = (thrown: () => unknown): StandardSchemaV1<unknown, { city: string }> =>
    withStandardJsonSchema(
      { "~standard": { version: 1, vendor: "acme", validate: thrown as () => never } },
      { type: "object", properties: { city: { type: "string" } } },
    );

  it("throwing: an execution_failed result that says so", async () => {
    const { tool, execute } = echoTool(
      throwing(() => {
        throw new Error("database down");
      }),
    );
    expect(await tool.execute({ city: "Oslo" })).toMatchObject({
      isError: true,
      output: 'Tool "weather" could not check its arguments: its input schema threw: database down',
      metadata: { error: "execution_failed" },
    });
    expect(execute).not.toHaveBeenCalled();
  });

  it("rejecting: the same", async () => {
    const { tool } = echoTool(throwing(() => Promise.reject(new Error("database down"))));
    expect(await tool.execute({ city: "Oslo" })).toMatchObject({
      output: 'Tool "weather" could not check its arguments: its input schema threw: database down',
    });
  });

  it("answering something that is no result: the same, naming it", async () => {
    const { tool } = echoTool(throwing(() => 42));
    expect((await tool.execute({ city: "Oslo" })).output).toBe(
      'Tool "weather" could not check its arguments: its input schema threw: its validate answered number 42, not a Standard Schema result ({ value } or { issues })',
    );
  });

  it("failing with no issues listed: refused all the same", async () => {
    const { tool } = echoTool(throwing(() => ({ issues: [] })));
    expect((await tool.execute({ city: "Oslo" })).output).toBe(
      'Invalid arguments for tool "weather": was refused by its schema, which gave no reason',
    );
  });
});

describe("toolnexus's own checks stay in front of the schema", () => {
  it("prototype-reaching keys are refused before the schema sees the call", async () => {
    const validate = jest.fn(() => ({ value: {} }));
    const schema = withStandardJsonSchema(
      { "~standard": { version: 1 as const, vendor: "acme", validate } },
      { type: "object" },
    );
    const kit = new Toolkit([echoTool(schema).tool]);
    const result = await kit.execute("weather", '{"nested":{"__proto__":{"polluted":true}}}');
    expect(result).toMatchObject({ isError: true, metadata: { error: "invalid_arguments" } });
    expect(result.output).toContain('argument key "__proto__" at /nested is not allowed');
    expect(validate).not.toHaveBeenCalled();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("arguments that are not an object never reach the schema", async () => {
    const { tool } = echoTool(z.object({}));
    expect((await tool.execute([1, 2] as unknown as Record<string, unknown>)).output).toBe(
      'Invalid arguments for tool "weather": arguments must be a JSON object, got an array of 2',
    );
  });
});

describe("the JSON Schema is made self-contained", () => {
  it("zod: named schemas (meta id) are inlined", () => {
    const address = z.object({ street: z.string() }).meta({ id: "Address" });
    const { tool } = echoTool(z.object({ from: address, to: address }));
    const street = { type: "object", properties: { street: { type: "string" } }, required: ["street"] };
    expect(tool.inputSchema).toEqual({
      type: "object",
      properties: { from: street, to: street },
      required: ["from", "to"],
    });
  });

  it("zod: a recursive schema is unfolded three levels, then cut; the schema still checks every level", async () => {
    interface Category {
      name: string;
      children?: Category[];
    }
    const category: z.ZodType<Category> = z.object({
      name: z.string(),
      get children() {
        return z.array(category).optional();
      },
    });
    const { tool } = echoTool(category as z.ZodType<Category> & StandardSchemaV1<unknown, object>);
    expect(JSON.stringify(tool.inputSchema)).not.toContain("$ref");
    const level = (inner: unknown) => ({
      type: "object",
      properties: { name: { type: "string" }, children: { type: "array", items: inner } },
      required: ["name"],
    });
    expect(tool.inputSchema).toEqual(level(level(level({ description: "(root, nested deeper than 3 levels)" }))));
    const deep = {
      name: "a",
      children: [{ name: "b", children: [{ name: "c", children: [{ name: "d", children: [{ name: 5 }] }] }] }],
    };
    expect((await tool.execute(deep)).output).toBe(
      'Invalid arguments for tool "weather": "children[0].children[0].children[0].children[0].name": Invalid input: expected string, received number',
    );
  });

  it("arktype: definitions are inlined", () => {
    const types = scope({ node: { name: "string", "children?": "node[]" } }).export();
    const { tool } = echoTool(types.node);
    expect(JSON.stringify(tool.inputSchema)).not.toMatch(/\$ref|definitions/);
    expect(tool.inputSchema).toMatchObject({
      type: "object",
      properties: { name: { type: "string" }, children: { type: "array" } },
      required: ["name"],
    });
  });

  it("zod 4 releases without the Standard JSON Schema: zod's own converter writes it", () => {
    const schema = z.object({ city: z.string(), days: z.number().default(3) });
    const props = schema["~standard"];
    const older = new Proxy(schema, {
      get: (target, key, receiver) =>
        key === "~standard" ? { ...props, jsonSchema: undefined } : Reflect.get(target, key, receiver),
    });
    expect(echoTool(older).tool.inputSchema).toEqual({
      type: "object",
      properties: { city: { type: "string" }, days: { type: "number", default: 3 } },
      required: ["city"],
    });
  });
});

describe("schemas a tool cannot take", () => {
  const define = (inputSchema: unknown) => () =>
    defineTool({
      name: "weather",
      description: "Weather.",
      inputSchema: inputSchema as StandardSchemaV1<unknown, object>,
      execute: () => "",
    });

  it.each([
    ["zod, a string", z.string(), "a zod schema of string values"],
    ["arktype, a list", type("string[]"), "an arktype schema of array values"],
    [
      "zod, an object or a number",
      z.union([z.object({ a: z.string() }), z.number()]),
      "a zod schema of values that are not all objects",
    ],
  ])("%s: a schema of something other than an object", (_what, schema, said) => {
    expect(define(schema)).toThrow(ToolDefinitionError);
    expect(define(schema)).toThrow(
      `Tool "weather": inputSchema is ${said}, but tool arguments are always an object. Use an object schema: z.object({...}), v.object({...}), type({...}).`,
    );
  });

  it("a zod schema with no JSON form: zod's reason", () => {
    expect(define(z.object({ when: z.date() }))).toThrow(
      'Tool "weather": inputSchema is a zod schema that cannot be written as JSON Schema: Date cannot be represented in JSON Schema.',
    );
  });

  it("a library that writes no JSON Schema: what to do instead", () => {
    const acme = { "~standard": { version: 1, vendor: "acme", validate: (value: unknown) => ({ value }) } };
    expect(define(acme)).toThrow(
      'Tool "weather": inputSchema is an acme schema that writes no JSON Schema (it has no ~standard.jsonSchema, the Standard JSON Schema interface), so the model cannot be told the arguments. Use a version of the library that implements Standard JSON Schema, or pass a JSON Schema as the schema.',
    );
  });

  it("a zod 3 schema (no JSON Schema of its own, nor zod 4's converter)", () => {
    const zod3 = { _def: {}, "~standard": { version: 1, vendor: "zod", validate: (value: unknown) => ({ value }) } };
    expect(define(zod3)).toThrow(/inputSchema is a zod 3 schema, which writes no JSON Schema: use zod 4/);
  });

  it("something with a ~standard that is no Standard Schema", () => {
    expect(define({ "~standard": { version: 2 } })).toThrow(
      'Tool "weather": inputSchema has a "~standard" property but is no Standard Schema (v1): it needs ~standard.version 1 and a ~standard.validate function.',
    );
  });
});

describe("the tool is a plain toolnexus tool", () => {
  let tool: Tool;
  beforeAll(() => {
    tool = defineTool({
      name: "weather",
      description: "Weather.",
      inputSchema: z.object({ city: z.string() }),
      execute: ({ city }) => `sunny in ${city}`,
    });
  });

  it("has the usual fields, its schema a plain JSON object", () => {
    expect(Object.keys(tool).sort()).toEqual(["description", "execute", "inputSchema", "name", "source"]);
    expect(JSON.parse(JSON.stringify(tool.inputSchema))).toEqual(tool.inputSchema);
  });

  it("reports to providers that its arguments are enforced when run", () => {
    const positive = defineTool({
      name: "pay",
      description: "Pays.",
      inputSchema: z.object({ amount: z.number().gt(0) }),
      execute: () => "",
    });
    const { changes } = new Toolkit([positive]).describeExport("gemini");
    expect(changes).toEqual([
      {
        tool: "pay",
        pointer: "/properties/amount",
        keyword: "exclusiveMinimum",
        action: "rewritten",
        detail: "exclusiveMinimum 0 → minimum 0 (the exclusive bound is still enforced when the call runs)",
      },
    ]);
  });
});
