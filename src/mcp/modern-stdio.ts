import type { JSONRPCMessage, Transport } from "@modelcontextprotocol/server";
import type { ModernServers } from "./modern-server";
import type { CallScope } from "./server";

/**
 * The transport the MCP SDK 2.x's `serveStdio` serves a connection's 2026-07-28 messages on:
 * fed by the connection's own stdio transport, which keeps reading every line (and serving
 * the 2025 era), and writing to it, so one stdout carries both and nothing else.
 */
class StdioBridge implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;

  constructor(private readonly write: (message: JSONRPCMessage) => Promise<void>) {}

  async start(): Promise<void> {}

  send(message: JSONRPCMessage): Promise<void> {
    return this.write(message);
  }

  async close(): Promise<void> {
    this.onclose?.();
  }
}

/** The 2026-07-28 side of a stdio connection: one SDK 2.x server, pinned for the connection. */
export interface ModernStdio {
  deliver(message: JSONRPCMessage): void;
  close(): Promise<void>;
}

export function modernStdio(
  servers: ModernServers,
  scope: CallScope,
  write: (message: JSONRPCMessage) => Promise<void>,
  onError: (error: Error) => void,
): ModernStdio {
  const bridge = new StdioBridge(write);
  const served = servers.sdk.stdio.serveStdio(() => servers.create(scope), {
    legacy: "reject",
    transport: bridge,
    onerror: onError,
  });
  return { deliver: (message) => bridge.onmessage?.(message), close: () => served.close() };
}
