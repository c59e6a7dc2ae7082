/**
 * MCP: declarations with `outputSchema` and results with content blocks and `structuredContent`
 * are what the official SDK types (`Tool`, `CallToolResult`, `ListToolsResult`), with no cast.
 * Compiled, never run.
 */
import type {
  CallToolResult,
  ContentBlock,
  ListToolsResult,
  Tool as McpSdkTool,
} from "@modelcontextprotocol/sdk/types.js";
import { audio, defineTool, file, image, resourceLink, Toolkit } from "toolnexus";
import { toMcpResult } from "toolnexus/mcp";

const toolkit = new Toolkit([
  defineTool({
    name: "media",
    description: "Every kind of part",
    execute: () => [
      { type: "text", text: "all of them" },
      image(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), "image/png"),
      image(new URL("https://example.com/chart.png")),
      audio(new Uint8Array([0x49, 0x44, 0x33]), "audio/mpeg"),
      file(new Uint8Array([0x25, 0x50, 0x44, 0x46, 0x2d]), "application/pdf", "report.pdf"),
      file(new URL("https://example.com/r.pdf"), "application/pdf"),
      resourceLink("https://example.com/logs/today", { name: "today.log" }),
    ],
  }),
  defineTool({
    name: "totals",
    description: "Sums the cart",
    outputSchema: { type: "object", properties: { total: { type: "number" } }, required: ["total"] },
    execute: () => ({ total: 3 }),
  }),
]);

export function mcpTools(): McpSdkTool[] {
  return toolkit.toMcp();
}

export function listToolsResult(): ListToolsResult {
  return { tools: toolkit.toMcp() };
}

export async function callToolResult(name: string): Promise<CallToolResult> {
  return toMcpResult(await toolkit.execute(name, {}));
}

export async function contentBlocks(name: string): Promise<ContentBlock[]> {
  return toMcpResult(await toolkit.execute(name, {})).content;
}

export async function structuredContent(): Promise<CallToolResult["structuredContent"]> {
  return toMcpResult(await toolkit.execute("totals", {})).structuredContent;
}
