import { Agent, run } from "@openai/agents";
import { defineTool, Toolkit, type ToolFailure } from "toolnexus";
import { toAgentsTools } from "toolnexus/openai-agents";
import { startScriptedModel, type ModelRequest, type ModelTurn, type ScriptedModel } from "./support";

/**
 * The Agents SDK's own runner (`run(agent, input)`, its OpenAI provider, the Responses API on a
 * local stand-in) calling toolkit tools: every call is answered, a failure as text the model
 * reads ("Error: ..."), and the run goes on.
 */

const weather = defineTool<{ city: string; units?: "celsius" | "fahrenheit" }>({
  name: "get_weather",
  description: "Current weather for a city",
  inputSchema: {
    type: "object",
    properties: { city: { type: "string", minLength: 1 }, units: { type: "string", enum: ["celsius", "fahrenheit"] } },
    required: ["city"],
  },
  validate: true,
  execute: ({ city, units = "celsius" }) => ({ city, units, temperature: units === "celsius" ? 31 : 88 }),
});

const placed: unknown[] = [];
const placeOrder = defineTool<{ customerEmail: string; quantity: number }>({
  name: "place_order",
  description: "Place an order",
  inputSchema: {
    type: "object",
    properties: { customerEmail: { type: "string", format: "email" }, quantity: { type: "integer", minimum: 1 } },
    required: ["customerEmail", "quantity"],
  },
  validate: true,
  execute: (args) => {
    placed.push(args);
    return `Order placed for ${args.customerEmail}.`;
  },
});

const failures: ToolFailure[] = [];
const stock = defineTool({
  name: "check_stock",
  description: "Units in stock",
  execute: () => {
    throw new Error("the warehouse is offline");
  },
});

const slow = defineTool({
  name: "slow_report",
  description: "A report that takes a while",
  timeout: 40,
  execute: (_args, ctx) => new Promise((resolve) => ctx.signal?.addEventListener("abort", () => resolve("too late"))),
});

const toolkit = new Toolkit([weather, placeOrder, stock, slow], { onError: (failure) => void failures.push(failure) });

let model: ScriptedModel | undefined;
afterEach(async () => {
  await model?.close();
  model = undefined;
  placed.length = 0;
  failures.length = 0;
});

async function agentWith(script: (request: ModelRequest) => ModelTurn) {
  model = await startScriptedModel(script);
  return new Agent({
    name: "Shop assistant",
    instructions: "Use the tools.",
    tools: toAgentsTools(toolkit),
    model: model.model,
  });
}

/** The final answer quotes every tool result it received. */
const quoting = (request: ModelRequest): ModelTurn => ({
  text: request.outputs.map((o) => `${o.name}: ${o.text}`).join("\n"),
});

describe("a toolkit tool in the Agents SDK's run loop", () => {
  it("answers a call with the tool's result; a null for an optional value is read as not given", async () => {
    const agent = await agentWith((request) =>
      request.outputs.length === 0
        ? { calls: [{ name: "get_weather", arguments: { city: "Chennai", units: null } }] }
        : quoting(request),
    );
    const result = await run(agent, "How warm is it in Chennai?");

    expect(result.finalOutput).toBe('get_weather: {"city":"Chennai","units":"celsius","temperature":31}');
    // Strict mode, with the toolkit's strict schema: the optional value is nullable.
    const declared = model!.requests[0].tools.find((t: { name: string }) => t.name === "get_weather");
    expect(declared).toMatchObject({
      strict: true,
      parameters: { required: ["city", "units"], additionalProperties: false },
    });
    expect(declared.parameters.properties.units.type).toEqual(["string", "null"]);
  });

  it("answers invalid arguments as data, and runs the corrected call", async () => {
    const agent = await agentWith((request) => {
      const last = request.outputs.at(-1);
      if (last === undefined)
        return { calls: [{ name: "place_order", arguments: { customerEmail: "ada@example", quantity: 0 } }] };
      if (last.text.startsWith("Error:"))
        return { calls: [{ name: "place_order", arguments: { customerEmail: "ada@example.com", quantity: 2 } }] };
      return quoting(request);
    });
    const result = await run(agent, "Order 2 for ada@example.com");

    const [refused, accepted] = model!.requests
      .at(-1)
      .input.filter((item: { type: string }) => item.type === "function_call_output");
    expect(refused.output).toMatch(/^Error: Invalid arguments for tool "place_order":/);
    expect(refused.output).toContain('"customerEmail" must match format "email"');
    expect(refused.output).toContain('"quantity" must be >= 1');
    expect(accepted.output).toBe("Order placed for ada@example.com.");
    expect(placed).toEqual([{ customerEmail: "ada@example.com", quantity: 2 }]);
    expect(result.finalOutput).toContain("place_order: Order placed for ada@example.com.");
    expect(failures.map((f) => [f.kind, f.provider])).toEqual([["invalid_arguments", "openai-agents"]]);
  });

  it("answers a throw with its message, and the run goes on", async () => {
    const agent = await agentWith((request) =>
      request.outputs.length === 0 ? { calls: [{ name: "check_stock", arguments: {} }] } : quoting(request),
    );
    const result = await run(agent, "Is TEA-01 in stock?");

    expect(result.finalOutput).toBe("check_stock: Error: the warehouse is offline");
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatchObject({ tool: "check_stock", kind: "execution_failed", provider: "openai-agents" });
    expect((failures[0]!.error as Error).message).toBe("the warehouse is offline");
  });

  it("keeps the tool's timeout: a call past its deadline is answered as timed out", async () => {
    const agent = await agentWith((request) =>
      request.outputs.length === 0 ? { calls: [{ name: "slow_report", arguments: {} }] } : quoting(request),
    );
    const result = await run(agent, "The report, please");

    expect(result.finalOutput).toBe('slow_report: Error: Tool "slow_report" timed out after 40 ms');
    expect(failures.map((f) => f.kind)).toEqual(["timeout"]);
  });

  it("answers parallel calls each on its own, in call order", async () => {
    const agent = await agentWith((request) =>
      request.outputs.length === 0
        ? {
            calls: [
              { name: "check_stock", arguments: {} },
              { name: "get_weather", arguments: { city: "Paris", units: "fahrenheit" } },
            ],
          }
        : quoting(request),
    );
    const result = await run(agent, "Stock, and the weather in Paris");

    expect(result.finalOutput).toBe(
      [
        "check_stock: Error: the warehouse is offline",
        'get_weather: {"city":"Paris","units":"fahrenheit","temperature":88}',
      ].join("\n"),
    );
  });

  it("leaves arguments that are not JSON to the SDK, which answers them without running the tool", async () => {
    const agent = await agentWith((request) =>
      request.outputs.length === 0
        ? { calls: [{ name: "place_order", arguments: '{"customerEmail": "ada@' }] }
        : quoting(request),
    );
    const result = await run(agent, "Order one");

    expect(result.finalOutput).toBe(
      "place_order: An error occurred while parsing tool arguments. Please try again with valid JSON.",
    );
    expect(placed).toEqual([]);
  });
});
