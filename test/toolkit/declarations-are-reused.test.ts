/**
 * A toolkit lowers each tool once per provider and export options: every later export,
 * `describeExport` and per-user export reuses the lowering (a filter and a copy of references),
 * until a new tool is registered, which alone is lowered then.
 */
import { defineTool, Toolkit, type Tool } from "../../src";
import type { OpenAITool } from "../../src/providers";
import { ADAPTERS } from "../../src/providers/registry";

const tool = (name: string, visible?: Tool["visible"]) =>
  defineTool({
    name,
    description: `Tool ${name}.`,
    inputSchema: {
      type: "object",
      properties: {
        when: { type: "string", format: "date-time" },
        count: { anyOf: [{ type: "integer" }, { type: "null" }] },
      },
      required: ["when"],
    },
    ...(visible !== undefined ? { visible } : {}),
    execute: (args) => JSON.stringify(args),
  });

/** The function of an OpenAI Chat declaration, which must be a function tool. */
function functionOf(declaration: OpenAITool | undefined) {
  if (declaration?.type !== "function") throw new Error(`expected a function tool, got ${JSON.stringify(declaration)}`);
  return declaration.function;
}

const lowerings = (format: keyof typeof ADAPTERS) => jest.spyOn(ADAPTERS[format], "lower");

afterEach(() => jest.restoreAllMocks());

it("a second export lowers nothing, gives equal declarations and the same change report", () => {
  const toolkit = new Toolkit([tool("a"), tool("b")]);
  const lower = lowerings("gemini");
  const first = toolkit.describeExport("gemini");
  const second = toolkit.describeExport("gemini");
  expect(lower).toHaveBeenCalledTimes(2);
  expect(second.declarations).toEqual(first.declarations);
  expect(second.changes).toEqual(first.changes);
  expect(first.changes.length).toBeGreaterThan(0);
  expect(toolkit.toGemini()).toEqual(first.declarations);
  expect(lower).toHaveBeenCalledTimes(2);
});

it("options that differ lower again; the same options in another key order do not", () => {
  const toolkit = new Toolkit([tool("a")]);
  const lower = lowerings("openai");
  toolkit.toOpenAI({ strict: true, names: "exact" });
  toolkit.toOpenAI({ names: "exact", strict: true });
  expect(lower).toHaveBeenCalledTimes(1);
  toolkit.toOpenAI({ strict: false });
  expect(lower).toHaveBeenCalledTimes(2);
  expect(toolkit.toOpenAI({ strict: true })[0]).toMatchObject({ type: "function", function: { strict: true } });
});

it("a per-user export filters the lowered tools: no lowering per ctx", () => {
  const adminOnly = tool("admin_only", (ctx) => ctx.state?.role === "admin");
  const toolkit = new Toolkit([tool("a"), adminOnly]);
  const lower = lowerings("anthropic");
  expect(toolkit.toAnthropic({ ctx: { state: { role: "admin" } } }).map((t) => t.name)).toEqual(["a", "admin_only"]);
  expect(toolkit.toAnthropic({ ctx: { state: { role: "guest" } } }).map((t) => t.name)).toEqual(["a"]);
  expect(toolkit.toAnthropic({ ctx: { state: { role: "admin" } } }).map((t) => t.name)).toEqual(["a", "admin_only"]);
  expect(lower).toHaveBeenCalledTimes(2);
});

it("registering a tool lowers only the new one, and the calls still read back the provider's way", async () => {
  const toolkit = new Toolkit([tool("a")]);
  const lower = lowerings("gemini");
  toolkit.toGemini();
  toolkit.register(tool("b"));
  const names = toolkit.toGemini()[0]!.functionDeclarations.map((d) => d.name);
  expect(names).toEqual(["a", "b"]);
  expect(lower).toHaveBeenCalledTimes(2);
  // Gemini has no null type: `count: null` arrives as Gemini writes it and is read back as null.
  const reply = await toolkit.runGemini([{ functionCall: { name: "b", args: { when: "2026-01-01T00:00:00Z" } } }]);
  expect(reply?.parts[0]?.functionResponse?.response).toEqual({
    output: JSON.stringify({ when: "2026-01-01T00:00:00Z" }),
  });
});

it("the options a lowering reads decide reuse, however they are given; the others do not split it", () => {
  const toolkit = new Toolkit([tool("a")]);
  const lower = lowerings("openai");
  const inherited = Object.create({ strict: true }) as { strict?: boolean };
  expect(toolkit.toOpenAI(inherited)[0]).toMatchObject({ type: "function", function: { strict: true } });
  expect(functionOf(toolkit.toOpenAI()[0]).parameters).not.toHaveProperty("additionalProperties", false);
  expect(lower).toHaveBeenCalledTimes(2);
  toolkit.toOpenAI({ names: "sanitize" });
  expect(lower).toHaveBeenCalledTimes(2);
});

it("options whose values are no JSON are not cached, and still export", () => {
  const toolkit = new Toolkit([tool("a")]);
  const lower = lowerings("openai");
  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;
  toolkit.toOpenAI({ strict: cyclic as never });
  toolkit.toOpenAI({ strict: cyclic as never });
  expect(lower).toHaveBeenCalledTimes(2);
});
