/**
 * The Vercel AI SDK: the tea shop's tools (examples/services.ts, plus a refund that needs a
 * person's approval) given to `generateText` with `toAiSdkTools`, across two requests.
 *
 * Request 1: the model checks the weather and places an order with an invalid e-mail on
 * purpose; the toolkit's error goes back to it as an error result, and it corrects the call.
 * It then asks for a refund, which needs approval: the AI SDK stops with a
 * `tool-approval-request`.
 *
 * Request 2: a person approved; the host appends a `tool-approval-response` and calls
 * `generateText` again. The AI SDK runs the approved refund (through `toolkit.execute` with
 * `{ approved: true }`), and the model answers.
 *
 * The signed-in user travels as the AI SDK's `experimental_context`, which the tools read as
 * `ctx.state`. The "model" is the AI SDK's own `MockLanguageModelV3` answering from what the
 * tools returned, so this runs offline, without an API key.
 */
import "reflect-metadata";
import { generateText, stepCountIs, type ModelMessage } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { defineTool, Toolkit, type ToolResult } from "toolnexus";
import { toAiSdkTools } from "toolnexus/ai-sdk";
import { OrdersService, WeatherService } from "./services";

const refundOrder = defineTool<{ orderId: number }>({
  name: "refund_order",
  description: "Refunds an order in full",
  inputSchema: {
    type: "object",
    properties: { orderId: { type: "integer", minimum: 1 } },
    required: ["orderId"],
    additionalProperties: false,
  },
  validate: true,
  needsApproval: true,
  execute: ({ orderId }, ctx) => `Order ${orderId} refunded for ${String(ctx.state?.user)}.`,
});

/** The signed-in user, as the host knows them: passed as experimental_context, never shown to the model. */
const session = { user: "ada@example.com" };

export async function main() {
  const toolkit = new Toolkit([new WeatherService(), new OrdersService(), refundOrder]);
  const tools = toAiSdkTools(toolkit);
  const model = teaShopModel();

  // Request 1: the chat turn.
  const question: ModelMessage[] = [
    {
      role: "user",
      content: "How warm is it in Chennai, in fahrenheit? Order 2 × TEA-01 for me, and refund order 999.",
    },
  ];
  const first = await generateText({
    model,
    tools,
    messages: question,
    experimental_context: session,
    stopWhen: stepCountIs(5),
  });
  // `dynamic` results are the AI SDK's own (a call to a tool it was not given); the toolkit's carry its ToolResult.
  for (const step of first.steps)
    for (const result of step.toolResults)
      if (!result.dynamic) console.log(`  ${result.toolName}: ${result.output.output}`);
  const approvals = first.content.flatMap((part) => (part.type === "tool-approval-request" ? [part] : []));
  for (const { toolCall } of approvals)
    console.log(`  waiting for approval: ${toolCall.toolName}(${JSON.stringify(toolCall.input)})`);

  // Request 2: a person approved; the conversation goes on with their answer appended.
  const answer: ModelMessage = {
    role: "tool",
    content: approvals.map(({ approvalId }) => ({ type: "tool-approval-response", approvalId, approved: true })),
  };
  const messages = [...question, ...first.response.messages, answer];
  const approvedRuns: Array<{ tool: string; result: ToolResult }> = [];
  const second = await generateText({
    model,
    tools,
    messages,
    experimental_context: session,
    stopWhen: stepCountIs(5),
    // Approved calls run before the model is called, so they are in no step: this hook sees them.
    experimental_onToolCallFinish: (event) =>
      void (event.success && approvedRuns.push({ tool: event.toolCall.toolName, result: event.output as ToolResult })),
  });
  for (const { tool, result } of approvedRuns) console.log(`  approved, then run: ${tool}: ${result.output}`);
  console.log(`  model: ${second.text}`);
  return { first, approvals, approvedRuns, second, messages: [...messages, ...second.response.messages] };
}

type GenerateResult = Awaited<ReturnType<MockLanguageModelV3["doGenerate"]>>;
type Prompt = Parameters<MockLanguageModelV3["doGenerate"]>[0]["prompt"];

/** A model written out: it reads what the tools returned in its prompt and acts on it, as a real one would. */
function teaShopModel(): MockLanguageModelV3 {
  const call = (toolCallId: string, toolName: string, input: object) => ({
    type: "tool-call" as const,
    toolCallId,
    toolName,
    input: JSON.stringify(input),
  });
  const turns: Array<(results: Map<string, string>) => GenerateResult["content"]> = [
    () => [
      call("call_1", "getWeather", { city: "Chennai", units: "fahrenheit" }),
      call("call_2", "place_order", { customerEmail: "ada", lines: [{ sku: "TEA-01", quantity: 2 }] }),
    ],
    // The order failed with an error it can read: it corrects the e-mail, and asks for the refund.
    () => [
      call("call_3", "place_order", { customerEmail: "ada@example.com", lines: [{ sku: "TEA-01", quantity: 2 }] }),
      call("call_4", "refund_order", { orderId: 999 }),
    ],
    (results) => {
      const weather = JSON.parse(results.get("call_1")!) as { temperature: number };
      const order = JSON.parse(results.get("call_3")!) as { orderId: number; units: number };
      return [
        {
          type: "text",
          text: `It is ${weather.temperature}°F in Chennai. Order ${order.orderId} is placed (${order.units} units). ${results.get("call_4")}`,
        },
      ];
    },
  ];
  let step = 0;
  return new MockLanguageModelV3({
    doGenerate: async ({ prompt }) => {
      const content = turns[step++]!(toolResults(prompt));
      const calls = content.some((part) => part.type === "tool-call");
      return {
        content,
        finishReason: { unified: calls ? "tool-calls" : "stop", raw: undefined },
        usage: {
          inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 },
          outputTokens: { total: 0, text: 0, reasoning: 0 },
        },
        warnings: [],
      };
    },
  });
}

/** Every tool result in a prompt, by call id, as the text the model read. */
function toolResults(prompt: Prompt): Map<string, string> {
  const results = new Map<string, string>();
  for (const message of prompt) {
    if (message.role !== "tool") continue;
    for (const part of message.content) {
      if (part.type !== "tool-result") continue;
      const { output } = part;
      results.set(
        part.toolCallId,
        output.type === "text" || output.type === "error-text" ? output.value : JSON.stringify(output),
      );
    }
  }
  return results;
}

if (require.main === module) void main();
