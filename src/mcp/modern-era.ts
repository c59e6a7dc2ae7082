import type { IncomingHttpHeaders } from "node:http";
import type * as ServerSdk from "@modelcontextprotocol/server";
import type * as NodeSdk from "@modelcontextprotocol/node";
import type * as StdioSdk from "@modelcontextprotocol/server/stdio";

/** Where a 2026-07-28 request carries its protocol version: the per-request `_meta` envelope. */
export const PROTOCOL_VERSION_META_KEY = "io.modelcontextprotocol/protocolVersion";

/** The revisions of the 2025 era (served by the MCP SDK 1.x with an `initialize` handshake). */
export const LEGACY_REVISIONS: ReadonlySet<string> = new Set([
  "2025-11-25",
  "2025-06-18",
  "2025-03-26",
  "2024-11-05",
  "2024-10-07",
]);

/**
 * Whether a request belongs to the 2026-07-28 era (or a later one): it carries the per-request
 * `_meta` envelope's protocol version, or an `MCP-Protocol-Version` header naming a revision
 * after the 2025 ones. As the MCP SDK 2.x routes: batches, posted responses and claim-less
 * messages (`initialize` among them) are 2025-era; a modern claim with a malformed envelope is
 * the modern side's to refuse.
 */
export function claimsModernEra(body: unknown, headers: IncomingHttpHeaders): boolean {
  if (Array.isArray(body) || typeof body !== "object" || body === null) return false;
  const message = body as { method?: unknown; params?: { _meta?: unknown } };
  if (typeof message.method !== "string") return false;
  const meta = message.params?._meta;
  if (typeof meta === "object" && meta !== null && PROTOCOL_VERSION_META_KEY in meta) return true;
  const header = headers["mcp-protocol-version"];
  return (
    typeof header === "string" &&
    /^\d{4}-\d{2}-\d{2}$/.test(header) &&
    header > "2025-11-25" &&
    !LEGACY_REVISIONS.has(header)
  );
}

/** The MCP SDK 2.x packages that serve the 2026-07-28 era (`@modelcontextprotocol/node` besides, for HTTP). */
export interface ModernSdk {
  server: typeof ServerSdk;
  stdio: typeof StdioSdk;
}

let loadedSdk: ModernSdk | Error | undefined;
let loadedNode: typeof NodeSdk | Error | undefined;

/**
 * The MCP SDK 2.x server, loaded the first time a 2026-07-28 request arrives, or an error
 * naming what to install: a server with only the SDK 1.x serves the 2025 era alone.
 */
export function modernSdk(): ModernSdk | Error {
  return (loadedSdk ??= loaded("@modelcontextprotocol/server", () => ({
    server: require("@modelcontextprotocol/server") as typeof ServerSdk,
    stdio: require("@modelcontextprotocol/server/stdio") as typeof StdioSdk,
  })));
}

/** `@modelcontextprotocol/node`, which serves the SDK 2.x's handler on Node's HTTP server. */
export function modernNodeSdk(): typeof NodeSdk | Error {
  return (loadedNode ??= loaded(
    "@modelcontextprotocol/node",
    () => require("@modelcontextprotocol/node") as typeof NodeSdk,
  ));
}

function loaded<T>(what: string, load: () => T): T | Error {
  try {
    return load();
  } catch (error) {
    const detail = error instanceof Error ? error.message.split("\n")[0] : String(error);
    const missing = (error as NodeJS.ErrnoException).code === "MODULE_NOT_FOUND";
    return new Error(
      "A client sent a request of MCP protocol revision 2026-07-28, which this server answers with the MCP SDK 2.x: " +
        (missing
          ? "npm install @modelcontextprotocol/server @modelcontextprotocol/node."
          : `${what} is installed but did not load (${detail}).`) +
        " Until then it serves the 2025 revisions (clients fall back to them)." +
        (missing ? ` (${detail})` : ""),
    );
  }
}

/** MCP's error code for a protocol revision the server does not speak; its data lists those it does. */
const UNSUPPORTED_PROTOCOL_VERSION = -32022;

/**
 * The answer to a 2026-07-28 request when the MCP SDK 2.x is not installed: the revisions this
 * server speaks, so that a negotiating client falls back to them, and what to install.
 */
export function unsupportedRevision(
  request: unknown,
  why: Error,
): { jsonrpc: "2.0"; id: unknown; error: { code: number; message: string; data: unknown } } {
  const { id, params } = request as { id?: unknown; params?: { _meta?: Record<string, unknown> } };
  return {
    jsonrpc: "2.0",
    id: id ?? null,
    error: {
      code: UNSUPPORTED_PROTOCOL_VERSION,
      message: why.message,
      data: { supported: [...LEGACY_REVISIONS], requested: params?._meta?.[PROTOCOL_VERSION_META_KEY] },
    },
  };
}
