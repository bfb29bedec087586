import { randomBytes } from 'node:crypto';
import { Cluster, Redis } from 'ioredis';
import { type OwnRedisCluster, redisServerSkip, startOwnRedisCluster } from './redis-servers.ts';

/** One kind of Redis a test suite runs against, as `databaseTargets()` gives database engines. */
export interface RedisKindTarget {
  name: 'redis' | 'redis-cluster';
  /** Set when this kind is not available here; node:test prints it as the skip reason. */
  skip: string | false;
  /** A key prefix of this run's own on it, the settings that point a service at it, and a cleanup. */
  provision(): Promise<ProvisionedRedis>;
}

export interface ProvisionedRedis {
  keyPrefix: string;
  /** REDIS_URL or REDIS_CLUSTER_URLS. */
  env: Record<string, string>;
  /** Deletes every key under the prefix. */
  cleanup(): Promise<void>;
}

let sharedCluster: Promise<OwnRedisCluster> | undefined;

/**
 * The Redis Cluster of this test process: three masters started on first use and stopped when
 * the process exits (every file that uses it runs in a process of its own). Each provision has
 * its own prefix on it, as on the shared Redis.
 */
export function ownRedisCluster(): Promise<OwnRedisCluster> {
  sharedCluster ??= startOwnRedisCluster(3);
  return sharedCluster;
}

/**
 * The shared Redis (REDIS_URL; only keys under a run's own prefix are touched) and a Redis
 * Cluster this process starts itself (Debian's redis-server in cluster mode on loopback).
 */
export function redisTargets(): RedisKindTarget[] {
  const url = process.env.REDIS_URL;
  return [
    {
      name: 'redis',
      skip: url ? false : 'REDIS_URL is not set',
      async provision() {
        if (!url) throw new Error('REDIS_URL is not set');
        const keyPrefix = runPrefix();
        return {
          keyPrefix,
          env: { REDIS_URL: url },
          cleanup: async () => {
            const redis = new Redis(url, { maxRetriesPerRequest: 1 });
            try {
              await deleteUnder(redis, keyPrefix);
            } finally {
              redis.disconnect();
            }
          },
        };
      },
    },
    {
      name: 'redis-cluster',
      skip: redisServerSkip(),
      async provision() {
        const { urls } = await ownRedisCluster();
        const keyPrefix = runPrefix();
        return {
          keyPrefix,
          env: { REDIS_CLUSTER_URLS: urls.join(',') },
          cleanup: async () => {
            const cluster = new Cluster(urls.map((seed) => ({ host: '127.0.0.1', port: Number(new URL(seed).port) })));
            try {
              await Promise.all(cluster.nodes('master').map((node) => deleteUnder(node, keyPrefix)));
            } finally {
              cluster.disconnect();
            }
          },
        };
      },
    },
  ];
}

const runPrefix = () => `test:${randomBytes(6).toString('hex')}:`;

/** Deletes the keys under `prefix` on one server, one key per command (they may sit in any slot). */
async function deleteUnder(redis: Redis, prefix: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
    cursor = next;
    await Promise.all(keys.map((key) => redis.unlink(key)));
  } while (cursor !== '0');
}
