/**
 * The Vercel AI SDK: one call of the catalogue search as a toolkit tool given to the AI SDK
 * with `toAiSdkTools`, against the AI SDK's own `tool({ inputSchema: zod, execute })` for the
 * same function, in the same process:
 *  - per call, what the AI SDK's loop does with a tool call the model sent: the JSON text
 *    parsed and validated against the tool's schema (`safeParseJSON` with it, as its
 *    `parseToolCall` does), the tool run (`executeTool`, as its `executeToolCall` does), and
 *    the result turned into what the model reads (the tool's `toModelOutput`, else the AI
 *    SDK's default). Its telemetry span and callbacks are left out, alike for both;
 *  - the same with arguments the schema refuses (the AI SDK answers its own tool with an
 *    `InvalidToolInputError` message; the toolkit tool with its `invalid_arguments` result);
 *  - a whole `generateText` run with the AI SDK's mock model: one step calling the tool, one
 *    answering, so the row shows what the adapter weighs in a real loop.
 */
import { asSchema, executeTool, safeParseJSON } from "@ai-sdk/provider-utils";
import { generateText, stepCountIs, type LanguageModel, type Tool, type ToolSet } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { Toolkit } from "../../src";
import { toAiSdkTools } from "../../src/ai-sdk";
import { CatalogService, INVALID_ARGS, VALID_ARGS, makeAiSdkTool, searchBody } from "../fixtures";
import { compare, row, settingsFor } from "../harness";
import type { BenchSuite } from "../types";

const SUITE = "ai-sdk";
const UNIT = "ns/call";

/** What the AI SDK does with one tool call the model sent (`input` is its JSON text), up to what the model reads. */
async function aiSdkCall(tool: Tool, input: string): Promise<unknown> {
  const parsed = await safeParseJSON({ text: input, schema: asSchema(tool.inputSchema) });
  if (!parsed.success) return { type: "error-text", value: parsed.error.message };
  let output: unknown;
  for await (const part of executeTool({
    execute: tool.execute!,
    input: parsed.value,
    options: { toolCallId: "call_1", messages: [] },
  })) {
    if (part.type === "final") output = part.output;
  }
  if (tool.toModelOutput !== undefined)
    return tool.toModelOutput({ toolCallId: "call_1", input: parsed.value, output });
  return typeof output === "string" ? { type: "text", value: output } : { type: "json", value: output };
}

/**
 * A model that calls `search` once, then answers: the AI SDK's mock's turns, without its record
 * of every call (which would grow through the run and tax the later samples with garbage collection).
 */
function searchingModel(): LanguageModel {
  const usage = {
    inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: 1, text: 1, reasoning: 0 },
  };
  const mock = new MockLanguageModelV3({
    doGenerate: async ({ prompt }) =>
      prompt.at(-1)?.role === "tool"
        ? {
            content: [{ type: "text", text: "done" }],
            finishReason: { unified: "stop", raw: undefined },
            usage,
            warnings: [],
          }
        : {
            content: [
              { type: "tool-call", toolCallId: "call_1", toolName: "search", input: JSON.stringify(VALID_ARGS) },
            ],
            finishReason: { unified: "tool-calls", raw: undefined },
            usage,
            warnings: [],
          },
  });
  return {
    specificationVersion: "v3",
    provider: mock.provider,
    modelId: mock.modelId,
    supportedUrls: {},
    doGenerate: async (callOptions) => {
      mock.doGenerateCalls.length = 0;
      return mock.doGenerate(callOptions);
    },
    doStream: (callOptions) => mock.doStream(callOptions),
  };
}

function loop(tools: ToolSet): () => Promise<unknown> {
  const model = searchingModel();
  return () => generateText({ model, tools, prompt: "search", stopWhen: stepCountIs(3) });
}

export const run: BenchSuite = async (options) => {
  const adapted = toAiSdkTools(new Toolkit([new CatalogService()])).search!;
  const own = makeAiSdkTool();
  const valid = JSON.stringify(VALID_ARGS);
  const invalid = JSON.stringify(INVALID_ARGS);
  await checkEquivalence(adapted, own, valid, invalid);

  const settings = settingsFor(options);
  const perCall = await compare(
    {
      adapter: () => aiSdkCall(adapted, valid),
      own: () => aiSdkCall(own, valid),
      adapterInvalid: () => aiSdkCall(adapted, invalid),
      ownInvalid: () => aiSdkCall(own, invalid),
    },
    settings,
  );
  const loops = await compare(
    { adapter: loop({ search: adapted }), own: loop({ search: own }) },
    { ...settings, batch: 10 },
  );

  const baseline = "AI SDK tool({ inputSchema: zod, execute }), same function";
  return [
    row({
      suite: SUITE,
      case: "toAiSdkTools tool, valid args (parse, validate, run, toModelOutput)",
      value: perCall.adapter!,
      baseline,
      baselineValue: perCall.own!,
      unit: UNIT,
    }),
    row({
      suite: SUITE,
      case: "toAiSdkTools tool, invalid args (the refusal the model reads)",
      value: perCall.adapterInvalid!,
      baseline,
      baselineValue: perCall.ownInvalid!,
      unit: UNIT,
    }),
    row({
      suite: SUITE,
      case: "generateText, mock model, one call of the tool",
      value: loops.adapter!,
      baseline,
      baselineValue: loops.own!,
      unit: UNIT,
    }),
  ];
};

/** Refuses to measure implementations that do not do the same work. */
async function checkEquivalence(adapted: Tool, own: Tool, valid: string, invalid: string): Promise<void> {
  const expected = { type: "text", value: searchBody(VALID_ARGS.query, VALID_ARGS.sort, VALID_ARGS.limit) };
  for (const [name, tool] of [
    ["adapter", adapted],
    ["own", own],
  ] as const) {
    const answered = await aiSdkCall(tool, valid);
    if (JSON.stringify(answered) !== JSON.stringify(expected))
      throw new Error(`ai-sdk bench: the ${name} tool answered ${JSON.stringify(answered)} for valid args`);
    const refused = (await aiSdkCall(tool, invalid)) as { type: string };
    if (refused.type !== "error-text")
      throw new Error(`ai-sdk bench: the ${name} tool did not refuse invalid args: ${JSON.stringify(refused)}`);
  }
  for (const [name, tools] of [
    ["adapter", { search: adapted }],
    ["own", { search: own }],
  ] as const) {
    const result = await loop(tools)();
    const steps = (result as Awaited<ReturnType<typeof generateText>>).steps;
    if (steps.length !== 2 || steps[0]!.toolResults.length !== 1)
      throw new Error(`ai-sdk bench: the ${name} loop did not call the tool once`);
  }
}
