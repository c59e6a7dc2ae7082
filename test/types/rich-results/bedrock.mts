/**
 * Bedrock Converse: a reply carrying images, documents and JSON goes into `ConverseCommand` as
 * the AWS SDK types it (`Message`, `ContentBlock`, `ToolResultContentBlock`), with no cast.
 * Compiled, never run.
 */
import type {
  ContentBlock,
  ConverseCommandInput,
  ConverseResponse,
  Message,
  ToolResultContentBlock,
} from "@aws-sdk/client-bedrock-runtime";
import { defineTool, file, image, Toolkit } from "toolnexus";

const toolkit = new Toolkit([
  defineTool({
    name: "chart",
    description: "Draws a chart",
    execute: () => [
      { type: "text", text: "the chart" },
      image(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), "image/png"),
    ],
  }),
  defineTool({
    name: "sheet",
    description: "Exports a sheet",
    execute: () => file(new Uint8Array([0x61, 0x2c, 0x62]), "text/csv", "totals.csv"),
  }),
  defineTool({
    name: "totals",
    description: "Sums the cart",
    outputSchema: { type: "object", properties: { total: { type: "number" } }, required: ["total"] },
    execute: () => ({ total: 3 }),
  }),
]);

export async function richBedrockReply(response: ConverseResponse): Promise<ConverseCommandInput> {
  const assistant = response.output?.message;
  const reply = await toolkit.runBedrock(response);
  const messages: Message[] = [
    { role: "user", content: [{ text: "chart, sheet and totals?" }] },
    ...(assistant ? [assistant] : []),
    ...(reply ? [reply] : []),
  ];
  return { modelId: "anthropic.claude-sonnet-4-5", messages };
}

export async function contentBlocks(response: ConverseResponse): Promise<ContentBlock[]> {
  return (await toolkit.runBedrock(response))?.content ?? [];
}

export async function toolResultContent(response: ConverseResponse): Promise<ToolResultContentBlock[]> {
  return (await toolkit.runBedrock(response))?.content[0]?.toolResult.content ?? [];
}

export async function resumedBedrockReply(response: ConverseResponse): Promise<Message[]> {
  const reply = await toolkit.runBedrock(response.output?.message?.content ?? []);
  if (reply?.pendingApprovals === undefined) return reply ? [reply] : [];
  const resumed = await toolkit.resumeApprovals(reply.pendingApprovals, {});
  return resumed ? [resumed] : [];
}
