import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";

/** A redis-server of its own for a test: on 127.0.0.1, a free port, nothing saved to disk (`.ci/run` installs redis-server where it is missing). */
export interface RedisServer {
  readonly host: string;
  readonly port: number;
  /** The ioredis connection options that reach it. */
  readonly connection: { host: string; port: number };
  /** Stops the server and waits for it to exit. */
  stop(): Promise<void>;
}

/** A port nobody listens on right now (the OS picks it). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/**
 * Starts `redis-server` (it must be on the PATH: `apt-get install redis-server`) and resolves
 * once it accepts connections. A port taken meanwhile by someone else is tried again.
 */
export async function startRedisServer(attempts = 3): Promise<RedisServer> {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    try {
      return await launch(port);
    } catch (error) {
      if (attempt >= attempts) throw error;
    }
  }
}

function launch(port: number): Promise<RedisServer> {
  const child: ChildProcess = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--protected-mode", "yes"], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    await exited;
  };
  return new Promise((resolve, reject) => {
    let output = "";
    const onData = (chunk: Buffer) => {
      output += chunk.toString("utf8");
      if (output.includes("Ready to accept connections")) {
        child.stdout!.off("data", onData);
        resolve({ host: "127.0.0.1", port, connection: { host: "127.0.0.1", port }, stop });
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
    child.once("error", (error) => reject(new Error(`redis-server could not be started (${error.message}): install it, e.g. apt-get install redis-server.`)));
    child.once("exit", (code) => reject(new Error(`redis-server exited (code ${String(code)}) before it was ready:\n${output}`)));
  });
}
