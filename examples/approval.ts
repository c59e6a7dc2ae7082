/**
 * Controlling calls: a refund waits for a person's approval, across two requests.
 *
 * Request 1 (the chat turn): the model looks up a payment and asks for two refunds. The
 * refund tool has `needsApproval: true` and the toolkit has no `approve` function, so
 * `runOpenAI` runs the lookup and hands the refunds back as `pendingApprovals` (plain JSON).
 * The server stores that JSON with the conversation and tells the user a refund awaits
 * approval; it does not send the partial reply to the model.
 *
 * Request 2 (maybe another process, hours later): a person approves one refund and denies the
 * other. A new toolkit reads the stored JSON back and `resumeApprovals` answers every call of
 * the turn, in order: the tool messages to append before calling the model again.
 *
 * The refund tool also has `authorize` (only support staff may refund), and the toolkit a
 * middleware that logs every call it runs with its time. The "model" is a ChatCompletion
 * written out below, so this runs offline, without an API key.
 */
import "reflect-metadata";
import type { ChatCompletion, ChatCompletionMessageParam } from "openai/resources/chat/completions";
import { Ctx, Param, Tool, Toolkit, type ToolContext, type ToolMiddleware, type PendingApprovals } from "toolnexus";

const PAYMENTS: Record<string, { amountCents: number; customer: string }> = {
  pay_1001: { amountCents: 4_200, customer: "ada@example.com" },
  pay_1002: { amountCents: 90_000, customer: "ada@example.com" },
};

export class PaymentsService {
  @Tool({ name: "get_payment", description: "Looks up a payment by its id", annotations: { readOnly: true } })
  getPayment(@Param({ description: "Payment id, e.g. pay_1001" }) paymentId: string) {
    const payment = PAYMENTS[paymentId];
    if (payment === undefined) throw new Error(`No payment ${paymentId}.`);
    return { paymentId, ...payment };
  }

  @Tool({
    name: "refund_payment",
    description: "Refunds part or all of a payment",
    annotations: { destructive: true },
    // Every call waits for a person; a function (args, ctx) => boolean could ask only for large refunds.
    needsApproval: true,
    // Checked before approval is even asked for, and again when the approved call runs.
    authorize: (ctx) => ctx.state?.role === "support",
  })
  refundPayment(
    @Param({ description: "Payment id" }) paymentId: string,
    @Param({ description: "Amount to refund, in cents", integer: true, minimum: 1 }) amountCents: number,
    @Ctx() ctx: ToolContext,
  ) {
    return `Refunded ${(amountCents / 100).toFixed(2)} EUR on ${paymentId} (by ${String(ctx.state?.user)}).`;
  }
}

/** Logs every call that gets past authorization and approval, with how long it took. */
const timing: ToolMiddleware = async (call, next) => {
  const started = performance.now();
  const result = await next();
  const took = (performance.now() - started).toFixed(1);
  console.log(
    `  [log] ${call.tool.name} for ${String(call.ctx.state?.user)}: ${result.isError ? "error" : "ok"} in ${took} ms`,
  );
  return result;
};

/** How each request builds its toolkit: no `approve` function, so run* hand approvals back. */
function buildToolkit(): Toolkit {
  return new Toolkit([new PaymentsService()]).use(timing);
}

/** The signed-in user, as the host knows them (never shown to the model). */
const staff: ToolContext = { state: { user: "grace@shop.example", role: "support" } };

/** A stand-in for the conversation store (a database table, a session). */
type Store = Map<string, { messages: ChatCompletionMessageParam[]; pendingApprovals: string }>;

/** What the model answered: a ChatCompletion as the OpenAI API returns it, with three tool calls. */
function modelTurn(): ChatCompletion {
  const call = (id: string, name: string, args: object) => ({
    id,
    type: "function" as const,
    function: { name, arguments: JSON.stringify(args) },
  });
  return {
    id: "chatcmpl-local-1",
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model: "gpt-4.1-mini",
    choices: [
      {
        index: 0,
        finish_reason: "tool_calls",
        logprobs: null,
        message: {
          role: "assistant",
          content: null,
          refusal: null,
          tool_calls: [
            call("call_1", "get_payment", { paymentId: "pay_1001" }),
            call("call_2", "refund_payment", { paymentId: "pay_1001", amountCents: 1_500 }),
            call("call_3", "refund_payment", { paymentId: "pay_1002", amountCents: 90_000 }),
          ],
        },
      },
    ],
  };
}

/** Request 1: run the model's calls; the refunds wait, so store the turn instead of answering it. */
async function chatTurn(store: Store, conversationId: string): Promise<void> {
  const toolkit = buildToolkit();
  const completion = modelTurn();
  const messages: ChatCompletionMessageParam[] = [
    { role: "user", content: "Refund 15 EUR of pay_1001, and all of pay_1002." },
    completion.choices[0]!.message,
  ];
  console.log(
    `request 1: the model calls ${completion.choices[0]!.message.tool_calls!.map((c) => (c.type === "function" ? c.function.name : c.type)).join(", ")}`,
  );

  const reply = await toolkit.runOpenAI(completion, staff);
  for (const message of reply)
    if (message.role === "tool") console.log(`  answered now: ${message.tool_call_id} ${message.content}`);
  if (reply.pendingApprovals !== undefined) {
    const stored = JSON.stringify(reply.pendingApprovals);
    store.set(conversationId, { messages, pendingApprovals: stored });
    for (const approval of reply.pendingApprovals.approvals)
      console.log(`  waiting for approval: ${approval.id} ${approval.tool}(${JSON.stringify(approval.args)})`);
    console.log(`  stored ${stored.length} characters of JSON; the user is told a person will review the refunds`);
  }
}

/** Request 2: a person decided; a new toolkit finishes the turn from the stored JSON. */
async function approvalDecided(store: Store, conversationId: string): Promise<ChatCompletionMessageParam[]> {
  const toolkit = buildToolkit();
  const { messages, pendingApprovals } = store.get(conversationId)!;
  // Taken out first: resuming the same JSON twice would run the approved refund twice.
  store.delete(conversationId);
  const pending = JSON.parse(pendingApprovals) as PendingApprovals<"openai">;
  console.log("request 2: a person approves call_2 and denies call_3 (the denial is expected below)");

  const toolMessages = await toolkit.resumeApprovals(
    pending,
    { call_2: true, call_3: { approved: false, reason: "Refunds over 500 EUR need a manager." } },
    staff,
  );
  for (const message of toolMessages)
    if (message.role === "tool") console.log(`  ${message.tool_call_id}: ${message.content}`);
  // Append them, then call the model again with the whole conversation.
  return [...messages, ...toolMessages];
}

export async function main() {
  const store: Store = new Map();
  await chatTurn(store, "conversation-42");
  const messages = await approvalDecided(store, "conversation-42");
  console.log(`  the conversation now has ${messages.length} messages, every tool call answered`);

  // authorize: a user without the support role is refused before anyone is asked to approve.
  const refused = await buildToolkit().execute(
    "refund_payment",
    { paymentId: "pay_1001", amountCents: 100 },
    { state: { user: "mallory@example.com", role: "customer" } },
  );
  console.log(
    `a customer calling refund_payment directly is refused, as intended (${String(refused.metadata?.error)}): ${refused.output}`,
  );
  return { messages, refused };
}

if (require.main === module) void main();
