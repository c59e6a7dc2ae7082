/**
 * The one tool every bench suite measures, written once for toolnexus and once for each
 * baseline, so that every figure compares the same work: a catalogue search taking a string,
 * an enum and a number with a range, returning a string.
 *
 * Not a suite (bench/run.ts only runs bench/suites/*.ts).
 */
import "reflect-metadata";
import { tool as aiTool } from "ai";
import { tool as lcTool } from "@langchain/core/tools";
import { z } from "zod";
import { Param, Tool } from "../src";
import { SORTS, searchBody, type Sort } from "./search-body";

export { SORTS, searchBody, type Sort };

export class CatalogService {
  @Tool("Search the catalogue")
  search(
    @Param("query", { description: "What to look for" }) query: string,
    @Param("sort", { enum: [...SORTS], description: "Result order" }) sort: string,
    @Param("limit", { minimum: 1, maximum: 100, description: "How many results" }) limit: number,
  ): string {
    return searchBody(query, sort, limit);
  }
}

export const VALID_ARGS: { query: string; sort: Sort; limit: number } = {
  query: "running shoes",
  sort: "price",
  limit: 20,
};
/** Two of three arguments wrong, the way a model gets them wrong. */
export const INVALID_ARGS = { query: "running shoes", sort: "cheapest", limit: 500 };

/** The baseline validation floor: the checks a careful developer would write by hand. */
export function handChecked(args: Record<string, unknown>): { output: string; isError: boolean } {
  const { query, sort, limit } = args;
  const problems: string[] = [];
  if (typeof query !== "string") problems.push(`"query" must be a string`);
  if (sort !== "relevance" && sort !== "price" && sort !== "newest")
    problems.push(`"sort" must be one of relevance, price, newest`);
  if (typeof limit !== "number" || !(limit >= 1 && limit <= 100))
    problems.push(`"limit" must be a number from 1 to 100`);
  if (problems.length > 0)
    return { output: `Invalid arguments for tool "search": ${problems.join("; ")}`, isError: true };
  return { output: searchBody(query as string, sort as string, limit as number), isError: false };
}

/** The same schema in zod, as AI SDK and LangChain users write it. */
export const searchZodSchema = z.object({
  query: z.string().describe("What to look for"),
  sort: z.enum(SORTS).describe("Result order"),
  limit: z.number().min(1).max(100).describe("How many results"),
});

export function makeAiSdkTool() {
  return aiTool({
    description: "Search the catalogue",
    inputSchema: searchZodSchema,
    execute: async ({ query, sort, limit }) => searchBody(query, sort, limit),
  });
}

export function makeLangChainTool() {
  return lcTool(async ({ query, sort, limit }) => searchBody(query, sort, limit), {
    name: "search",
    description: "Search the catalogue",
    schema: searchZodSchema,
  });
}
