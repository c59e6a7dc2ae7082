import type { ConnectionOptions } from "bullmq";
import { Redis, type RedisOptions } from "ioredis";
import { errorMessage } from "../runtime/result";

/** Where Redis is: ioredis options (`{ host, port }`, ...) or an ioredis client, which is duplicated, never taken over. */
export type RedisConnection = RedisOptions | Redis;

/** BullMQ's default key prefix. */
export const DEFAULT_PREFIX = "bull";

/** How long a caller or a worker waits for Redis to answer before it reports it unreachable. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 5_000;

/** Throws, saying what to pass, when the options of `where` cannot name a queue on a Redis. */
export function checkQueueOptions(where: string, options: { connection?: unknown; queueName?: unknown } | undefined): void {
  if (typeof options !== "object" || options === null) throw new TypeError(`${where} takes { connection, queueName } (got ${options === null ? "null" : typeof options}).`);
  const { connection, queueName } = options;
  if (typeof connection !== "object" || connection === null) {
    throw new TypeError(
      `${where}: connection must be ioredis options such as { host: "127.0.0.1", port: 6379 } or an ioredis client (got ${connection === null ? "null" : typeof connection}).`,
    );
  }
  if (typeof queueName !== "string" || queueName === "" || queueName.includes(":")) {
    throw new TypeError(`${where}: queueName must be a non-empty string without ":" (got ${JSON.stringify(queueName)}); callers and workers of one toolkit use the same name.`);
  }
}

/** A client of its own for pub/sub, which takes a connection over. */
export function newClient(connection: RedisConnection, extra: RedisOptions = {}): Redis {
  return connection instanceof Redis ? connection.duplicate(extra) : new Redis({ ...connection, ...extra });
}

/** The connection BullMQ is given: an options object gets its own client; a client is shared as BullMQ allows. */
export function bullConnection(connection: RedisConnection, extra: RedisOptions = {}): ConnectionOptions {
  // ioredis's own option types are wider than BullMQ's copy of them; BullMQ hands them to ioredis as they are.
  return (connection instanceof Redis ? connection : { ...connection, ...extra }) as ConnectionOptions;
}

/** Where callers tell workers which running calls to cancel. */
export function cancelChannel(prefix: string, queueName: string): string {
  return `${prefix}:${queueName}:toolnexus:cancel`;
}

/** Whether `promise` settled well within `ms`; it is left running either way. */
export function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    promise.then(
      () => (clearTimeout(timer), resolve(true)),
      () => (clearTimeout(timer), resolve(false)),
    );
  });
}

/** What the caller is told when Redis does not answer. */
export function unreachable(where: string, connection: RedisConnection, lastError: unknown): string {
  const address =
    connection instanceof Redis ? `${connection.options.host ?? "localhost"}:${connection.options.port ?? 6379}` : `${connection.host ?? "localhost"}:${connection.port ?? 6379}`;
  const cause = lastError === undefined ? "" : ` (${errorMessage(lastError)})`;
  return `${where}: Redis at ${address} is not reachable${cause}. Start redis-server there, or pass the right connection.`;
}
