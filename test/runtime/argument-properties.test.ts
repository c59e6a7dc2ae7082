import fc from "fast-check";
import { defineTool, Toolkit, type JSONSchemaObject, type ToolResult } from "../../src";

const RUNS = { seed: 42, numRuns: 300 } as const;
const KINDS = ["invalid_arguments", "unknown_tool", "execution_failed", "timeout", "aborted"];
const FORBIDDEN = ["__proto__", "constructor", "prototype"];

const strictSchema: JSONSchemaObject = {
  type: "object",
  properties: {
    city: { type: "string" },
    days: { type: "integer", minimum: 1 },
    units: { type: "string", enum: ["metric", "imperial"] },
  },
  required: ["city"],
  additionalProperties: false,
};

/** Non-validating: echoes what it was given. */
const echo = defineTool({ name: "echo", description: "Echoes its arguments.", execute: (args) => args });
/** Validating: answers only well-formed arguments. */
const strict = defineTool({
  name: "strict",
  description: "Weather, strictly checked.",
  inputSchema: strictSchema,
  validate: true,
  execute: ({ city }) => `ok ${String(city)}`,
});
const toolkit = new Toolkit([echo, strict]);

// ---- What Object.prototype looked like before any payload -------------------------------

const prototypeKeys = Object.getOwnPropertyNames(Object.prototype).sort();

function expectPrototypeClean(): void {
  expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeKeys);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  expect(Object.getPrototypeOf({})).toBe(Object.prototype);
}

function expectToolResult(result: unknown): asserts result is ToolResult {
  expect(typeof result).toBe("object");
  expect(result).not.toBeNull();
  const r = result as ToolResult;
  expect(typeof r.output).toBe("string");
  expect(typeof r.isError).toBe("boolean");
  if (r.isError) expect(KINDS).toContain(r.metadata?.error);
}

function hasForbiddenKey(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return false;
  if (Array.isArray(value)) return value.some(hasForbiddenKey);
  return Object.keys(value).some(
    (key) => FORBIDDEN.includes(key) || hasForbiddenKey((value as Record<string, unknown>)[key]),
  );
}

// ---- Arbitraries ---------------------------------------------------------------------------

const anyString = fc.oneof(fc.string(), fc.string({ unit: "binary" }), fc.json());

/** JSON text that carries a prototype-reaching key at some depth, possibly inside arrays. */
const pollutingText = fc
  .tuple(
    fc.constantFrom(...FORBIDDEN),
    fc.array(
      fc.oneof(
        fc.string({ maxLength: 6 }).map((k) => ({ key: k })),
        fc.nat({ max: 3 }).map((n) => ({ index: n })),
      ),
      { maxLength: 5 },
    ),
    fc.jsonValue({ maxDepth: 2 }),
  )
  .map(([forbidden, path, sibling]) => {
    let text = `{${JSON.stringify(forbidden)}:{"polluted":1,"prototype":{"polluted":1}},"sibling":${JSON.stringify(sibling)}}`;
    for (const step of [...path].reverse()) {
      text = "key" in step ? `{${JSON.stringify(step.key)}:${text}}` : `[${"0,".repeat(step.index)}${text}]`;
    }
    return path.length > 0 && "index" in path[0]! ? `{"list":${text}}` : text;
  });

/** Parsed payloads: JSON.parse makes `__proto__` an own key, exactly like a provider SDK would. */
const pollutingObject = pollutingText.map((text) => JSON.parse(text) as unknown);

const anyArguments = fc.oneof(fc.jsonValue(), fc.anything(), anyString, pollutingText, pollutingObject);
const toolName = fc.oneof(fc.constantFrom("echo", "strict", "missing_tool"), fc.string());

// ---- Toolkit.execute ---------------------------------------------------------------------------

describe("properties: Toolkit.execute with any arguments", () => {
  it("always resolves to a ToolResult with a string output, for a non-validating and a validating tool", async () => {
    await fc.assert(
      fc.asyncProperty(anyArguments, async (args) => {
        for (const name of ["echo", "strict"]) {
          const result = await toolkit.execute(name, args);
          expectToolResult(result);
        }
        expectPrototypeClean();
      }),
      RUNS,
    );
  });

  it("echoes any JSON object without forbidden keys exactly as JSON, and refuses the rest as invalid_arguments", async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.jsonValue(), pollutingObject, pollutingText), async (sent) => {
        const result = await toolkit.execute("echo", sent);
        // A string is JSON text of the arguments ("" and blanks meaning none).
        let value: unknown = sent;
        if (typeof sent === "string") {
          if (sent.trim() === "") value = null;
          else {
            try {
              value = JSON.parse(sent);
            } catch {
              expect(result.metadata).toEqual({ tool: "echo", error: "invalid_arguments" });
              expect(result.output.startsWith('Invalid arguments for tool "echo": arguments are not valid JSON')).toBe(
                true,
              );
              return;
            }
          }
        }
        if (value === null) {
          expect(result).toEqual({ output: "{}", isError: false });
        } else if (typeof value !== "object" || Array.isArray(value) || hasForbiddenKey(value)) {
          expect(result.isError).toBe(true);
          expect(result.metadata).toEqual({ tool: "echo", error: "invalid_arguments" });
          expect(result.output.startsWith('Invalid arguments for tool "echo": ')).toBe(true);
        } else {
          expect(result).toEqual({ output: JSON.stringify(value), isError: false });
        }
        expectPrototypeClean();
      }),
      RUNS,
    );
  });

  it("answers the same for an object and for its JSON text", async () => {
    await fc.assert(
      fc.asyncProperty(fc.dictionary(fc.string(), fc.jsonValue()), async (value) => {
        expect(await toolkit.execute("echo", JSON.stringify(value))).toEqual(await toolkit.execute("echo", value));
        expect(await toolkit.execute("strict", JSON.stringify(value))).toEqual(await toolkit.execute("strict", value));
      }),
      RUNS,
    );
  });

  it("refuses every payload that carries a prototype-reaching key, text or parsed, and never pollutes", async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(pollutingText, pollutingObject), async (payload) => {
        for (const name of ["echo", "strict"]) {
          const result = await toolkit.execute(name, payload);
          expect(result.isError).toBe(true);
          expect(result.metadata).toEqual({ tool: name, error: "invalid_arguments" });
          expect(result.output).toMatch(
            /argument key "(__proto__|constructor|prototype)" at (\/.*|the top level) is not allowed$/s,
          );
        }
        expectPrototypeClean();
      }),
      RUNS,
    );
  });

  it("lets the validating tool run exactly when the arguments match its schema", async () => {
    const valid = fc.record(
      { city: fc.string(), days: fc.integer({ min: 1 }), units: fc.constantFrom("metric", "imperial") },
      { requiredKeys: ["city"] },
    );
    await fc.assert(
      fc.asyncProperty(valid, async (args) => {
        expect(await toolkit.execute("strict", args)).toEqual({ output: `ok ${args.city}`, isError: false });
      }),
      RUNS,
    );
    await fc.assert(
      fc.asyncProperty(fc.dictionary(fc.string(), fc.jsonValue()), async (args) => {
        const result = await toolkit.execute("strict", args);
        if (result.isError) expect(result.metadata).toEqual({ tool: "strict", error: "invalid_arguments" });
        else expect(result.output).toBe(`ok ${String(args.city)}`);
      }),
      RUNS,
    );
  });

  it("answers any unknown name with an unknown_tool result naming it", async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: "binary" }), anyArguments, async (name, args) => {
        fc.pre(name !== "echo" && name !== "strict");
        const result = await toolkit.execute(name, args);
        expect(result.isError).toBe(true);
        expect(result.metadata?.error).toBe("unknown_tool");
        expect(result.metadata?.tool).toBe(name);
        expect(result.output.startsWith(`Unknown tool "${name}".`)).toBe(true);
        expect(result.output.endsWith("Available tools: echo, strict.")).toBe(true);
      }),
      RUNS,
    );
  });
});

// ---- Provider round trips ------------------------------------------------------------------

/**
 * What a call is expected to produce, where the provider cannot change it: the toolkit's own
 * answer. Providers may adjust arguments against a tool's schema before running it (OpenAI's
 * strict-mode nulls, Gemini's enum strings), so calls to the schema-bearing "strict" tool are
 * only held to the shape of a result.
 */
const expectedFor = async (name: string, args: unknown): Promise<ToolResult | undefined> =>
  name === "strict" ? undefined : toolkit.execute(name, args);

const objectArguments = fc.oneof(fc.jsonValue(), fc.anything(), pollutingObject, anyString);
const textArguments = fc.oneof(
  anyString,
  pollutingText,
  fc.jsonValue().map((v) => JSON.stringify(v)),
);
const calls = <T>(args: fc.Arbitrary<T>) =>
  fc.array(fc.record({ id: fc.string(), name: toolName, args }), { minLength: 1, maxLength: 3 });

describe("properties: provider round trips with any arguments in well-formed calls", () => {
  it("runGemini answers every call, in order, with exactly output or error", async () => {
    await fc.assert(
      fc.asyncProperty(calls(objectArguments), fc.boolean(), async (list, asResponse) => {
        const parts = list.map((c) => ({
          functionCall: { id: c.id, name: c.name, args: c.args as Record<string, unknown> },
        }));
        const input = asResponse ? { candidates: [{ content: { role: "model", parts } }] } : parts;
        const answer = (await toolkit.runGemini(input))!;
        expect(answer.role).toBe("user");
        expect(answer.parts).toHaveLength(list.length);
        for (const [i, c] of list.entries()) {
          const expected = await expectedFor(c.name, c.args);
          const part = answer.parts[i]!;
          expect(part.functionResponse.name).toBe(c.name);
          expect(part.functionResponse.id).toBe(c.id);
          const response = part.functionResponse.response as Record<string, unknown>;
          expect(Object.keys(response)).toHaveLength(1);
          expect(typeof Object.values(response)[0]).toBe("string");
          if (expected)
            expect(response).toEqual(expected.isError ? { error: expected.output } : { output: expected.output });
        }
        expectPrototypeClean();
      }),
      RUNS,
    );
  });

  it("runOpenAI answers every call with one tool message holding a string", async () => {
    await fc.assert(
      fc.asyncProperty(calls(textArguments), fc.constantFrom("calls", "message", "completion"), async (list, shape) => {
        const toolCalls = list.map((c) => ({
          id: c.id,
          type: "function",
          function: { name: c.name, arguments: c.args },
        }));
        const input =
          shape === "calls"
            ? toolCalls
            : shape === "message"
              ? { tool_calls: toolCalls }
              : { choices: [{ message: { tool_calls: toolCalls } }] };
        const answer = await toolkit.runOpenAI(input);
        expect(answer).toHaveLength(list.length);
        for (const [i, c] of list.entries()) {
          const expected = await expectedFor(c.name, c.args);
          expect(answer[i]).toEqual({ role: "tool", tool_call_id: c.id, content: expect.any(String) });
          if (expected)
            expect(answer[i]!.content).toBe(expected.isError ? `Error: ${expected.output}` : expected.output);
        }
        expectPrototypeClean();
      }),
      RUNS,
    );
  });

  it("runOpenAIResponses answers every function_call with one function_call_output", async () => {
    await fc.assert(
      fc.asyncProperty(calls(textArguments), fc.boolean(), async (list, asResponse) => {
        const items = list.map((c) => ({ type: "function_call", call_id: c.id, name: c.name, arguments: c.args }));
        const withText = [{ type: "message" }, ...items];
        const answer = await toolkit.runOpenAIResponses(asResponse ? { output: withText } : withText);
        expect(answer).toHaveLength(list.length);
        for (const [i, c] of list.entries()) {
          const expected = await expectedFor(c.name, c.args);
          expect(answer[i]).toEqual({ type: "function_call_output", call_id: c.id, output: expect.any(String) });
          if (expected)
            expect(answer[i]!.output).toBe(expected.isError ? `Error: ${expected.output}` : expected.output);
        }
        expectPrototypeClean();
      }),
      RUNS,
    );
  });

  it("runAnthropic answers every tool_use block with a tool_result, is_error only on errors", async () => {
    await fc.assert(
      fc.asyncProperty(calls(objectArguments), fc.boolean(), async (list, asMessage) => {
        const blocks = [
          { type: "text" },
          ...list.map((c) => ({ type: "tool_use", id: c.id, name: c.name, input: c.args })),
        ];
        const answer = (await toolkit.runAnthropic(asMessage ? { content: blocks } : blocks))!;
        expect(answer.role).toBe("user");
        expect(answer.content).toHaveLength(list.length);
        for (const [i, c] of list.entries()) {
          const expected = await expectedFor(c.name, c.args);
          const block = answer.content[i]!;
          expect(block).toMatchObject({ type: "tool_result", tool_use_id: c.id, content: expect.any(String) });
          expect([undefined, true]).toContain(block.is_error);
          if (expected) {
            expect(block).toStrictEqual({
              type: "tool_result",
              tool_use_id: c.id,
              content: expected.output,
              ...(expected.isError ? { is_error: true } : {}),
            });
          }
        }
        expectPrototypeClean();
      }),
      RUNS,
    );
  });

  it("runBedrock answers every toolUse with a toolResult whose status matches", async () => {
    await fc.assert(
      fc.asyncProperty(
        calls(objectArguments),
        fc.constantFrom("blocks", "message", "response"),
        async (list, shape) => {
          const content = list.map((c) => ({ toolUse: { toolUseId: c.id, name: c.name, input: c.args } }));
          const input =
            shape === "blocks" ? content : shape === "message" ? { content } : { output: { message: { content } } };
          const answer = (await toolkit.runBedrock(input))!;
          expect(answer.role).toBe("user");
          expect(answer.content).toHaveLength(list.length);
          for (const [i, c] of list.entries()) {
            const expected = await expectedFor(c.name, c.args);
            expect(answer.content[i]).toEqual({
              toolResult: {
                toolUseId: c.id,
                content: [{ text: expect.any(String) }],
                status: expect.stringMatching(/^(success|error)$/),
              },
            });
            if (expected) {
              expect(answer.content[i]!.toolResult).toEqual({
                toolUseId: c.id,
                content: [{ text: expected.output }],
                status: expected.isError ? "error" : "success",
              });
            }
          }
          expectPrototypeClean();
        },
      ),
      RUNS,
    );
  });
});

describe("properties: Object.prototype after everything", () => {
  it("has gained no keys, and a fresh object has no polluted property", () => {
    for (const text of ['{"__proto__":{"polluted":1}}', '{"constructor":{"prototype":{"polluted":1}}}']) {
      const parsed = JSON.parse(text) as Record<string, unknown>;
      expect(Object.keys(parsed)).toHaveLength(1);
    }
    expectPrototypeClean();
  });
});
