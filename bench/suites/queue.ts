/**
 * Queue: calls sent through toolnexus/bullmq to worker processes on a local redis-server.
 *  - throughput: 10,000 short calls (1,000 with --quick) made at once, with 1, 2 and 4 worker
 *    processes (concurrency 50 each), as calls per second against 1 worker;
 *  - per-call overhead: one call at a time through the queue (1 worker) against the same call
 *    in process (`Toolkit.execute`), in µs per call.
 * Skipped, with a note, where redis-server is not installed.
 */
import { spawnSync } from "node:child_process";
import { defineTool, Toolkit } from "../../src";
import { queueExecutor, startToolWorker } from "../../src/bullmq";
import { startRedisServer } from "../../test/support/redis-server";
import { compare, isChild, row, runChild } from "../harness";
import type { BenchRow, BenchSuite } from "../types";

const SUITE = "queue";

function benchTools() {
  return [
    defineTool({
      name: "echo",
      description: "Echo a value",
      inputSchema: { type: "object", properties: { value: { type: "number" } }, required: ["value"] },
      execute: ({ value }: { value: number }) => String(value),
    }),
  ];
}

export const run: BenchSuite = async (options) => {
  if (spawnSync("redis-server", ["--version"]).error !== undefined) {
    process.stdout.write("queue: skipped (redis-server is not installed)\n");
    return [];
  }
  const redis = await startRedisServer();
  try {
    const calls = options.quick ? 1_000 : 10_000;
    const throughput: Record<number, number> = {};
    for (const count of [1, 2, 4])
      throughput[count] = await callsPerSecond(redis.port, `throughput-${count}`, count, calls);
    // Wall time per call of the whole batch: below 1× means more workers got through it faster.
    const wallMicros = (count: number) => 1_000_000 / throughput[count]!;
    const rows: BenchRow[] = [2, 4].map((count) =>
      row({
        suite: SUITE,
        case: `${calls.toLocaleString("en-US")} short calls at once, ${count} workers (${Math.round(throughput[count]!).toLocaleString("en-US")} calls/s)`,
        value: wallMicros(count),
        baseline: `same, 1 worker (${Math.round(throughput[1]!).toLocaleString("en-US")} calls/s)`,
        baselineValue: wallMicros(1),
        unit: "µs/call (wall)",
      }),
    );
    rows.push(await overhead(redis.port, options.quick));
    return rows;
  } finally {
    await redis.stop();
  }
};

/** Calls per second with `workers` worker processes taking `calls` calls made at once. */
async function callsPerSecond(port: number, queueName: string, workers: number, calls: number): Promise<number> {
  const connection = { host: "127.0.0.1", port };
  const children = Array.from({ length: workers }, () =>
    runChild<{ done: true }>(__filename, ["worker", String(port), queueName]),
  );
  const executor = queueExecutor({ connection, queueName });
  const toolkit = new Toolkit(benchTools(), { executor, tracing: false });
  try {
    // Every worker up and taking calls before the clock starts.
    for (let warm = 0; warm < workers * 20; warm++) await toolkit.execute("echo", { value: warm });
    const started = performance.now();
    const results = await Promise.all(Array.from({ length: calls }, (_, value) => toolkit.execute("echo", { value })));
    const took = performance.now() - started;
    const failed = results.filter((result) => result.isError);
    if (failed.length > 0) throw new Error(`queue bench: ${failed.length} calls failed, e.g. ${failed[0]!.output}`);
    return (calls / took) * 1_000;
  } finally {
    await executor.close();
    await stopWorkers(port, queueName, workers);
    await Promise.all(children);
  }
}

/** µs per call, one at a time, through the queue against in process. */
async function overhead(port: number, quick: boolean): Promise<BenchRow> {
  const queueName = "overhead";
  const child = runChild<{ done: true }>(__filename, ["worker", String(port), queueName]);
  const executor = queueExecutor({ connection: { host: "127.0.0.1", port }, queueName });
  const queued = new Toolkit(benchTools(), { executor, tracing: false });
  const local = new Toolkit(benchTools(), { tracing: false });
  try {
    await queued.execute("echo", { value: 1 });
    const settings = quick
      ? { batch: 5, time: 200, warmupTime: 50, rounds: 3 }
      : { batch: 10, time: 800, warmupTime: 200, rounds: 5 };
    const figures = await compare(
      { queued: () => queued.execute("echo", { value: 1 }), local: () => local.execute("echo", { value: 1 }) },
      settings,
    );
    return row({
      suite: SUITE,
      case: "one call through the queue (1 worker, local Redis)",
      value: figures.queued! / 1_000,
      baseline: "same call in process",
      baselineValue: figures.local! / 1_000,
      unit: "µs/call",
    });
  } finally {
    await executor.close();
    await stopWorkers(port, queueName, 1);
    await child;
  }
}

/** Tells the worker children of `queueName` to close (they listen on a channel of their own). */
async function stopWorkers(port: number, queueName: string, count: number): Promise<void> {
  const { Redis } = await import("ioredis");
  const client = new Redis({ host: "127.0.0.1", port });
  try {
    // Until every worker heard it (a worker subscribes once it is ready).
    for (let heard = 0; heard < count;) heard += await client.publish(`bench-stop:${queueName}`, "stop");
  } finally {
    client.disconnect();
  }
}

/** A worker child: runs until told to stop, then prints its JSON line. */
async function worker(port: number, queueName: string): Promise<void> {
  const connection = { host: "127.0.0.1", port };
  const handle = await startToolWorker(new Toolkit(benchTools(), { tracing: false }), {
    connection,
    queueName,
    concurrency: 50,
  });
  const { Redis } = await import("ioredis");
  const listener = new Redis(connection);
  await listener.subscribe(`bench-stop:${queueName}`);
  await new Promise<void>((resolve) => listener.on("message", () => resolve()));
  listener.disconnect();
  await handle.close();
  process.stdout.write(`${JSON.stringify({ done: true })}\n`);
  process.exit(0);
}

if (isChild(module)) {
  const [, , , mode, port, queueName] = process.argv;
  if (mode === "worker") void worker(Number(port), queueName!);
}
