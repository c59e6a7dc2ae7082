/**
 * Calls that run on workers: a toolkit whose `executor` sends each call, after its approval and
 * middleware, through a BullMQ queue on Redis to two workers (here in this process; in
 * production, other processes or machines with the same tools). Needs a Redis: REDIS_URL, or
 * redis-server on 127.0.0.1:6379; without one it says so in one line and returns.
 */
import { Redis } from "ioredis";
import { defineTool, Toolkit, type ToolResult } from "toolnexus";
import { queueExecutor, startToolWorker } from "toolnexus/bullmq";

/** The same tools where calls arrive and on every worker. */
function tools() {
  return [
    defineTool({
      name: "resize_image",
      description: "Resize an image to a width in pixels",
      inputSchema: {
        type: "object",
        properties: { url: { type: "string" }, width: { type: "integer", minimum: 1 } },
        required: ["url", "width"],
      },
      annotations: { idempotent: true },
      validate: true,
      execute: async ({ url, width }: { url: string; width: number }, ctx) => {
        await new Promise((resolve) => setTimeout(resolve, 50));
        return `${url} resized to ${width}px by ${String(ctx.state?.worker ?? "a worker")}`;
      },
    }),
  ];
}

export async function main(): Promise<{ skipped: string } | { results: ToolResult[] }> {
  const url = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
  if (!(await reachable(url))) {
    const skipped = `skipped: no Redis reachable at ${url} (start redis-server, or set REDIS_URL, to run it)`;
    console.log(skipped);
    return { skipped };
  }
  const { hostname, port } = new URL(url);
  const connection = { host: hostname, port: Number(port || 6379) };
  const queueName = `toolnexus-example-${process.pid}`;

  // Two workers; each names itself in the results (a worker's own toolkit may use its own state through middleware-free tools).
  const workers = await Promise.all(
    ["worker A", "worker B"].map((worker) =>
      startToolWorker(
        new Toolkit(
          tools().map((tool) => ({
            ...tool,
            execute: (args, ctx) => tool.execute(args, { ...ctx, state: { ...ctx?.state, worker } }),
          })),
        ),
        {
          connection,
          queueName,
          concurrency: 2,
        },
      ),
    ),
  );
  const executor = queueExecutor({ connection, queueName });
  // Where calls arrive: middleware runs here, the body on a worker.
  const toolkit = new Toolkit(tools(), { executor }).use(async (call, next) => {
    const result = await next();
    return { ...result, metadata: { ...result.metadata, checkedAt: "the server" } };
  });
  try {
    const results = await Promise.all(
      [1, 2, 3, 4].map((n) =>
        toolkit.execute(
          "resize_image",
          { url: `https://example.com/${n}.png`, width: 100 * n },
          { callId: `resize-${n}` },
        ),
      ),
    );
    for (const result of results) console.log(result.output);
    const reply = await toolkit.runOpenAI({
      choices: [
        {
          message: {
            tool_calls: [
              {
                id: "call_9",
                type: "function",
                function: { name: "resize_image", arguments: '{"url":"https://example.com/9.png","width":0}' },
              },
            ],
          },
        },
      ],
    });
    console.log("a bad call, answered as data:", JSON.stringify(reply));
    return { results };
  } finally {
    await executor.close();
    await Promise.all(workers.map((worker) => worker.close()));
  }
}

/** Whether a Redis answers at `url` within half a second. */
async function reachable(url: string): Promise<boolean> {
  const client = new Redis(url, {
    lazyConnect: true,
    connectTimeout: 500,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  client.on("error", () => {});
  try {
    await client.connect();
    return (await client.ping()) === "PONG";
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}

if (require.main === module) void main();
