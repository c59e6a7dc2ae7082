import { Injectable, type CanActivate, type ExecutionContext } from "@nestjs/common";
import { toolCallOf } from "toolnexus/nestjs";

export interface User {
  id: string;
  name: string;
  /** Customers order; viewers only browse. */
  role: "customer" | "viewer";
}

/** What the guard leaves on the request. */
export interface AuthenticatedRequest {
  headers: Record<string, string | string[] | undefined>;
  user?: User;
}

/** Stand-in authentication: a known bearer token becomes `request.user`. */
export const DEMO_TOKENS: Readonly<Record<string, User>> = {
  "demo-token-ada": { id: "u-1", name: "Ada", role: "customer" },
  "demo-token-grace": { id: "u-2", name: "Grace", role: "viewer" },
};

/**
 * Global (APP_GUARD): every HTTP request, /api/chat and /api/mcp alike, needs a known bearer
 * token. Global guards also see each tool call (`context.getType() === "toolnexus"`); the
 * request a call came with was checked here already, so tool calls are left to their own guards.
 */
@Injectable()
export class BearerAuthGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    if (context.getType() !== "http") return true;
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const header = request.headers.authorization;
    const token = typeof header === "string" ? header.replace(/^Bearer\s+/i, "") : "";
    request.user = DEMO_TOKENS[token];
    return request.user !== undefined;
  }
}

/** On a tool: only customers may call it, whoever's model asks (the chat's or an MCP client's). */
@Injectable()
export class CustomersOnlyGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const user = toolCallOf(context)?.ctx.state?.user as User | undefined;
    return user?.role === "customer";
  }
}
