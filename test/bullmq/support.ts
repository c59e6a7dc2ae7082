import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { requireBuild } from "../support/built-package";
import { patience } from "../support/time";

const FIXTURE = join(__dirname, "fixtures", "tool-worker.ts");

/**
 * The processes the queue tests start (workers, MCP server instances, closing programs) run the
 * built package (`toolnexus`, `toolnexus/bullmq`, `toolnexus/mcp` resolve to dist/), as a user's
 * would: ts-node only transpiles their own few files, instead of every source file in each.
 */
export const requireBuiltPackage = (): void => requireBuild("the queue tests' processes run the built package");

/** A worker process running the queue tests' tools; `lines` is what it printed. */
export interface WorkerProcess {
  name: string;
  child: ChildProcess;
  lines: string[];
  /** Resolves once the worker printed `line`. */
  printed(line: string): Promise<void>;
  /** SIGKILL: the worker dies mid-call, as a crashed machine would. */
  kill(): Promise<void>;
  /** SIGTERM: the worker closes (lets its calls finish). */
  stop(): Promise<void>;
}

export async function startWorkerProcess(
  name: string,
  env: { port: number; queue: string; concurrency?: number; lockMs?: number; tasksPrefix?: string; leaseMs?: number },
): Promise<WorkerProcess> {
  requireBuiltPackage();
  const child = spawn(process.execPath, ["-r", "ts-node/register/transpile-only", FIXTURE], {
    cwd: join(__dirname, "..", ".."),
    env: {
      ...process.env,
      REDIS_PORT: String(env.port),
      QUEUE: env.queue,
      WORKER_NAME: name,
      CONCURRENCY: String(env.concurrency ?? 10),
      ...(env.lockMs !== undefined ? { LOCK_MS: String(env.lockMs) } : {}),
      ...(env.tasksPrefix !== undefined ? { TASKS_PREFIX: env.tasksPrefix } : {}),
      ...(env.leaseMs !== undefined ? { LEASE_MS: String(env.leaseMs) } : {}),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const lines: string[] = [];
  const waiters: Array<{ line: string; resolve: () => void }> = [];
  let buffered = "";
  child.stdout!.on("data", (chunk: Buffer) => {
    buffered += chunk.toString();
    const parts = buffered.split("\n");
    buffered = parts.pop()!;
    for (const line of parts) {
      lines.push(line);
      for (const waiter of waiters.filter((w) => w.line === line)) waiter.resolve();
    }
  });
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const printed = (line: string) =>
    lines.includes(line)
      ? Promise.resolve()
      : Promise.race([
          new Promise<void>((resolve) => waiters.push({ line, resolve })),
          exited.then(() => {
            throw new Error(`worker ${name} exited before printing "${line}": ${stderr}`);
          }),
        ]);
  await printed("ready");
  const ended = () => (child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : exited);
  return {
    name,
    child,
    lines,
    printed,
    kill: () => (child.kill("SIGKILL"), ended()),
    stop: async () => {
      child.kill("SIGTERM");
      // A worker still in a call after a while is killed: the tests are over.
      const timer = setTimeout(() => child.kill("SIGKILL"), patience(3_000));
      await ended();
      clearTimeout(timer);
    },
  };
}
