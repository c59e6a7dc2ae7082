import { ExportError } from "../core/errors";
import { isObject, type JSONSchemaObject, type Tool } from "../core/types";
import { errorResult } from "../runtime/result";
import type { ExportOptions, ProviderAdapter } from "./adapter";

/** The tool toolnexus adds where a provider has no tool search of its own, and answers itself. */
export const SEARCH_TOOL_NAME = "search_tools";

/** How many tools one search answers with, unless the model asks for fewer (or more, up to the most). */
export const SEARCH_LIMITS = { defaultResults: 5, maxResults: 20, maxQueryLength: 500 } as const;

export const SEARCH_TOOL_INPUT: JSONSchemaObject = {
  type: "object",
  properties: {
    query: {
      type: "string",
      minLength: 1,
      maxLength: SEARCH_LIMITS.maxQueryLength,
      description: 'What you want to do, in a few words (e.g. "refund an order", "weather forecast").',
    },
    limit: {
      type: "integer",
      minimum: 1,
      maximum: SEARCH_LIMITS.maxResults,
      description: `How many tools to find at most (default ${SEARCH_LIMITS.defaultResults}).`,
    },
  },
  required: ["query"],
  additionalProperties: false,
};

export const SEARCH_TOOL_DESCRIPTION =
  "Finds more tools by what they do. Only some tools are declared up front: when none of them fits the task, " +
  "search with a few words describing it, then call a tool it found by its name.";

/**
 * `search_tools` as a declaration: what an export adds when some tools are deferred and the
 * provider cannot search them itself. A toolkit answers its calls (see `Toolkit`); on its own,
 * this object only declares it.
 */
export const SEARCH_TOOL_DECLARATION: Tool = Object.freeze({
  name: SEARCH_TOOL_NAME,
  description: SEARCH_TOOL_DESCRIPTION,
  inputSchema: SEARCH_TOOL_INPUT,
  source: "native",
  annotations: { title: "Search tools", readOnly: true, idempotent: true, openWorld: false },
  execute: () =>
    Promise.resolve(
      errorResult(
        "execution_failed",
        `${SEARCH_TOOL_NAME} is answered by a Toolkit: run the model's calls with the toolkit's run* methods.`,
      ),
    ),
});

/** A tool as a search answer lists it: enough for a model to choose it, and (over MCP) to call it. */
export interface FoundTool {
  name: string;
  description: string;
  /** The tool's full input schema, where the caller cannot be sent a new declaration (MCP). */
  inputSchema?: JSONSchemaObject;
}

/** What `search_tools` answers: the tools found, best first. Its JSON is the result's text. */
export interface SearchAnswer {
  query: string;
  tools: FoundTool[];
}

/**
 * The tools an export declares: every tool, where the provider searches deferred ones itself or
 * none is deferred; else the tools not deferred, those an earlier `search_tools` answer in
 * `options.conversation` found, and `search_tools` itself, last.
 */
export function toolsToDeclare(
  adapter: ProviderAdapter,
  tools: readonly Tool[],
  options: ExportOptions,
  exportedNames: ReadonlyMap<string, string>,
): readonly Tool[] {
  if (adapter.searchesNatively === true || !tools.some((tool) => tool.defer === true)) return tools;
  const clash = tools.find((tool) => tool.name === SEARCH_TOOL_NAME);
  if (clash !== undefined)
    throw new ExportError(
      `The tool "${SEARCH_TOOL_NAME}" (${clash.source} tool) takes the name of the search toolnexus adds for ` +
        `deferred tools on ${adapter.id}; rename it, or declare no tool with defer: true.`,
    );
  const found = foundInConversation(adapter, options.conversation, exportedNames);
  return [...tools.filter((tool) => tool.defer !== true || found.has(tool.name)), SEARCH_TOOL_DECLARATION];
}

/** The names of the tools earlier `search_tools` answers in `conversation` found (as the tools name themselves). */
export function foundInConversation(
  adapter: ProviderAdapter,
  conversation: unknown,
  exportedNames: ReadonlyMap<string, string> = new Map(),
): Set<string> {
  const found = new Set<string>();
  if (conversation === undefined || adapter.answersIn === undefined) return found;
  let answers: unknown[];
  try {
    answers = adapter.answersIn(conversation, SEARCH_TOOL_NAME);
  } catch {
    return found;
  }
  const byExportedName = new Map([...exportedNames].map(([name, exported]) => [exported, name]));
  for (const answer of answers) for (const name of namesFound(answer)) found.add(byExportedName.get(name) ?? name);
  return found;
}

/**
 * The tool names a `search_tools` answer lists, however the provider's message holds it: the
 * answer object, its JSON text, or either inside the result's wrapper (`{ output: ... }`,
 * content blocks). Anything else lists none.
 */
export function namesFound(answer: unknown, depth = 0): string[] {
  if (depth > 4) return [];
  if (typeof answer === "string") {
    const text = answer.trimStart();
    if (!text.startsWith("{") && !text.startsWith("[")) return [];
    try {
      return namesFound(JSON.parse(text) as unknown, depth + 1);
    } catch {
      return [];
    }
  }
  if (Array.isArray(answer)) return answer.flatMap((item) => namesFound(item, depth + 1));
  if (!isObject(answer)) return [];
  if (typeof answer.query === "string" && Array.isArray(answer.tools))
    return answer.tools.flatMap((tool) => (isObject(tool) && typeof tool.name === "string" ? [tool.name] : []));
  return Object.values(answer).flatMap((value) => namesFound(value, depth + 1));
}
