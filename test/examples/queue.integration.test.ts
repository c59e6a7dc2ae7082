/** examples/queue.ts: runs against a Redis when one answers, and says in one line that it skipped otherwise. */
import { main } from "../../examples/queue";
import { startRedisServer, workerRedisServer } from "../support/redis-server";

describe("the queue example", () => {
  const url = process.env.REDIS_URL;
  afterEach(() => {
    if (url === undefined) delete process.env.REDIS_URL;
    else process.env.REDIS_URL = url;
  });

  it("runs calls on two workers and answers a bad call as data", async () => {
    const redis = await workerRedisServer();
    try {
      process.env.REDIS_URL = `redis://127.0.0.1:${redis.port}`;
      const outcome = await main();
      expect("results" in outcome && outcome.results.map((result) => result.isError)).toEqual([
        false,
        false,
        false,
        false,
      ]);
    } finally {
      await redis.stop();
    }
  });

  it("skips itself, saying why, when no Redis answers", async () => {
    const gone = await startRedisServer();
    await gone.stop();
    process.env.REDIS_URL = `redis://127.0.0.1:${gone.port}`;
    expect(await main()).toEqual({ skipped: expect.stringContaining("no Redis reachable") });
  });
});
