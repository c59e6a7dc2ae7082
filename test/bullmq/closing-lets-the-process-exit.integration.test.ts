/**
 * A queue executor and a tool worker closed at any moment (before their connections are up,
 * while they come up, once they are up, with no Redis to reach) leave nothing that keeps the
 * process alive: a program that closes them and returns exits by itself.
 */
import { spawn } from "node:child_process";
import { createServer } from "node:net";
import { join } from "node:path";
import { workerRedisServer, type RedisServer } from "../support/redis-server";
import { patience } from "../support/time";
import { requireBuiltPackage } from "./support";

const FIXTURE = join(__dirname, "fixtures", "close-then-return.ts");
/** Only for a process that would never exit: the test fails instead of hanging. */
const HARD_KILL_MS = patience(20_000);

let redis: RedisServer;
beforeAll(async () => {
  requireBuiltPackage();
  redis = await workerRedisServer();
});
afterAll(async () => redis?.stop());

function runFixture(
  port: number,
  closeAfterMs: number,
  connectTimeoutMs?: number,
): Promise<{ code: number | null; signal: NodeJS.Signals | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["-r", "ts-node/register/transpile-only", FIXTURE], {
      cwd: join(__dirname, "..", ".."),
      env: {
        ...process.env,
        REDIS_PORT: String(port),
        CLOSE_AFTER_MS: String(closeAfterMs),
        QUEUE: `close-${closeAfterMs}`,
        ...(connectTimeoutMs !== undefined ? { CONNECT_TIMEOUT_MS: String(connectTimeoutMs) } : {}),
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const killer = setTimeout(() => child.kill("SIGKILL"), HARD_KILL_MS);
    child.once("exit", (code, signal) => {
      clearTimeout(killer);
      resolve({ code, signal, output });
    });
  });
}

/** A port nobody listens on. */
function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

describe("closing a queue executor and a tool worker", () => {
  it.each([0, 1, 5, 20, 100, 500])(
    "lets the process exit when they are closed %i ms after they were made",
    async (closeAfterMs) => {
      const { code, signal, output } = await runFixture(redis.port, closeAfterMs);
      expect({ code, signal }).toEqual({ code: 0, signal: null });
      expect(output).toContain("closed");
    },
  );

  it.each([0, 50, 500])(
    "lets the process exit when Redis cannot be reached, closed %i ms after they were made",
    async (closeAfterMs) => {
      // A second to give up on Redis instead of the default ten: closing while giving up is the same path.
      const { code, signal, output } = await runFixture(await closedPort(), closeAfterMs, 1_000);
      expect({ code, signal }).toEqual({ code: 0, signal: null });
      expect(output).toContain("closed");
    },
  );
});
