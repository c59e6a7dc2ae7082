/**
 * serveMcp's HTTP server protects itself from slow and numerous clients: a cap on concurrent
 * connections, and timeouts for receiving headers and requests and for idle keep-alive
 * connections. A tool call that runs long is not a slow client: the request timeout ends
 * once the request is in. Small values here; the defaults are documented in the README.
 */
import { connect, type Socket } from "node:net";
import { Toolkit } from "../../src";
import { serveMcp, type McpServerHandle, type ServeHttpOptions } from "../../src/mcp";
import { SlowService, WeatherService } from "../fixtures/cli/services";
import { connectHttp, INITIALIZE, rawRequest, textOf } from "./support";

const toolkit = new Toolkit([new WeatherService(), new SlowService()]);

async function withServer(
  options: Omit<ServeHttpOptions, "transport" | "port">,
  run: (server: McpServerHandle) => Promise<void>,
): Promise<void> {
  const server = await serveMcp(toolkit, { transport: "http", port: 0, shutdownTimeout: 100, ...options });
  try {
    await run(server);
  } finally {
    await server.close();
  }
}

interface Ending {
  /** What the server wrote before the connection ended. */
  answer: string;
  /** "closed" when the server ended the connection within the bound, "open" when it was still open. */
  outcome: "closed" | "open";
  elapsed: number;
}

/** Opens a raw connection, writes `text` (nothing when undefined), then waits up to `boundMs` for the server to end it. */
function rawConnection(
  port: number,
  text: string | undefined,
  boundMs: number,
): { socket: Socket; ending: Promise<Ending> } {
  const socket = connect(port, "127.0.0.1");
  const start = Date.now();
  let answer = "";
  socket.on("data", (chunk) => (answer += chunk.toString()));
  socket.on("error", () => {}); // a reset is one way for the server to end it
  if (text !== undefined) socket.once("connect", () => socket.write(text));
  const ending = new Promise<Ending>((resolve) => {
    const timer = setTimeout(() => resolve({ answer, outcome: "open", elapsed: Date.now() - start }), boundMs);
    socket.once("close", () => {
      clearTimeout(timer);
      resolve({ answer, outcome: "closed", elapsed: Date.now() - start });
    });
  });
  return { socket, ending };
}

async function callAdd(url: string): Promise<string> {
  const client = await connectHttp(url);
  try {
    return textOf(await client.callTool({ name: "add", arguments: { a: 1, b: 2 } }));
  } finally {
    await client.close();
  }
}

describe("HTTP timeouts", () => {
  it("cuts off a client that sends part of its headers and stalls, and keeps serving the others", async () => {
    await withServer({ headersTimeout: 200, requestTimeout: 5_000 }, async (server) => {
      const slow = rawConnection(
        server.port!,
        "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n",
        5_000,
      );
      expect(await callAdd(server.url!)).toBe("3");
      const ended = await slow.ending;
      expect(ended.outcome).toBe("closed");
      expect(ended.answer).toMatch(/^HTTP\/1\.1 408 /);
      expect(ended.elapsed).toBeGreaterThanOrEqual(150);
    });
  });

  it("cuts off a client that sends its body too slowly", async () => {
    await withServer({ headersTimeout: 200, requestTimeout: 400 }, async (server) => {
      const headers = `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: ${INITIALIZE.length}\r\n\r\n`;
      const slow = rawConnection(server.port!, headers + INITIALIZE.slice(0, 10), 5_000);
      const ended = await slow.ending;
      expect(ended.outcome).toBe("closed");
      expect(ended.answer).toMatch(/^HTTP\/1\.1 408 /);
      expect(ended.elapsed).toBeGreaterThanOrEqual(350);
      expect(await callAdd(server.url!)).toBe("3");
    });
  });

  it.each([
    ["an SSE response", false],
    ["a JSON response", true],
  ])(
    "lets a tool call run past requestTimeout (%s): the timeout ends once the request is in",
    async (_label, jsonResponse) => {
      await withServer({ headersTimeout: 100, requestTimeout: 200, jsonResponse }, async (server) => {
        const client = await connectHttp(server.url!);
        try {
          const label = `outlasts-${String(jsonResponse)}`;
          expect(await client.callTool({ name: "wait", arguments: { ms: 700, label } })).toEqual({
            content: [{ type: "text", text: `finished waiting for ${label}` }],
            isError: false,
          });
        } finally {
          await client.close();
        }
      });
    },
  );

  it("closes a keep-alive connection left idle for keepAliveTimeout", async () => {
    await withServer({ keepAliveTimeout: 200 }, async (server) => {
      const request = `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: ${INITIALIZE.length}\r\n\r\n${INITIALIZE}`;
      const idle = rawConnection(server.port!, request, 5_000);
      const ended = await idle.ending;
      expect(ended.outcome).toBe("closed");
      expect(ended.answer).toMatch(/^HTTP\/1\.1 200 /);
      expect(ended.answer).toContain('"serverInfo"');
    });
  });
});

describe("HTTP connection cap", () => {
  it("refuses connections past maxConnections until one ends", async () => {
    await withServer({ maxConnections: 2 }, async (server) => {
      const held = [rawConnection(server.port!, undefined, 60_000), rawConnection(server.port!, undefined, 60_000)];
      await Promise.all(held.map(({ socket }) => new Promise((resolve) => socket.once("connect", resolve))));
      // Let the server accept both before the third knocks.
      await new Promise((resolve) => setTimeout(resolve, 100));

      const third = await rawConnection(server.port!, undefined, 2_000).ending;
      expect(third).toMatchObject({ outcome: "closed", answer: "" });

      held[0]!.socket.destroy();
      await held[0]!.ending;
      const answered = await rawRequest(server.url!, { body: INITIALIZE, headers: { connection: "close" } });
      expect(answered.status).toBe(200);
      held[1]!.socket.destroy();
    });
  });
});

describe("HTTP limit options", () => {
  it.each<[string, Omit<ServeHttpOptions, "transport">, string]>([
    ["a cap of 0", { maxConnections: 0 }, "maxConnections"],
    ["a negative timeout", { headersTimeout: -1 }, "headersTimeout"],
    ["a fractional timeout", { keepAliveTimeout: 1.5 }, "keepAliveTimeout"],
    [
      "headers allowed longer than the whole request",
      { headersTimeout: 2_000, requestTimeout: 1_000 },
      "headersTimeout",
    ],
  ])("refuses %s", async (_label, options, named) => {
    await expect(serveMcp(toolkit, { transport: "http", port: 0, ...options })).rejects.toThrow(named);
  });
});
