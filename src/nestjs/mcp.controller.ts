import type { ServerResponse } from "node:http";
import { All, Controller, Req, Res, type Type } from "@nestjs/common";
import { McpEndpoint } from "./mcp-endpoint";

/**
 * The controller that serves MCP at `path`: an ordinary Nest route, so the global prefix,
 * global guards, interceptors and middleware apply to it as to any other, on Express and on
 * Fastify. Every method reaches the endpoint, which answers what is not POST with 405.
 */
export function mcpController(path: string): Type {
  @Controller()
  class ToolnexusMcpController {
    constructor(private readonly endpoint: McpEndpoint) {}

    @All(path)
    handle(@Req() request: Parameters<McpEndpoint["handle"]>[0], @Res() reply: ServerResponse): Promise<void> {
      return this.endpoint.handle(request, reply);
    }
  }
  return ToolnexusMcpController;
}
