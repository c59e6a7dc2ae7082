/**
 * Standard Schema input: one call of the catalogue search through `Toolkit.execute`, its
 * arguments described and checked by a zod, valibot or arktype schema (`~standard.validate`),
 * against the same tool with the same JSON Schema and `validate: true` (Ajv, compiled once).
 * Valid and invalid arguments; tracing off in every case, so only the check differs.
 */
import * as v from "valibot";
import { defineTool, Toolkit, type JSONSchemaObject, type StandardSchemaV1 } from "../../src";
import { INVALID_ARGS, searchBody, searchZodSchema, SORTS, VALID_ARGS } from "../fixtures";
import { compare, row, settingsFor } from "../harness";
import type { BenchRow, BenchSuite } from "../types";

const SUITE = "standard schema";
const UNIT = "ns/call";

const searchJsonSchema: JSONSchemaObject = {
  type: "object",
  properties: {
    query: { type: "string", description: "What to look for" },
    sort: { type: "string", description: "Result order", enum: [...SORTS] },
    limit: { type: "number", description: "How many results", minimum: 1, maximum: 100 },
  },
  required: ["query", "sort", "limit"],
};

function searchTool(inputSchema: StandardSchemaV1<unknown, object> | JSONSchemaObject): Toolkit {
  const execute = (args: Record<string, unknown>) =>
    searchBody(args.query as string, args.sort as string, args.limit as number);
  const tool =
    "~standard" in inputSchema
      ? defineTool({
          name: "search",
          description: "Search the catalogue",
          inputSchema: inputSchema as StandardSchemaV1<unknown, typeof VALID_ARGS>,
          execute,
        })
      : defineTool({ name: "search", description: "Search the catalogue", inputSchema, validate: true, execute });
  return new Toolkit([tool], { tracing: false });
}

export const run: BenchSuite = async (options) => {
  // ESM-only; this file is CommonJS.
  const { type } = await import("arktype");
  const valibot = v.object({
    query: v.string(),
    sort: v.picklist(SORTS),
    limit: v.pipe(v.number(), v.minValue(1), v.maxValue(100)),
  });
  const kits = {
    json: searchTool(searchJsonSchema),
    zod: searchTool(searchZodSchema),
    // valibot writes its JSON Schema through @valibot/to-json-schema: stated here, as toStandardJsonSchema would.
    valibot: searchTool({ "~standard": { ...valibot["~standard"], jsonSchema: { input: () => searchJsonSchema } } }),
    arktype: searchTool(type({ query: "string", sort: type.enumerated(...SORTS), limit: "1 <= number <= 100" })),
  };
  for (const [name, kit] of Object.entries(kits)) {
    const valid = await kit.execute("search", VALID_ARGS);
    const invalid = await kit.execute("search", INVALID_ARGS);
    if (valid.isError || !invalid.isError)
      throw new Error(`standard schema: the ${name} tool answered ${valid.output} / ${invalid.output}`);
  }

  const settings = settingsFor(options);
  const rows: BenchRow[] = [];
  for (const [kind, args] of [
    ["valid args", VALID_ARGS],
    ["invalid args", INVALID_ARGS],
  ] as const) {
    const figures = await compare(
      Object.fromEntries(Object.entries(kits).map(([name, kit]) => [name, () => kit.execute("search", args)])),
      settings,
    );
    for (const library of ["zod", "valibot", "arktype"] as const) {
      rows.push(
        row({
          suite: SUITE,
          case: `Toolkit.execute, ${kind}, defineTool({ inputSchema: ${library} })`,
          value: figures[library]!,
          baseline: "defineTool({ inputSchema: JSON Schema, validate: true })",
          baselineValue: figures.json!,
          unit: UNIT,
        }),
      );
    }
  }
  return rows;
};
