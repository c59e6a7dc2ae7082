import type { IncomingMessage, ServerResponse } from "node:http";
import type { LoggerService } from "@nestjs/common";
import type { AbstractHttpAdapter } from "@nestjs/core";
import type { Toolkit } from "../toolkit";
import { REQUEST_STATE_KEY, type ToolnexusMcpOptions } from "./options";

export interface McpEndpoint {
  /** Stops taking requests and waits for the ones in flight (see `McpHttpHandler.close`). */
  close(): Promise<void>;
}

/**
 * Mounts `createMcpHttpHandler(toolkit)` from `toolnexus/mcp` (stateless streamable HTTP) on
 * the Nest app's Express adapter at `options.path`, every method (the handler answers what
 * is not POST with 405). A JSON body Nest's body parser already read is handed over as
 * `parsedBody`. `toolnexus/mcp` and the MCP SDK are loaded only here, only when asked for.
 */
export function mountMcpEndpoint(adapter: AbstractHttpAdapter | undefined, toolkit: Toolkit, options: ToolnexusMcpOptions, logger: LoggerService): McpEndpoint {
  if (adapter === undefined) {
    throw new Error(
      "ToolnexusModule: the mcp option needs an HTTP application (NestFactory.create, or createNestApplication in tests); this application context has no HTTP adapter.",
    );
  }
  const type = adapter.getType();
  if (type !== "express") {
    throw new Error(
      `ToolnexusModule: the mcp option supports the Express adapter (@nestjs/platform-express); this application uses "${type}". Mount createMcpHttpHandler from toolnexus/mcp yourself.`,
    );
  }
  const { path, state, ...handlerOptions } = options;
  if (typeof path !== "string" || !path.startsWith("/")) {
    throw new Error(`ToolnexusModule: mcp.path must be a route starting with "/", e.g. "/mcp"; got ${JSON.stringify(path)}.`);
  }
  // Loaded lazily so that an app without the mcp option never needs @modelcontextprotocol/sdk.
  const { createMcpHttpHandler } = require("../mcp") as typeof import("../mcp");
  const handler = createMcpHttpHandler(toolkit, {
    ...handlerOptions,
    state: async (req) => ({ ...(await state?.(req)), [REQUEST_STATE_KEY]: req }),
  });
  adapter.all(path, (req: IncomingMessage & { body?: unknown }, res: ServerResponse) => handler(req, res, req.body));
  logger.log(`MCP endpoint (streamable HTTP, stateless) at ${path}`);
  return { close: () => handler.close() };
}
