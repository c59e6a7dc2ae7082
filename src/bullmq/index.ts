/**
 * toolnexus/bullmq: calls run on worker processes through a BullMQ queue on Redis. Needs the
 * optional peers bullmq and ioredis.
 */
export { queueExecutor, type QueueExecutor, type QueueExecutorOptions } from "./executor";
export { startToolWorker, type ToolWorker, type ToolWorkerOptions } from "./worker";
export type { RedisConnection } from "./connection";
export type { SigningKey } from "./signing";
export { DEFAULT_TASK_LEASE, redisTaskStore, type RedisTaskStore, type RedisTaskStoreOptions } from "./task-store";
