import { Injectable, type CanActivate, type ExecutionContext } from "@nestjs/common";

export interface User {
  id: string;
  name: string;
}

/** What the guard leaves on the request. */
export interface AuthenticatedRequest {
  headers: Record<string, string | string[] | undefined>;
  user?: User;
}

/** Stand-in authentication: a known bearer token becomes `request.user`. */
export const DEMO_TOKENS: Readonly<Record<string, User>> = { "demo-token-ada": { id: "u-1", name: "Ada" } };

@Injectable()
export class BearerAuthGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const header = request.headers.authorization;
    const token = typeof header === "string" ? header.replace(/^Bearer\s+/i, "") : "";
    request.user = DEMO_TOKENS[token];
    return request.user !== undefined;
  }
}
