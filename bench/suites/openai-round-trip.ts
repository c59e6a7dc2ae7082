/**
 * OpenAI round trip: `toolkit.runOpenAI(message)` on an assistant message carrying 10 tool
 * calls with JSON-string arguments (as Chat Completions sends them), producing the 10 `tool`
 * messages to append. Baselines do the same work from the same message, concurrently:
 *  - hand-written: JSON.parse, the hand-written check, the method, the tool message;
 *  - Vercel AI SDK: `safeParseJSON({ text, schema })` (what its runtime does with a provider's
 *    argument text), then `execute`;
 *  - LangChain: `tool.invoke({ type: "tool_call", id, name, args })`, which returns the
 *    `ToolMessage` (arguments parsed with JSON.parse first, as its OpenAI adapter does).
 */
import { safeParseJSON } from "@ai-sdk/provider-utils";
import { Toolkit } from "../../src";
import type { OpenAIToolMessage } from "../../src/providers";
import { CatalogService, SORTS, handChecked, makeAiSdkTool, makeLangChainTool } from "../fixtures";
import { compare, row, settingsFor } from "../harness";
import type { BenchSuite } from "../types";

const SUITE = "OpenAI round trip";
const UNIT = "ns/message";

/** An assistant message with 10 calls, each with its own arguments. */
function assistantMessage() {
  return {
    role: "assistant" as const,
    content: null,
    tool_calls: Array.from({ length: 10 }, (_, i) => ({
      id: `call_${i}`,
      type: "function" as const,
      function: {
        name: "search",
        arguments: JSON.stringify({ query: `item ${i}`, sort: SORTS[i % SORTS.length], limit: 10 + i }),
      },
    })),
  };
}

export const run: BenchSuite = async (options) => {
  const toolkit = new Toolkit([new CatalogService()]);
  const ai = makeAiSdkTool();
  const lc = makeLangChainTool();
  const message = assistantMessage();

  const handWritten = (msg: typeof message): Promise<OpenAIToolMessage[]> =>
    Promise.all(
      msg.tool_calls.map(async (call) => {
        let result: { output: string; isError: boolean };
        try {
          result = handChecked(JSON.parse(call.function.arguments) as Record<string, unknown>);
        } catch (error) {
          result = { output: (error as Error).message, isError: true };
        }
        return {
          role: "tool" as const,
          tool_call_id: call.id,
          content: result.isError ? `Error: ${result.output}` : result.output,
        };
      }),
    );

  const aiSdk = (msg: typeof message): Promise<OpenAIToolMessage[]> =>
    Promise.all(
      msg.tool_calls.map(async (call) => {
        const parsed = await safeParseJSON({ text: call.function.arguments, schema: ai.inputSchema });
        const content = parsed.success
          ? ((await ai.execute!(parsed.value, { toolCallId: call.id, messages: [] })) as string)
          : `Error: ${parsed.error.message}`;
        return { role: "tool" as const, tool_call_id: call.id, content };
      }),
    );

  const langChain = (msg: typeof message) =>
    Promise.all(
      msg.tool_calls.map((call) =>
        lc.invoke({
          type: "tool_call",
          id: call.id,
          name: call.function.name,
          args: JSON.parse(call.function.arguments) as Record<string, unknown>,
        }),
      ),
    );

  // Refuse to compare implementations that do not answer the same way.
  const expected = await handWritten(message);
  const ours = await toolkit.runOpenAI(message);
  const theirs = await aiSdk(message);
  const lcMessages = await langChain(message);
  const lcSimple = lcMessages.map((m) => ({ role: "tool", tool_call_id: m.tool_call_id, content: m.content }));
  for (const [name, got] of [
    ["toolnexus", ours],
    ["AI SDK", theirs],
    ["LangChain", lcSimple],
  ] as const) {
    if (JSON.stringify(got) !== JSON.stringify(expected))
      throw new Error(`${SUITE}: ${name} answered ${JSON.stringify(got)}, expected ${JSON.stringify(expected)}`);
  }

  const figures = await compare(
    {
      toolnexus: () => toolkit.runOpenAI(message),
      hand: () => handWritten(message),
      ai: () => aiSdk(message),
      langchain: () => langChain(message),
    },
    { ...settingsFor(options), batch: 10 },
  );
  const caseName = "runOpenAI, 10 calls (JSON-string args)";
  const value = figures.toolnexus!;
  return [
    row({
      suite: SUITE,
      case: caseName,
      value,
      baseline: "hand-written loop (parse, check, call, message)",
      baselineValue: figures.hand!,
      unit: UNIT,
    }),
    row({
      suite: SUITE,
      case: caseName,
      value,
      baseline: "Vercel AI SDK (safeParseJSON + execute)",
      baselineValue: figures.ai!,
      unit: UNIT,
    }),
    row({
      suite: SUITE,
      case: caseName,
      value,
      baseline: "LangChain tool.invoke(tool_call) → ToolMessage",
      baselineValue: figures.langchain!,
      unit: UNIT,
    }),
  ];
};
