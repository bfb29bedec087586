import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { connectRedis, createRedis } from '@repo/server-kit';
import { redisTargets, testTimeout } from '@repo/server-kit/testing';
import { type Cache, MemoryCache, RedisCache } from '../src/cache/cache.ts';

interface Entry {
  status: string;
  n: number;
}

async function exerciseContract(cache: Cache<Entry>) {
  assert.equal(await cache.get('a'), undefined);
  await cache.set('a', { status: 'registered', n: 1 }, 60_000);
  await cache.set('b', { status: 'available', n: 2 }, 60_000);
  assert.deepEqual(await cache.get('a'), { status: 'registered', n: 1 });
  assert.deepEqual(await cache.getMany(['b', 'missing', 'a']), [
    { status: 'available', n: 2 },
    undefined,
    { status: 'registered', n: 1 },
  ]);
  assert.deepEqual(await cache.getMany([]), []);
  await cache.delete('a');
  assert.equal(await cache.get('a'), undefined);
  await cache.set('zero', { status: 'x', n: 0 }, 0);
  assert.equal(await cache.get('zero'), undefined, 'a zero TTL is not stored');
  await cache.set('short', { status: 'x', n: 3 }, 5);
  await sleep(testTimeout(40));
  assert.equal(await cache.get('short'), undefined, 'entries expire');
}

describe('cache', () => {
  it('in-memory LRU follows the contract and evicts the least recently used', async () => {
    await exerciseContract(new MemoryCache<Entry>({ maxEntries: 100 }));
    const small = new MemoryCache<Entry>({ maxEntries: 2 });
    await small.set('1', { status: 'a', n: 1 }, 60_000);
    await small.set('2', { status: 'a', n: 2 }, 60_000);
    await small.get('1');
    await small.set('3', { status: 'a', n: 3 }, 60_000);
    assert.deepEqual(await small.getMany(['1', '2', '3']), [{ status: 'a', n: 1 }, undefined, { status: 'a', n: 3 }]);
  });

  for (const kind of redisTargets()) {
    it(`Redis follows the contract, namespaced (${kind.name})`, { skip: kind.skip }, async () => {
      const run = await kind.provision();
      const redis = await connectRedis(
        createRedis({
          url: run.env.REDIS_URL,
          clusterUrls: run.env.REDIS_CLUSTER_URLS?.split(','),
          keyPrefix: run.keyPrefix,
        }),
      );
      try {
        // Many keys read in one turn: on a Cluster they sit in several slots (one MGET per slot).
        const many = new RedisCache<Entry>(redis, { namespace: 'many' });
        await Promise.all(Array.from({ length: 20 }, (_, n) => many.set(`k${n}`, { status: 'many', n }, 60_000)));
        assert.deepEqual(await Promise.all(Array.from({ length: 21 }, (_, n) => many.get(`k${n}`))), [
          ...Array.from({ length: 20 }, (_, n) => ({ status: 'many', n })),
          undefined,
        ]);
        await exerciseContract(new RedisCache<Entry>(redis, { namespace: 'one' }));
        const one = new RedisCache<Entry>(redis, { namespace: 'one' });
        const two = new RedisCache<Entry>(redis, { namespace: 'two' });
        await one.set('k', { status: 'one', n: 1 }, 60_000);
        assert.equal(await two.get('k'), undefined);
        await redis.set('one:garbled', '{not json');
        const errors: unknown[] = [];
        const reporting = new RedisCache<Entry>(redis, { namespace: 'one', onError: (e) => errors.push(e) });
        assert.equal(await reporting.get('garbled'), undefined);
        assert.equal(errors.length, 1);
      } finally {
        redis.disconnect();
        await run.cleanup();
      }
    });
  }

  it('a Redis that is down reads as a miss and drops writes instead of failing', async () => {
    const quiet = { warn() {}, info() {} };
    const redis = createRedis({ url: 'redis://127.0.0.1:1', keyPrefix: 'x:', log: quiet });
    const errors: unknown[] = [];
    const cache = new RedisCache<Entry>(redis, { namespace: 'down', onError: (e) => errors.push(e) });
    try {
      await cache.set('a', { status: 'x', n: 1 }, 1000);
      assert.equal(await cache.get('a'), undefined);
      assert.ok(errors.length >= 2);
    } finally {
      redis.disconnect();
    }
  });
});
