/**
 * A small NestJS app on Fastify whose services are tools, with nothing else to write:
 *
 * - CatalogModule: CatalogService.search (→ tool `catalog_search_products`), with an injected repository;
 * - OrdersModule: OrdersService.placeOrder (→ `orders_place_order`), which uses the catalogue
 *   through DI and the signed-in user from `ToolContext.state`, behind Nest's own
 *   `@UseGuards(CustomersOnlyGuard)`;
 * - ChatController (POST /api/chat): a Gemini conversation with every tool;
 * - the MCP endpoint (/api/mcp), a controller of the app: the global prefix, the global
 *   bearer-token guard and the global logging interceptor apply to it, and to every tool call.
 *
 * `ToolnexusModule.forRoot({ prefix: true, mcp })` discovers the tools at startup (one log line
 * each) and makes the `Toolkit` injectable. main() boots the app on 127.0.0.1, starts a local
 * stand-in for the Gemini API (./mock-gemini.ts), chats once as a customer, then connects the
 * official MCP client as a viewer (who may search but not order), and closes everything.
 * Against the real API, drop the mock and `baseUrl` and set GEMINI_API_KEY.
 */
import "reflect-metadata";
import type { AddressInfo } from "node:net";
import { ConsoleLogger, type LoggerService, type LogLevel } from "@nestjs/common";
import { NestFactory } from "@nestjs/core";
import { FastifyAdapter, type NestFastifyApplication } from "@nestjs/platform-fastify";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { AppModule } from "./app.module";
import type { ChatReply } from "./chat.controller";
import { startMockGemini } from "./mock-gemini";

// @google/genai's `require` entry is typed by an ES-module .d.ts: require() it, typed as the module it is.
const {
  GoogleGenAI,
}: typeof import("@google/genai", { with: { "resolution-mode": "import" } }) = require("@google/genai");

export interface ExampleResult {
  status: number;
  reply: ChatReply;
  /** How many generateContent requests the (mock) model answered. */
  modelRequests: number;
  /** What a viewer's MCP client got. */
  mcp: { tools: string[]; search: string; order: { text: string; isError: boolean } };
}

export async function main(options: { logger?: LoggerService | LogLevel[] | false } = {}): Promise<ExampleResult> {
  const mock = await startMockGemini();
  // The fallback is a fake key, good only for the local mock.
  const gemini = new GoogleGenAI({
    apiKey: process.env.GEMINI_API_KEY ?? "local-mock-key",
    httpOptions: { baseUrl: mock.baseUrl },
  });
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.register(gemini), new FastifyAdapter(), {
    logger: loggerFor(options.logger ?? ["log", "warn", "error"]),
  });
  app.setGlobalPrefix("api");
  try {
    await app.listen(0, "127.0.0.1");
    const base = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}/api`;
    const response = await fetch(`${base}/chat`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer demo-token-ada" },
      body: JSON.stringify({ message: "Please order 2 packs of Assam tea." }),
    });
    const reply = (await response.json()) as ChatReply;
    return {
      status: response.status,
      reply,
      modelRequests: mock.requests.length,
      mcp: await browseOverMcp(`${base}/mcp`),
    };
  } finally {
    await app.close();
    await mock.close();
  }
}

/** A viewer's MCP client: it sees every tool, searches, and is refused an order by the tool's guard. */
async function browseOverMcp(url: string): Promise<ExampleResult["mcp"]> {
  const client = new Client({ name: "tea-shop-viewer", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { authorization: "Bearer demo-token-grace" } },
    }),
  );
  try {
    const { tools } = await client.listTools();
    const search = await client.callTool({ name: "catalog_search_products", arguments: { query: "darjeeling" } });
    const order = await client.callTool({ name: "orders_place_order", arguments: { sku: "TEA-02", quantity: 1 } });
    return {
      tools: tools.map((tool) => tool.name),
      search: textOf(search),
      order: { text: textOf(order), isError: order.isError === true },
    };
  } finally {
    await client.close();
  }
}

function textOf(result: Awaited<ReturnType<Client["callTool"]>>): string {
  return (result.content as Array<{ type: string; text?: string }>).map((part) => part.text ?? "").join("");
}

/** Nest's console logger, in colour only on a terminal: piped into a file or a CI log, colour codes are noise. */
function loggerFor(logger: LoggerService | LogLevel[] | false): LoggerService | false {
  return Array.isArray(logger)
    ? new ConsoleLogger({ logLevels: logger, colors: process.stdout.isTTY === true })
    : logger;
}

/** What main() did, as lines. */
export function describeResult({ reply, mcp }: ExampleResult): string[] {
  return [
    ...reply.calls.map(
      (call) => `chat: tool ${call.name}(${JSON.stringify(call.args)})${call.isError ? " failed" : ""}`,
    ),
    `chat: ${reply.answer}`,
    `mcp (viewer): ${mcp.tools.length} tools: ${mcp.tools.join(", ")}`,
    `mcp (viewer): catalog_search_products → ${mcp.search}`,
    `mcp (viewer): orders_place_order → ${mcp.order.isError ? "refused: " : ""}${mcp.order.text}`,
  ];
}

if (require.main === module) {
  main().then(
    (result) => console.log(describeResult(result).join("\n")),
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
