import type MiniSearch from "minisearch";
import type { Tool, ToolCallContext, ToolContext } from "../core/types";
import { defineTool } from "../define/define-tool";
import { SEARCH_LIMITS, SEARCH_TOOL_DECLARATION, type FoundTool, type SearchAnswer } from "../providers/tool-search";
import { exportTools } from "../providers/adapter";
import { mcp } from "../providers/mcp";

/** The words of a name: `getWeather`, `get_weather` and `get-weather` all read "get weather". */
function wordsOf(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/[_.\-:]+/g, " ")
    .toLowerCase();
}

interface SearchDocument {
  id: string;
  name: string;
  words: string;
  description: string;
  parameters: string;
}

function documentOf(tool: Tool): SearchDocument {
  const properties = tool.inputSchema.properties ?? {};
  const parameters = Object.entries(properties).map(([name, schema]) =>
    [wordsOf(name), typeof schema?.description === "string" ? schema.description : ""].join(" "),
  );
  return {
    id: tool.name,
    name: tool.name,
    words: wordsOf(tool.name),
    description: tool.description,
    parameters: parameters.join(" "),
  };
}

/**
 * A toolkit's deferred tools, searchable: the index (MiniSearch: BM25 ranking, prefix and fuzzy
 * matching) is built when the first search runs, and again after tools are added. `tools` gives
 * the deferred tools a ctx may see.
 */
export class DeferredToolSearch {
  #index: MiniSearch<SearchDocument> | undefined;
  #tool: Tool | undefined;

  constructor(
    private readonly deferredTools: () => readonly Tool[],
    private readonly visibleTo: (tool: Tool, ctx: ToolContext) => boolean,
  ) {}

  /** The tools were changed: the index is built again by the next search. */
  forget(): void {
    this.#index = undefined;
  }

  /** `search_tools`, answered by this search: a real tool, so a call goes through every seam as others do. */
  get tool(): Tool {
    return (this.#tool ??= defineTool({
      name: SEARCH_TOOL_DECLARATION.name,
      description: SEARCH_TOOL_DECLARATION.description,
      inputSchema: SEARCH_TOOL_DECLARATION.inputSchema,
      annotations: SEARCH_TOOL_DECLARATION.annotations,
      validate: true,
      execute: (args: { query: string; limit?: number }, ctx) =>
        JSON.stringify(this.search(args.query, args.limit, ctx)),
    }));
  }

  /**
   * The deferred tools that best match `query` and that `ctx` may see, best first. Over MCP, whose
   * client cannot be sent new declarations, each comes with its input schema as `tools/list` would give it.
   */
  search(
    query: string,
    limit: number = SEARCH_LIMITS.defaultResults,
    ctx: ToolCallContext | ToolContext = {},
  ): SearchAnswer {
    const byName = new Map(this.deferredTools().map((tool) => [tool.name, tool]));
    const index = (this.#index ??= indexOf([...byName.values()]));
    const found: FoundTool[] = [];
    for (const hit of index.search(query)) {
      const tool = byName.get(hit.id as string);
      if (tool === undefined || !this.visibleTo(tool, ctx)) continue;
      found.push(
        ctx.provider === "mcp"
          ? { name: tool.name, description: tool.description, inputSchema: mcpInputSchema(tool) }
          : { name: tool.name, description: tool.description },
      );
      if (found.length >= limit) break;
    }
    return { query, tools: found };
  }
}

function indexOf(tools: readonly Tool[]): MiniSearch<SearchDocument> {
  // Loaded with the first search: a toolkit that defers nothing never pays for it.
  const Search = require("minisearch") as typeof MiniSearch;
  const index = new Search<SearchDocument>({
    fields: ["name", "words", "description", "parameters"],
    searchOptions: {
      boost: { name: 3, words: 3, description: 1.5 },
      prefix: true,
      fuzzy: 0.2,
      combineWith: "OR",
    },
  });
  index.addAll(tools.map(documentOf));
  return index;
}

/** The input schema `tools/list` would give the tool, were it not deferred. */
function mcpInputSchema(tool: Tool): FoundTool["inputSchema"] {
  const declared = exportTools(mcp, [{ ...tool, defer: false }], { names: "sanitize" });
  return declared.declarations[0]?.inputSchema;
}
