/**
 * Declaration tokens: what a realistic toolkit's declarations cost the model's context, for each format, with
 * every tool declared and with all but a handful deferred, beside what the Vercel AI SDK sends OpenAI for the
 * same tools (`tool({ inputSchema: jsonSchema(...) })`, the tools part of the request body its OpenAI provider
 * sends). Counted with OpenAI's o200k tokenizer: exact for OpenAI's formats, an estimate for the others.
 *
 * The toolkit: the tools four real MCP servers list (bench/fixtures/mcp-server-tools.json, written by
 * bench/fixtures/list-mcp-server-tools.ts from the published packages).
 *
 * The AI SDK's body is taken from @ai-sdk/openai itself, sending through a fetch that keeps the request and
 * goes no further. Where that package is not installed, the tools the AI SDK hands any provider are taken from
 * a mock model and put in @ai-sdk/openai's form (`{ type: "function", function: { name, description,
 * parameters } }`), and the baseline says so.
 */
import { generateText, jsonSchema, tool as aiTool, type LanguageModel, type ToolSet } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { defineTool, describeExport, type Tool } from "../../src";
import { tokenCounter } from "../../src/providers/declaration-tokens";
import { EXPORT_FORMATS } from "../../src/providers/registry";
import mcpServers from "../fixtures/mcp-server-tools.json";
import { row } from "../harness";
import type { BenchRow, BenchSuite } from "../types";

const SUITE = "declaration tokens";

/** The tools an assistant working on files and a knowledge graph uses every turn: declared up front. */
const UP_FRONT: ReadonlySet<string> = new Set([
  "read_text_file",
  "write_file",
  "list_directory",
  "search_files",
  "search_nodes",
]);

interface ListedTool {
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
}

const listed = (mcpServers.servers as Array<{ tools: ListedTool[] }>).flatMap((server) => server.tools);

function toolnexusTools(): Tool[] {
  return listed.map((tool) =>
    defineTool({
      name: tool.name,
      description: tool.description ?? tool.name,
      inputSchema: tool.inputSchema as Tool["inputSchema"],
      ...(UP_FRONT.has(tool.name) ? {} : { defer: true }),
      execute: () => "ok",
    }),
  );
}

function aiSdkTools(): ToolSet {
  return Object.fromEntries(
    listed.map((tool) => [
      tool.name,
      aiTool({
        description: tool.description ?? tool.name,
        inputSchema: jsonSchema(tool.inputSchema as Parameters<typeof jsonSchema>[0]),
        execute: async () => "ok",
      }),
    ]),
  );
}

type Api = "chat" | "responses";

/** The part of @ai-sdk/openai used here, written out: it is not a dependency of toolnexus. */
interface OpenAiProviderModule {
  createOpenAI(settings: { apiKey: string; fetch: typeof fetch }): {
    chat(modelId: string): LanguageModel;
    responses(modelId: string): LanguageModel;
  };
}

/** What stops a request once its body is kept: nothing is sent. */
class Captured extends Error {}

/** The `tools` of the request body @ai-sdk/openai sends for `tools`, or `undefined` when it is not installed. */
async function openAiProviderBody(api: Api, tools: ToolSet): Promise<unknown> {
  let openai: OpenAiProviderModule;
  try {
    openai = require("@ai-sdk/openai") as OpenAiProviderModule;
  } catch {
    return undefined;
  }
  let body: { tools?: unknown } | undefined;
  const provider = openai.createOpenAI({
    apiKey: "bench",
    fetch: async (_url, init) => {
      body = JSON.parse(String(init?.body)) as { tools?: unknown };
      throw new Captured("request kept, not sent");
    },
  });
  const model = api === "chat" ? provider.chat("gpt-4o") : provider.responses("gpt-4o");
  await generateText({ model, tools, prompt: "hello", maxRetries: 0 }).catch((error: unknown) => {
    if (body === undefined) throw error;
  });
  if (body?.tools === undefined) throw new Error(`@ai-sdk/openai (${api}) sent no tools`);
  return body.tools;
}

/** The tools the AI SDK hands a provider, in the form @ai-sdk/openai's `api` puts them. */
async function toolsInOpenAiForm(api: Api, tools: ToolSet): Promise<unknown> {
  let handed: Array<{ type: string; name: string; description?: string; inputSchema: unknown }> | undefined;
  const mock = new MockLanguageModelV3({
    doGenerate: async (options) => {
      handed = options.tools as typeof handed;
      return {
        content: [{ type: "text", text: "ok" }],
        finishReason: { unified: "stop", raw: undefined },
        usage: {
          inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
          outputTokens: { total: 1, text: 1, reasoning: 0 },
        },
        warnings: [],
      };
    },
  });
  await generateText({ model: mock as LanguageModel, tools, prompt: "hello" });
  if (handed === undefined) throw new Error("the AI SDK handed the mock model no tools");
  return handed.map(({ name, description, inputSchema }) =>
    api === "chat"
      ? { type: "function", function: { name, description, parameters: inputSchema } }
      : { type: "function", name, description, parameters: inputSchema },
  );
}

interface Baseline {
  label: string;
  tokens: number;
}

async function aiSdkBaseline(api: Api): Promise<Baseline> {
  const tools = aiSdkTools();
  const count = tokenCounter("openai").count;
  const body = await openAiProviderBody(api, tools);
  const what = api === "chat" ? "Chat Completions" : "Responses";
  if (body !== undefined)
    return { label: `AI SDK + @ai-sdk/openai (${what}), same tools`, tokens: count(JSON.stringify(body)) };
  return {
    label: `AI SDK tools in @ai-sdk/openai's ${what} form (not installed), same tools`,
    tokens: count(JSON.stringify(await toolsInOpenAiForm(api, tools))),
  };
}

export const run: BenchSuite = async () => {
  const tools = toolnexusTools();
  const deferred = tools.filter((tool) => tool.defer === true).length;
  const chat = await aiSdkBaseline("chat");
  const responses = await aiSdkBaseline("responses");
  const rows: BenchRow[] = [];
  for (const format of EXPORT_FORMATS) {
    // Names such as "get-env" are mapped where a provider rejects them, as a host would export them.
    const { tokens } = describeExport(format, tools, { names: "sanitize" });
    const baseline = format === "openai-responses" ? responses : chat;
    const counted = tokens.method === "o200k" ? format : `${format} (${tokens.method})`;
    rows.push(
      row({
        suite: SUITE,
        case: `${counted}: all ${tools.length} tools declared`,
        value: tokens.allDeclared,
        baseline: baseline.label,
        baselineValue: baseline.tokens,
        unit: "tokens",
      }),
      row(
        {
          suite: SUITE,
          case: `${counted}: ${tools.length - deferred} up front, ${deferred} deferred`,
          value: tokens.declared,
          baseline: baseline.label,
          baselineValue: baseline.tokens,
          unit: "tokens",
        },
        { text: "≤ 0.5× declaring all", maxValue: tokens.allDeclared / 2 },
      ),
    );
  }
  return rows;
};
