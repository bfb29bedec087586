import { Redis } from 'ioredis';

/** Where the Redis client reports outages (pino's logger and the services' own logs fit). */
export interface RedisLog {
  warn(fields: object, message: string): void;
  info(fields: object, message: string): void;
}

export interface RedisOptions {
  url: string;
  /** Prepended to every key, so services (and test runs) sharing one Redis never collide. */
  keyPrefix: string;
  /** Told once when Redis becomes unreachable and once when it is back (default: a JSON line on stderr). */
  log?: RedisLog;
}

/** How long connecting (TCP and the first reply) may take before the attempt counts as failed. */
export const REDIS_CONNECT_TIMEOUT_MS = 2_000;
/**
 * How long one command may wait for its reply (a Redis that accepts connections but hangs). Not
 * shorter: the timer also runs while this process is too busy to read the reply, and a command
 * that timed out may still have run (a quota unit counted for a call answered 503). At 2 s, 300
 * concurrent calls on a loaded 2-core machine turned into such 503s.
 */
export const REDIS_COMMAND_TIMEOUT_MS = 10_000;

const stderrLog: RedisLog = {
  warn: (fields, message) => process.stderr.write(`${JSON.stringify({ level: 'warn', ...fields, msg: message })}\n`),
  info: (fields, message) => process.stderr.write(`${JSON.stringify({ level: 'info', ...fields, msg: message })}\n`),
};

/**
 * A Redis client that fails fast while Redis is down instead of making callers wait: no
 * offline queue (a command sent while disconnected fails at once), one retry of a command
 * whose connection dropped, bounded connect and command times. It keeps reconnecting in the
 * background, and says so once per outage rather than once per attempt (ioredis would print
 * "Unhandled error event" for every attempt without a listener).
 */
export function createRedis({ url, keyPrefix, log = stderrLog }: RedisOptions): Redis {
  const redis = new Redis(url, {
    keyPrefix,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: REDIS_CONNECT_TIMEOUT_MS,
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
  });
  let down = false;
  redis.on('error', (error: NodeJS.ErrnoException) => {
    if (down) return;
    down = true;
    log.warn(
      { redis: { code: error.code, message: error.message } },
      'Redis is unreachable: calls that need it answer 503 until it is back (reconnecting in the background)',
    );
  });
  redis.on('ready', () => {
    if (!down) return;
    down = false;
    log.info({}, 'Redis is reachable again');
  });
  return redis;
}

/**
 * Waits for the first connection attempt of a client made by `createRedis` (without an offline
 * queue, a command sent before it is ready would fail): ready, or failed, whichever comes first.
 * A Redis that is down at start-up does not stop the service from starting; its calls answer
 * 503 meanwhile.
 */
export async function connectRedis(redis: Redis): Promise<Redis> {
  if (redis.status === 'ready') return redis;
  await new Promise<void>((resolve) => {
    const settle = () => {
      redis.off('ready', settle);
      redis.off('error', settle);
      redis.off('end', settle);
      resolve();
    };
    redis.on('ready', settle);
    redis.on('error', settle);
    redis.on('end', settle);
  });
  return redis;
}

/**
 * Whether an error means Redis could not be reached (down, refusing, timing out, the
 * connection lost mid-command), as opposed to an answer from Redis (a script error).
 */
export function isRedisUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error.name === 'MaxRetriesPerRequestError') return true;
  return (
    /enableOfflineQueue options is false|^Connection is closed|^Command timed out|^Reached the max retries per request/.test(
      error.message,
    ) || ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE'].includes((error as NodeJS.ErrnoException).code ?? '')
  );
}

export async function isRedisReachable(redis: Redis): Promise<boolean> {
  try {
    return (await redis.ping()) === 'PONG';
  } catch {
    return false;
  }
}

export type { Redis };
