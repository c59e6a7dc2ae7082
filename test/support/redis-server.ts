/**
 * A real redis-server for tests: on 127.0.0.1, a free port, no persistence; stopped by `stop()`.
 * `.ci/run` installs redis-server where it is missing.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createServer, Socket } from "node:net";

export interface RedisServer {
  port: number;
  connection: { host: string; port: number };
  stop(): Promise<void>;
}

export async function startRedis(): Promise<RedisServer> {
  const port = await freePort();
  const child = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], { stdio: "ignore" });
  const failed = new Promise<never>((_, reject) =>
    child.once("error", (error) => reject(new Error(`redis-server could not start (${error.message}): install it (apt-get install redis-server).`))),
  );
  await Promise.race([answering(port), failed]);
  return { port, connection: { host: "127.0.0.1", port }, stop: () => stopped(child) };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Resolves once the server answers PING. */
async function answering(port: number): Promise<void> {
  for (let tries = 0; tries < 200; tries++) {
    if (await pings(port)) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`redis-server did not answer on port ${port}`);
}

function pings(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    socket.once("error", () => resolve(false));
    socket.connect(port, "127.0.0.1", () => socket.write("PING\r\n"));
    socket.once("data", (data) => {
      socket.destroy();
      resolve(data.toString().startsWith("+PONG"));
    });
  });
}

function stopped(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGKILL");
  });
}
