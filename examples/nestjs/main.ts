/**
 * A small NestJS app whose services are tools, with nothing else to write:
 *
 * - CatalogModule: CatalogService.search (→ tool `catalog_search_products`), with an injected repository;
 * - OrdersModule: OrdersService.placeOrder (→ `orders_place_order`), which uses the catalogue
 *   through DI and the signed-in user from `ToolContext.state`;
 * - ChatController (POST /chat, behind a bearer-token guard): a Gemini conversation with every tool.
 *
 * `ToolnexusModule.forRoot({ prefix: true })` discovers the tools at startup (one log line each)
 * and makes the `Toolkit` injectable. main() boots the app on 127.0.0.1, starts a local stand-in
 * for the Gemini API (./mock-gemini.ts), chats once through HTTP as an authenticated user,
 * prints the result and closes everything. Against the real API, drop the mock and `baseUrl`
 * and set GEMINI_API_KEY.
 */
import "reflect-metadata";
import type { AddressInfo } from "node:net";
import { ConsoleLogger, type LoggerService, type LogLevel } from "@nestjs/common";
import { NestFactory } from "@nestjs/core";
import { AppModule } from "./app.module";
import type { ChatReply } from "./chat.controller";
import { startMockGemini } from "./mock-gemini";

// @google/genai's `require` entry is typed by an ES-module .d.ts: require() it, typed as the module it is.
const { GoogleGenAI }: typeof import("@google/genai", { with: { "resolution-mode": "import" } }) = require("@google/genai");

export interface ExampleResult {
  status: number;
  reply: ChatReply;
  /** How many generateContent requests the (mock) model answered. */
  modelRequests: number;
}

export async function main(options: { logger?: LoggerService | LogLevel[] | false } = {}): Promise<ExampleResult> {
  const mock = await startMockGemini();
  // The fallback is a fake key, good only for the local mock.
  const gemini = new GoogleGenAI({ apiKey: process.env.GEMINI_API_KEY ?? "local-mock-key", httpOptions: { baseUrl: mock.baseUrl } });
  const app = await NestFactory.create(AppModule.register(gemini), { logger: loggerFor(options.logger ?? ["log", "warn", "error"]) });
  try {
    await app.listen(0, "127.0.0.1");
    const { port } = app.getHttpServer().address() as AddressInfo;
    const response = await fetch(`http://127.0.0.1:${port}/chat`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer demo-token-ada" },
      body: JSON.stringify({ message: "Please order 2 packs of Assam tea." }),
    });
    const reply = (await response.json()) as ChatReply;
    return { status: response.status, reply, modelRequests: mock.requests.length };
  } finally {
    await app.close();
    await mock.close();
  }
}

/** Nest's console logger, in colour only on a terminal: piped into a file or a CI log, colour codes are noise. */
function loggerFor(logger: LoggerService | LogLevel[] | false): LoggerService | false {
  return Array.isArray(logger) ? new ConsoleLogger({ logLevels: logger, colors: process.stdout.isTTY === true }) : logger;
}

if (require.main === module) {
  main().then(
    ({ reply }) => {
      for (const call of reply.calls) console.log(`tool ${call.name}(${JSON.stringify(call.args)})${call.isError ? " failed" : ""}`);
      console.log(`\n${reply.answer}`);
    },
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
