import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { databaseTargets, type OwnRedis, redisServerSkip, startOwnRedis, testTimeout } from '@repo/server-kit/testing';
import type { FastifyInstance } from 'fastify';
import { ok } from '../src/http/envelope.ts';
import { bearer, createTestApp, type TestApp } from './helpers.ts';

async function probeRoutes(v1: FastifyInstance) {
  v1.get('/test/ping', async (request) => ok(request, { pong: true }));
}

const FREE_LIMIT = 100;

for (const target of databaseTargets()) {
  describe(`quota counters when Redis loses its data mid-day (${target.name})`, {
    skip: target.skip || redisServerSkip(),
  }, () => {
    let redis: OwnRedis;
    let t: TestApp;
    before(async () => {
      // A Redis of this test's own, without persistence: a restart empties it, as in production.
      redis = await startOwnRedis();
      t = await createTestApp({ target, env: { REDIS_URL: redis.url }, extraV1Routes: probeRoutes });
    });
    after(async () => {
      await t?.close();
      await redis?.stop();
    });

    const calls = async (key: string, count: number) => {
      const statuses: number[] = [];
      // One after the other: each call's count is in Redis before the next is sent.
      for (let i = 0; i < count; i++) {
        statuses.push((await t.app.inject({ url: '/v1/test/ping', headers: bearer(key) })).statusCode);
      }
      return {
        passed: statuses.filter((status) => status === 200).length,
        refused: statuses.filter((status) => status === 429).length,
      };
    };

    it('does not give the calls counted before a restart again: the counter starts from its durable record', async () => {
      const key = await t.keyFor('free');
      const accountId = (
        await t.app.ctx.database.db.selectFrom('api_keys').select('account_id').executeTakeFirstOrThrow()
      ).account_id;
      assert.deepEqual(await calls(key, 60), { passed: 60, refused: 0 });

      // The record is written every second by each instance; wait until it holds the 60.
      const recorded = async () =>
        Number(
          (
            await t.app.ctx.database.db
              .selectFrom('quota_usage')
              .select('used')
              .where('account_id', '=', accountId)
              .executeTakeFirst()
          )?.used ?? 0,
        );
      for (let attempt = 0; attempt < 600 && (await recorded()) < 60; attempt++) await sleep(testTimeout(50));
      assert.equal(await recorded(), 60);

      await redis.restart();
      // The service's client reconnects on its own; until then calls answer 503, not counted.
      for (let attempt = 0; attempt < 600; attempt++) {
        if ((await t.app.ctx.redis!.ping().catch(() => null)) === 'PONG') break;
        await sleep(50);
      }
      assert.equal(await t.app.ctx.redis!.dbsize(), 0, 'Redis came back empty');
      const quota = await t.app.inject({ url: '/v1/quota', headers: bearer(key) });
      assert.equal(quota.json().data.used, 60, '/v1/quota reads the record while Redis holds no counter');

      assert.deepEqual(await calls(key, 60), { passed: FREE_LIMIT - 60, refused: 20 }, 'only what was left of the day');
      assert.equal(Number(await t.app.ctx.redis!.get(`quota:${accountId}:2026-03-10`)), FREE_LIMIT);
    });
  });
}
