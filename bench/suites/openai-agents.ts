/**
 * OpenAI Agents SDK: one call of the catalogue search as the SDK's runner makes it,
 * `tool.invoke(runContext, argumentsJson)` (the model's arguments as JSON text), for
 *  - the toolkit's tool through `toAgentsTools` (the SDK's JSON.parse, toolnexus's validation
 *    and limits, the body, the result as the SDK's output), against
 *  - the SDK's own tool for the same function, `tool({ parameters: zod, execute })` (the SDK's
 *    JSON.parse, zod's validation, the body): what an Agents SDK user writes by hand;
 *  - `toolkit.execute` with the same JSON text: what the adapter adds to the toolkit's call.
 * With invalid arguments the SDK's zod tool answers its generic error text (its default
 * `errorFunction`), toolnexus the list of problems: reported without a target.
 */
import { RunContext, tool } from "@openai/agents";
import { Toolkit } from "../../src";
import { toAgentsTools } from "../../src/openai-agents";
import { CatalogService, INVALID_ARGS, VALID_ARGS, searchBody, searchZodSchema } from "../fixtures";
import { compare, row, settingsFor } from "../harness";
import type { BenchRow, BenchSuite } from "../types";

const SUITE = "openai agents";
const UNIT = "ns/call";

export const run: BenchSuite = async (options) => {
  const toolkit = new Toolkit([new CatalogService()]); // default options, as in the hot path
  const [adapted] = toAgentsTools(toolkit);
  const own = tool({
    name: "search",
    description: "Search the catalogue",
    parameters: searchZodSchema,
    execute: async ({ query, sort, limit }) => searchBody(query, sort, limit),
  });
  const runContext = new RunContext({});
  const valid = JSON.stringify(VALID_ARGS);
  const invalid = JSON.stringify(INVALID_ARGS);

  await checkEquivalence(
    (json) => adapted!.invoke(runContext, json),
    (json) => own.invoke(runContext, json),
    (json) => toolkit.execute("search", json).then((result) => result.output),
  );

  const settings = settingsFor(options);
  const validTimes = await compare(
    {
      adapted: () => adapted!.invoke(runContext, valid),
      own: () => own.invoke(runContext, valid),
      execute: () => toolkit.execute("search", valid),
    },
    settings,
  );
  const invalidTimes = await compare(
    {
      adapted: () => adapted!.invoke(runContext, invalid),
      own: () => own.invoke(runContext, invalid),
    },
    settings,
  );

  const rows: BenchRow[] = [
    row(
      {
        suite: SUITE,
        case: "toAgentsTools tool.invoke, valid args",
        value: validTimes.adapted!,
        baseline: "Agents SDK tool({ parameters: zod }).invoke",
        baselineValue: validTimes.own!,
        unit: UNIT,
      },
      { text: "≤ 1× the SDK's own zod tool", maxRatio: 1 },
    ),
    row({
      suite: SUITE,
      case: "toAgentsTools tool.invoke, valid args",
      value: validTimes.adapted!,
      baseline: "Toolkit.execute (same JSON text)",
      baselineValue: validTimes.execute!,
      unit: UNIT,
    }),
    row({
      suite: SUITE,
      case: "toAgentsTools tool.invoke, invalid args (every problem listed)",
      value: invalidTimes.adapted!,
      baseline: "Agents SDK zod tool (generic error text)",
      baselineValue: invalidTimes.own!,
      unit: UNIT,
    }),
  ];
  return rows;
};

/** Refuses to measure implementations that do not do the same work. */
async function checkEquivalence(
  adapted: (json: string) => Promise<unknown>,
  own: (json: string) => Promise<unknown>,
  execute: (json: string) => Promise<string>,
): Promise<void> {
  const expected = searchBody(VALID_ARGS.query, VALID_ARGS.sort, VALID_ARGS.limit);
  const outputs = {
    adapted: await adapted(JSON.stringify(VALID_ARGS)),
    own: await own(JSON.stringify(VALID_ARGS)),
    execute: await execute(JSON.stringify(VALID_ARGS)),
  };
  for (const [name, output] of Object.entries(outputs)) {
    if (output !== expected)
      throw new Error(`openai agents bench: ${name} gave ${JSON.stringify(output)} for valid args`);
  }
  const refused = {
    adapted: await adapted(JSON.stringify(INVALID_ARGS)),
    own: await own(JSON.stringify(INVALID_ARGS)),
  };
  if (typeof refused.adapted !== "string" || !refused.adapted.startsWith('Error: Invalid arguments for tool "search"'))
    throw new Error(`openai agents bench: the adapted tool gave ${JSON.stringify(refused.adapted)} for invalid args`);
  if (typeof refused.own !== "string" || refused.own === expected)
    throw new Error(`openai agents bench: the SDK's tool gave ${JSON.stringify(refused.own)} for invalid args`);
}
