/**
 * OpenAI Chat Completions: a reply whose results carry images, audio and a PDF (tool messages,
 * then one user message with the parts) goes into `chat.completions.create` as the SDK types
 * it, with no cast: spread into the message list, pushed onto it, or narrowed by role to the
 * SDK's tool and user message types. Compiled, never run.
 */
import type OpenAI from "openai";
import { audio, defineTool, file, image, Toolkit } from "toolnexus";
import type { OpenAIReplyMessage } from "toolnexus/providers";

type ChatMessage = OpenAI.Chat.Completions.ChatCompletionMessageParam;
type AttachmentPart = Extract<OpenAIReplyMessage, { role: "user" }>["content"][number];

const toolkit = new Toolkit([
  defineTool({
    name: "chart",
    description: "Draws a chart",
    execute: () => [
      { type: "text", text: "the chart" },
      image(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), "image/png"),
      image(new URL("https://example.com/c.png")),
    ],
  }),
  defineTool({
    name: "memo",
    description: "Plays the memo",
    execute: () => audio(new Uint8Array([0x49, 0x44, 0x33, 3, 0]), "audio/mpeg"),
  }),
  defineTool({
    name: "report",
    description: "Writes a report",
    execute: () => file(new Uint8Array([0x25, 0x50, 0x44, 0x46, 0x2d]), "application/pdf", "report.pdf"),
  }),
]);

export async function richChatRequest(
  completion: OpenAI.Chat.Completions.ChatCompletion,
): Promise<OpenAI.Chat.Completions.ChatCompletionCreateParams> {
  const history: ChatMessage[] = [{ role: "user", content: "chart, memo and report?" }];
  return {
    model: "gpt-4.1",
    tools: toolkit.toOpenAI(),
    messages: [...history, completion.choices[0]!.message, ...(await toolkit.runOpenAI(completion))],
  };
}

export async function pushedOntoMessages(completion: OpenAI.Chat.Completions.ChatCompletion): Promise<ChatMessage[]> {
  const messages: ChatMessage[] = [{ role: "user", content: "chart?" }, completion.choices[0]!.message];
  messages.push(...(await toolkit.runOpenAI(completion.choices[0]!.message.tool_calls ?? [])));
  return messages;
}

export async function asSdkMessages(completion: OpenAI.Chat.Completions.ChatCompletion): Promise<ChatMessage[]> {
  const reply: OpenAIReplyMessage[] = await toolkit.runOpenAI(completion);
  return reply;
}

/** Narrowed by role, each message is the SDK's tool or user message, the user message's parts the SDK's content parts. */
export async function byRole(
  completion: OpenAI.Chat.Completions.ChatCompletion,
): Promise<
  [OpenAI.Chat.Completions.ChatCompletionToolMessageParam[], OpenAI.Chat.Completions.ChatCompletionContentPart[]]
> {
  const tools: OpenAI.Chat.Completions.ChatCompletionToolMessageParam[] = [];
  const parts: OpenAI.Chat.Completions.ChatCompletionContentPart[] = [];
  for (const message of await toolkit.runOpenAI(completion)) {
    if (message.role === "tool") tools.push(message);
    else parts.push(...message.content);
  }
  return [tools, parts];
}

export function attachmentPart(part: AttachmentPart): OpenAI.Chat.Completions.ChatCompletionContentPart {
  return part;
}

export async function resumedChat(completion: OpenAI.Chat.Completions.ChatCompletion): Promise<ChatMessage[]> {
  const reply = await toolkit.runOpenAI(completion);
  if (reply.pendingApprovals === undefined) return reply;
  return toolkit.resumeApprovals(reply.pendingApprovals, {});
}
