/**
 * The agent loop with the official openai client: declarations from the toolkit, then call
 * the model until it stops calling tools. After each answer, append the assistant message
 * and then `await toolkit.runOpenAI(completion)` (one `tool` message per call: a failed call
 * is an error message the model can read and correct, never an exception).
 *
 * To run it offline it starts a local stand-in for the OpenAI API (./support/mock-openai.ts)
 * and points the client at it. Against the real API, drop the mock and the `baseURL`.
 */
import "reflect-metadata";
import OpenAI from "openai";
import type { ChatCompletionMessageParam } from "openai/resources/chat/completions";
import { Toolkit } from "toolnexus";
import { OrdersService, WeatherService } from "./services";
import { startMockOpenAI } from "./support/mock-openai";

/** A guard against a model that never stops calling tools. */
const MAX_TURNS = 8;

export async function main(): Promise<{ text: string; messages: ChatCompletionMessageParam[] }> {
  const server = await startMockOpenAI();
  try {
    const client = new OpenAI({
      // The fallback is a fake key, good only for the local mock; the real API needs OPENAI_API_KEY.
      apiKey: process.env.OPENAI_API_KEY ?? "sk-local-mock",
      baseURL: server.baseURL,
    });
    const toolkit = new Toolkit([new WeatherService(), new OrdersService()]);
    const tools = toolkit.toOpenAI({ strict: true });

    const messages: ChatCompletionMessageParam[] = [
      { role: "system", content: "You help customers of a tea shop. Use the tools." },
      { role: "user", content: "How warm is it in Chennai, in fahrenheit? And order 2 × TEA-01 for ada@example.com." },
    ];
    for (let turn = 0; turn < MAX_TURNS; turn++) {
      const completion = await client.chat.completions.create({ model: "gpt-4.1-mini", messages, tools });
      const message = completion.choices[0]!.message;
      messages.push(message);
      if (!message.tool_calls?.length) return { text: message.content ?? "", messages };
      // Host data for the tools (never shown to the model): @Ctx() reads it as ctx.state.
      messages.push(...(await toolkit.runOpenAI(completion, { state: { user: "ada@example.com" } })));
    }
    throw new Error(`The model was still calling tools after ${MAX_TURNS} turns.`);
  } finally {
    await server.close();
  }
}

/** Prints the conversation, one line per message. */
export function printConversation({ text, messages }: { text: string; messages: ChatCompletionMessageParam[] }): void {
  for (const message of messages) {
    const calls =
      message.role === "assistant" && message.tool_calls
        ? message.tool_calls.map((c) =>
            c.type === "function" ? `${c.function.name}(${c.function.arguments})` : c.type,
          )
        : [];
    console.log(`${message.role.padEnd(9)} ${calls.length ? `calls ${calls.join(", ")}` : String(message.content)}`);
  }
  console.log(`final: ${text}`);
}

if (require.main === module) {
  main().then(printConversation, (error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
