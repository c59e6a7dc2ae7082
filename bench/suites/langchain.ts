/**
 * LangChain: one tool call through `toLangChainTools` (`tool.invoke(toolCall)`, answering a
 * ToolMessage), against
 *  - LangChain's own tool for the same function, `tool(fn, { schema: zod }).invoke(toolCall)`:
 *    what a LangChain user writes by hand. With invalid arguments it throws
 *    ToolInputParsingException; the row catches it into an error ToolMessage, as LangGraph's
 *    ToolNode does, so both answer the model the same way;
 *  - `Toolkit.execute` for the same call: what LangChain's own machinery (config, callbacks,
 *    the ToolMessage) adds to the toolkit's call.
 * Measured twice: in this process, where nothing has turned on LangChain's AsyncLocalStorage
 * (@langchain/core alone, a hand-written loop), and in a child process that turns it on as
 * LangGraph and `createAgent` do (`@langchain/core/context`): each call then sets the current
 * run for the runnables its tool invokes, on both sides.
 */
import { ToolMessage, type ToolCall } from "@langchain/core/messages";
import { ToolInputParsingException } from "@langchain/core/tools";
import { Toolkit } from "../../src";
import { toLangChainTools } from "../../src/langchain";
import { CatalogService, INVALID_ARGS, VALID_ARGS, makeLangChainTool, searchBody } from "../fixtures";
import { compare, isChild, row, runChild, settingsFor, type CompareSettings } from "../harness";
import type { BenchRow, BenchSuite } from "../types";

const SUITE = "langchain";
const UNIT = "ns/call";
const PEER = "LangChain tool(fn, { schema: zod }).invoke(toolCall)";

interface Figures {
  valid: Record<string, number>;
  invalid: Record<string, number>;
}

const callOf = (args: Record<string, unknown>): ToolCall => ({ type: "tool_call", id: "call_1", name: "search", args });

async function measure(settings: CompareSettings): Promise<Figures> {
  const toolkit = new Toolkit([new CatalogService()]);
  const [adapted] = toLangChainTools(toolkit);
  const own = makeLangChainTool();
  const viaAdapter = (args: Record<string, unknown>) => adapted!.invoke(callOf(args));
  const viaLangChain = async (args: Record<string, unknown>): Promise<ToolMessage> => {
    const call = callOf(args);
    try {
      return await own.invoke(call as Parameters<typeof own.invoke>[0] & ToolCall);
    } catch (error) {
      if (!(error instanceof ToolInputParsingException)) throw error;
      return new ToolMessage({ content: error.message, tool_call_id: call.id!, name: call.name, status: "error" });
    }
  };
  await checkEquivalence(viaAdapter, viaLangChain);
  const valid = await compare(
    {
      adapter: () => viaAdapter(VALID_ARGS),
      langchain: () => viaLangChain(VALID_ARGS),
      execute: () => toolkit.execute("search", VALID_ARGS, { callId: "call_1" }),
    },
    settings,
  );
  const invalid = await compare(
    { adapter: () => viaAdapter(INVALID_ARGS), langchain: () => viaLangChain(INVALID_ARGS) },
    settings,
  );
  return { valid, invalid };
}

export const run: BenchSuite = async (options) => {
  const settings = settingsFor(options);
  const plain = await measure(settings);
  const withStorage = await runChild<Figures>(__filename, [JSON.stringify(settings)]);
  const rows: BenchRow[] = [];
  for (const [setting, figures] of [
    ["", plain],
    [", AsyncLocalStorage on (as under LangGraph)", withStorage],
  ] as const) {
    const caseName = (kind: string) => `toLangChainTools tool.invoke(toolCall), ${kind}${setting}`;
    rows.push(
      row({
        suite: SUITE,
        case: caseName("valid args"),
        value: figures.valid.adapter!,
        baseline: PEER,
        baselineValue: figures.valid.langchain!,
        unit: UNIT,
      }),
      row({
        suite: SUITE,
        case: caseName("invalid args"),
        value: figures.invalid.adapter!,
        baseline: `${PEER}, its throw caught into an error ToolMessage (as ToolNode does)`,
        baselineValue: figures.invalid.langchain!,
        unit: UNIT,
      }),
      row({
        suite: SUITE,
        case: caseName("valid args"),
        value: figures.valid.adapter!,
        baseline: "Toolkit.execute, the same call (the rest is LangChain's invoke, config and callbacks)",
        baselineValue: figures.valid.execute!,
        unit: UNIT,
      }),
    );
  }
  return rows;
};

/** Refuses to measure tools that do not do the same work: the same ToolMessage for valid arguments, an error one for invalid. */
async function checkEquivalence(
  viaAdapter: (args: Record<string, unknown>) => Promise<ToolMessage>,
  viaLangChain: (args: Record<string, unknown>) => Promise<ToolMessage>,
): Promise<void> {
  const expected = searchBody(VALID_ARGS.query, VALID_ARGS.sort, VALID_ARGS.limit);
  for (const [name, answer] of [
    ["adapter", viaAdapter],
    ["langchain", viaLangChain],
  ] as const) {
    const valid = await answer(VALID_ARGS);
    if (
      !ToolMessage.isInstance(valid) ||
      valid.status !== "success" ||
      valid.content !== expected ||
      valid.tool_call_id !== "call_1"
    )
      throw new Error(`langchain bench: ${name} answered ${JSON.stringify(valid)} for valid args`);
    const invalid = await answer(INVALID_ARGS);
    if (!ToolMessage.isInstance(invalid) || invalid.status !== "error")
      throw new Error(`langchain bench: ${name} accepted invalid args: ${JSON.stringify(invalid)}`);
  }
}

if (isChild(module)) {
  require("@langchain/core/context");
  const settings = JSON.parse(process.argv[process.argv.indexOf("--child") + 1]!) as CompareSettings;
  void measure(settings).then((figures) => console.log(JSON.stringify(figures)));
}
