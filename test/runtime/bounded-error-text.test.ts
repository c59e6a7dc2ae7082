/**
 * Text sent to the model is bounded: whatever the size of the toolkit, of a thrown message or
 * of the arguments a model sends, an error result's text is at most MAX_ERROR_TEXT characters,
 * and what is left out is counted rather than dropped silently.
 */
import fc from "fast-check";
import { defineTool, LIMITS, Param, Tool, Toolkit, type ToolResult } from "../../src";

const { MAX_ERROR_TEXT, MAX_LISTED_TOOLS } = LIMITS;

const MB = 1024 * 1024;
/** What OpenAI-style providers put before an error result's text. */
const ERROR_PREFIX = "Error: ";

const numbered = (count: number, prefix = "tool_") =>
  Array.from({ length: count }, (_, i) =>
    defineTool({ name: `${prefix}${String(i).padStart(3, "0")}`, description: `Tool number ${i}.`, execute: () => i }),
  );

/** The names an unknown-tool reply lists, the total it states, and how many it says it left out. */
function listing(output: string): { total: number | undefined; listed: string[]; more: number } {
  const counted = /Available tools \((\d+)\): (.*) and (\d+) more\.$/.exec(output);
  if (counted !== null) return { total: Number(counted[1]), listed: counted[2]!.split(", "), more: Number(counted[3]) };
  const all = /Available tools: (.*)\.$/.exec(output);
  return { total: undefined, listed: all === null ? [] : all[1]!.split(", "), more: 0 };
}

describe("an unknown tool in a large toolkit", () => {
  const toolkit = new Toolkit(numbered(500));

  it("lists at most MAX_LISTED_TOOLS names, the closest first, and states how many there are", async () => {
    const result = await toolkit.execute("tool_4x9", {});
    expect(result.isError).toBe(true);
    expect(result.metadata).toMatchObject({ error: "unknown_tool", suggestions: ["tool_409", "tool_419", "tool_429"] });
    expect(result.output).toContain('Did you mean "tool_409" or "tool_419" or "tool_429"?');
    expect(result.output).toContain("Available tools (500): ");

    const { total, listed, more } = listing(result.output);
    expect(total).toBe(500);
    expect(listed).toHaveLength(MAX_LISTED_TOOLS);
    expect(listed.slice(0, 3)).toEqual(["tool_409", "tool_419", "tool_429"]);
    expect(new Set(listed).size).toBe(listed.length);
    expect(more).toBe(500 - MAX_LISTED_TOOLS);
    expect(result.output.length).toBeLessThanOrEqual(MAX_ERROR_TEXT);
  });

  it("fills the list in registration order when no name is close", async () => {
    const result = await toolkit.execute("send_invoice", {});
    expect(result.metadata).toMatchObject({ error: "unknown_tool", suggestions: [] });
    const { total, listed, more } = listing(result.output);
    expect(total).toBe(500);
    expect(listed).toEqual(numbered(MAX_LISTED_TOOLS).map((tool) => tool.name));
    expect(more).toBe(500 - MAX_LISTED_TOOLS);
  });

  it("sends the same bounded listing through a provider round trip", async () => {
    const [message] = await toolkit.runOpenAI([
      { id: "call_1", type: "function", function: { name: "tool_4x9", arguments: "{}" } },
    ]);
    if (message?.role !== "tool") throw new Error("expected a tool message");
    expect(message.tool_call_id).toBe("call_1");
    expect(message!.content.startsWith(`${ERROR_PREFIX}Unknown tool "tool_4x9".`)).toBe(true);
    expect(message!.content).toContain("Available tools (500): tool_409, tool_419, tool_429, ");
    expect(listing(message!.content).listed).toHaveLength(MAX_LISTED_TOOLS);
    expect(message!.content.length - ERROR_PREFIX.length).toBeLessThanOrEqual(MAX_ERROR_TEXT);
  });

  it("stays bounded when every name is as long as a provider allows", async () => {
    const longNames = new Toolkit(numbered(500, `${"n".repeat(120)}_`));
    const result = await longNames.execute(`${"n".repeat(120)}_x`, {});
    expect(result.metadata).toMatchObject({ error: "unknown_tool" });
    expect(result.output.length).toBeLessThanOrEqual(MAX_ERROR_TEXT);
  });

  it("lists every name up to MAX_LISTED_TOOLS tools, and counts from one more", async () => {
    const all = await new Toolkit(numbered(MAX_LISTED_TOOLS)).execute("nope", {});
    expect(listing(all.output)).toEqual({
      total: undefined,
      listed: numbered(MAX_LISTED_TOOLS).map((tool) => tool.name),
      more: 0,
    });

    const oneMore = await new Toolkit(numbered(MAX_LISTED_TOOLS + 1)).execute("nope", {});
    const { total, listed, more } = listing(oneMore.output);
    expect(total).toBe(MAX_LISTED_TOOLS + 1);
    expect(listed).toHaveLength(MAX_LISTED_TOOLS);
    expect(more).toBe(1);
  });
});

describe("a thrown message of a megabyte", () => {
  const huge = "m".repeat(MB);

  class Thrower {
    @Tool("Throws a megabyte")
    shout(@Param("loud") loud: boolean) {
      if (loud) throw new Error(huge);
      return "quiet";
    }
  }

  const toolkit = new Toolkit([
    defineTool({
      name: "throws",
      description: "Throws a megabyte.",
      execute: () => {
        throw new Error(huge);
      },
    }),
    defineTool({
      name: "rejects",
      description: "Rejects with a megabyte.",
      execute: () => Promise.reject(new Error(huge)),
    }),
    defineTool({
      name: "throws_text",
      description: "Throws a megabyte of text.",
      execute: () => {
        throw huge;
      },
    }),
    new Thrower(),
  ]);

  function expectCut(result: ToolResult): void {
    expect(result.isError).toBe(true);
    expect(result.metadata).toMatchObject({ error: "execution_failed" });
    expect(result.output.length).toBeLessThanOrEqual(MAX_ERROR_TEXT);
    expect(result.output.startsWith("mmmm")).toBe(true);
    expect(result.output.endsWith("more characters)")).toBe(true);
  }

  it.each([
    ["throws", {}],
    ["rejects", {}],
    ["throws_text", {}],
    ["shout", { loud: true }],
  ])("comes back from %s cut to MAX_ERROR_TEXT, saying how much was left out", async (name, args) => {
    expectCut(await toolkit.execute(name, args));
  });

  it("is cut the same in a provider's result message", async () => {
    const reply = await toolkit.runAnthropic({
      content: [{ type: "tool_use", id: "toolu_1", name: "throws", input: {} }],
    });
    const block = reply!.content[0]!;
    expect(block.is_error).toBe(true);
    expect(String(block.content).length).toBeLessThanOrEqual(MAX_ERROR_TEXT);
    expect(String(block.content).endsWith("more characters)")).toBe(true);
  });
});

describe("invalid arguments for a validated tool", () => {
  const colors = Array.from({ length: 1_000 }, (_, i) => `color_${String(i).padStart(4, "0")}`);
  const fields = Object.fromEntries(
    Array.from({ length: 40 }, (_, i) => [`field_${String(i).padStart(2, "0")}`, { type: "string" }]),
  );
  const shaped = defineTool({
    name: "shaped",
    description: "Takes a color, a tree, an address and forty text fields.",
    validate: true,
    inputSchema: {
      type: "object",
      properties: {
        color: { type: "string", enum: colors },
        tree: { $ref: "#/definitions/node" },
        address: {
          type: "object",
          properties: {
            city: { type: "string" },
            geo: {
              type: "object",
              properties: { lat: { type: "number" }, lng: { type: "number" } },
              additionalProperties: false,
            },
          },
          additionalProperties: false,
        },
        ...fields,
      },
      required: ["color"],
      additionalProperties: false,
      definitions: {
        node: {
          type: "object",
          properties: { leaf: { type: "string" }, child: { $ref: "#/definitions/node" } },
          additionalProperties: false,
        },
      },
    },
    execute: () => "accepted",
  });
  const toolkit = new Toolkit([shaped]);

  const longKey = "k".repeat(100_000);
  const deepTree = (depth: number, bottom: Record<string, unknown>) => {
    let tree: Record<string, unknown> = bottom;
    for (let i = 0; i < depth; i++) tree = { child: tree };
    return tree;
  };

  const payloads: Array<[string, Record<string, unknown>]> = [
    ["a 100,000-character unknown key", { color: "color_0001", [longKey]: 1 }],
    ["a 100,000-character unknown key, nested", { color: "color_0001", address: { geo: { lat: 1, [longKey]: 2 } } }],
    ["a 100,000-character value for an enum of 1,000", { color: "x".repeat(100_000) }],
    [
      "10,000 unknown keys",
      { color: "color_0001", ...Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`extra_${i}`, i])) },
    ],
    [
      "10,000 unknown keys and no color",
      Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`extra_${i}`, i])),
    ],
    ["a wrong value 1,000 levels deep", { color: "color_0002", tree: deepTree(1_000, { leaf: 5 }) }],
    ["an unknown key 1,000 levels deep", { color: "color_0002", tree: deepTree(1_000, { [longKey]: true }) }],
    ["no color at all (its enum has 1,000 values)", {}],
  ];

  it.each(payloads)("are described in at most MAX_ERROR_TEXT characters: %s", async (_what, args) => {
    const result = await toolkit.execute("shaped", args);
    expect(result.isError).toBe(true);
    expect(result.metadata).toMatchObject({ error: "invalid_arguments", tool: "shaped" });
    expect(result.output.startsWith('Invalid arguments for tool "shaped"')).toBe(true);
    expect(result.output.length).toBeLessThanOrEqual(MAX_ERROR_TEXT);

    const [message] = await toolkit.runOpenAI([
      { id: "call_1", type: "function", function: { name: "shaped", arguments: JSON.stringify(args) } },
    ]);
    expect(message!.content.length - ERROR_PREFIX.length).toBeLessThanOrEqual(MAX_ERROR_TEXT);
  });

  it("keeps the count of the problems it leaves out, however long the listed ones are", async () => {
    const { output } = await toolkit.execute("shaped", payloads[4]![1]);
    expect(output).toMatch(/\n\.\.\. and \d+ more problems$/);
    expect(output.length).toBeLessThanOrEqual(MAX_ERROR_TEXT);
  });

  it("never cuts a character in half (a lone surrogate is invalid JSON text to providers)", async () => {
    const emojiKey = "😀".repeat(40);
    const thrown = await defineTool({
      name: "emoji",
      description: "Throws emoji",
      execute: () => Promise.reject(new Error("😀".repeat(100_000))),
    }).execute({});
    for (const output of [
      (await toolkit.execute("shaped", { color: "color_0001", [emojiKey]: 1 })).output,
      (await toolkit.execute("shaped", { color: "😀".repeat(60) })).output,
      thrown.output,
    ]) {
      expect(output.length).toBeLessThanOrEqual(MAX_ERROR_TEXT);
      expect(output).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);
    }
  });

  it("echoes a long key cut, never whole", async () => {
    for (const args of [payloads[0]![1], payloads[1]![1], payloads[6]![1]]) {
      const { output } = await toolkit.execute("shaped", args);
      expect(output).toContain("unknown argument");
      expect(output).toContain("kkkkkkkkkk");
      expect(output).not.toContain(longKey);
      expect(output).not.toContain("k".repeat(MAX_ERROR_TEXT / 2));
    }
  });

  it("lists a few of the 1,000 allowed values and counts the rest", async () => {
    const { output } = await toolkit.execute("shaped", { color: "teal" });
    expect(output).toContain('"color" must be one of "color_0000", "color_0001"');
    expect(output).toMatch(/ and \d+ more, got string "teal"$/);
    expect(output).not.toContain("color_0999");
  });

  it("never grows with the payload, for any JSON a model sends", async () => {
    const big = fc
      .tuple(fc.constantFrom("a", "é", '"', "\\", "\u2028", " ", "😀"), fc.integer({ min: 1, max: 20_000 }))
      .map(([unit, n]) => unit.repeat(n));
    const text = fc.oneof(fc.string(), big);
    const scalar = fc.oneof(
      text,
      fc.integer(),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.boolean(),
      fc.constant(null),
    );
    const anyObject = fc.object({ key: text, values: [scalar], maxDepth: 3, maxKeys: 6 });
    const known = fc.record(
      {
        color: fc.oneof(fc.constantFrom(...colors), scalar, anyObject),
        tree: fc.tuple(fc.integer({ min: 0, max: 1_200 }), anyObject).map(([depth, bottom]) => deepTree(depth, bottom)),
        address: fc.oneof(anyObject, fc.record({ city: scalar, geo: anyObject }, { requiredKeys: [] })),
        field_07: scalar,
      },
      { requiredKeys: [] },
    );
    const payload = fc.tuple(known, anyObject).map(([fitting, extra]) => ({ ...extra, ...fitting }));
    const sent = fc.oneof(
      payload.map((args) => ({ args, asText: false })),
      payload.map((args) => ({ args, asText: true })),
      fc.jsonValue().map((args) => ({ args, asText: true })),
    );

    await fc.assert(
      fc.asyncProperty(sent, async ({ args, asText }) => {
        const result = await toolkit.execute("shaped", asText ? JSON.stringify(args) : args);
        expect(typeof result.output).toBe("string");
        if (result.isError) expect(result.output.length).toBeLessThanOrEqual(MAX_ERROR_TEXT);
        else expect(result.output).toBe("accepted");
      }),
      { numRuns: 150 },
    );
  });
});
