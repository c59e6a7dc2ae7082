/**
 * Memory: retained heap per registered tool with 10,000 tools registered, measured in a fresh
 * `node --expose-gc` process as the heap growth between two full collections, divided by the
 * number of tools. toolnexus: 10,000 decorated methods (1,000 services × 10) scanned into one
 * Toolkit, decorator metadata included. Baselines: the same 10,000 tools as Vercel AI SDK
 * `tool()`s with zod schemas (a tool set record), and as LangChain `tool()`s.
 *
 * Registration only: toolnexus compiles a tool's validator on its first call, so a tool that
 * has been called holds more (its compiled Ajv function) than measured here.
 */
import "reflect-metadata";
import { tool as aiTool } from "ai";
import { tool as lcTool } from "@langchain/core/tools";
import { z } from "zod";
import { Param, Tool, Toolkit } from "../../src";
import { SORTS, searchBody } from "../search-body";
import { isChild, row, runChild } from "../harness";
import type { BenchSuite } from "../types";
import { defineDecoratedServices } from "./cold-start";

const TOOLS = 10_000;

function zodSchemaFor(index: number) {
  return z.object({
    query: z.string().describe("What to look for"),
    sort: z.enum(SORTS).describe("Result order"),
    limit: z.number().min(1).max(100).describe("How many results"),
    ...(index % 2 === 1 ? { exact: z.boolean().optional().describe("Exact matches only") } : {}),
  });
}

const builders = {
  toolnexus: (count: number, tag: string) => new Toolkit(defineDecoratedServices(count, tag, { Param, Tool })),
  ai: (count: number, tag: string) => {
    const tools: Record<string, unknown> = {};
    for (let index = 0; index < count; index++) {
      tools[`search_${tag}_${index}`] = aiTool({
        description: `Search catalogue ${index} by text`,
        inputSchema: zodSchemaFor(index),
        execute: async ({ query, sort, limit }) => searchBody(query, sort, limit),
      });
    }
    return tools;
  },
  langchain: (count: number, tag: string) => {
    const tools: unknown[] = [];
    for (let index = 0; index < count; index++) {
      tools.push(
        lcTool(async ({ query, sort, limit }) => searchBody(query, sort, limit), {
          name: `search_${tag}_${index}`,
          description: `Search catalogue ${index} by text`,
          schema: zodSchemaFor(index),
        }),
      );
    }
    return tools;
  },
};

type Kind = keyof typeof builders;

function settledHeap(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error("memory suite: run with node --expose-gc");
  for (let i = 0; i < 2; i++) gc();
  return process.memoryUsage().heapUsed;
}

// Written, never read: holds the measured tools reachable while the heap is measured.
// eslint-disable-next-line @typescript-eslint/no-unused-vars
let retained: unknown;

function bytesPerTool(kind: Kind): number {
  builders[kind](10, `${kind}_warm`); // one-time costs (lazy module state, shapes) outside the figure
  retained = undefined;
  const before = settledHeap();
  retained = builders[kind](TOOLS, kind);
  const after = settledHeap();
  const perTool = (after - before) / TOOLS;
  retained = undefined;
  return perTool;
}

function child(): Record<Kind, number> {
  return { toolnexus: bytesPerTool("toolnexus"), ai: bytesPerTool("ai"), langchain: bytesPerTool("langchain") };
}

export const run: BenchSuite = async () => {
  const figures = await runChild<Record<Kind, number>>(__filename, [], ["--expose-gc"]);
  const suite = "memory";
  const caseName = "heap per registered tool, 10,000 tools";
  const unit = "B/tool";
  return [
    row({
      suite,
      case: caseName,
      value: figures.toolnexus,
      baseline: "Vercel AI SDK tool() + zod schema",
      baselineValue: figures.ai,
      unit,
    }),
    row({
      suite,
      case: caseName,
      value: figures.toolnexus,
      baseline: "LangChain tool() + zod schema",
      baselineValue: figures.langchain,
      unit,
    }),
  ];
};

if (isChild(module)) {
  console.log(JSON.stringify(child()));
}
