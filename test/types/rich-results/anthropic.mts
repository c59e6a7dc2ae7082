/**
 * Anthropic: a reply carrying images, documents and text goes into `messages.create` as the
 * SDK types it (`ToolResultBlockParam` content blocks), with no cast. Compiled, never run.
 */
import type Anthropic from "@anthropic-ai/sdk";
import { defineTool, file, image, Toolkit } from "toolnexus";

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const toolkit = new Toolkit([
  defineTool({
    name: "chart",
    description: "Draws a chart",
    execute: () => [
      { type: "text", text: "the chart" },
      image(PNG, "image/png"),
      image(new URL("https://example.com/chart.png")),
    ],
  }),
  defineTool({
    name: "report",
    description: "Writes a report",
    execute: () => [
      file(new Uint8Array([0x25, 0x50, 0x44, 0x46, 0x2d]), "application/pdf", "report.pdf"),
      file(new URL("https://example.com/r.pdf"), "application/pdf"),
    ],
  }),
]);

export async function richAnthropicReply(message: Anthropic.Message): Promise<Anthropic.MessageCreateParams> {
  const reply = await toolkit.runAnthropic(message);
  return {
    model: "claude-sonnet-4-5",
    max_tokens: 1024,
    tools: toolkit.toAnthropic(),
    messages: [
      { role: "user", content: "chart and report?" },
      { role: "assistant", content: message.content },
      ...(reply ? [reply] : []),
    ],
  };
}

export async function toolResultBlocks(message: Anthropic.Message): Promise<Anthropic.ToolResultBlockParam[]> {
  return (await toolkit.runAnthropic(message))?.content ?? [];
}

export async function firstToolResultContent(
  message: Anthropic.Message,
): Promise<Anthropic.ToolResultBlockParam["content"]> {
  return (await toolkit.runAnthropic(message.content))?.content[0]?.content;
}

export async function resumedAnthropicReply(message: Anthropic.Message): Promise<Anthropic.MessageParam[]> {
  const reply = await toolkit.runAnthropic(message);
  if (reply?.pendingApprovals === undefined) return reply ? [reply] : [];
  const resumed = await toolkit.resumeApprovals(reply.pendingApprovals, {});
  return resumed ? [resumed] : [];
}
