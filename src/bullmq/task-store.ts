import { randomUUID } from "node:crypto";
import type { CreateTaskOptions } from "@modelcontextprotocol/sdk/experimental/tasks/interfaces.js";
import type { Request, RequestId, Result, Task } from "@modelcontextprotocol/sdk/types.js";
import { Redis, type RedisOptions } from "ioredis";
import {
  invalidCursor,
  isUnlistedOwner,
  newTask,
  newTaskId,
  TASK_PAGE_SIZE,
  visibleTo,
  type McpTaskStore,
} from "../tasks/task-store";

export interface RedisTaskStoreOptions {
  /**
   * An ioredis client (it is duplicated for the cancellation channel, and left open by `close()`), or the options to
   * make one.
   */
  connection: Redis | RedisOptions;
  /** Put in front of every key and channel. Default "toolnexus:tasks". */
  prefix?: string;
  /**
   * Milliseconds a hold on a running task lasts unless renewed (it renews every third of it);
   * the server instance waiting for a task's call holds one, and so does the queue worker
   * running it. When all holders died, the task is marked `failed` this long after their last
   * renewal, the first time any instance reads it. Default 30 000.
   */
  lease?: number;
}

export const DEFAULT_TASK_LEASE = 30_000;

/** A task store in Redis, and how to let go of its connections. */
export interface RedisTaskStore extends McpTaskStore {
  /** Closes the connections the store opened (not a client passed in as `connection`). */
  close(): Promise<void>;
}

/*
 * One hash per task ({prefix}:task:{id}: task JSON, owner, result JSON), expiring with the
 * task's TTL; one sorted set per owner listing its tasks by creation (none for an unlisted
 * owner); one channel on which a cancellation is announced to every instance. A status
 * changes in a script, so that two instances never both finish one task (a cancel and a
 * result racing each other).
 */
const CHANGE_STATUS = `
local raw = redis.call('HGET', KEYS[1], 'task')
if not raw then return 0 end
local owner = redis.call('HGET', KEYS[1], 'owner')
if ARGV[1] ~= '' and owner ~= ARGV[1] then return 0 end
local task = cjson.decode(raw)
if task.status == 'completed' or task.status == 'failed' or task.status == 'cancelled' then return task.status end
task.status = ARGV[2]
if ARGV[3] ~= '' then task.statusMessage = ARGV[3] end
task.lastUpdatedAt = ARGV[4]
redis.call('HSET', KEYS[1], 'task', cjson.encode(task))
if ARGV[5] ~= '' then
  redis.call('HSET', KEYS[1], 'result', ARGV[5])
  if task.ttl ~= cjson.null then redis.call('PEXPIRE', KEYS[1], task.ttl) end
end
return 1
`;

/*
 * A task is read through this script: a working task that was leased (field `leased`) and whose
 * every lease has since lapsed (its instances and workers died) is marked failed first, with
 * the result given. Leases are a sorted set per task: holder → when its lease ends, in Redis's
 * own clock. Returns the task JSON, its owner and its result JSON (nil when none), or nil.
 */
const READ_TASK = `
local fields = redis.call('HMGET', KEYS[1], 'task', 'owner', 'result', 'leased')
if not fields[1] then return nil end
if fields[4] == '1' then
  local now = redis.call('TIME')
  redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now[1] * 1000 + math.floor(now[2] / 1000))
end
if fields[4] == '1' and redis.call('ZCARD', KEYS[2]) == 0 then
  local task = cjson.decode(fields[1])
  if task.status == 'working' or task.status == 'input_required' then
    task.status = 'failed'
    task.statusMessage = ARGV[2]
    task.lastUpdatedAt = ARGV[1]
    fields[1] = cjson.encode(task)
    fields[3] = ARGV[3]
    redis.call('HSET', KEYS[1], 'task', fields[1], 'result', ARGV[3])
    if task.ttl ~= cjson.null then redis.call('PEXPIRE', KEYS[1], task.ttl) end
  end
end
return {fields[1], fields[2], fields[3]}
`;

/** Takes (or renews) one holder's lease on a task that still exists; the set of leases outlives the longest of them. */
const TAKE_LEASE = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
local lease = tonumber(ARGV[1])
local now = redis.call('TIME')
redis.call('HSET', KEYS[1], 'leased', '1')
redis.call('ZADD', KEYS[2], now[1] * 1000 + math.floor(now[2] / 1000) + lease, ARGV[2])
if redis.call('PTTL', KEYS[2]) < lease then redis.call('PEXPIRE', KEYS[2], lease) end
return 1
`;

/** What a task whose instance died says, as its status message and its result's text. */
export function lapsedLeaseMessage(lease: number): string {
  return (
    `The server instance running this task stopped before the call finished (it held the task's lease, ${lease} ` +
    "ms, and did not renew it; nor did a queue worker running its call). The call may have run in part; call the " +
    "tool again if it is safe to."
  );
}

/**
 * MCP tasks in Redis, shared by every server instance using the same Redis and prefix:
 * `tasks/get`, `tasks/result`, `tasks/list` and `tasks/cancel` answer on any instance, and a
 * cancel taken by one reaches the call running on another (a Redis channel). A task is
 * dropped `ttl` ms after its creation, and again counted from its result (Redis expiry).
 * The instance running a call renews a lease on its task (and so does the queue worker running
 * it, given this store as `startToolWorker`'s `tasks`); when all of them died, the task is
 * marked `failed` once their leases lapse, rather than staying `working` until its TTL.
 *
 * ```ts
 * const tasks = redisTaskStore({ connection: { host: "127.0.0.1", port: 6379 } });
 * await serveMcp(toolkit, { transport: "http", port: 3000, tasks: { store: tasks } });
 * ```
 */
export function redisTaskStore(options: RedisTaskStoreOptions): RedisTaskStore {
  if (
    typeof options !== "object" ||
    options === null ||
    typeof options.connection !== "object" ||
    options.connection === null
  ) {
    throw new TypeError(
      "redisTaskStore needs { connection }: an ioredis client, or its options such as " +
        "{ host: '127.0.0.1', port: 6379 }.",
    );
  }
  const prefix = options.prefix ?? "toolnexus:tasks";
  if (typeof prefix !== "string" || prefix === "")
    throw new TypeError("redisTaskStore: prefix must be a non-empty string.");
  const lease = options.lease ?? DEFAULT_TASK_LEASE;
  if (!(Number.isSafeInteger(lease) && lease >= 30))
    throw new TypeError(
      `redisTaskStore: lease must be a whole number of milliseconds, 30 or more (got ${String(options.lease)}).`,
    );
  const lapsed = lapsedLeaseMessage(lease);
  const lapsedResult = JSON.stringify({ content: [{ type: "text", text: lapsed }], isError: true });
  const given = options.connection instanceof Redis ? options.connection : undefined;
  const redis = given ?? new Redis(options.connection as RedisOptions);
  let subscriber: Redis | undefined;
  let subscribed: Promise<unknown> = Promise.resolve();
  const watchers = new Map<string, Set<(reason: string) => void>>();
  const taskKey = (taskId: string) => `${prefix}:task:${taskId}`;
  const leaseKey = (taskId: string) => `${prefix}:leases:${taskId}`;
  const listKey = (owner: string | undefined) => `${prefix}:list:${owner ?? ""}`;
  const channel = `${prefix}:cancelled`;

  const readRaw = async (taskId: string): Promise<[task: string, owner: string, result: string | null] | null> =>
    (await redis.eval(
      READ_TASK,
      2,
      taskKey(taskId),
      leaseKey(taskId),
      new Date().toISOString(),
      lapsed,
      lapsedResult,
    )) as [string, string, string | null] | null;
  const read = async (
    taskId: string,
    owner: string | undefined,
  ): Promise<{ task: Task; result?: Result } | undefined> => {
    const [raw, taskOwner, result] = (await readRaw(taskId)) ?? [null, null, null];
    if (raw === null || !visibleTo(taskOwner || undefined, owner)) return undefined;
    return { task: JSON.parse(raw) as Task, ...(result !== null ? { result: JSON.parse(result) as Result } : {}) };
  };
  const change = async (
    taskId: string,
    owner: string | undefined,
    status: Task["status"],
    statusMessage: string | undefined,
    result?: Result,
  ): Promise<void> => {
    const args = [
      owner ?? "",
      status,
      statusMessage ?? "",
      new Date().toISOString(),
      result === undefined ? "" : JSON.stringify(result),
    ];
    const outcome = (await redis.eval(CHANGE_STATUS, 1, taskKey(taskId), ...args)) as number | string;
    if (outcome === 0) throw new Error(`Task ${taskId} not found.`);
    if (typeof outcome === "string")
      throw new Error(`Task ${taskId} is already ${outcome}; a finished task does not change.`);
  };
  const listening = (): Redis => {
    if (subscriber !== undefined) return subscriber;
    subscriber = redis.duplicate();
    subscriber.on("message", (_channel: string, message: string) => {
      const { taskId, reason } = JSON.parse(message) as { taskId: string; reason: string };
      for (const listener of [...(watchers.get(taskId) ?? [])]) listener(reason);
    });
    subscribed = subscriber.subscribe(channel).catch(() => {});
    return subscriber;
  };

  return {
    async createTask(
      params: CreateTaskOptions,
      _requestId: RequestId,
      _request: Request,
      owner?: string,
    ): Promise<Task> {
      const task = newTask(newTaskId(), params);
      const key = taskKey(task.taskId);
      // Nobody lists an unlisted owner's tasks: a list of them would only grow.
      const listed = !isUnlistedOwner(owner);
      // Creation order, even for tasks created in the same millisecond.
      const order = listed ? await redis.incr(`${prefix}:created`) : 0;
      const write = redis.multi().hset(key, "task", JSON.stringify(task), "owner", owner ?? "");
      if (task.ttl !== null) write.pexpire(key, task.ttl);
      if (listed) write.zadd(listKey(owner), order, task.taskId);
      await write.exec();
      return task;
    },
    async getTask(taskId: string, owner?: string): Promise<Task | null> {
      return (await read(taskId, owner))?.task ?? null;
    },
    async storeTaskResult(
      taskId: string,
      status: "completed" | "failed",
      result: Result,
      owner?: string,
    ): Promise<void> {
      await change(taskId, owner, status, undefined, result);
    },
    async getTaskResult(taskId: string, owner?: string): Promise<Result> {
      const stored = await read(taskId, owner);
      if (stored === undefined) throw new Error(`Task ${taskId} not found.`);
      if (stored.result === undefined) throw new Error(`Task ${taskId} has no result.`);
      return stored.result;
    },
    async updateTaskStatus(
      taskId: string,
      status: Task["status"],
      statusMessage?: string,
      owner?: string,
    ): Promise<void> {
      await change(taskId, owner, status, statusMessage);
      if (status === "cancelled")
        await redis.publish(channel, JSON.stringify({ taskId, reason: statusMessage ?? "The task was cancelled." }));
    },
    async listTasks(cursor?: string, owner?: string): Promise<{ tasks: Task[]; nextCursor?: string }> {
      const list = listKey(owner);
      const start =
        cursor === undefined ? 0 : await redis.zrank(list, cursor).then((rank) => (rank === null ? -1 : rank + 1));
      if (start === -1) throw invalidCursor(cursor!);
      const ids = await redis.zrange(list, start, start + TASK_PAGE_SIZE - 1);
      const raws =
        ids.length === 0 ? [] : await Promise.all(ids.map(async (taskId) => (await readRaw(taskId))?.[0] ?? null));
      // Expired tasks leave their ids behind in the list: they go now.
      const gone = ids.filter((_, index) => raws[index] === null);
      if (gone.length > 0) await redis.zrem(list, ...gone);
      const tasks = raws.filter((raw): raw is string => raw !== null).map((raw) => JSON.parse(raw) as Task);
      // Past the expired ids just removed, the live ones hold the ranks from `start` on.
      const more = (await redis.zcard(list)) > start + tasks.length;
      if (tasks.length === 0 && more) return this.listTasks(cursor, owner);
      return { tasks, ...(more ? { nextCursor: tasks[tasks.length - 1]!.taskId } : {}) };
    },
    watchCancellation(taskId: string, listener: (reason: string) => void): () => void {
      listening();
      let set = watchers.get(taskId);
      if (set === undefined) watchers.set(taskId, (set = new Set()));
      let stopped = false;
      const once = (reason: string) => {
        if (stopped) return;
        stopped = true;
        listener(reason);
      };
      set.add(once);
      // A cancel announced before the subscription was in place is read from the task itself.
      void subscribed
        .then(() => read(taskId, undefined))
        .then(
          (stored) => {
            if (stored?.task.status === "cancelled") once(stored.task.statusMessage ?? "The task was cancelled.");
          },
          () => {},
        );
      return () => {
        stopped = true;
        set.delete(once);
        if (set.size === 0 && watchers.get(taskId) === set) watchers.delete(taskId);
      };
    },
    holdLease(taskId: string): () => void {
      const holder = randomUUID();
      const take = () =>
        void redis.eval(TAKE_LEASE, 2, taskKey(taskId), leaseKey(taskId), String(lease), holder).catch(() => {});
      take();
      const renewal = setInterval(take, Math.floor(lease / 3));
      renewal.unref();
      return () => {
        clearInterval(renewal);
        // This holder's part is over (its outcome stored, or nobody left to store it): a task still working with no
        // other holder is failed on its next read.
        void redis.zrem(leaseKey(taskId), holder).catch(() => {});
      };
    },
    async close(): Promise<void> {
      await subscriber?.quit().catch(() => {});
      if (given === undefined) await redis.quit().catch(() => {});
    },
  };
}
