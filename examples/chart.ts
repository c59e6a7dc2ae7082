/**
 * Results beyond text. `sales_chart` draws monthly sales as a PNG (./support/png.ts, no image
 * library) and returns it with a caption: a list of parts, `[{ type: "text", ... }, image(png)]`.
 * `sales_summary` returns an object that its output schema (the `SalesSummary` DTO) describes:
 * it becomes `structuredContent`, checked against the schema.
 *
 * The same two calls are answered for every provider shape: each run* method gets a model
 * response written out below (offline, no API key) and returns the provider's result message,
 * carrying the image the way that API documents it (Anthropic image blocks, Gemini
 * `functionResponse.parts`, OpenAI Responses `input_image`, OpenAI Chat's following user
 * message, Bedrock image blocks). Then the official MCP client calls them through
 * `createMcpServer`: image content, and `structuredContent` matching `outputSchema`.
 * Printed with each base64 payload shortened to its size.
 */
import "reflect-metadata";
import { IsIn, IsInt, Min } from "class-validator";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { image, Param, Tool, Toolkit, type ToolContent } from "toolnexus";
import { createMcpServer } from "toolnexus/mcp";
import { Canvas } from "./support/png";

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"] as const;
const SALES: Record<number, number[]> = { 2025: [42, 38, 51, 47, 60, 58, 64, 59, 71, 69, 80, 95] };

export class SalesSummary {
  @IsInt() year!: number;
  /** Thousands of euros. */
  @IsInt() @Min(0) total!: number;
  @IsIn([...MONTHS]) bestMonth!: string;
}

export class SalesService {
  @Tool({
    name: "sales_chart",
    description: "Draws the monthly sales of a year as a bar chart (PNG)",
    annotations: { readOnly: true },
  })
  chart(@Param({ description: "The year, e.g. 2025", integer: true }) year: number): ToolContent[] {
    const months = salesOf(year);
    const canvas = new Canvas(12 * 20 + 10, 110);
    const top = Math.max(...months);
    months.forEach((value, month) => {
      const height = Math.round((value / top) * 100);
      canvas.fillRect(
        10 + month * 20,
        105 - height,
        14,
        height,
        month === months.indexOf(top) ? [214, 69, 65] : [66, 133, 244],
      );
    });
    canvas.fillRect(0, 105, canvas.width, 2, [60, 60, 60]);
    return [
      { type: "text", text: `Monthly sales ${year}, thousands of euros: ${months.join(", ")}` },
      image(canvas.toPng()),
    ];
  }

  @Tool({
    name: "sales_summary",
    description: "The year's total sales and best month",
    output: SalesSummary,
    annotations: { readOnly: true },
  })
  summary(@Param({ description: "The year, e.g. 2025", integer: true }) year: number): SalesSummary {
    const months = salesOf(year);
    const best = months.indexOf(Math.max(...months));
    return { year, total: months.reduce((sum, value) => sum + value, 0), bestMonth: MONTHS[best]! };
  }
}

function salesOf(year: number): number[] {
  const months = SALES[year];
  if (months === undefined)
    throw new Error(`No sales recorded for ${year}; years with data: ${Object.keys(SALES).join(", ")}.`);
  return months;
}

const ARGS = { year: 2025 };

/** Each provider's result message for one model turn that calls both tools. */
export async function providerReplies(toolkit: Toolkit): Promise<Record<string, unknown>> {
  const calls = [
    { id: "call_1", name: "sales_chart" },
    { id: "call_2", name: "sales_summary" },
  ];
  return {
    gemini: await toolkit.runGemini({
      candidates: [
        {
          content: { role: "model", parts: calls.map(({ id, name }) => ({ functionCall: { id, name, args: ARGS } })) },
        },
      ],
    }),
    anthropic: await toolkit.runAnthropic({
      content: calls.map(({ id, name }) => ({ type: "tool_use", id, name, input: ARGS })),
    }),
    "openai-responses": await toolkit.runOpenAIResponses({
      output: calls.map(({ id, name }) => ({
        type: "function_call",
        call_id: id,
        name,
        arguments: JSON.stringify(ARGS),
      })),
    }),
    openai: await toolkit.runOpenAI({
      choices: [
        {
          message: {
            role: "assistant",
            content: null,
            tool_calls: calls.map(({ id, name }) => ({
              id,
              type: "function",
              function: { name, arguments: JSON.stringify(ARGS) },
            })),
          },
        },
      ],
    }),
    bedrock: await toolkit.runBedrock({
      output: {
        message: {
          role: "assistant",
          content: calls.map(({ id, name }) => ({ toolUse: { toolUseId: id, name, input: ARGS } })),
        },
      },
    }),
  };
}

/** What the official MCP client gets: the declared output schema, the chart's content, the summary's structured content. */
export async function overMcp(toolkit: Toolkit) {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const server = createMcpServer(toolkit, { name: "sales" });
  const client = new Client({ name: "chart-example", version: "1.0.0" });
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  try {
    const { tools } = await client.listTools();
    const chart = await client.callTool({ name: "sales_chart", arguments: ARGS });
    // The client checks structuredContent against the outputSchema it listed.
    const summary = await client.callTool({ name: "sales_summary", arguments: ARGS });
    return { outputSchema: tools.find((tool) => tool.name === "sales_summary")?.outputSchema, chart, summary };
  } finally {
    await client.close();
    await server.close();
  }
}

export async function main() {
  const toolkit = new Toolkit([new SalesService()]);
  const replies = await providerReplies(toolkit);
  const mcp = await overMcp(toolkit);
  return { replies, mcp };
}

/** JSON with every base64 payload shortened to its size, so a reply fits on a screen. */
export function shortened(value: unknown): string {
  return JSON.stringify(value, (_key, field: unknown) => {
    if (field instanceof Uint8Array) return `<${field.byteLength} bytes>`;
    if (typeof field === "string" && field.length > 120 && /^(data:[\w/+.-]+;base64,)?[A-Za-z0-9+/=]+$/.test(field))
      return `<base64, ${field.length} characters>`;
    return field;
  });
}

if (require.main === module) {
  main().then(
    ({ replies, mcp }) => {
      for (const [provider, reply] of Object.entries(replies)) console.log(`${provider}: ${shortened(reply)}\n`);
      console.log(`mcp: ${shortened(mcp)}`);
    },
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
