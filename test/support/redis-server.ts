import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import Redis from "ioredis";

/** A redis-server of its own for a test: on 127.0.0.1, a free port, nothing saved to disk (`.ci/run` installs redis-server where it is missing). */
export interface RedisServer {
  readonly host: string;
  readonly port: number;
  /** The ioredis connection options that reach it. */
  readonly connection: { host: string; port: number };
  /** Stops the server and waits for it to exit. */
  stop(): Promise<void>;
}

/** Where the integration project's global setup started one redis-server per jest worker: `port,port,...`, the n-th for JEST_WORKER_ID n. */
export const WORKER_REDIS_PORTS = "TOOLNEXUS_TEST_REDIS_PORTS";

/**
 * This jest worker's redis-server, emptied for the calling test file, which must not stop it
 * (its `stop` does nothing): the servers live as long as the run. Suites that stop, restart or
 * lose their Redis on purpose start their own with startRedisServer. Without the global setup
 * (a file run under another config) the file gets a server of its own, stopped by `stop`.
 */
export async function workerRedisServer(): Promise<RedisServer> {
  const ports = process.env[WORKER_REDIS_PORTS]?.split(",").map(Number) ?? [];
  const port = ports[Number(process.env.JEST_WORKER_ID ?? "1") - 1];
  if (port === undefined) return startRedisServer();
  const client = new Redis({ host: "127.0.0.1", port, lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await client.connect();
    await client.flushall();
  } finally {
    client.disconnect();
  }
  return { host: "127.0.0.1", port, connection: { host: "127.0.0.1", port }, stop: () => Promise.resolve() };
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
  const child: ChildProcess = spawn(
    "redis-server",
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--protected-mode", "yes"],
    {
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
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
    child.once("error", (error) =>
      reject(
        new Error(
          `redis-server could not be started (${error.message}): install it, e.g. apt-get install redis-server.`,
        ),
      ),
    );
    child.once("exit", (code) =>
      reject(new Error(`redis-server exited (code ${String(code)}) before it was ready:\n${output}`)),
    );
  });
}
