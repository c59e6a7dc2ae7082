/**
 * Ollama's native chat API (`/api/chat`): declarations, the dialect of its `parameters` (what
 * the server's Go structs keep), calls read out of every input `runOllama` takes, and the
 * reply: one `tool` message per call, in call order.
 */
import {
  Adapters,
  audio,
  defineTool,
  describeExport,
  ExportError,
  file,
  image,
  resourceLink,
  toOllama,
  Toolkit,
  type JSONSchemaObject,
  type Tool,
} from "../../src";
import { ollama, type OllamaToolCallLike, type OllamaToolMessage } from "../../src/providers/ollama";
import { checkOllamaTools, NAME_PATTERNS } from "../support/dialect-rules";
import { dottedTool, makeKit, threeTools, UNKNOWN_GET_WETHER, weatherTool } from "./fixtures/tools";

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0, 1]);
const WEBP = Buffer.concat([Buffer.from("RIFF"), Buffer.from([4, 0, 0, 0]), Buffer.from("WEBPVP8 ")]);
const GIF = Buffer.from("GIF89a\x01\x00\x01\x00\x00\x00\x00;", "latin1");

/** A non-streaming `/api/chat` response whose assistant message holds `toolCalls`. */
function chatResponse(toolCalls: OllamaToolCallLike[]) {
  return {
    model: "qwen3",
    created_at: "2026-01-01T00:00:00Z",
    message: { role: "assistant", content: "", tool_calls: toolCalls },
    done: true,
    done_reason: "stop",
    total_duration: 1,
    load_duration: 1,
    prompt_eval_count: 1,
    prompt_eval_duration: 1,
    eval_count: 1,
    eval_duration: 1,
  };
}

/** A call as Ollama writes it: `arguments` an object, an `id` (0.12.10 and later) when given one. */
function call(name: string, args: Record<string, unknown>, id?: string): OllamaToolCallLike {
  return { ...(id !== undefined ? { id } : {}), function: { name, arguments: args } };
}

// ---- Declarations ------------------------------------------------------------------------------

describe("toOllama declarations", () => {
  it('wraps each tool as { type: "function", function: { name, description, parameters } }', () => {
    expect(toOllama([weatherTool()])).toEqual([
      {
        type: "function",
        function: {
          name: "get_weather",
          description: "Current weather for a city",
          parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
        },
      },
    ]);
  });

  it("three tools in order, exact shapes; a constraint Ollama has no field for is stated in the description", () => {
    const tools = toOllama(threeTools());
    expect(tools).toEqual([
      {
        type: "function",
        function: {
          name: "search",
          description: "Search the docs",
          parameters: {
            type: "object",
            properties: {
              query: { type: "string", description: "What to look for" },
              limit: { type: "integer", description: "minimum: 1." },
            },
            required: ["query"],
          },
        },
      },
      {
        type: "function",
        function: { name: "ping", description: "Health check", parameters: { type: "object", properties: {} } },
      },
      {
        type: "function",
        function: {
          name: "kv_get",
          description: "Read a key",
          parameters: { type: "object", properties: { key: { type: "string" } }, required: ["key"] },
        },
      },
    ]);
    for (const tool of tools) {
      expect(Object.keys(tool).sort()).toEqual(["function", "type"]);
      expect(Object.keys(tool.function).sort()).toEqual(["description", "name", "parameters"]);
    }
    expect(checkOllamaTools(tools)).toEqual([]);
  });

  it("zero tools give an empty array", () => {
    expect(toOllama([])).toEqual([]);
  });

  it("a schema Ollama keeps as it is is sent as it is, with no change reported", () => {
    const tool = weatherTool();
    const report = describeExport("ollama", [tool]);
    expect(report.changes).toEqual([]);
    expect((report.declarations as ReturnType<typeof toOllama>)[0]!.function.parameters).toBe(tool.inputSchema);
  });

  it("Adapters.toOllama is the free toOllama, and describeExport gives its declarations", () => {
    const tools = [weatherTool(), ...threeTools()];
    expect(Adapters.toOllama).toBe(toOllama);
    expect(describeExport("ollama", tools).declarations).toEqual(toOllama(tools));
  });

  it("Toolkit#toOllama gives the same output as the free function", () => {
    const tools = [weatherTool(), ...threeTools()];
    const toolkit = new Toolkit(tools);
    expect(toolkit.toOllama()).toEqual(toOllama(tools));
    expect(JSON.stringify(toolkit.toOllama())).toBe(JSON.stringify(toOllama(tools)));
  });
});

// ---- Names -------------------------------------------------------------------------------------

describe("the name rule", () => {
  it("is the portable rule (Ollama documents none): 1-64 of a-z A-Z 0-9 _ -", () => {
    expect(ollama.names.pattern.source).toBe(NAME_PATTERNS.ollama.source);
    const named = (name: string) => defineTool({ name, description: "d", execute: () => "" });
    expect(() => toOllama([named("a".repeat(64))])).not.toThrow();
    expect(() => toOllama([named("a".repeat(65))])).toThrow(ExportError);
  });

  it("refuses a name outside it with an ExportError naming the tool", () => {
    expect(() => toOllama([weatherTool(), dottedTool()])).toThrow(ExportError);
    expect(() => toOllama([weatherTool(), dottedTool()])).toThrow(/ollama rejects the tool name "billing\.refund"/);
    expect(() => new Toolkit([dottedTool()]).toOllama()).toThrow(ExportError);
  });

  it('{ names: "sanitize" } maps it reversibly: the call to the sent name runs the tool, answered under the name the model used', async () => {
    const toolkit = new Toolkit([dottedTool()]);
    expect(toolkit.toOllama({ names: "sanitize" }).map((tool) => tool.function.name)).toEqual(["billing_refund"]);
    const reply = await toolkit.runOllama(chatResponse([call("billing_refund", {})]));
    expect(reply).toEqual([{ role: "tool", content: "ok", tool_name: "billing_refund" }]);
  });
});

// ---- The dialect -------------------------------------------------------------------------------

/** A schema with every keyword Ollama's `ToolProperty` has no field for, and every rewrite (boolean schemas too: typed loosely). */
const EVERY_REWRITE: Record<string, unknown> = {
  type: "object",
  title: "Booking",
  additionalProperties: false,
  $defs: { City: { type: "string", minLength: 2 } },
  properties: {
    from: { $ref: "#/$defs/City" },
    day: { type: "string", format: "date", description: "Day of travel" },
    seats: { type: "integer", minimum: 1, maximum: 9, default: 1 },
    class: { const: "economy" },
    pet: { oneOf: [{ type: "string" }, { type: "null" }] },
    luggage: { allOf: [{ type: "object", properties: { bags: { type: "integer" } } }, { required: ["bags"] }] },
    stops: { type: "array", prefixItems: [{ type: "string" }, { type: "integer" }], items: false },
    never: false,
    anything: true,
    notes: { not: { type: "number" }, examples: ["window seat"] },
    tags: { type: "array", items: { type: "string", minLength: 1 }, uniqueItems: true },
  },
  required: ["from", "never"],
};

/** One tool with that schema, which validates its arguments. */
function everyRewrite(): Tool {
  return defineTool({
    name: "book_trip",
    description: "Book a trip",
    inputSchema: EVERY_REWRITE as JSONSchemaObject,
    validate: true,
    execute: () => "booked",
  });
}

describe("the dialect: what Ollama's server keeps of parameters", () => {
  const report = describeExport("ollama", [everyRewrite()]);
  const declarations = report.declarations as ReturnType<typeof toOllama>;

  it("sends only what Ollama's ToolProperty and ToolFunctionParameters have fields for", () => {
    expect(declarations[0]!.function.parameters).toEqual({
      type: "object",
      properties: {
        from: { type: "string", description: "minLength: 2." },
        day: { type: "string", description: "Day of travel Format: date." },
        seats: { type: "integer", description: "minimum: 1. maximum: 9. Default: 1." },
        class: { enum: ["economy"] },
        pet: { anyOf: [{ type: "string" }, { type: "null" }] },
        luggage: { type: "object", properties: { bags: { type: "integer" } }, required: ["bags"] },
        stops: { type: "array", items: { anyOf: [{ type: "string" }, { type: "integer" }] } },
        anything: {},
        notes: {},
        // `items` is raw JSON to the server: kept as the tool declared it.
        tags: { type: "array", items: { type: "string", minLength: 1 }, description: "uniqueItems: true." },
      },
      required: ["from"],
    });
    expect(checkOllamaTools(declarations)).toEqual([]);
  });

  it("reports every change: tool, pointer, keyword, action", () => {
    expect(report.changes.map(({ tool, pointer, keyword, action }) => ({ tool, pointer, keyword, action }))).toEqual([
      { tool: "book_trip", pointer: "", keyword: "$ref", action: "inlined" },
      { tool: "book_trip", pointer: "/title", keyword: "title", action: "dropped" },
      { tool: "book_trip", pointer: "/additionalProperties", keyword: "additionalProperties", action: "dropped" },
      { tool: "book_trip", pointer: "/properties/from/minLength", keyword: "minLength", action: "moved" },
      { tool: "book_trip", pointer: "/properties/day/format", keyword: "format", action: "moved" },
      { tool: "book_trip", pointer: "/properties/seats/minimum", keyword: "minimum", action: "moved" },
      { tool: "book_trip", pointer: "/properties/seats/maximum", keyword: "maximum", action: "moved" },
      { tool: "book_trip", pointer: "/properties/seats/default", keyword: "default", action: "moved" },
      { tool: "book_trip", pointer: "/properties/class/const", keyword: "const", action: "rewritten" },
      { tool: "book_trip", pointer: "/properties/pet/oneOf", keyword: "oneOf", action: "rewritten" },
      { tool: "book_trip", pointer: "/properties/luggage/allOf", keyword: "allOf", action: "rewritten" },
      { tool: "book_trip", pointer: "/properties/stops/prefixItems", keyword: "prefixItems", action: "rewritten" },
      { tool: "book_trip", pointer: "/properties/never", keyword: "properties", action: "dropped" },
      { tool: "book_trip", pointer: "/properties/anything", keyword: "type", action: "rewritten" },
      { tool: "book_trip", pointer: "/properties/notes/not", keyword: "not", action: "dropped" },
      { tool: "book_trip", pointer: "/properties/notes/examples", keyword: "examples", action: "dropped" },
      { tool: "book_trip", pointer: "/properties/tags/uniqueItems", keyword: "uniqueItems", action: "moved" },
      { tool: "book_trip", pointer: "/required", keyword: "required", action: "dropped" },
    ]);
    // Nothing is lost for good: every value valid for the tool is still valid as declared.
    expect(report.changes.filter((change) => change.action === "lossy")).toEqual([]);
  });

  it("says what each change means, and whether the call still checks what the declaration no longer says", () => {
    const detail = (pointer: string) => report.changes.find((change) => change.pointer === pointer)?.detail;
    expect(detail("/properties/day/format")).toBe(
      "format stated in the description: Ollama's ToolProperty has no such field (it is still enforced when the call runs)",
    );
    expect(detail("/properties/pet/oneOf")).toBe("oneOf → anyOf (exactly-one is still enforced when the call runs)");
    expect(detail("/properties/class/const")).toBe('const "economy" → enum ["economy"]');
    expect(detail("/properties/never")).toMatch(/^"never" accepts no value \(false\), so it is not declared/);
    expect(detail("/properties/stops/prefixItems")).toMatch(
      /^prefixItems \(a tuple\) → items, one schema for every position; /,
    );
  });

  it("the tool's schema as it is would lose keywords on Ollama's server: the rules see each", () => {
    const tool = everyRewrite();
    const unlowered = [
      { type: "function", function: { name: tool.name, description: tool.description, parameters: tool.inputSchema } },
    ];
    expect(checkOllamaTools(unlowered).map((violation) => violation.at)).toEqual(
      expect.arrayContaining([
        "tools[0].function.parameters.title",
        "tools[0].function.parameters.additionalProperties",
        "tools[0].function.parameters.properties.from.$ref",
        "tools[0].function.parameters.properties.day.format",
        "tools[0].function.parameters.properties.class.const",
        "tools[0].function.parameters.properties.never",
        "tools[0].function.parameters.properties.stops.prefixItems",
      ]),
    );
  });

  it("definitions nothing refers to are dropped, and the report says so", () => {
    const unused = defineTool({
      name: "unused",
      description: "d",
      inputSchema: { type: "object", $defs: { A: { type: "string" } }, properties: {} },
      execute: () => "",
    });
    expect(describeExport("ollama", [unused]).changes).toEqual([
      {
        tool: "unused",
        pointer: "/$defs",
        keyword: "$defs",
        action: "dropped",
        detail: "$defs dropped: references are inlined (Ollama's ToolProperty has no $ref), so no definition is needed",
      },
    ]);
  });

  it("a recursive reference is inlined and cut after three levels, and the definitions go", () => {
    const tree = defineTool({
      name: "tree",
      description: "A tree",
      inputSchema: {
        type: "object",
        $defs: {
          Node: {
            type: "object",
            properties: { label: { type: "string" }, children: { type: "array", items: { $ref: "#/$defs/Node" } } },
          },
        },
        properties: { root: { $ref: "#/$defs/Node" } },
      },
      execute: () => "",
    });
    const { declarations: made, changes } = describeExport("ollama", [tree]);
    expect(JSON.stringify(made)).not.toContain("$ref");
    expect(JSON.stringify(made)).not.toContain("$defs");
    expect(changes.map((change) => change.action)).toEqual(expect.arrayContaining(["cut", "inlined"]));
    expect(checkOllamaTools(made)).toEqual([]);
  });

  it("an object root is made of any root: a union's branches are merged into one object", () => {
    const either = defineTool({
      name: "either",
      description: "By id or by name",
      inputSchema: {
        anyOf: [
          { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
          { type: "object", properties: { name: { type: "string" } } },
        ],
      },
      execute: () => "",
    });
    const made = toOllama([either]);
    expect(made[0]!.function.parameters).toEqual({
      type: "object",
      properties: { id: { type: "string" }, name: { type: "string" } },
    });
    expect(checkOllamaTools(made)).toEqual([]);
  });
});

// ---- Calls in ----------------------------------------------------------------------------------

describe("runOllama reads calls from every input it takes", () => {
  const toolkit = new Toolkit([weatherTool()]);
  const calls = [call("get_weather", { city: "Paris" }), call("get_weather", { city: "Oslo" })];
  const answers = [
    { role: "tool", content: "sunny in Paris", tool_name: "get_weather" },
    { role: "tool", content: "sunny in Oslo", tool_name: "get_weather" },
  ];

  it.each([
    ["a chat response", chatResponse(calls)],
    ["its assistant message", { role: "assistant", content: "", tool_calls: calls }],
    ["the message's tool_calls", calls],
  ])("%s", async (_label, input) => {
    expect(await toolkit.runOllama(input)).toEqual(answers);
  });

  it("echoes the call's id as tool_call_id when Ollama gave one (0.12.10 and later)", async () => {
    const reply = await toolkit.runOllama(
      chatResponse([{ id: "call_a", function: { index: 0, name: "get_weather", arguments: { city: "Rome" } } }]),
    );
    expect(reply).toEqual([
      { role: "tool", content: "sunny in Rome", tool_name: "get_weather", tool_call_id: "call_a" },
    ]);
  });

  it("reads arguments written as JSON text too", async () => {
    const jsonText = { function: { name: "get_weather", arguments: '{"city":"Lima"}' } };
    expect(await toolkit.runOllama([jsonText] as never)).toEqual([
      { role: "tool", content: "sunny in Lima", tool_name: "get_weather" },
    ]);
  });

  it.each([
    ["a response with text only", { ...chatResponse([]), message: { role: "assistant", content: "It is sunny." } }],
    ["a message with tool_calls: null", { role: "assistant", content: "hi", tool_calls: null }],
    ["an empty tool_calls list", []],
    ["undefined", undefined],
    ["a string", "tool_calls"],
    ["a number", 42],
    ["{ message: null }", { message: null }],
    ["{ message: { tool_calls: {} } }", { message: { tool_calls: {} } }],
  ])("%s: no calls, nothing to append", async (_label, input) => {
    expect(await toolkit.runOllama(input as never)).toEqual([]);
  });

  it("an unreadable response is no calls, and never a throw", async () => {
    const unreadable = Object.defineProperty({}, "message", {
      get() {
        throw new Error("no message");
      },
    });
    await expect(toolkit.runOllama(unreadable as never)).resolves.toEqual([]);
  });
});

// ---- Results out -------------------------------------------------------------------------------

describe("runOllama answers", () => {
  it("one tool message per call, in call order, though the later call finishes first", async () => {
    const { toolkit, events } = makeKit();
    const reply = await toolkit.runOllama(
      chatResponse([call("slow_lookup", {}), call("fast_lookup", {}), call("get_weather", { city: "Paris" })]),
    );
    expect(reply).toEqual([
      { role: "tool", content: "slow done", tool_name: "slow_lookup" },
      { role: "tool", content: '{"fast":true}', tool_name: "fast_lookup" },
      { role: "tool", content: "sunny in Paris", tool_name: "get_weather" },
    ]);
    expect(events).toEqual(["slow:start", "fast:start", "fast:end", "slow:end"]);
  });

  it("passes the provider and the call's id to the tool", async () => {
    const { toolkit, calls } = makeKit();
    await toolkit.runOllama(
      chatResponse([call("get_weather", { city: "Paris" }, "call_1"), call("get_weather", { city: "Oslo" })]),
      { state: { user: "u-1" } },
    );
    expect(calls.map(({ callId, provider, state }) => ({ callId, provider, state }))).toEqual([
      { callId: "call_1", provider: "ollama", state: { user: "u-1" } },
      { callId: undefined, provider: "ollama", state: { user: "u-1" } },
    ]);
  });

  it('an error reads as one to the model: its text starts with "Error:" (the message has no error flag)', async () => {
    const { toolkit } = makeKit();
    const reply = await toolkit.runOllama(
      chatResponse([
        call("explode", {}),
        call("get_wether", { city: "Paris" }),
        { function: { name: "get_weather", arguments: "{not json" } },
        { function: { name: 42, arguments: {} } },
        { type: "function" },
      ] as never),
    );
    expect(reply.map((message) => message.content)).toEqual([
      "Error: boom",
      `Error: ${UNKNOWN_GET_WETHER}`,
      expect.stringMatching(/^Error: Invalid arguments for tool "get_weather": arguments are not valid JSON/),
      expect.stringMatching(/^Error: /),
      expect.stringMatching(/^Error: /),
    ]);
    expect(reply.map((message) => message.tool_name)).toEqual(["explode", "get_wether", "get_weather", "", ""]);
  });

  describe("images", () => {
    const shot = (
      part:
        ReturnType<typeof image> | ReturnType<typeof audio> | ReturnType<typeof file> | ReturnType<typeof resourceLink>,
    ) =>
      new Toolkit([
        defineTool({
          name: "shot",
          description: "A result with one part",
          execute: () => [{ type: "text", text: "here it is" }, part],
        }),
      ]);
    const runShot = async (part: Parameters<typeof shot>[0]): Promise<OllamaToolMessage> =>
      (await shot(part).runOllama([call("shot", {})]))[0]!;

    it("PNG, JPEG and WebP images go as base64 in the message's images, noted in its text", async () => {
      expect(await runShot(image(PNG))).toEqual({
        role: "tool",
        content: "here it is\n[image/png image, 16 B]",
        tool_name: "shot",
        images: [PNG.toString("base64")],
      });
      expect((await runShot(image(JPEG))).images).toEqual([JPEG.toString("base64")]);
      expect((await runShot(image(WEBP))).images).toEqual([WEBP.toString("base64")]);
    });

    it.each([
      [
        "a GIF",
        () => image(GIF, "image/gif"),
        "[image/gif image, 14 B not sent: Ollama reads JPEG, PNG and WebP images, not image/gif]",
      ],
      [
        "an image by URL",
        () => image(new URL("https://example.com/a.png")),
        "[image at https://example.com/a.png not sent: Ollama takes images as base64 data in the message, not by URL]",
      ],
      [
        "audio",
        () => audio(Buffer.from("RIFF0000WAVEfmt "), "audio/wav"),
        "[audio/wav audio, 16 B not sent: Ollama tool messages carry no audio]",
      ],
      [
        "a PDF",
        () => file(Buffer.from("%PDF-1.4"), "application/pdf", "a.pdf"),
        "[file a.pdf (application/pdf, 8 B) not sent: Ollama tool messages carry images only, no files]",
      ],
      [
        "a resource link",
        () => resourceLink("https://example.com/doc"),
        "[resource https://example.com/doc not sent: Ollama tool messages carry no resource links]",
      ],
    ] as const)("%s is not sent: a note says what and why", async (_label, make, note) => {
      const message = await runShot(make());
      expect(message).toEqual({ role: "tool", content: `here it is\n${note}`, tool_name: "shot" });
    });

    it("the adapter sends only what it carries, whatever results it is handed", () => {
      const reply = ollama.reply(
        [{ name: "shot", arguments: {} }],
        [
          {
            output: "x",
            isError: false,
            content: [image(PNG), image(GIF, "image/gif"), image(new URL("https://example.com/a.png"))],
          },
        ],
      );
      expect(reply[0]!.images).toEqual([PNG.toString("base64")]);
    });
  });
});

// ---- Approvals ---------------------------------------------------------------------------------

describe("pending approvals", () => {
  function approvalTools() {
    const ran: string[] = [];
    const lookup = defineTool({
      name: "lookup_order",
      description: "Looks up an order",
      inputSchema: { type: "object", properties: { order: { type: "string" } }, required: ["order"] },
      execute: ({ order }) => {
        ran.push("lookup_order");
        return `order ${String(order)} is shipped`;
      },
    });
    const refund = defineTool({
      name: "refund",
      description: "Refunds an order",
      inputSchema: { type: "object", properties: { order: { type: "string" } }, required: ["order"] },
      needsApproval: true,
      execute: ({ order }) => {
        ran.push("refund");
        return `refunded ${String(order)}`;
      },
    });
    return { tools: [lookup, refund], ran };
  }
  const turn = () =>
    chatResponse([
      call("lookup_order", { order: "A-1" }),
      call("refund", { order: "A-1" }),
      call("refund", { order: "B-2" }),
    ]);

  it("without approve, calls that need approval wait: the others are answered, pendingApprovals names the waiting ones by place (call-<n>)", async () => {
    const { tools, ran } = approvalTools();
    const reply = await new Toolkit(tools).runOllama(turn());
    expect([...reply]).toEqual([{ role: "tool", content: "order A-1 is shipped", tool_name: "lookup_order" }]);
    expect(reply.pendingApprovals).toMatchObject({
      pendingApprovalsVersion: 1,
      provider: "ollama",
      approvals: [
        { id: "call-1", index: 1, tool: "refund", args: { order: "A-1" } },
        { id: "call-2", index: 2, tool: "refund", args: { order: "B-2" } },
      ],
    });
    expect(ran).toEqual(["lookup_order"]);
  });

  it("resumed with the decisions (from stored JSON, by another toolkit), gives the full reply in call order", async () => {
    const first = approvalTools();
    const pending = (await new Toolkit(first.tools).runOllama(turn())).pendingApprovals!;
    const second = approvalTools();
    const resumed = await new Toolkit(second.tools).resumeApprovals(JSON.parse(JSON.stringify(pending)), {
      "call-1": true,
      "call-2": false,
    });
    expect(resumed).toEqual([
      { role: "tool", content: "order A-1 is shipped", tool_name: "lookup_order" },
      { role: "tool", content: "refunded A-1", tool_name: "refund" },
      {
        role: "tool",
        content: expect.stringMatching(/^Error: The call to tool "refund" was not approved/),
        tool_name: "refund",
      },
    ]);
    expect(second.ran).toEqual(["refund"]);
  });

  it("a turn whose every call waits gives an empty reply with pendingApprovals", async () => {
    const { tools } = approvalTools();
    const reply = await new Toolkit(tools).runOllama([call("refund", { order: "A-1" })]);
    expect([...reply]).toEqual([]);
    expect(reply.pendingApprovals?.approvals.map((approval) => approval.id)).toEqual(["call-0"]);
  });
});
