/**
 * Fuzz: 10,000 arbitrary argument payloads per parameter form, each sent through
 * `Toolkit.execute` and through every provider round trip (`runGemini`, `runOpenAI`,
 * `runOpenAIResponses`, `runAnthropic`, `runBedrock`). Whatever comes in: no throw, no
 * rejection, always a ToolResult (or the provider's result message around one), no prototype
 * pollution, and a validated tool never sees arguments that break its schema.
 *
 * Deterministic: each form has its own fixed fast-check seed. Jest 30 fails the running test
 * on any unhandled rejection; each test drains the event loop before it ends so a late one
 * would still land inside it.
 */
import fc from "fast-check";
import { Toolkit, type ToolResult } from "../../src";
import {
  bodyRuns,
  breaches,
  decoratedToolNames,
  echoTool,
  FormsService,
  handWrittenTool,
  nonFiniteBreaches,
  OddResultsService,
  validatedTool,
} from "./forms";
import { anyPayload, asArgumentText, payloadsFor } from "./payloads";

const RUNS = 10_000;
const BASE_SEED = 20_240_808;
const KINDS = ["invalid_arguments", "unknown_tool", "execution_failed", "timeout", "aborted"];
const FORMS = [...decoratedToolNames, "echo", "weather", "hand_written"] as const;

const toolkit = new Toolkit([new FormsService(), new OddResultsService(), echoTool, validatedTool, handWrittenTool]);

const prototypes = [Object.prototype, Array.prototype, Function.prototype, String.prototype, Number.prototype];
const prototypeShapes = prototypes.map((p) => Object.getOwnPropertyNames(p).join());

/** Cheap enough to run after every payload. */
function assertNoPollution(): void {
  prototypes.forEach((p, i) => {
    if (Object.getOwnPropertyNames(p).join() !== prototypeShapes[i])
      throw new Error(`prototype polluted: ${Object.getOwnPropertyNames(p).join()}`);
  });
  if (({} as Record<string, unknown>).polluted !== undefined || Object.getPrototypeOf({}) !== Object.prototype) {
    throw new Error("Object.prototype polluted");
  }
}

function assertToolResult(result: unknown, where: string): asserts result is ToolResult {
  const r = result as ToolResult;
  if (typeof r !== "object" || r === null || typeof r.output !== "string" || typeof r.isError !== "boolean") {
    throw new Error(`${where}: not a ToolResult: ${String(result)}`);
  }
  if (r.isError && !KINDS.includes(r.metadata?.error as string))
    throw new Error(`${where}: error without a known kind: ${JSON.stringify(r)}`);
}

function assertText(value: unknown, where: string): void {
  if (typeof value !== "string") throw new Error(`${where}: expected text, got ${typeof value}`);
}

/** One payload through every entry point; each answer checked for shape and call id. */
async function throughEveryEntry(name: string, payload: unknown, n: number): Promise<void> {
  const id = `call_${n}`;
  const text = asArgumentText(payload);

  assertToolResult(await toolkit.execute(name, payload), `execute(${name})`);

  const gemini = await toolkit.runGemini([{ functionCall: { id, name, args: payload as Record<string, unknown> } }]);
  if (gemini === undefined) throw new Error("runGemini: no reply to a call");
  const part = gemini.parts[0]!.functionResponse;
  if (gemini.role !== "user" || gemini.parts.length !== 1 || part.name !== name || part.id !== id)
    throw new Error(`runGemini: ${JSON.stringify(gemini)}`);
  assertText("output" in part.response ? part.response.output : part.response.error, "runGemini");

  const openai = await toolkit.runOpenAI([{ id, type: "function", function: { name, arguments: text as string } }]);
  if (openai.length !== 1 || openai[0]!.role !== "tool" || openai[0]!.tool_call_id !== id)
    throw new Error(`runOpenAI: ${JSON.stringify(openai)}`);
  assertText(openai[0]!.content, "runOpenAI");

  const responses = await toolkit.runOpenAIResponses([{ type: "function_call", call_id: id, name, arguments: text }]);
  if (responses.length !== 1 || responses[0]!.type !== "function_call_output" || responses[0]!.call_id !== id) {
    throw new Error(`runOpenAIResponses: ${JSON.stringify(responses)}`);
  }
  assertText(responses[0]!.output, "runOpenAIResponses");

  const anthropic = await toolkit.runAnthropic([{ type: "tool_use", id, name, input: payload }]);
  if (anthropic === undefined) throw new Error("runAnthropic: no reply to a call");
  const block = anthropic.content[0]!;
  if (
    anthropic.role !== "user" ||
    anthropic.content.length !== 1 ||
    block.type !== "tool_result" ||
    block.tool_use_id !== id
  ) {
    throw new Error(`runAnthropic: ${JSON.stringify(anthropic)}`);
  }
  assertText(block.content, "runAnthropic");

  const bedrock = await toolkit.runBedrock([{ toolUse: { toolUseId: id, name, input: payload } }]);
  if (bedrock === undefined) throw new Error("runBedrock: no reply to a call");
  const toolResult = bedrock.content[0]!.toolResult;
  if (
    bedrock.role !== "user" ||
    bedrock.content.length !== 1 ||
    toolResult.toolUseId !== id ||
    !["success", "error"].includes(toolResult.status)
  ) {
    throw new Error(`runBedrock: ${JSON.stringify(bedrock)}`);
  }
  assertText(toolResult.content[0]!.text, "runBedrock");

  assertNoPollution();
}

const drainEventLoop = () => new Promise<void>((resolve) => setTimeout(resolve, 10));

describe("fuzz: 10,000 arbitrary payloads per parameter form, through execute and every run*", () => {
  beforeEach(() => {
    breaches.length = 0;
    nonFiniteBreaches.length = 0;
    for (const key of Object.keys(bodyRuns)) delete bodyRuns[key];
  });

  it.each(FORMS.map((form, index) => [form, BASE_SEED + index] as const))("%s (seed %d)", async (form, seed) => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(payloadsFor(form), (payload) => throughEveryEntry(form, payload, n++)),
      { seed, numRuns: RUNS },
    );
    await drainEventLoop();
    expect(breaches).toEqual([]);
    assertNoPollution();
    // Only the known gap may show up here (see limits.test.ts, "non-JSON numbers").
    expect(nonFiniteBreaches.every((line) => /\(got -?Infinity\)$/.test(line))).toBe(true);
    // The payloads are not all rejected at the door: valid ones reach the tool body.
    expect(bodyRuns[form] ?? 0).toBeGreaterThan(RUNS / 100);
  });

  it("unknown and odd tool names (seeded): an unknown_tool result, never a throw", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.string(), fc.constantFrom("__proto__", "constructor", "toString", "hasOwnProperty", "")),
        anyPayload,
        async (name, payload) => {
          if (toolkit.has(name)) return;
          const result = await toolkit.execute(name, payload);
          assertToolResult(result, "execute(unknown)");
          expect(result.metadata?.error).toBe("unknown_tool");
          assertNoPollution();
        },
      ),
      { seed: BASE_SEED - 1, numRuns: 2_000 },
    );
  });
});
