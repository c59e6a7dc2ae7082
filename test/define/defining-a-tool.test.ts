import {
  defineTool,
  isTool,
  ToolDefinitionError,
  ToolnexusError,
  type JSONSchemaObject,
  type ToolContext,
} from "../../src";

const weatherSchema: JSONSchemaObject = {
  type: "object",
  properties: { city: { type: "string" }, days: { type: "integer", minimum: 1 } },
  required: ["city"],
  additionalProperties: false,
};

function weatherTool(options: { validate?: boolean } = {}) {
  const body = jest.fn((args: Record<string, unknown>) => {
    if (!args.city) throw new Error("city is required");
    return `sunny in ${String(args.city)}`;
  });
  const tool = defineTool({
    name: "get_weather",
    description: "Current weather for a city.",
    inputSchema: weatherSchema,
    execute: body,
    ...options,
  });
  return { tool, body };
}

describe("defineTool: the reference contract", () => {
  it("returns the function's string as the output of a successful result", async () => {
    const { tool } = weatherTool();
    const result = await tool.execute({ city: "Chennai" });
    expect(result).toStrictEqual({ output: "sunny in Chennai", isError: false });
  });

  it('turns a throw of new Error("city is required") into { isError: true, output: "city is required" } with metadata.error "execution_failed"', async () => {
    const { tool } = weatherTool();
    const result = await tool.execute({});
    expect(result.isError).toBe(true);
    expect(result.output).toBe("city is required");
    expect(result.metadata?.error).toBe("execution_failed");
    expect(result).toStrictEqual({
      isError: true,
      output: "city is required",
      metadata: { error: "execution_failed" },
    });
  });

  it("never rejects, whatever the function does", async () => {
    const { tool } = weatherTool();
    await expect(tool.execute({})).resolves.toBeDefined();
    await expect(tool.execute(null as unknown as Record<string, unknown>)).resolves.toMatchObject({ isError: true });
  });

  it("builds a Tool with the given name, description and schema, source native", () => {
    const { tool } = weatherTool();
    expect(isTool(tool)).toBe(true);
    expect(tool.name).toBe("get_weather");
    expect(tool.description).toBe("Current weather for a city.");
    expect(tool.inputSchema).toEqual(weatherSchema);
    expect(tool.source).toBe("native");
    expect(Object.keys(tool).sort()).toEqual(["description", "execute", "inputSchema", "name", "source"]);
  });

  it("defaults the schema to an object with no properties", () => {
    const tool = defineTool({ name: "ping", description: "Pings.", execute: () => "pong" });
    expect(tool.inputSchema).toEqual({ type: "object", properties: {} });
  });

  it("keeps annotations when given", () => {
    const tool = defineTool({
      name: "ping",
      description: "Pings.",
      annotations: { readOnly: true },
      execute: () => "pong",
    });
    expect(tool.annotations).toEqual({ readOnly: true });
  });

  it("writes a non-string return as JSON and undefined as the empty string", async () => {
    const json = defineTool({ name: "obj", description: "Object.", execute: () => ({ temp: 31, unit: "C" }) });
    expect(await json.execute({})).toEqual({ output: '{"temp":31,"unit":"C"}', isError: false });
    const nothing = defineTool({ name: "nothing", description: "Nothing.", execute: () => undefined });
    expect(await nothing.execute({})).toEqual({ output: "", isError: false });
  });

  it("awaits an async function", async () => {
    const tool = defineTool({ name: "later", description: "Async.", execute: async () => "done later" });
    expect(await tool.execute({})).toEqual({ output: "done later", isError: false });
  });

  it("passes a returned ToolResult through", async () => {
    const tool = defineTool({
      name: "custom",
      description: "Custom result.",
      execute: () => ({ output: "not found", isError: true, metadata: { status: 404 } }),
    });
    expect(await tool.execute({})).toEqual({ output: "not found", isError: true, metadata: { status: 404 } });
  });

  it("gives the function a ctx object even when the caller passes none", async () => {
    const seen: unknown[] = [];
    const tool = defineTool({
      name: "ctx_probe",
      description: "Looks at ctx.",
      execute: (_args, ctx) => {
        seen.push(ctx);
        return "ok";
      },
    });
    await tool.execute({});
    expect(seen).toEqual([{}]);
  });

  it("hands the caller's ctx fields to the function", async () => {
    let seen: ToolContext | undefined;
    const tool = defineTool({
      name: "ctx_probe",
      description: "Looks at ctx.",
      execute: (_args, ctx) => {
        seen = ctx;
        return "ok";
      },
    });
    await tool.execute({}, { callId: "c1", provider: "anthropic", state: { tenant: "acme" } });
    expect(seen).toEqual({ callId: "c1", provider: "anthropic", state: { tenant: "acme" } });
  });
});

describe("defineTool: validation", () => {
  it("does not validate by default: the function sees exactly the arguments sent", async () => {
    const { tool, body } = weatherTool();
    const args = { city: 42, days: "three", extra: { nested: [null] } };
    expect(await tool.execute(args)).toEqual({ output: "sunny in 42", isError: false });
    expect(body).toHaveBeenCalledTimes(1);
    expect(body.mock.calls[0]![0]).toBe(args);
    expect(body.mock.calls[0]![0]).toEqual({ city: 42, days: "three", extra: { nested: [null] } });
  });

  it("with validate: false, a JSON string is parsed and then passed exactly", async () => {
    const { tool, body } = weatherTool({ validate: false });
    await tool.execute('{"city":"Oslo","unexpected":true}' as unknown as Record<string, unknown>);
    expect(body.mock.calls[0]![0]).toStrictEqual({ city: "Oslo", unexpected: true });
  });

  it("with validate: true, checks arguments against the schema first and does not call the function on bad ones", async () => {
    const { tool, body } = weatherTool({ validate: true });
    expect(await tool.execute({ days: 0, country: "IN" })).toEqual({
      output:
        'Invalid arguments for tool "get_weather":\n' +
        '- missing required argument "city" (expected string)\n' +
        '- unknown argument "country"; expected only: city, days\n' +
        '- "days" must be >= 1, got number 0',
      isError: true,
      metadata: { tool: "get_weather", error: "invalid_arguments" },
    });
    expect(await tool.execute({ city: 7 })).toEqual({
      output: 'Invalid arguments for tool "get_weather": "city" must be string, got number 7',
      isError: true,
      metadata: { tool: "get_weather", error: "invalid_arguments" },
    });
    expect(body).not.toHaveBeenCalled();
  });

  it("with validate: true, calls the function with valid arguments, unchanged", async () => {
    const { tool, body } = weatherTool({ validate: true });
    const args = { city: "Chennai", days: 2 };
    expect(await tool.execute(args)).toEqual({ output: "sunny in Chennai", isError: false });
    expect(body).toHaveBeenCalledTimes(1);
    expect(body.mock.calls[0]![0]).toEqual({ city: "Chennai", days: 2 });
  });

  it("refuses a non-object argument value before validating or calling", async () => {
    const { tool, body } = weatherTool({ validate: true });
    expect(await tool.execute("[]" as unknown as Record<string, unknown>)).toEqual({
      output: 'Invalid arguments for tool "get_weather": arguments must be a JSON object, got an array of 0',
      isError: true,
      metadata: { tool: "get_weather", error: "invalid_arguments" },
    });
    expect(body).not.toHaveBeenCalled();
  });
});

describe("defineTool: definitions that cannot work throw ToolDefinitionError naming the tool", () => {
  const execute = () => "ok";

  function definitionError(define: () => unknown): ToolDefinitionError {
    try {
      define();
    } catch (error) {
      expect(error).toBeInstanceOf(ToolDefinitionError);
      expect(error).toBeInstanceOf(ToolnexusError);
      expect((error as Error).name).toBe("ToolDefinitionError");
      return error as ToolDefinitionError;
    }
    throw new Error("expected defineTool to throw");
  }

  it("refuses an empty or blank description", () => {
    expect(definitionError(() => defineTool({ name: "my_tool", description: "", execute })).message).toBe(
      'Tool "my_tool" needs a non-empty description: models choose tools by it.',
    );
    expect(definitionError(() => defineTool({ name: "my_tool", description: "   ", execute })).message).toContain(
      'Tool "my_tool"',
    );
  });

  it("refuses a name no provider accepts", () => {
    expect(definitionError(() => defineTool({ name: "has space", description: "d", execute })).message).toBe(
      'Tool name "has space" is accepted by no provider. Use a letter first, then letters, digits, _ or -, at most 64 characters.',
    );
    expect(definitionError(() => defineTool({ name: "x".repeat(129), description: "d", execute })).message).toContain(
      `Tool name "${"x".repeat(129)}"`,
    );
    expect(definitionError(() => defineTool({ name: "héllo", description: "d", execute })).message).toContain(
      '"héllo"',
    );
  });

  it("refuses an empty name", () => {
    expect(definitionError(() => defineTool({ name: "", description: "d", execute })).message).toBe(
      'A tool needs a non-empty string name (got "").',
    );
  });

  it("refuses an execute that is not a function", () => {
    expect(
      definitionError(() =>
        defineTool({ name: "my_tool", description: "d", execute: "nope" as unknown as () => unknown }),
      ).message,
    ).toBe('Tool "my_tool": execute must be a function (args, ctx) => result.');
  });

  it("refuses an inputSchema that is not an object schema", () => {
    for (const inputSchema of [{ type: "string" }, { properties: {} }, [] as unknown, "object" as unknown]) {
      const error = definitionError(() =>
        defineTool({ name: "my_tool", description: "d", inputSchema: inputSchema as JSONSchemaObject, execute }),
      );
      expect(error.message).toMatch(
        /^Tool "my_tool": inputSchema must be a JSON Schema with type "object" at its root/,
      );
    }
  });

  it("refuses an invalid JSON Schema, quoting what is wrong", () => {
    const error = definitionError(() =>
      defineTool({
        name: "my_tool",
        description: "d",
        inputSchema: { type: "object", properties: { city: { type: "strng" as "string" } } },
        execute,
      }),
    );
    expect(error.message).toMatch(/^Tool "my_tool": inputSchema is not a valid JSON Schema: .*properties\/city\/type/);
    const required = definitionError(() =>
      defineTool({
        name: "my_tool",
        description: "d",
        inputSchema: { type: "object", required: "city" as unknown as string[] },
        execute,
      }),
    );
    expect(required.message).toMatch(/^Tool "my_tool": inputSchema is not a valid JSON Schema: .*required/);
  });

  it("refuses a timeout that is not a positive number of milliseconds", () => {
    for (const timeout of [0, -5, Number.NaN, Number.POSITIVE_INFINITY, "100" as unknown as number]) {
      const error = definitionError(() => defineTool({ name: "my_tool", description: "d", timeout, execute }));
      expect(error.message).toBe(
        `Tool "my_tool": timeout must be a positive number of milliseconds, at most 2147483647, or false for none (got ${String(timeout)}).`,
      );
    }
  });

  it("accepts a positive timeout", () => {
    expect(defineTool({ name: "my_tool", description: "d", timeout: 1500, execute }).name).toBe("my_tool");
  });
});

describe("defineTool with validate: true reads arguments as its schema does", () => {
  const schema: JSONSchemaObject = {
    type: "object",
    properties: { n: { type: "number" }, o: { type: "string" } },
    required: ["n"],
  };

  it('accepts "42" for a number and passes 42 to the function', async () => {
    const body = jest.fn((args: Record<string, unknown>) => typeof args.n);
    const tool = defineTool({ name: "t", description: "d", inputSchema: schema, validate: true, execute: body });
    expect(await tool.execute({ n: "42" })).toEqual({ output: "number", isError: false });
    expect(body.mock.calls[0]![0]).toEqual({ n: 42 });
  });

  it("reads null for an optional argument as not given", async () => {
    const body = jest.fn((args: Record<string, unknown>) => JSON.stringify(args));
    const tool = defineTool({ name: "t", description: "d", inputSchema: schema, validate: true, execute: body });
    expect(await tool.execute({ n: 1, o: null })).toEqual({ output: '{"n":1}', isError: false });
  });

  it("leaves arguments exactly as sent without validate", async () => {
    const body = jest.fn((args: Record<string, unknown>) => JSON.stringify(args));
    const tool = defineTool({ name: "t", description: "d", inputSchema: schema, execute: body });
    expect(await tool.execute({ n: "42", o: null })).toEqual({ output: '{"n":"42","o":null}', isError: false });
  });
});
