import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import OpenAI from "openai";
import type { ChatCompletionMessageParam } from "openai/resources/chat/completions";
import type { Response, ResponseInputItem } from "openai/resources/responses/responses";
import { defineTool, Toolkit, type Tool } from "../../src";

/**
 * The official `openai` client against a local server that speaks the Chat Completions and
 * Responses wire formats: the first request gets tool calls (tool search, a namespaced function,
 * a custom tool), the next is accepted only when every call is answered exactly once, by the
 * output item of its kind, and nothing else is answered.
 */
type Json = Record<string, unknown>;

const ran: string[] = [];
const tools: Tool[] = [
  {
    ...defineTool({
      name: "lookup_order",
      description: "Finds an order by its id",
      inputSchema: { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
      execute: (args) => (ran.push("lookup_order"), `order ${String(args.id)}`),
    }),
    namespace: "orders",
    defer: true,
  },
  defineTool({
    name: "run_sql",
    description: "Runs one SQL query",
    input: "text",
    grammar: { syntax: "regex", definition: "SELECT [a-z*]+ FROM [a-z]+" },
    execute: (text) => (ran.push("run_sql"), `rows for ${text}`),
  }),
];

let server: Server;
let baseURL: string;
const requests: Json[] = [];
const problems: string[] = [];

beforeAll(async () => {
  server = createServer((request, response) => void answer(request, response));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  ran.length = 0;
  requests.length = 0;
  problems.length = 0;
});

async function answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
  let text = "";
  for await (const chunk of request) text += String(chunk);
  const body = JSON.parse(text) as Json;
  requests.push(body);
  const found = request.url === "/v1/responses" ? responsesProblems(body) : chatProblems(body);
  problems.push(...found);
  response.setHeader("content-type", "application/json");
  if (found.length > 0) {
    response.statusCode = 400;
    response.end(JSON.stringify({ error: { message: found.join("\n"), type: "invalid_request_error" } }));
    return;
  }
  response.end(JSON.stringify(request.url === "/v1/responses" ? responsesTurn(body) : chatTurn(body)));
}

// ---- Responses ----------------------------------------------------------------------------

const RESPONSE_CALLS = [
  {
    type: "tool_search_call",
    id: "ts_1",
    call_id: null,
    arguments: { paths: ["orders"] },
    execution: "server",
    status: "completed",
  },
  {
    type: "tool_search_output",
    id: "tso_1",
    call_id: null,
    execution: "server",
    status: "completed",
    tools: [{ type: "function", name: "lookup_order", parameters: {}, strict: false }],
  },
  {
    type: "function_call",
    id: "fc_1",
    call_id: "call_1",
    name: "lookup_order",
    namespace: "orders",
    arguments: '{"id":"A1"}',
  },
  { type: "custom_tool_call", id: "ctc_1", call_id: "call_2", name: "run_sql", input: "SELECT * FROM orders" },
];

function responsesTurn(body: Json): Json {
  const input = body.input as Json[];
  const answered = input.some((item) => item.type === "function_call_output");
  const output = answered
    ? [
        {
          type: "message",
          id: "m_1",
          role: "assistant",
          status: "completed",
          content: [{ type: "output_text", text: "done", annotations: [] }],
        },
      ]
    : RESPONSE_CALLS;
  return { id: "resp_1", object: "response", created_at: 0, model: "gpt-5.4", status: "completed", output };
}

/** What the Responses API refuses in a request: calls answered never, twice, or by the wrong kind of item. */
function responsesProblems(body: Json): string[] {
  const found: string[] = [];
  const tools = body.tools as Json[];
  const deferred = tools
    .flatMap((tool) => (tool.type === "namespace" ? (tool.tools as Json[]) : [tool]))
    .filter((tool) => tool.defer_loading === true);
  if (deferred.length > 0 && !tools.some((tool) => tool.type === "tool_search"))
    found.push("Deferred tools need a tool_search tool in the same request.");
  for (const tool of tools)
    if (tool.type === "namespace" && (typeof tool.description !== "string" || tool.description === ""))
      found.push(`Namespace ${String(tool.name)} needs a description.`);
  const input = body.input as Json[];
  const outputKind: Record<string, string> = {
    function_call: "function_call_output",
    custom_tool_call: "custom_tool_call_output",
  };
  for (const call of input.filter((item) => String(item.type) in outputKind)) {
    const answers = input.filter((item) => item.call_id === call.call_id && item.type !== call.type);
    if (answers.length !== 1) found.push(`Call ${String(call.call_id)} has ${answers.length} outputs; it needs one.`);
    else if (answers[0]!.type !== outputKind[call.type as string])
      found.push(`Call ${String(call.call_id)} (${String(call.type)}) was answered by a ${String(answers[0]!.type)}.`);
  }
  for (const output of input.filter(
    (item) => item.type === "function_call_output" || item.type === "custom_tool_call_output",
  ))
    if (!input.some((item) => item.call_id === output.call_id && String(item.type) in outputKind))
      found.push(`No tool call found for output with call_id ${String(output.call_id)}.`);
  return found;
}

// ---- Chat Completions ---------------------------------------------------------------------

const CHAT_CALLS = [
  { id: "call_1", type: "custom", custom: { name: "run_sql", input: "SELECT id FROM orders" } },
  {
    id: "call_2",
    type: "function",
    function: { name: "search_tools", arguments: '{"query":"find an order by its id"}' },
  },
];

function chatTurn(body: Json): Json {
  const messages = body.messages as Json[];
  const answered = messages.some((message) => message.role === "tool");
  const message = answered
    ? { role: "assistant", content: "done", refusal: null }
    : { role: "assistant", content: null, refusal: null, tool_calls: CHAT_CALLS };
  return {
    id: "chatcmpl_1",
    object: "chat.completion",
    created: 0,
    model: "gpt-5",
    choices: [{ index: 0, message, finish_reason: answered ? "stop" : "tool_calls", logprobs: null }],
  };
}

/** What Chat Completions refuses: an assistant's tool calls not each answered by one tool message right after it. */
function chatProblems(body: Json): string[] {
  const found: string[] = [];
  const messages = body.messages as Json[];
  messages.forEach((message, index) => {
    const calls = (message.tool_calls as Json[] | undefined) ?? [];
    if (calls.length === 0) return;
    const following = messages.slice(index + 1, index + 1 + calls.length);
    for (const call of calls) {
      const answers = following.filter((next) => next.role === "tool" && next.tool_call_id === call.id);
      if (answers.length !== 1)
        found.push(`tool_call_id ${String(call.id)} has ${answers.length} tool messages; it needs one.`);
    }
  });
  for (const tool of (body.tools as Json[] | undefined) ?? [])
    if (tool.type === "custom" && typeof (tool.custom as Json | undefined)?.name !== "string")
      found.push("A custom tool needs custom.name.");
  return found;
}

// ---- The round trips ----------------------------------------------------------------------

/** A response's output items as the next request's input: the SDK types the two lists apart (a computer call's "failed"). */
const sentBack = (output: Response["output"]): ResponseInputItem[] => output as ResponseInputItem[];

describe("the official openai client against a server that checks every call is answered once", () => {
  it("Responses: tool search passes, the namespaced function and the custom tool are each answered once", async () => {
    const toolkit = new Toolkit(tools);
    const client = new OpenAI({ apiKey: "test-key", baseURL, maxRetries: 0 });
    const input: ResponseInputItem[] = [{ role: "user", content: "How many orders?" }];
    const first = await client.responses.create({ model: "gpt-5.4", input, tools: toolkit.toOpenAIResponses() });
    const reply = await toolkit.runOpenAIResponses(first);
    expect(reply).toEqual([
      { type: "function_call_output", call_id: "call_1", output: "order A1" },
      { type: "custom_tool_call_output", call_id: "call_2", output: "rows for SELECT * FROM orders" },
    ]);
    const second = await client.responses.create({
      model: "gpt-5.4",
      input: [...input, ...sentBack(first.output), ...reply],
      tools: toolkit.toOpenAIResponses(),
    });
    expect(second.output_text).toBe("done");
    expect(problems).toEqual([]);
    expect(ran).toEqual(["lookup_order", "run_sql"]);
    expect(requests[0]!.tools).toEqual([
      {
        type: "namespace",
        name: "orders",
        description: "Tools of orders: lookup_order.",
        tools: [expect.objectContaining({ type: "function", name: "lookup_order", defer_loading: true })],
      },
      {
        type: "custom",
        name: "run_sql",
        description: "Runs one SQL query",
        format: { type: "grammar", syntax: "regex", definition: "SELECT [a-z*]+ FROM [a-z]+" },
      },
      { type: "tool_search" },
    ]);
  });

  it("Chat Completions: the custom call and toolnexus's search_tools call are each answered once", async () => {
    const toolkit = new Toolkit(tools);
    const client = new OpenAI({ apiKey: "test-key", baseURL, maxRetries: 0 });
    const messages: ChatCompletionMessageParam[] = [{ role: "user", content: "How many orders?" }];
    const first = await client.chat.completions.create({ model: "gpt-5", messages, tools: toolkit.toOpenAI() });
    const reply = await toolkit.runOpenAI(first);
    expect(reply.map((message) => message.role === "tool" && message.tool_call_id)).toEqual(["call_1", "call_2"]);
    expect(reply[0]).toEqual({ role: "tool", tool_call_id: "call_1", content: "rows for SELECT id FROM orders" });
    const conversation = [...messages, first.choices[0]!.message, ...reply];
    const second = await client.chat.completions.create({
      model: "gpt-5",
      messages: conversation,
      tools: toolkit.toOpenAI({ conversation }),
    });
    expect(second.choices[0]!.message.content).toBe("done");
    expect(problems).toEqual([]);
    const declared = (request: Json) =>
      (request.tools as Json[]).map((tool) => ((tool.function ?? tool.custom) as Json).name);
    expect(declared(requests[0]!)).toEqual(["run_sql", "search_tools"]);
    // The search found lookup_order: the next request declares it.
    expect(declared(requests[1]!)).toEqual(["lookup_order", "run_sql", "search_tools"]);
  });
});
