import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { baseEnvSchema, ConfigError, loadConfig } from '../src/config.ts';
import { connectRedis, createRedis, isCluster, type Redis } from '../src/redis.ts';
import { keySlot, mgetAcrossSlots } from '../src/redis-slots.ts';
import { ownRedisCluster, redisServerSkip } from '../src/testing/index.ts';

describe('REDIS_CLUSTER_URLS', () => {
  it('is a list of redis:// seed URLs, and never set together with REDIS_URL', () => {
    const config = loadConfig(baseEnvSchema, { REDIS_CLUSTER_URLS: 'redis://10.0.0.1:7000, redis://10.0.0.2:7000' });
    assert.deepEqual(config.REDIS_CLUSTER_URLS, ['redis://10.0.0.1:7000', 'redis://10.0.0.2:7000']);
    assert.equal(loadConfig(baseEnvSchema, { REDIS_CLUSTER_URLS: '' }).REDIS_CLUSTER_URLS, undefined);
    assert.throws(
      () => loadConfig(baseEnvSchema, { REDIS_CLUSTER_URLS: 'http://10.0.0.1:7000' }),
      /REDIS_CLUSTER_URLS: http:\/\/10.0.0.1:7000 must be a redis:\/\/ or rediss:\/\/ URL/,
    );
    assert.throws(
      () =>
        loadConfig(baseEnvSchema, { REDIS_URL: 'redis://10.0.0.1:6379', REDIS_CLUSTER_URLS: 'redis://10.0.0.1:7000' }),
      (error: unknown) =>
        error instanceof ConfigError && /either REDIS_URL .* or REDIS_CLUSTER_URLS .*not both/.test(error.message),
    );
  });
});

describe('a Redis Cluster of three masters on loopback', { skip: redisServerSkip() }, () => {
  let redis: Redis;
  const prefix = `test:${process.pid}:`;
  before(async () => {
    const { urls } = await ownRedisCluster();
    redis = await connectRedis(createRedis({ clusterUrls: urls, keyPrefix: prefix }));
  });
  after(() => redis?.disconnect());

  it('is a cluster client, and our hash slot of a key is the one the cluster computes', async () => {
    assert.equal(isCluster(redis), true);
    for (const key of ['quota:acc_1:2026-03-10', 'di:quota:{acc_1}:2026-03-10', 'a{}b', '{}', 'x{y}z{w}', 'é']) {
      assert.equal(keySlot(key), await redis.cluster('KEYSLOT', key), key);
    }
    assert.equal(keySlot('di:quota:{acc_1}:day'), keySlot('di:quota-history:{acc_1}:other'), 'one tag, one slot');
  });

  it('reads keys of every slot in one call, in order', async () => {
    const keys = Array.from({ length: 40 }, (_, i) => `mget-${i}`);
    await Promise.all(keys.map((key, i) => redis.set(key, String(i))));
    assert.deepEqual(await mgetAcrossSlots(redis, [...keys, 'missing']), [...keys.map((_, i) => String(i)), null]);
    await assert.rejects(
      redis.mget(keys),
      /CROSSSLOT/,
      'a plain MGET across slots is refused: the reason for the helper',
    );
  });

  it('refuses a key prefix with a brace, which would put every key in one slot', async () => {
    const { urls } = await ownRedisCluster();
    assert.throws(() => createRedis({ clusterUrls: urls, keyPrefix: '{di}:' }), /must not contain \{ or \}/);
  });
});
