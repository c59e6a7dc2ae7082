import { Agent, run, RunContext } from "@openai/agents";
import { defineTool, Toolkit, type ToolContext } from "toolnexus";
import { toAgentsTools, type AgentsToolsOptions } from "toolnexus/openai-agents";
import { startScriptedModel, type ModelRequest, type ModelTurn, type ScriptedModel } from "./support";

/**
 * What a tool's ctx holds when the Agents SDK calls it: `state` from the run context (the run's
 * own `context` by default, or the adapter's `state` option), `callId` the model's call id,
 * `signal` the run's abort signal, `provider` "openai-agents". Visibility follows the same ctx.
 */

interface Session {
  user: string;
  role: "customer" | "admin";
}

const seen: ToolContext[] = [];
const whoAmI = defineTool({
  name: "who_am_i",
  description: "The signed-in user",
  execute: (_args, ctx) => {
    seen.push(ctx);
    return `You are ${String(ctx.state?.user)}.`;
  },
});
const refundAll = defineTool({
  name: "refund_all",
  description: "Refunds every open order (admins only)",
  visible: (ctx) => ctx.state?.role === "admin",
  execute: () => "Refunded.",
});
const toolkit = new Toolkit([whoAmI, refundAll]);

let model: ScriptedModel | undefined;
afterEach(async () => {
  await model?.close();
  model = undefined;
  seen.length = 0;
});

const callOnce =
  (name: string) =>
  (request: ModelRequest): ModelTurn =>
    request.outputs.length === 0
      ? { calls: [{ name, arguments: {} }] }
      : { text: request.outputs.map((o) => o.text).join("\n") };

async function agentWith(options: AgentsToolsOptions<Session> = {}) {
  model = await startScriptedModel(callOnce("who_am_i"));
  return new Agent<Session>({
    name: "Assistant",
    instructions: "Use the tools.",
    tools: toAgentsTools<Session>(toolkit, options),
    model: model.model,
  });
}

describe("the ctx of a call from the Agents SDK", () => {
  it("has the run's context as state, the model's call id, and the provider", async () => {
    const agent = await agentWith();
    const result = await run(agent, "Who am I?", { context: { user: "ada@example.com", role: "customer" } });

    expect(result.finalOutput).toBe("You are ada@example.com.");
    const call = model!.requests[1].input.find((item: { type: string }) => item.type === "function_call");
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({
      provider: "openai-agents",
      callId: call.call_id,
      state: { user: "ada@example.com", role: "customer" },
    });
  });

  it("takes state from the state option: a function of the run context, or an object", async () => {
    const derived = await agentWith({
      state: (runContext: RunContext<Session>) => ({ user: runContext.context.user.toUpperCase(), tenant: "acme" }),
    });
    await run(derived, "Who am I?", { context: { user: "ada@example.com", role: "customer" } });
    expect(seen.at(-1)!.state).toEqual({ user: "ADA@EXAMPLE.COM", tenant: "acme" });
    await model!.close();

    const fixed = await agentWith({ state: { user: "service-account" } });
    await run(fixed, "Who am I?", { context: { user: "ada@example.com", role: "customer" } });
    expect(seen.at(-1)!.state).toEqual({ user: "service-account" });
  });

  it("has no state when the run's context is not an object", async () => {
    model = await startScriptedModel(callOnce("who_am_i"));
    const agent = new Agent<string>({ name: "Assistant", tools: toAgentsTools<string>(toolkit), model: model.model });
    const result = await run(agent, "Who am I?", { context: "ada@example.com" });
    expect(result.finalOutput).toBe("You are undefined.");
    expect(seen[0]!.state).toBeUndefined();
  });

  it("has the run's abort signal", async () => {
    const agent = await agentWith();
    const controller = new AbortController();
    await run(agent, "Who am I?", {
      context: { user: "ada@example.com", role: "customer" },
      signal: controller.signal,
    });
    expect(seen[0]!.signal).toBeInstanceOf(AbortSignal);
    expect(seen[0]!.signal!.aborted).toBe(false);
  });

  it("hides the tools from a run whose state function throws; called anyway, the call is answered, never thrown", async () => {
    const options: AgentsToolsOptions<Session> = {
      state: () => {
        throw new Error("no session");
      },
    };
    model = await startScriptedModel(() => ({ text: "I have no tools." }));
    const agent = new Agent<Session>({
      name: "Assistant",
      tools: toAgentsTools<Session>(toolkit, options),
      model: model.model,
    });
    await run(agent, "Who am I?", { context: { user: "ada@example.com", role: "customer" } });
    expect(model.requests[0].tools ?? []).toEqual([]);

    const [adapted] = toAgentsTools<Session>(toolkit, options);
    const warn = jest.spyOn(process, "emitWarning").mockImplementation(() => {});
    expect(await adapted!.invoke(new RunContext<Session>({ user: "ada@example.com", role: "customer" }), "{}")).toMatch(
      /^Error: Tool "who_am_i" could not run: the state function of toAgentsTools failed \(error id [0-9a-f-]{36}\)\. Tell the user the tool is failing\.$/,
    );
    expect(String(warn.mock.calls[0]![0])).toContain("no session");
    warn.mockRestore();
    expect(seen).toEqual([]);
  });
});

describe("a state option that gives no object", () => {
  it("answers the call with an error, never running the tool, and tells the host what the option gave", async () => {
    const seen: unknown[] = [];
    const whoami = defineTool({
      name: "who_am_i",
      description: "Who is asking",
      execute: (_args, ctx) => (seen.push(ctx.state), "someone"),
    });
    const [adapted] = toAgentsTools<Session>(new Toolkit([whoami]), {
      state: () => [] as unknown as Record<string, unknown>,
    });
    const warn = jest.spyOn(process, "emitWarning").mockImplementation(() => {});
    expect(await adapted!.invoke(new RunContext<Session>({ user: "ada@example.com", role: "customer" }), "{}")).toMatch(
      /^Error: Tool "who_am_i" could not run: the state function of toAgentsTools failed \(error id [0-9a-f-]{36}\)/,
    );
    expect(String(warn.mock.calls[0]![0])).toContain(
      "the state option of toAgentsTools must give an object or undefined (got an array)",
    );
    warn.mockRestore();
    expect(seen).toEqual([]);
  });
});

describe("visibility in the Agents SDK", () => {
  it("declares a tool only to the runs whose ctx may see it", async () => {
    const declaredFor = async (context: Session) => {
      const agent = await agentWith();
      await run(agent, "Who am I?", { context });
      const names = model!.requests[0].tools.map((t: { name: string }) => t.name);
      await model!.close();
      model = undefined;
      return names;
    };
    expect(await declaredFor({ user: "ada@example.com", role: "customer" })).toEqual(["who_am_i"]);
    expect(await declaredFor({ user: "root@example.com", role: "admin" })).toEqual(["who_am_i", "refund_all"]);
  });

  it("answers a hidden tool invoked anyway as unknown", async () => {
    const [, refund] = toAgentsTools<Session>(toolkit);
    const output = await refund!.invoke(new RunContext<Session>({ user: "ada@example.com", role: "customer" }), "{}");
    expect(output).toMatch(/^Error: Unknown tool "refund_all"\./);
  });
});
