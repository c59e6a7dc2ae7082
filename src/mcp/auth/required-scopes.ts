import type { ToolContext } from "../../core/types";
import { declarations, type McpToolkit } from "../declarations";

/**
 * The OAuth scopes one JSON-RPC request needs beyond the server's own `requiredScopes`: a
 * `tools/call`'s tool's `scopes` (the tool the name resolves to among those this caller sees,
 * as the call itself resolves it), a `resources/read`'s and a `prompts/get`'s as the toolkit's
 * `scopesFor` names them. None for anything else, and none for a name this caller cannot see
 * (the call fails as unknown, and a 403 would tell that the name exists).
 */
export function requiredScopes(
  kit: McpToolkit,
  message: { method: string; params?: unknown },
  ctx: ToolContext,
): readonly string[] {
  const params = (typeof message.params === "object" && message.params !== null ? message.params : {}) as {
    name?: unknown;
    uri?: unknown;
  };
  const scopesFor = kit.scopesFor?.bind(kit);
  switch (message.method) {
    case "tools/call": {
      if (typeof params.name !== "string") return [];
      const { binding } = declarations(kit).current(ctx);
      let bound = binding.get(params.name)?.tool;
      // A tool's own name reaches it too when the client was shown it under another (sanitized) one.
      if (bound === undefined && [...binding.values()].some((entry) => entry.tool === params.name)) bound = params.name;
      if (bound === undefined) return [];
      return [...(kit.get(bound)?.scopes ?? [])];
    }
    case "resources/read":
    case "resources/subscribe":
      return typeof params.uri === "string" ? [...(scopesFor?.("resource", params.uri, ctx) ?? [])] : [];
    case "prompts/get":
      return typeof params.name === "string" ? [...(scopesFor?.("prompt", params.name, ctx) ?? [])] : [];
    case "completion/complete": {
      // What is completed needs what using it needs: a prompt's scopes, a template's.
      const ref = (params as { ref?: { type?: unknown; name?: unknown; uri?: unknown } }).ref;
      if (ref?.type === "ref/prompt" && typeof ref.name === "string")
        return [...(scopesFor?.("prompt", ref.name, ctx) ?? [])];
      if (ref?.type === "ref/resource" && typeof ref.uri === "string")
        return [...(scopesFor?.("resource", ref.uri, ctx) ?? [])];
      return [];
    }
    default:
      return [];
  }
}
