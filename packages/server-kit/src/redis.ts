import { Redis } from 'ioredis';

export interface RedisOptions {
  url: string;
  /** Prepended to every key, so services (and test runs) sharing one Redis never collide. */
  keyPrefix: string;
}

export function createRedis({ url, keyPrefix }: RedisOptions): Redis {
  return new Redis(url, {
    keyPrefix,
    // Fail calls fast while Redis is down instead of queueing them without bound.
    maxRetriesPerRequest: 2,
    enableOfflineQueue: true,
    lazyConnect: false,
  });
}

export async function isRedisReachable(redis: Redis): Promise<boolean> {
  try {
    return (await redis.ping()) === 'PONG';
  } catch {
    return false;
  }
}

export type { Redis };
