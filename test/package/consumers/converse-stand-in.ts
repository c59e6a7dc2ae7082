/**
 * A local stand-in for Amazon Bedrock's Converse API (`POST /model/{modelId}/converse`), for
 * the official BedrockRuntimeClient: HTTP/2 without TLS, as the client speaks by default, on
 * 127.0.0.1. It plays one scripted model: a request carrying no tool result is turn 1, answered
 * with the calls of `calls` (each must be a tool the request declares, as Converse requires); a
 * request carrying tool results is turn 2, answered with text quoting each result. Either turn
 * answers 400 ValidationException when the request breaks what this checks.
 */
import { createServer, type Http2Session } from "node:http2";
import type { AddressInfo } from "node:net";
import { finalTextFor, type ScriptedCall } from "../../support/mock-providers";

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

export interface ConverseStandIn {
  /** `http://127.0.0.1:<port>`: the client's `endpoint`. */
  endpoint: string;
  close(): Promise<void>;
}

export async function startConverseStandIn(calls: readonly ScriptedCall[]): Promise<ConverseStandIn> {
  const sessions = new Set<Http2Session>();
  let counter = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const send = (status: number, payload: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, { "content-type": "application/json", ...headers });
        res.end(JSON.stringify(payload));
      };
      const refuse = (message: string) =>
        send(
          400,
          { message },
          { "x-amzn-errortype": "ValidationException:http://internal.amazon.com/coral/com.amazon.bedrock/" },
        );
      if (req.method !== "POST" || !/^\/model\/[^/]+\/converse$/.test(req.url ?? ""))
        return send(404, { message: `stand-in: no route for ${req.method} ${req.url}` });
      let body: Json;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      } catch {
        return refuse("The request body is not JSON.");
      }
      const messages: Json[] = Array.isArray(body?.messages) ? body.messages : [];
      if (messages.length === 0) return refuse("messages: at least one message is required.");
      const declared: string[] = (body.toolConfig?.tools ?? []).map((tool: Json) => tool.toolSpec?.name);
      const last = messages[messages.length - 1];
      const results: Json[] = (last.content ?? []).filter((block: Json) => block.toolResult !== undefined);
      let content: Json[];
      if (results.length === 0) {
        const undeclared = calls.filter((call) => !declared.includes(call.name)).map((call) => call.name);
        if (undeclared.length > 0)
          return refuse(`The model calls ${undeclared.join(", ")}, which toolConfig does not declare.`);
        content = calls.map((call) => ({
          toolUse: { toolUseId: `tooluse_${++counter}`, name: call.name, input: call.args },
        }));
      } else {
        const asked = new Map<string, string>(
          (messages[messages.length - 2]?.content ?? [])
            .filter((block: Json) => block.toolUse !== undefined)
            .map((block: Json) => [block.toolUse.toolUseId, block.toolUse.name]),
        );
        const text = finalTextFor(
          results.map(({ toolResult }) => ({
            name: asked.get(toolResult.toolUseId) ?? "?",
            isError: toolResult.status === "error",
            text: (toolResult.content as Json[]).map((block) => block.text ?? JSON.stringify(block.json)).join(""),
          })),
        );
        content = [{ text }];
      }
      send(200, {
        output: { message: { role: "assistant", content } },
        stopReason: results.length === 0 ? "tool_use" : "end_turn",
        usage: { inputTokens: 42, outputTokens: 17, totalTokens: 59 },
        metrics: { latencyMs: 5 },
      });
    });
  });
  server.on("session", (session: Http2Session) => {
    sessions.add(session);
    session.on("close", () => sessions.delete(session));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const session of sessions) session.destroy();
        server.close(() => resolve());
      }),
  };
}
