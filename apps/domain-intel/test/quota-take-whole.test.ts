import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { databaseTargets } from '@repo/server-kit/testing';
import type { FastifyInstance } from 'fastify';
import type { QuotaStore, QuotaTakeRequest } from '../src/quota/quota-store.ts';
import { RedisQuotaStore } from '../src/quota/redis-quota-store.ts';
import { SqlQuotaStore } from '../src/quota/sql-quota-store.ts';
import { createTestApp, quotaStoreVariants, type TestApp } from './helpers.ts';

const DAY = '2026-03-10';

/** The quota store of an app instance, on that instance's own connection. */
const storeOf = (app: FastifyInstance): QuotaStore =>
  app.ctx.redis ? new RedisQuotaStore(app.ctx.redis) : new SqlQuotaStore(app.ctx.database.db);

const request = (accountId: string, limit: number | null, units: number): QuotaTakeRequest => ({
  accountId,
  day: DAY,
  limit,
  units,
  secondsToReset: 12 * 3600,
});

for (const variant of quotaStoreVariants(databaseTargets(), { cluster: true })) {
  describe(`quota store, a take of all the units or none (${variant.name})`, { skip: variant.skip }, () => {
    let t: TestApp;
    let store: QuotaStore;
    before(async () => {
      t = await createTestApp({ target: variant.target, redis: variant.redis });
      store = storeOf(t.app);
    });
    after(async () => t?.close());

    async function account(): Promise<string> {
      const email = `whole-${Math.random().toString(36).slice(2)}@example.com`;
      return (await t.app.ctx.accounts.signUp({ email, plan: 'starter' })).account.account_id;
    }

    it('takes every unit when they fit, and none (nothing counted) when one would not', async () => {
      const accountId = await account();
      assert.deepEqual(await store.takeWhole(request(accountId, 10, 7)), { taken: 7, used: 7 });
      assert.deepEqual(await store.takeWhole(request(accountId, 10, 4)), { taken: 0, used: 7 });
      assert.equal(await store.used(accountId, DAY), 7, 'the refused take left the count alone');
      assert.deepEqual(await store.takeWhole(request(accountId, 10, 3)), { taken: 3, used: 10 });
      assert.deepEqual(await store.takeWhole(request(accountId, 10, 1)), { taken: 0, used: 10 });
    });

    it('refuses a first take of the day bigger than the limit, and counts unlimited plans', async () => {
      const [small, unlimited] = [await account(), await account()];
      assert.deepEqual(await store.takeWhole(request(small, 10, 11)), { taken: 0, used: 0 });
      assert.equal(await store.used(small, DAY), 0);
      assert.deepEqual(await store.takeWhole(request(unlimited, null, 10_000)), { taken: 10_000, used: 10_000 });
    });

    it('is exact when whole takes race single calls through three instances', async () => {
      const accountId = await account();
      const instances = [t.app, await t.spawnInstance(), await t.spawnInstance()];
      const stores = instances.map(storeOf);
      // 30 jobs of 7 units and 60 single calls for 100 units: whatever the order, the count
      // never passes 100, and every unit said taken is counted.
      const wholes = Array.from({ length: 30 }, (_, i) => stores[i % 3]!.takeWhole(request(accountId, 100, 7)));
      const singles = Array.from({ length: 60 }, (_, i) =>
        stores[i % 3]!.takeMany([request(accountId, 100, 1)]).then(([outcome]) => {
          assert.equal(outcome!.status, 'fulfilled');
          return (outcome as PromiseFulfilledResult<{ taken: number }>).value.taken;
        }),
      );
      const whole = await Promise.all(wholes);
      const single = await Promise.all(singles);
      for (const take of whole) assert.ok(take.taken === 0 || take.taken === 7, 'all or nothing');
      const taken = whole.reduce((sum, take) => sum + take.taken, 0) + single.reduce((sum, n) => sum + n, 0);
      const used = await store.used(accountId, DAY);
      assert.equal(used, taken, 'every unit taken is counted, and nothing else');
      assert.ok(used <= 100, `never past the limit (${used})`);
      assert.ok(used > 93, `a refused job leaves its units to the others (${used})`);
    });
  });
}
