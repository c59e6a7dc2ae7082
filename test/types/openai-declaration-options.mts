/**
 * Type fidelity for OpenAI's newer tool kinds: free-text (custom) tools, namespaces, deferred tools
 * with tool search, and the replies to custom calls are accepted where the openai SDK's types
 * expect them, with no casts. Never run; compiled against the built package.
 */
import type OpenAI from "openai";
import { defineTool, Toolkit, type Tool } from "toolnexus";

const lookup: Tool = {
  ...defineTool({
    name: "lookup_order",
    description: "Finds an order by its id",
    inputSchema: { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
    execute: (args) => `order ${String(args.id)}`,
  }),
  namespace: "orders",
  defer: true,
  strict: true,
};
const sql = defineTool({
  name: "run_sql",
  description: "Runs one SQL query",
  input: "text",
  grammar: { syntax: "lark", definition: 'start: "SELECT" /[a-z]+/' },
  execute: (text) => `rows for ${text}`,
});
const toolkit = new Toolkit([lookup, sql]);

export async function chat(
  completion: OpenAI.Chat.Completions.ChatCompletion,
): Promise<OpenAI.Chat.Completions.ChatCompletionCreateParams> {
  const messages: OpenAI.Chat.Completions.ChatCompletionMessageParam[] = [{ role: "user", content: "orders?" }];
  const tools: OpenAI.Chat.Completions.ChatCompletionTool[] = toolkit.toOpenAI({ conversation: messages });
  const custom: OpenAI.Chat.Completions.ChatCompletionCustomTool[] = tools.filter(
    (tool): tool is OpenAI.Chat.Completions.ChatCompletionCustomTool => tool.type === "custom",
  );
  const reply: OpenAI.Chat.Completions.ChatCompletionMessageParam[] = await toolkit.runOpenAI(completion);
  return {
    model: "gpt-5",
    messages: [...messages, completion.choices[0]!.message, ...reply],
    tools: [...tools, ...custom],
  };
}

export async function responses(response: OpenAI.Responses.Response): Promise<OpenAI.Responses.ResponseCreateParams> {
  const tools: OpenAI.Responses.ResponseCreateParams["tools"] = toolkit.toOpenAIResponses({
    strict: true,
    namespaces: { orders: "Reading orders" },
  });
  const reply: OpenAI.Responses.ResponseInputItem[] = await toolkit.runOpenAIResponses(response);
  const fromItems: OpenAI.Responses.ResponseInputItem[] = await toolkit.runOpenAIResponses(response.output);
  return { model: "gpt-5.4", previous_response_id: response.id, input: [...reply, ...fromItems], tools };
}
