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
 * `parsedBody`; a body it refused (malformed JSON, over its size limit) is answered as a
 * JSON-RPC error (-32700, or 413), after the handler's Host and token checks.
 * `toolnexus/mcp` and the MCP SDK are loaded only here, only when asked for.
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
  const { createMcpHttpHandler, UnreadableBody } = require("../mcp/http") as typeof import("../mcp/http");
  const handler = createMcpHttpHandler(toolkit, {
    ...handlerOptions,
    state: async (req) => ({ ...(await state?.(req)), [REQUEST_STATE_KEY]: req }),
  });
  adapter.all(path, (req: IncomingMessage & { body?: unknown }, res: ServerResponse) => handler(req, res, req.body));
  // Nest's body parser runs before the route: what it fails on would reach the client as Nest's
  // own error, before any Host or token check. Its errors on this route go to the handler
  // instead, which checks the request as usual and then answers them as JSON-RPC errors.
  adapter.use(path, (error: unknown, req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => {
    const failure = (req.url ?? "/").split("?")[0] === "/" ? bodyParserFailure(error) : undefined;
    if (failure === undefined) return next(error);
    // The rest of a refused body may still be on the connection: it cannot carry another request.
    res.setHeader("connection", "close");
    const unreadable =
      failure.type === "entity.parse.failed"
        ? UnreadableBody.notJson(failure.message)
        : failure.type === "entity.too.large" && typeof failure.limit === "number"
          ? UnreadableBody.tooLarge(failure.limit)
          : new UnreadableBody(failure.status, `The request body could not be read: ${failure.message}.`);
    void handler(req, res, unreadable);
  });
  logger.log(`MCP endpoint (streamable HTTP, stateless) at ${path}`);
  return { close: () => handler.close() };
}

/** An error of Express's body parser (body-parser, through http-errors): a client error with a `type`. */
function bodyParserFailure(error: unknown): { type: string; status: number; message: string; limit?: unknown } | undefined {
  if (!(error instanceof Error)) return undefined;
  const { type, status, limit } = error as Error & { type?: unknown; status?: unknown; limit?: unknown };
  if (typeof type !== "string" || typeof status !== "number" || status < 400 || status > 499) return undefined;
  return { type, status, message: error.message, limit };
}
