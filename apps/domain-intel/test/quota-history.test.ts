import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { databaseTargets } from '@repo/server-kit/testing';
import type { FastifyInstance } from 'fastify';
import { ok } from '../src/http/envelope.ts';
import { HISTORY_DAYS } from '../src/quota/quota-store.ts';
import { bearer, createTestApp, quotaStoreVariants, type TestApp } from './helpers.ts';

async function probeRoutes(v1: FastifyInstance) {
  v1.get('/test/ping', async (request) => ok(request, { pong: true }));
  v1.get('/test/crash', async () => {
    throw new Error('boom');
  });
}

for (const variant of quotaStoreVariants(databaseTargets())) {
  describe(`usage history (${variant.name})`, { skip: variant.skip }, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp({ target: variant.target, redis: variant.redis, extraV1Routes: probeRoutes });
    });
    after(async () => t?.close());

    async function account(plan: 'free' | 'starter' = 'starter') {
      const email = `history-${Math.random().toString(36).slice(2)}@example.com`;
      const { account, key } = await t.app.ctx.accounts.signUp({ email, plan });
      return { accountId: account.account_id, key: key.key };
    }
    const calls = (key: string, count: number, url = '/v1/test/ping') =>
      Promise.all(Array.from({ length: count }, () => t.app.inject({ url, headers: bearer(key) })));

    it('keeps one count per day, fills days without calls with 0, and leaves refunded calls out', async () => {
      const { accountId, key } = await account();
      t.clock.set('2026-03-07T10:00:00Z');
      await calls(key, 3);
      t.clock.set('2026-03-09T23:59:00Z');
      await calls(key, 2);
      await calls(key, 1, '/v1/test/crash');
      t.clock.set('2026-03-10T12:00:00Z');
      await calls(key, 4);

      const history = await t.app.ctx.quota.history(accountId, 5);
      assert.deepEqual(history, [
        { day: '2026-03-06', used: 0 },
        { day: '2026-03-07', used: 3 },
        { day: '2026-03-08', used: 0 },
        { day: '2026-03-09', used: 2 },
        { day: '2026-03-10', used: 4 },
      ]);
      const today = await t.app.inject({ url: '/v1/quota', headers: bearer(key) });
      assert.equal(today.json().data.used, history.at(-1)!.used, 'today in the history is the live counter');
    });

    it('never mixes accounts and never goes beyond the days it keeps', async () => {
      const first = await account();
      const second = await account();
      await calls(first.key, 2);
      await calls(second.key, 1);
      assert.deepEqual(await t.app.ctx.quota.history(first.accountId, 1), [{ day: '2026-03-10', used: 2 }]);
      assert.deepEqual(await t.app.ctx.quota.history(second.accountId, 1), [{ day: '2026-03-10', used: 1 }]);
      const longest = await t.app.ctx.quota.history(first.accountId, 1_000);
      assert.equal(longest.length, HISTORY_DAYS);
      assert.equal(longest.at(-1)!.day, '2026-03-10');
    });

    it('stops counting in the history when the daily cap refuses a call', async () => {
      const { accountId, key } = await account('free');
      const responses = await calls(key, 105);
      assert.equal(responses.filter((response) => response.statusCode === 429).length, 5);
      assert.deepEqual(await t.app.ctx.quota.history(accountId, 1), [{ day: '2026-03-10', used: 100 }]);
    });

    if (variant.redis) {
      it('keeps the Redis history key about 35 days while the counter goes at midnight', async () => {
        const { accountId, key } = await account();
        await calls(key, 1);
        const redis = t.app.ctx.redis!;
        const counterTtl = await redis.ttl(`quota:${accountId}:2026-03-10`);
        const historyTtl = await redis.ttl(`quota-history:${accountId}:2026-03-10`);
        assert.equal(counterTtl, 12 * 3600);
        assert.equal(historyTtl, 12 * 3600 + (HISTORY_DAYS - 1) * 86_400);
      });
    }
  });
}
