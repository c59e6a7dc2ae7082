/**
 * A toolkit in the OpenAI Agents SDK: `toAgentsTools(toolkit)` gives the SDK's function tools,
 * and the SDK's own runner (`run(agent, input)`) drives the conversation. Every call runs
 * through `toolkit.execute`: a call with invalid arguments is answered as data the model
 * reads, and it corrects the call. The run's context (`run(..., { context })`) reaches the
 * tools as `ctx.state`.
 *
 * A refund over 100 EUR needs a person's approval (`needsApproval`): the run stops with an
 * interruption, its state is stored as a string, and a later request reads it back, approves
 * the refund and resumes the run, which runs the refund and finishes.
 *
 * To run it offline it starts a local stand-in for the OpenAI Responses API
 * (./support/mock-responses.ts) and points the SDK's OpenAI provider at it. Against the real
 * API, drop the mock and the `baseURL` (and keep tracing on if you use OpenAI's traces).
 */
import "reflect-metadata";
import { Agent, OpenAIProvider, run, RunState, setTracingDisabled } from "@openai/agents";
import { defineTool, Toolkit } from "toolnexus";
import { toAgentsTools } from "toolnexus/openai-agents";
import { OrdersService, WeatherService } from "./services";
import { startMockResponses } from "./support/mock-responses";

interface Session {
  user: string;
}

export interface AgentsExampleResult {
  /** The model's final answer. */
  text: string;
  /** Each tool result the model read, in order: `name: output`. */
  toolOutputs: string[];
  /** The calls that waited for approval. */
  approvals: Array<{ tool: string; arguments: string }>;
  /** The refunds that ran. */
  refunds: string[];
}

export async function main(): Promise<AgentsExampleResult> {
  const server = await startMockResponses();
  // The SDK exports traces to OpenAI by default: off here, this runs offline.
  setTracingDisabled(true);
  try {
    const provider = new OpenAIProvider({
      // The fallback is a fake key, good only for the local mock; the real API needs OPENAI_API_KEY.
      apiKey: process.env.OPENAI_API_KEY ?? "sk-local-mock",
      baseURL: server.baseURL,
    });
    const model = await provider.getModel("gpt-4.1-mini");

    const refunds: string[] = [];
    const refund = defineTool<{ paymentId: string; amountCents: number }>({
      name: "refund_payment",
      description: "Refunds part or all of a payment",
      inputSchema: {
        type: "object",
        properties: { paymentId: { type: "string" }, amountCents: { type: "integer", minimum: 1 } },
        required: ["paymentId", "amountCents"],
      },
      validate: true,
      // Refunds over 100 EUR wait for a person (the Agents SDK's interruption).
      needsApproval: ({ amountCents }) => !(typeof amountCents === "number" && amountCents <= 10_000),
      execute: ({ paymentId, amountCents }, ctx) => {
        const done = `Refunded ${(amountCents / 100).toFixed(2)} EUR on ${paymentId} (for ${String(ctx.state?.user)}).`;
        refunds.push(done);
        return done;
      },
    });
    const toolkit = new Toolkit([new WeatherService(), new OrdersService(), refund]);
    const agentFor = () =>
      new Agent<Session>({
        name: "Tea shop",
        instructions: "You help customers of a tea shop. Use the tools.",
        tools: toAgentsTools<Session>(toolkit),
        model,
      });

    // Request 1: the run stops when the refund needs approval; its state is stored.
    const first = await run(
      agentFor(),
      "How warm is it in Chennai, in fahrenheit? Order 2 × TEA-01 for ada@example.com, and refund 900 EUR on pay_1002.",
      {
        context: { user: "ada@example.com" },
      },
    );
    const approvals = first.interruptions.map((item) => ({ tool: item.name ?? "", arguments: item.arguments ?? "" }));
    const stored = first.state.toString();

    // Request 2 (maybe another process): a person approved; the run resumes where it stopped.
    const agent = agentFor();
    const state = await RunState.fromString(agent, stored);
    for (const interruption of state.getInterruptions()) state.approve(interruption);
    const resumed = await run(agent, state);

    // The resumed run's items are the whole run's, from the first request on.
    const toolOutputs = resumed.newItems.flatMap((item) =>
      item.type === "tool_call_output_item" ? [outputLine(item.rawItem)] : [],
    );
    return { text: String(resumed.finalOutput), toolOutputs, approvals, refunds };
  } finally {
    await server.close();
  }
}

function outputLine(raw: unknown): string {
  const { name, output } = raw as { name?: string; output?: unknown };
  const text =
    typeof output === "object" && output !== null && "text" in output
      ? (output as { text: string }).text
      : String(output);
  return `${name}: ${text}`;
}

/** Prints what the run did, one line per step. */
export function printRun({ text, toolOutputs, approvals, refunds }: AgentsExampleResult): void {
  for (const line of toolOutputs) console.log(`tool      ${line}`);
  for (const { tool, arguments: args } of approvals) console.log(`approval  asked for ${tool}(${args}), approved`);
  console.log(`refunds   ${refunds.join(" ") || "none"}`);
  console.log(`final: ${text}`);
}

if (require.main === module) {
  main().then(printRun, (error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
