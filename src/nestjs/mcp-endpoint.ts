import type { IncomingMessage, ServerResponse } from "node:http";
import { Inject, Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from "@nestjs/common";
import { HttpAdapterHost } from "@nestjs/core";
import type { McpHttpHandler } from "../mcp";
import { Toolkit } from "../toolkit";
import { REQUEST_STATE_KEY, TOOLNEXUS_OPTIONS, type ToolnexusModuleOptions } from "./options";

/** The request and reply objects of the adapters the endpoint runs on. */
type ExpressRequest = IncomingMessage & { body?: unknown; user?: unknown };
type FastifyRequest = { raw: IncomingMessage; body?: unknown; user?: unknown };
type FastifyReply = { raw: ServerResponse; hijack(): void };

const ADAPTERS = ["express", "fastify"];

/**
 * Serves the toolkit over MCP's streamable HTTP transport (stateless) for the controller at
 * `mcp.path` (see `mcpController`), with `createMcpHttpHandler` from `toolnexus/mcp`. The request
 * Nest routed, guarded and passed through middleware is handed on: the user a guard put on it
 * becomes the tools' `ctx.state.user`, and the request itself `ctx.state.request` (so that
 * request-scoped providers resolve in its sub-tree, and tool guards read it). With `auth`, the
 * caller's validated access token is `ctx.state.auth`, and the protected-resource metadata is
 * served at its well-known path, on the adapter (outside the global prefix and guards).
 */
@Injectable()
export class McpEndpoint implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger("Toolnexus");
  #handler: McpHttpHandler | undefined;
  #fastify = false;
  /** The adapter's request of each raw request being answered (Fastify wraps Node's). */
  readonly #requests = new WeakMap<IncomingMessage, object>();

  constructor(
    private readonly toolkit: Toolkit,
    @Inject(TOOLNEXUS_OPTIONS) private readonly options: ToolnexusModuleOptions,
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  onModuleInit(): void {
    const adapter = this.adapterHost.httpAdapter as HttpAdapterHost["httpAdapter"] | undefined;
    if (adapter === undefined) {
      throw new Error(
        "ToolnexusModule: the mcp option needs an HTTP application (NestFactory.create, or createNestApplication in " +
          "tests); this application context has no HTTP adapter.",
      );
    }
    const type = adapter.getType();
    if (!ADAPTERS.includes(type)) {
      throw new Error(
        `ToolnexusModule: the mcp option runs on the Express and Fastify adapters; this application uses "${type}". ` +
          "Mount createMcpHttpHandler from toolnexus/mcp yourself.",
      );
    }
    this.#fastify = type === "fastify";
    const { path, state, ...handlerOptions } = this.options.mcp ?? {};
    // Loaded here so that an app without the mcp option never needs @modelcontextprotocol/sdk.
    const { createMcpHttpHandler } = require("../mcp") as typeof import("../mcp");
    this.#handler = createMcpHttpHandler(this.toolkit, {
      ...handlerOptions,
      state: async (raw) => {
        const request = (this.#requests.get(raw) ?? raw) as ExpressRequest | FastifyRequest;
        return {
          ...(request.user !== undefined ? { user: request.user } : {}),
          ...(await state?.(request)),
          [REQUEST_STATE_KEY]: request,
        };
      },
    });
    // The protected-resource metadata (auth): public, at the well-known path of auth.resource, so outside the
    // global prefix and the application's guards, on the adapter itself.
    for (const metadataPath of this.#handler.resourceMetadataPaths)
      adapter.get(metadataPath, (request: ExpressRequest | FastifyRequest, reply: ServerResponse | FastifyReply) =>
        this.handle(request, reply),
      );
    this.logger.log(`MCP endpoint (streamable HTTP, stateless) at ${path ?? "?"}`);
  }

  /** Answers one request of the MCP controller; the reply is written here, not by Nest. */
  async handle(request: ExpressRequest | FastifyRequest, reply: ServerResponse | FastifyReply): Promise<void> {
    const [raw, response] = this.#fastify
      ? [(request as FastifyRequest).raw, (reply as FastifyReply).raw]
      : [request as ExpressRequest, reply as ServerResponse];
    // Fastify leaves the reply alone from here on: the MCP transport writes the raw response.
    if (this.#fastify) (reply as FastifyReply).hijack();
    this.#requests.set(raw, request);
    // The body the adapter's parser read (JSON); undefined when none did, and the handler reads it.
    await this.#handler!(raw, response, request.body);
  }

  /** Stops taking requests and waits for the ones in flight (see `McpHttpHandler.close`). */
  async onModuleDestroy(): Promise<void> {
    await this.#handler?.close();
  }
}
