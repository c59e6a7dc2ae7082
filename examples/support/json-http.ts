/** JSON over node:http for the examples' local stand-ins of provider APIs. */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export function readJson(req: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("error", reject);
    req.on("end", () => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}"));
      } catch (error) {
        reject(error);
      }
    });
  });
}

export function send(res: ServerResponse, status: number, payload: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(payload));
}

/** A local stand-in of an OpenAI-style API: where the client points, how many requests it answered, and how to stop it. */
export interface MockApi {
  /** Pass as the client's `baseURL`. */
  baseURL: string;
  /** How many requests were answered. */
  requests(): number;
  close(): Promise<void>;
}

/** Starts a stand-in on 127.0.0.1 (a free port): `answer` gets each request's JSON body and its number; a body that is no JSON is a 400, as OpenAI answers it. */
export async function startMockApi<Body>(
  answer: (req: IncomingMessage, res: ServerResponse, body: Body, n: number) => void,
): Promise<MockApi> {
  let count = 0;
  const server = createServer((req, res) => {
    readJson(req).then(
      (body) => answer(req, res, body as Body, ++count),
      () =>
        send(res, 400, {
          error: {
            message: "We could not parse the JSON body of your request.",
            type: "invalid_request_error",
            param: null,
            code: null,
          },
        }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests: () => count,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
