import type { ChatCompletionMessageParam } from "openai/resources/chat/completions";
import { defineTool, describeExport, ExportError, toOpenAI, toOpenAIResponses, Toolkit, type Tool } from "../../src";

/** Every call that reached a tool body, by tool. */
const ran: Array<{ tool: string; args: Record<string, unknown> }> = [];
beforeEach(() => (ran.length = 0));

const lookupOrder = (extra: Partial<Tool> = {}): Tool => ({
  ...defineTool({
    name: "lookup_order",
    description: "Finds an order by its id",
    inputSchema: { type: "object", properties: { id: { type: "string" }, note: { type: "string" } }, required: ["id"] },
    validate: true,
    execute: (args) => {
      ran.push({ tool: "lookup_order", args });
      return `order ${String(args.id)}`;
    },
  }),
  ...extra,
});

const refund = (extra: Partial<Tool> = {}): Tool => ({
  ...defineTool({
    name: "refund",
    description: "Refunds an order",
    inputSchema: { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
    execute: (args) => {
      ran.push({ tool: "refund", args });
      return `refunded ${String(args.id)}`;
    },
  }),
  ...extra,
});

const runSql = (grammar?: { syntax: "lark" | "regex"; definition: string }, extra: Partial<Tool> = {}): Tool => ({
  ...defineTool({
    name: "run_sql",
    description: "Runs one SQL query",
    input: "text",
    ...(grammar === undefined ? {} : { grammar }),
    execute: (text) => {
      ran.push({ tool: "run_sql", args: { input: text } });
      return `rows for ${text}`;
    },
  }),
  ...extra,
});

const SELECT_ONLY = { syntax: "regex" as const, definition: "SELECT [a-z*]+ FROM [a-z]+" };

describe("OpenAI Chat: strict per tool", () => {
  it("a tool with strict: true is declared strict in an export that did not ask for strict mode", () => {
    const [declaration] = toOpenAI([lookupOrder({ strict: true })]);
    expect(declaration).toEqual({
      type: "function",
      function: {
        name: "lookup_order",
        description: "Finds an order by its id",
        parameters: {
          type: "object",
          properties: { id: { type: "string" }, note: { type: ["string", "null"] } },
          required: ["id", "note"],
          additionalProperties: false,
        },
        strict: true,
      },
    });
  });

  it("a tool with strict: false is sent with strict: false in a strict export, its schema as declared", () => {
    const [own, other] = toOpenAI([lookupOrder({ strict: false }), refund()], { strict: true });
    expect(own).toEqual({
      type: "function",
      function: {
        name: "lookup_order",
        description: "Finds an order by its id",
        parameters: {
          type: "object",
          properties: { id: { type: "string" }, note: { type: "string" } },
          required: ["id"],
        },
        strict: false,
      },
    });
    expect(other).toMatchObject({ function: { name: "refund", strict: true } });
  });

  it("leaves strict out when neither the export nor the tool says", () => {
    const [declaration] = toOpenAI([lookupOrder()]);
    expect(declaration!.type === "function" && Object.keys(declaration.function).sort()).toEqual([
      "description",
      "name",
      "parameters",
    ]);
  });
});

describe("OpenAI Chat: free-text tools", () => {
  it("are declared as custom tools taking any text", () => {
    expect(toOpenAI([runSql()])).toEqual([
      { type: "custom", custom: { name: "run_sql", description: "Runs one SQL query", format: { type: "text" } } },
    ]);
  });

  it("pass their grammar on inside format.grammar", () => {
    expect(toOpenAI([runSql(SELECT_ONLY)])).toEqual([
      {
        type: "custom",
        custom: {
          name: "run_sql",
          description: "Runs one SQL query",
          format: { type: "grammar", grammar: { syntax: "regex", definition: SELECT_ONLY.definition } },
        },
      },
    ]);
  });

  it("a custom call runs the tool with its text, answered by a tool message", async () => {
    const toolkit = new Toolkit([runSql(), lookupOrder()]);
    const reply = await toolkit.runOpenAI([
      { id: "cu_1", type: "custom", custom: { name: "run_sql", input: "SELECT * FROM orders" } },
      { id: "fn_1", type: "function", function: { name: "lookup_order", arguments: '{"id":"A1"}' } },
    ]);
    expect(reply).toEqual([
      { role: "tool", tool_call_id: "cu_1", content: "rows for SELECT * FROM orders" },
      { role: "tool", tool_call_id: "fn_1", content: "order A1" },
    ]);
    expect(ran).toEqual([
      { tool: "run_sql", args: { input: "SELECT * FROM orders" } },
      { tool: "lookup_order", args: { id: "A1" } },
    ]);
  });

  it("a function call with { input } arguments runs a free-text tool too", async () => {
    const reply = await new Toolkit([runSql()]).runOpenAI([
      { id: "fn_1", type: "function", function: { name: "run_sql", arguments: '{"input":"SELECT 1"}' } },
    ]);
    expect(reply).toEqual([{ role: "tool", tool_call_id: "fn_1", content: "rows for SELECT 1" }]);
  });

  it("a custom call's text is checked against a regex grammar before the tool runs", async () => {
    const [message] = await new Toolkit([runSql(SELECT_ONLY)]).runOpenAI([
      { id: "cu_1", type: "custom", custom: { name: "run_sql", input: "DROP TABLE orders" } },
    ]);
    expect(message).toMatchObject({ role: "tool", tool_call_id: "cu_1" });
    expect(message!.content).toMatch(/^Error: Invalid arguments for tool "run_sql"/);
    expect(ran).toEqual([]);
  });

  it("a custom call to a tool of JSON arguments is refused by its schema, and the tool does not run", async () => {
    const [message] = await new Toolkit([lookupOrder()]).runOpenAI([
      { id: "cu_1", type: "custom", custom: { name: "lookup_order", input: "A1" } },
    ]);
    expect(message!.content).toMatch(/^Error: Invalid arguments for tool "lookup_order"/);
    expect(ran).toEqual([]);
  });

  it("a custom call whose input is not text is answered with an error", async () => {
    const reply = await new Toolkit([runSql()]).runOpenAI([
      { id: "cu_1", type: "custom", custom: { name: "run_sql", input: 42 as unknown as string } },
    ]);
    expect(reply).toEqual([
      {
        role: "tool",
        tool_call_id: "cu_1",
        content: 'Error: The input of the call to tool "run_sql" is not text; send the tool\'s input as text.',
      },
    ]);
    expect(ran).toEqual([]);
  });
});

describe("OpenAI Chat: earlier search_tools answers in the conversation", () => {
  const conversation = (answer: string | Array<{ type: "text"; text: string }>): ChatCompletionMessageParam[] => [
    { role: "user", content: "refund order A1" },
    {
      role: "assistant",
      content: null,
      tool_calls: [
        { id: "s1", type: "function", function: { name: "search_tools", arguments: '{"query":"refund"}' } },
        { id: "o1", type: "function", function: { name: "lookup_order", arguments: '{"id":"A1"}' } },
      ],
    },
    { role: "tool", tool_call_id: "s1", content: answer },
    { role: "tool", tool_call_id: "o1", content: '{"query":"x","tools":[{"name":"not_a_search"}]}' },
  ];
  const found = JSON.stringify({ query: "refund", tools: [{ name: "refund", description: "Refunds an order" }] });

  it("answersIn gives the content of the tool messages answering calls of that tool, oldest first", () => {
    const { openai } = jest.requireActual<typeof import("../../src/providers/openai")>("../../src/providers/openai");
    const later: ChatCompletionMessageParam[] = [
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "s2", type: "function", function: { name: "search_tools", arguments: "{}" } }],
      },
      {
        role: "tool",
        tool_call_id: "s2",
        content: [
          { type: "text", text: "second " },
          { type: "text", text: "answer" },
        ],
      },
    ];
    expect(openai.answersIn!([...conversation(found), ...later], "search_tools")).toEqual([found, "second answer"]);
    expect(openai.answersIn!({ messages: conversation(found) }, "lookup_order")).toEqual([
      '{"query":"x","tools":[{"name":"not_a_search"}]}',
    ]);
  });

  it("answersIn reads past what it cannot read, and never throws", () => {
    const { openai } = jest.requireActual<typeof import("../../src/providers/openai")>("../../src/providers/openai");
    const hostile = new Proxy(
      {},
      {
        get: () => {
          throw new Error("no");
        },
      },
    );
    expect(openai.answersIn!([hostile, null, 7, ...conversation(found)], "search_tools")).toEqual([found]);
    expect(openai.answersIn!(hostile, "search_tools")).toEqual([]);
    expect(openai.answersIn!("not a conversation", "search_tools")).toEqual([]);
  });

  it("a deferred tool is declared once an earlier search_tools answer found it", () => {
    const tools = [lookupOrder(), refund({ defer: true })];
    const names = (declarations: ReturnType<typeof toOpenAI>) =>
      declarations.map((tool) => (tool.type === "function" ? tool.function.name : tool.custom.name));
    expect(names(toOpenAI(tools))).toEqual(["lookup_order", "search_tools"]);
    expect(names(toOpenAI(tools, { conversation: conversation(found) }))).toEqual([
      "lookup_order",
      "refund",
      "search_tools",
    ]);
    expect(names(toOpenAI(tools, { conversation: conversation('{"query":"x","tools":[]}') }))).toEqual([
      "lookup_order",
      "search_tools",
    ]);
  });
});

describe("OpenAI Responses: deferred tools and OpenAI's tool search", () => {
  it("marks deferred tools defer_loading and adds tool_search last", () => {
    expect(toOpenAIResponses([lookupOrder(), refund({ defer: true })])).toEqual([
      expect.objectContaining({ type: "function", name: "lookup_order", strict: false }),
      expect.objectContaining({ type: "function", name: "refund", strict: false, defer_loading: true }),
      { type: "tool_search" },
    ]);
  });

  it("adds neither defer_loading nor tool_search when no tool is deferred", () => {
    const declarations = toOpenAIResponses([lookupOrder(), refund()]);
    expect(declarations.map((tool) => tool.type)).toEqual(["function", "function"]);
    for (const tool of declarations) expect(tool).not.toHaveProperty("defer_loading");
  });

  it("declares every deferred tool (OpenAI searches them), never toolnexus's search_tools", () => {
    const declarations = toOpenAIResponses([refund({ defer: true }), runSql(undefined, { defer: true })]);
    expect(declarations).toEqual([
      expect.objectContaining({ type: "function", name: "refund", defer_loading: true }),
      {
        type: "custom",
        name: "run_sql",
        description: "Runs one SQL query",
        format: { type: "text" },
        defer_loading: true,
      },
      { type: "tool_search" },
    ]);
  });
});

describe("OpenAI Responses: namespaces", () => {
  const orders = (extra: Partial<Tool> = {}) => lookupOrder({ namespace: "orders", ...extra });
  const ping = defineTool({ name: "ping", description: "Health check", execute: () => "pong" });

  it("groups a namespace's tools in one namespace tool, where its first tool stands", () => {
    const declarations = toOpenAIResponses(
      [ping, orders(), refund({ namespace: "payments" }), runSql(undefined, { namespace: "orders" })],
      {
        namespaces: { orders: "Reading and querying orders" },
      },
    );
    expect(declarations).toEqual([
      expect.objectContaining({ type: "function", name: "ping" }),
      {
        type: "namespace",
        name: "orders",
        description: "Reading and querying orders",
        tools: [
          expect.objectContaining({ type: "function", name: "lookup_order" }),
          { type: "custom", name: "run_sql", description: "Runs one SQL query", format: { type: "text" } },
        ],
      },
      {
        type: "namespace",
        name: "payments",
        description: "Tools of payments: refund.",
        tools: [expect.objectContaining({ type: "function", name: "refund" })],
      },
    ]);
  });

  it("keeps defer_loading on the deferred members of a namespace, with tool_search last", () => {
    const declarations = toOpenAIResponses([orders({ defer: true }), refund({ namespace: "orders" })]);
    expect(declarations).toEqual([
      {
        type: "namespace",
        name: "orders",
        description: "Tools of orders: lookup_order, refund.",
        tools: [
          expect.objectContaining({ name: "lookup_order", defer_loading: true }),
          expect.not.objectContaining({ defer_loading: true }),
        ],
      },
      { type: "tool_search" },
    ]);
  });

  it("refuses a namespace name OpenAI rejects, or maps it with names: sanitize", () => {
    const dotted = [lookupOrder({ namespace: "shop.orders" })];
    expect(() => toOpenAIResponses(dotted)).toThrow(ExportError);
    expect(() => toOpenAIResponses(dotted)).toThrow(/namespace name "shop\.orders".*names: "sanitize"/);
    expect(toOpenAIResponses(dotted, { names: "sanitize" })).toEqual([
      expect.objectContaining({
        type: "namespace",
        name: "shop_orders",
        description: "Tools of shop.orders: lookup_order.",
      }),
    ]);
  });

  it("refuses two namespaces that sanitize to one name", () => {
    expect(() =>
      toOpenAIResponses([lookupOrder({ namespace: "shop.orders" }), refund({ namespace: "shop_orders" })], {
        names: "sanitize",
      }),
    ).toThrow(/"shop\.orders" and "shop_orders" both become "shop_orders"/);
  });

  it("refuses a namespace description that is not a sentence", () => {
    expect(() => toOpenAIResponses([orders()], { namespaces: { orders: " " } })).toThrow(
      /namespace "orders" no description/,
    );
    expect(() =>
      toOpenAIResponses([orders()], { namespaces: ["orders"] as unknown as Record<string, string> }),
    ).toThrow(/object of descriptions by namespace name/);
  });

  it("declares namespaced tools flat on Chat Completions, which has no namespaces", () => {
    expect(toOpenAI([orders(), refund({ namespace: "payments" })]).map((tool) => tool.type)).toEqual([
      "function",
      "function",
    ]);
  });

  it("describeExport reports the same declarations", () => {
    const tools = [orders({ defer: true })];
    expect(describeExport("openai-responses", tools).declarations).toEqual(toOpenAIResponses(tools));
  });
});

describe("OpenAI Responses: free-text tools", () => {
  it("are declared as flat custom tools, a grammar's syntax and definition beside its type", () => {
    expect(toOpenAIResponses([runSql(SELECT_ONLY)])).toEqual([
      {
        type: "custom",
        name: "run_sql",
        description: "Runs one SQL query",
        format: { type: "grammar", syntax: "regex", definition: SELECT_ONLY.definition },
      },
    ]);
  });
});

describe("runOpenAIResponses with tool search, namespaces and custom tools", () => {
  const toolkit = () => new Toolkit([lookupOrder({ namespace: "orders", defer: true }), refund(), runSql()]);

  it("answers each function and custom call once, in order; tool search items are OpenAI's and pass", async () => {
    const reply = await toolkit().runOpenAIResponses({
      output: [
        {
          type: "tool_search_call",
          call_id: null,
          arguments: { paths: ["orders"] },
          execution: "server",
          status: "completed",
        },
        { type: "tool_search_output", call_id: null, tools: [], execution: "server", status: "completed" },
        { type: "function_call", call_id: "c1", name: "lookup_order", namespace: "orders", arguments: '{"id":"A1"}' },
        { type: "custom_tool_call", call_id: "c2", name: "run_sql", input: "SELECT * FROM orders" },
        { type: "function_call", call_id: "c3", name: "refund", arguments: '{"id":"A1"}' },
      ],
    });
    expect(reply).toEqual([
      { type: "function_call_output", call_id: "c1", output: "order A1" },
      { type: "custom_tool_call_output", call_id: "c2", output: "rows for SELECT * FROM orders" },
      { type: "function_call_output", call_id: "c3", output: "refunded A1" },
    ]);
    expect(ran.map((call) => call.tool)).toEqual(["lookup_order", "run_sql", "refund"]);
  });

  it("reads a name qualified with the call's namespace as the bare name", async () => {
    const reply = await toolkit().runOpenAIResponses([
      {
        type: "function_call",
        call_id: "c1",
        name: "orders.lookup_order",
        namespace: "orders",
        arguments: '{"id":"B2"}',
      },
    ]);
    expect(reply).toEqual([{ type: "function_call_output", call_id: "c1", output: "order B2" }]);
  });

  it("answers a custom call whose input is not text with an error in a custom_tool_call_output", async () => {
    const reply = await toolkit().runOpenAIResponses([
      { type: "custom_tool_call", call_id: "c1", name: "run_sql", input: null },
    ]);
    expect(reply).toEqual([
      {
        type: "custom_tool_call_output",
        call_id: "c1",
        output: 'Error: The input of the call to tool "run_sql" is not text; send the tool\'s input as text.',
      },
    ]);
    expect(ran).toEqual([]);
  });

  it("answers a custom call waiting for approval with a custom_tool_call_output once approved", async () => {
    const kit = new Toolkit([runSql(undefined, { needsApproval: true })]);
    const first = await kit.runOpenAIResponses([
      { type: "custom_tool_call", call_id: "c1", name: "run_sql", input: "SELECT 1" },
    ]);
    expect([...first]).toEqual([]);
    const pending = JSON.parse(JSON.stringify(first.pendingApprovals)) as NonNullable<typeof first.pendingApprovals>;
    const resumed = await kit.resumeApprovals(pending, { [pending.approvals[0]!.id]: { approved: true } });
    expect(resumed).toEqual([{ type: "custom_tool_call_output", call_id: "c1", output: "rows for SELECT 1" }]);
  });
});
