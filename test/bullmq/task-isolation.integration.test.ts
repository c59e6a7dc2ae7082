/**
 * Who reaches which MCP task over streamable HTTP, with the tasks in Redis: two instances,
 * each with a store of its own on one real redis-server, so a task's owner travels with it.
 * The specification is test/mcp/task-isolation.ts; below it, what the Redis store keeps.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CreateTaskResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { Redis } from "ioredis";
import { defineTool, Toolkit } from "../../src";
import { redisTaskStore, type RedisTaskStore } from "../../src/bullmq";
import { serveMcp } from "../../src/mcp";
import { withoutSessionId } from "../mcp/support";
import { specifyTaskIsolation } from "../mcp/task-isolation";
import { workerRedisServer, type RedisServer } from "../support/redis-server";

let redis: RedisServer;
const stores: RedisTaskStore[] = [];

beforeAll(async () => {
  redis = await workerRedisServer();
});

afterAll(async () => {
  await redis?.stop();
});

/** The store prefix of the running test: its instances share it, other tests' do not. */
const prefix = () => `isolation:${expect.getState().currentTestName}`;

function store(): RedisTaskStore {
  const made = redisTaskStore({ connection: redis.connection, prefix: prefix() });
  stores.push(made);
  return made;
}

const closeStores = async () => void (await Promise.all(stores.splice(0).map((made) => made.close())));

specifyTaskIsolation(() => [store(), store()], closeStores);

describe("the Redis task store", () => {
  afterEach(closeStores);

  it("keeps the owner of a task of a request without a session with the task, and no list of such tasks (nobody lists them)", async () => {
    const echo = defineTool({ name: "echo", description: "Answers at once", task: true, execute: () => "echo" });
    const server = await serveMcp(new Toolkit([echo]), { transport: "http", port: 0, tasks: { store: store() } });
    const client = new Client({ name: "task-isolation-test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url!), { fetch: withoutSessionId }));
    const inspect = new Redis(redis.connection);
    try {
      const { task } = await client.request(
        { method: "tools/call", params: { name: "echo", arguments: {} } },
        CreateTaskResultSchema,
        { task: {} },
      );
      expect(await inspect.hget(`${prefix()}:task:${task.taskId}`, "owner")).toMatch(/[0-9a-f]{64}$/);
      expect(await inspect.keys(`${prefix()}:list:*`)).toEqual([]);
      expect(await inspect.exists(`${prefix()}:created`)).toBe(0);
    } finally {
      await client.close();
      await server.close();
      await inspect.quit();
    }
  });
});
