import { Cluster, type ClusterNode, Redis } from 'ioredis';

/** Where the Redis client reports outages (pino's logger and the services' own logs fit). */
export interface RedisLog {
  warn(fields: object, message: string): void;
  info(fields: object, message: string): void;
}

export interface RedisOptions {
  /** One Redis. */
  url?: string | undefined;
  /** A Redis Cluster: seed URLs of some of its nodes (used when `url` is not given). */
  clusterUrls?: readonly string[] | undefined;
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
 * offline queue (a command sent while disconnected fails at once), bounded connect and command
 * times. A command whose connection dropped before its reply is never sent again: ioredis would
 * resend it once it reconnects, even after its caller was told it failed (the command timed
 * out meanwhile), so a quota take answered 503 could be counted seconds later, and one whose
 * reply was lost counted twice. Its fate is the caller's to settle (the quota's request ids,
 * UnansweredTakes). It keeps reconnecting in the background, and says so once per outage rather
 * than once per attempt (ioredis would print "Unhandled error event" for every attempt without a
 * listener).
 */
export function createRedis({ url, clusterUrls, keyPrefix, log = stderrLog }: RedisOptions): Redis {
  const failFast = {
    maxRetriesPerRequest: 1,
    autoResendUnfulfilledCommands: false,
    connectTimeout: REDIS_CONNECT_TIMEOUT_MS,
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
  };
  const redis = url
    ? new Redis(url, { keyPrefix, enableOfflineQueue: false, ...failFast })
    : createCluster(clusterUrls, { keyPrefix, enableOfflineQueue: false, redisOptions: failFast });
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
 * A client for BullMQ: its blocking commands wait as long as they need, so no retry limit and no
 * command timeout; it queues commands while reconnecting (BullMQ expects that). No key prefix:
 * BullMQ prefixes its keys itself.
 */
export function createQueueConnection({ url, clusterUrls }: Pick<RedisOptions, 'url' | 'clusterUrls'>): Redis {
  return url
    ? new Redis(url, { maxRetriesPerRequest: null })
    : createCluster(clusterUrls, { redisOptions: { maxRetriesPerRequest: null } });
}

/**
 * An ioredis Cluster, typed as the Redis client every caller already takes: it has the same
 * commands (keys of one command or script must share a hash slot: see redis-slots.ts). The
 * password and TLS of the first seed are given to every node the client discovers.
 */
function createCluster(
  clusterUrls: readonly string[] | undefined,
  options: { keyPrefix?: string; enableOfflineQueue?: boolean; redisOptions: Record<string, unknown> },
): Redis {
  if (!clusterUrls || clusterUrls.length === 0) throw new Error('Redis needs a URL or cluster seed URLs.');
  if (/[{}]/.test(options.keyPrefix ?? '')) {
    // A brace in the prefix would be every key's hash tag: all keys in one slot, on one node.
    throw new Error('On a Redis Cluster the key prefix (REDIS_KEY_PREFIX) must not contain { or }.');
  }
  const first = new URL(clusterUrls[0]!);
  const seeds: ClusterNode[] = clusterUrls.map((seed) => {
    const parsed = new URL(seed);
    return { host: parsed.hostname, port: Number(parsed.port || 6379) };
  });
  const cluster = new Cluster(seeds, {
    ...options,
    // Reconnect as a single client does (every 50 ms growing to 2 s), whatever the outage.
    clusterRetryStrategy: (times) => Math.min(50 * times, 2_000),
    slotsRefreshTimeout: REDIS_CONNECT_TIMEOUT_MS,
    redisOptions: {
      ...options.redisOptions,
      ...(first.username ? { username: decodeURIComponent(first.username) } : {}),
      ...(first.password ? { password: decodeURIComponent(first.password) } : {}),
      ...(first.protocol === 'rediss:' ? { tls: {} } : {}),
    },
  });
  return cluster as unknown as Redis;
}

/** Whether the client is a Redis Cluster (keys of one command must then share a hash slot). */
export function isCluster(redis: Redis): boolean {
  return redis.isCluster === true;
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
  if (error.name === 'MaxRetriesPerRequestError' || error.name === 'ClusterAllFailedError') return true;
  return (
    // The last three: a Redis Cluster between a master's failure and its replica's promotion.
    /enableOfflineQueue options is false|^Connection is closed|^Command timed out|^Reached the max retries per request|^CLUSTERDOWN|^TRYAGAIN|^Too many Cluster redirections/.test(
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
