import { Agent, run, tool } from "@openai/agents";
import { defineTool, ToolDefinitionError, Toolkit } from "toolnexus";
import { toAgentsTools } from "toolnexus/openai-agents";
import { startScriptedModel, type ModelRequest, type ModelTurn, type ScriptedModel } from "./support";

/**
 * What the Agents SDK declares to the model for toolkit tools: strict mode where the toolkit's
 * OpenAI strict lowering expresses the schema (answers read back the toolkit's way), the
 * schema as declared with `strict: false` otherwise, and names the SDK accepts.
 */

const notes: Array<Record<string, unknown>> = [];
// No validation: the body gets the arguments as the toolkit reads them back, nothing more.
const addNote = defineTool({
  name: "add_note",
  description: "Adds a note to an order",
  inputSchema: {
    type: "object",
    properties: { orderId: { type: "integer" }, note: { type: "string" } },
    required: ["orderId"],
  },
  execute: (args) => {
    notes.push(args);
    return "Noted.";
  },
});
const search = defineTool({
  name: "search_orders",
  description: "Searches orders by any field",
  inputSchema: {
    type: "object",
    properties: { filters: { type: "object", description: "Field names and the values they must have" } },
    required: ["filters"],
  },
  execute: ({ filters }) => `Searched by ${Object.keys(filters as object).join(", ")}.`,
});
// OpenAI's strict mode takes it (toolnexus's lowering agrees); the SDK's own strict checks refuse a `type` beside
// `anyOf` in recent releases (0.20 does; 0.14 takes it).
const label = defineTool({
  name: "set_label",
  description: "Sets an order's label",
  inputSchema: {
    type: "object",
    properties: {
      label: {
        type: "string",
        anyOf: [
          { type: "string", maxLength: 8 },
          { type: "string", pattern: "^LBL-" },
        ],
      },
    },
    required: ["label"],
  },
  execute: ({ label }) => `Label ${String(label)}.`,
});

/** Whether the installed Agents SDK refuses strict mode for set_label's strict declaration, as the adapter finds out. */
function sdkRefusesStrictLabel(): boolean {
  // The strict lowering closes every object: the SDK's type for strict parameters.
  type Closed = { type: "object"; properties: Record<string, object>; required: string[]; additionalProperties: false };
  const [declared] = new Toolkit([label]).toOpenAIResponses({ strict: true });
  const parameters = (declared as { parameters?: unknown }).parameters as Closed;
  try {
    tool({
      name: "set_label",
      description: "Sets an order's label",
      parameters,
      strict: true,
      execute: () => "",
    });
    return false;
  } catch {
    return true;
  }
}

let model: ScriptedModel | undefined;
afterEach(async () => {
  await model?.close();
  model = undefined;
  notes.length = 0;
});

const quoting = (request: ModelRequest): ModelTurn => ({
  text: request.outputs.map((o) => `${o.name}: ${o.text}`).join("\n"),
});

async function declared(
  tools: ReturnType<typeof toAgentsTools>,
  script: (request: ModelRequest) => ModelTurn = () => ({ text: "ok" }),
) {
  model = await startScriptedModel(script);
  const result = await run(new Agent({ name: "Orders", tools, model: model.model }), "Go");
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- parsed JSON, read by path
  type SentTool = { name: string; strict: boolean; parameters: Record<string, any> };
  return { result, tools: model.requests[0].tools as SentTool[] };
}

describe("declarations the Agents SDK sends for toolkit tools", () => {
  it("sends strict mode where the toolkit's strict lowering expresses the schema, and strict: false elsewhere", async () => {
    const toolkit = new Toolkit([addNote, search, label]);
    const { tools } = await declared(toAgentsTools(toolkit));
    const byName = new Map(tools.map((t) => [t.name, t]));

    expect(byName.get("add_note")).toMatchObject({
      strict: true,
      parameters: {
        required: ["orderId", "note"],
        additionalProperties: false,
        properties: { note: { type: ["string", "null"] } },
      },
    });
    // A free-form object cannot be strict: its schema goes as declared.
    expect(byName.get("search_orders")).toMatchObject({ strict: false, parameters: search.inputSchema });
    const [, , strictLabel] = toolkit.toOpenAIResponses({ strict: true });
    expect(byName.get("set_label")).toEqual(
      sdkRefusesStrictLabel() ? expect.objectContaining({ strict: false, parameters: label.inputSchema }) : strictLabel,
    );
    // The same declarations as toOpenAIResponses({ strict: true }), but where the SDK refused strict mode.
    const [note, free] = toolkit.toOpenAIResponses({ strict: true });
    expect(tools.slice(0, 2)).toEqual([note, free]);
  });

  it("sends every tool with strict: false and its schema as declared with strict: false", async () => {
    const toolkit = new Toolkit([addNote, search]);
    const { tools } = await declared(toAgentsTools(toolkit, { strict: false }));
    expect(tools).toEqual(toolkit.toOpenAIResponses());
    expect(tools.map((t) => t.strict)).toEqual([false, false]);
  });

  it("reads a strict-mode null for an optional value back as not given", async () => {
    const { result } = await declared(toAgentsTools(new Toolkit([addNote])), (request) =>
      request.outputs.length === 0
        ? { calls: [{ name: "add_note", arguments: { orderId: 7, note: null } }] }
        : quoting(request),
    );
    expect(result.finalOutput).toBe("add_note: Noted.");
    expect(notes).toEqual([{ orderId: 7 }]);
  });
});

describe("tools the Agents SDK cannot group, defer or take as free text", () => {
  it("are declared as its function tools: one string `input` for a free-text tool, and each call runs", async () => {
    const lookup = defineTool({
      name: "lookup_sku",
      description: "Looks up a SKU",
      input: "text",
      grammar: { syntax: "regex", definition: "[A-Z]{3}-\\d{4}" },
      execute: (sku) => `${sku}: 12 in stock`,
    });
    const grouped = defineTool({
      ...{ name: "add_label", description: "Adds a label", namespace: "orders", defer: true },
      execute: () => "Labelled.",
    });
    const tools = toAgentsTools(new Toolkit([lookup, grouped]));
    const { result, tools: sent } = await declared(tools, (request) =>
      request.outputs.length === 0
        ? {
            calls: [
              { name: "lookup_sku", arguments: { input: "ABC-1234" } },
              { name: "lookup_sku", arguments: { input: "abc" } },
              { name: "add_label", arguments: {} },
            ],
          }
        : quoting(request),
    );
    expect(sent.map((t) => [t.name, t.name === "lookup_sku" ? t.strict : "any"])).toEqual([
      ["lookup_sku", false],
      ["add_label", "any"],
    ]);
    expect(sent[0]!.parameters).toEqual(lookup.inputSchema);
    expect(result.finalOutput).toMatch(/^lookup_sku: ABC-1234: 12 in stock\nlookup_sku: .*must match pattern/);
    expect(result.finalOutput).toMatch(/\nadd_label: Labelled\.$/);
  });
});

describe("tool names in the Agents SDK", () => {
  it("declares names the SDK accepts, and runs each call by the toolkit's own name", async () => {
    const ran: string[] = [];
    const refund = defineTool({
      name: "billing.refund",
      description: "Refunds",
      execute: () => void ran.push("billing.refund"),
    });
    const lookup = defineTool({ name: "look-up", description: "Looks up", execute: () => void ran.push("look-up") });
    const tools = toAgentsTools(new Toolkit([refund, lookup]));
    expect(tools.map((t) => t.name)).toEqual(["billing_refund", "look_up"]);

    const { result } = await declared(tools, (request) =>
      request.outputs.length === 0
        ? {
            calls: [
              { name: "billing_refund", arguments: {} },
              { name: "look_up", arguments: {} },
            ],
          }
        : quoting(request),
    );
    expect(ran.sort()).toEqual(["billing.refund", "look-up"]);
    expect(result.finalOutput).toBe("billing_refund: \nlook_up: ");
  });

  it("refuses two tools the SDK would give one name", () => {
    const toolkit = new Toolkit([
      defineTool({ name: "look-up", description: "Looks up", execute: () => "" }),
      defineTool({ name: "look_up", description: "Looks up too", execute: () => "" }),
    ]);
    expect(() => toAgentsTools(toolkit)).toThrow(ToolDefinitionError);
    expect(() => toAgentsTools(toolkit)).toThrow(
      'Tools "look-up" and "look_up" both become "look_up" in the Agents SDK',
    );
  });

  it("refuses what is not a toolkit, and options it cannot use", () => {
    expect(() => toAgentsTools([addNote] as never)).toThrow("toAgentsTools takes a Toolkit");
    expect(() => toAgentsTools(new Toolkit([addNote]), { state: "ada" as never })).toThrow(
      "state must be an object or a function",
    );
    expect(() => toAgentsTools(new Toolkit([addNote]), { approvals: "person" as never })).toThrow(
      'approvals must be "interrupt" or "toolkit"',
    );
  });
});
