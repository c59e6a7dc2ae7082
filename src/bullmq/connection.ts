import type { ConnectionOptions } from "bullmq";
import { Redis, type RedisOptions } from "ioredis";
import { errorMessage } from "../runtime/result";

/**
 * Where Redis is: ioredis options (`{ host, port }`, ...) or an ioredis client, whose options are used for connections
 * of our own (it is never taken over).
 */
export type RedisConnection = RedisOptions | Redis;

/** BullMQ's default key prefix. */
export const DEFAULT_PREFIX = "bull";

/** How long a caller or a worker waits for Redis to answer before it reports it unreachable. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 5_000;

/** Throws, saying what to pass, when the options of `where` cannot name a queue on a Redis. */
export function checkQueueOptions(
  where: string,
  options: { connection?: unknown; queueName?: unknown } | undefined,
): void {
  if (typeof options !== "object" || options === null)
    throw new TypeError(
      `${where} takes { connection, queueName } (got ${options === null ? "null" : typeof options}).`,
    );
  const { connection, queueName } = options;
  if (typeof connection !== "object" || connection === null) {
    throw new TypeError(
      `${where}: connection must be ioredis options such as { host: "127.0.0.1", port: 6379 } or an ioredis client ` +
        `(got ${connection === null ? "null" : typeof connection}).`,
    );
  }
  if (typeof queueName !== "string" || queueName === "" || queueName.includes(":")) {
    throw new TypeError(
      `${where}: queueName must be a non-empty string without ":" (got ${JSON.stringify(queueName)}); callers and ` +
        "workers of one toolkit use the same name.",
    );
  }
}

/**
 * The options every client of one executor or worker is made with: `connection`'s (a client's
 * own options, for a client) with `extra`, and its retry strategy until `closed()` says the
 * owner closed. A Redis that is gone would otherwise be retried forever after `close()`: a
 * client that cannot say goodbye does not always end when told to.
 */
function clientOptions(
  connection: RedisConnection,
  extra: RedisOptions,
  closed: () => boolean,
  defaultRetry: (times: number) => number,
): RedisOptions {
  const base = connection instanceof Redis ? connection.options : connection;
  const retry = base.retryStrategy ?? defaultRetry;
  return { ...base, ...extra, retryStrategy: (times) => (closed() ? null : retry(times)) };
}

/** ioredis's own default: 50 ms more per attempt, at most 2 s. */
const ioredisRetry = (times: number) => Math.min(times * 50, 2_000);
/** BullMQ's own default for the clients it makes: 1 s to 20 s. */
const bullRetry = (times: number) => Math.max(Math.min(Math.exp(times), 20_000), 1_000);

/** A client of its own (for pub/sub, which takes a connection over), never shared with the caller's. */
export function newClient(connection: RedisConnection, extra: RedisOptions, closed: () => boolean): Redis {
  return new Redis(clientOptions(connection, extra, closed, ioredisRetry));
}

/**
 * The connection BullMQ is given: options, so that BullMQ makes (and closes) clients of its own that stop reconnecting
 * once `closed()`.
 */
export function bullConnection(
  connection: RedisConnection,
  extra: RedisOptions,
  closed: () => boolean,
): ConnectionOptions {
  // ioredis's own option types are wider than BullMQ's copy of them; BullMQ hands them to ioredis as they are.
  return clientOptions(connection, extra, closed, bullRetry) as ConnectionOptions;
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
    connection instanceof Redis
      ? `${connection.options.host ?? "localhost"}:${connection.options.port ?? 6379}`
      : `${connection.host ?? "localhost"}:${connection.port ?? 6379}`;
  const cause = lastError === undefined ? "" : ` (${errorMessage(lastError)})`;
  return (
    `${where}: Redis at ${address} is not reachable${cause}. Start redis-server there, or pass the right ` +
    "connection."
  );
}
