import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { keySlot, type Redis } from '@repo/server-kit';
import { databaseTargets } from '@repo/server-kit/testing';
import type { FastifyInstance } from 'fastify';
import { CoalescedTakes } from '../src/quota/coalesced-takes.ts';
import type { QuotaStore, QuotaTake, QuotaTakeRequest } from '../src/quota/quota-store.ts';
import { HISTORY_DAYS } from '../src/quota/quota-store.ts';
import { RedisQuotaStore } from '../src/quota/redis-quota-store.ts';
import { SqlQuotaStore } from '../src/quota/sql-quota-store.ts';
import { createTestApp, quotaStoreVariants, type TestApp } from './helpers.ts';

const DAY = '2026-03-10';

/** The quota store of an app instance, on that instance's own connection. */
const storeOf = (app: FastifyInstance): QuotaStore =>
  app.ctx.redis ? new RedisQuotaStore(app.ctx.redis) : new SqlQuotaStore(app.ctx.database.db);

const take = (accountId: string, limit: number | null, units: number, day = DAY): QuotaTakeRequest => ({
  accountId,
  day,
  limit,
  units,
  secondsToReset: 12 * 3600,
});

function fulfilled(outcomes: Array<PromiseSettledResult<QuotaTake>>): QuotaTake[] {
  return outcomes.map((outcome) => {
    assert.equal(outcome.status, 'fulfilled', String((outcome as PromiseRejectedResult).reason));
    return (outcome as PromiseFulfilledResult<QuotaTake>).value;
  });
}

for (const variant of quotaStoreVariants(databaseTargets(), { cluster: true })) {
  describe(`quota store, takes of several accounts at once (${variant.name})`, { skip: variant.skip }, () => {
    let t: TestApp;
    let store: QuotaStore;
    before(async () => {
      t = await createTestApp({ target: variant.target, redis: variant.redis });
      store = storeOf(t.app);
    });
    after(async () => t?.close());

    /** Accounts exist for the SQL store's foreign key; the Redis store only uses their ids. */
    async function accounts(count: number): Promise<string[]> {
      return Promise.all(
        Array.from({ length: count }, async () => {
          const email = `store-${Math.random().toString(36).slice(2)}@example.com`;
          return (await t.app.ctx.accounts.signUp({ email, plan: 'starter' })).account.account_id;
        }),
      );
    }

    it('takes all the units of each account, or as many as its limit leaves, counted per account', async () => {
      const [nearlyFull, fresh, unlimited] = await accounts(3);
      fulfilled(await store.takeMany([take(nearlyFull!, 10, 8)]));
      const outcomes = fulfilled(
        await store.takeMany([take(nearlyFull!, 10, 5), take(fresh!, 10, 3), take(unlimited!, null, 7)]),
      );
      assert.deepEqual(outcomes, [
        { taken: 2, used: 10 },
        { taken: 3, used: 3 },
        { taken: 7, used: 7 },
      ]);
      assert.deepEqual(fulfilled(await store.takeMany([take(nearlyFull!, 10, 1), take(fresh!, 10, 1)])), [
        { taken: 0, used: 10 },
        { taken: 1, used: 4 },
      ]);
      assert.equal(await store.used(nearlyFull!, DAY), 10);
      assert.equal(await store.used(fresh!, DAY), 4);
      assert.equal(await store.used(unlimited!, DAY), 7);
    });

    it('keeps the days apart, refunds into the right day, and mirrors each day into the history', async () => {
      const [accountId] = await accounts(1);
      const outcomes = fulfilled(await store.takeMany([take(accountId!, 5, 3), take(accountId!, 5, 4, '2026-03-11')]));
      assert.deepEqual(outcomes, [
        { taken: 3, used: 3 },
        { taken: 4, used: 4 },
      ]);
      await store.refund(accountId!, DAY);
      assert.equal(await store.used(accountId!, DAY), 2);
      assert.equal(await store.used(accountId!, '2026-03-11'), 4);
      assert.deepEqual(await store.history(accountId!, DAY, '2026-03-11'), [
        { day: DAY, used: 2 },
        { day: '2026-03-11', used: 4 },
      ]);
    });

    it('is exact for many accounts taking at once through three instances, each call counted once', async () => {
      const limit = 40;
      const ids = await accounts(6);
      const instances = [t.app, await t.spawnInstance(), await t.spawnInstance()];
      const takers = instances.map((instance) => new CoalescedTakes(storeOf(instance)));
      const pending: Array<Promise<{ accountId: string; allowed: boolean; used: number }>> = [];
      // 5 turns of 120 calls, spread over the instances and accounts: 100 calls for 40 units each.
      for (let turn = 0; turn < 5; turn++) {
        for (let call = 0; call < 120; call++) {
          const accountId = ids[call % ids.length]!;
          const taker = takers[(call + turn) % takers.length]!;
          pending.push(taker.takeOne(accountId, DAY, limit, 3600).then((decision) => ({ accountId, ...decision })));
        }
        await new Promise((resolve) => setImmediate(resolve));
      }
      const decisions = await Promise.all(pending);
      for (const accountId of ids) {
        const allowed = decisions.filter((decision) => decision.accountId === accountId && decision.allowed);
        assert.equal(allowed.length, limit, `${accountId}: exactly the limit let through`);
        assert.deepEqual(
          allowed.map((decision) => decision.used).sort((a, b) => a - b),
          Array.from({ length: limit }, (_, i) => i + 1),
          'each call let through has a count of its own',
        );
        assert.equal(await store.used(accountId, DAY), limit);
      }
    });

    it('counts a call the proxy re-sent (same request id) once, on whichever instance it arrives', async () => {
      const [accountId, other] = await accounts(2);
      const [first, second] = [t.app, await t.spawnInstance()].map((instance) => new CoalescedTakes(storeOf(instance)));
      const limit = 3;
      assert.deepEqual(await first!.takeOne(accountId!, DAY, limit, 3600, 'proxy-1'), { allowed: true, used: 1 });
      // The instance died before answering; the proxy sent the call to another one.
      const resent = { allowed: true, repeated: true };
      assert.deepEqual(await second!.takeOne(accountId!, DAY, limit, 3600, 'proxy-1'), { ...resent, used: 1 });
      // In one turn: the re-send again, a new call, and that call's re-send (one store call).
      const turn = await Promise.all([
        second!.takeOne(accountId!, DAY, limit, 3600, 'proxy-1'),
        second!.takeOne(accountId!, DAY, limit, 3600, 'proxy-2'),
        second!.takeOne(accountId!, DAY, limit, 3600, 'proxy-2'),
      ]);
      assert.deepEqual(turn, [
        { ...resent, used: 1 },
        { allowed: true, used: 2 },
        { ...resent, used: 2 },
      ]);
      assert.equal(await store.used(accountId!, DAY), 2);
      // Ids are the account's own: another account's call with the same id is its own call.
      assert.deepEqual(await first!.takeOne(other!, DAY, limit, 3600, 'proxy-1'), { allowed: true, used: 1 });
      // The last unit, then a refused call: refused again when re-sent (nothing was counted for it),
      // while a counted call's re-send still goes through.
      assert.deepEqual(await first!.takeOne(accountId!, DAY, limit, 3600, 'proxy-3'), { allowed: true, used: 3 });
      assert.deepEqual(await first!.takeOne(accountId!, DAY, limit, 3600, 'proxy-4'), { allowed: false, used: 3 });
      assert.deepEqual(await second!.takeOne(accountId!, DAY, limit, 3600, 'proxy-4'), { allowed: false, used: 3 });
      assert.deepEqual(await second!.takeOne(accountId!, DAY, limit, 3600, 'proxy-3'), { ...resent, used: 3 });
      // A re-send gets its call's first answer again, whatever was counted since.
      assert.deepEqual(await second!.takeOne(accountId!, DAY, limit, 3600, 'proxy-1'), { ...resent, used: 1 });
      // A re-send that arrives after midnight belongs to the call counted the day before.
      const nextDay = '2026-03-11';
      assert.deepEqual(await second!.takeOne(accountId!, nextDay, limit, 3600, 'proxy-3'), { ...resent, used: 3 });
      assert.equal(await store.used(accountId!, DAY), 3);
      assert.equal(await store.used(accountId!, nextDay), 0);
      assert.equal(await store.used(other!, DAY), 1);
    });

    /** The counter's key as the store names it: the account id is the hash tag on a Cluster. */
    const counterKey = (accountId: string, day = DAY) =>
      variant.redis === 'cluster' ? `quota:{${accountId}}:${day}` : `quota:${accountId}:${day}`;
    const historyKey = (accountId: string, day = DAY) => `quota-history:${counterKey(accountId, day).slice(6)}`;

    if (variant.redis) {
      it('sets each counter to go at the next midnight and its history HISTORY_DAYS later', async () => {
        const [first, second] = await accounts(2);
        fulfilled(
          await store.takeMany([
            { ...take(first!, 10, 1), secondsToReset: 100 },
            { ...take(second!, 10, 1), secondsToReset: 100 },
          ]),
        );
        const redis = t.app.ctx.redis!;
        for (const accountId of [first!, second!]) {
          assert.equal(await redis.ttl(counterKey(accountId)), 100);
          assert.equal(await redis.ttl(historyKey(accountId)), 100 + (HISTORY_DAYS - 1) * 86_400);
        }
      });

      it('fails only the counter Redis refuses, and still counts the other accounts of the script', async () => {
        const [broken, healthy] = await accounts(2);
        await t.app.ctx.redis!.hset(counterKey(broken!), 'not', 'a counter');
        const [refused, counted] = await store.takeMany([take(broken!, 10, 2), take(healthy!, 10, 2)]);
        assert.equal(refused!.status, 'rejected');
        assert.match(String((refused as PromiseRejectedResult).reason), /WRONGTYPE/);
        assert.deepEqual(counted, { status: 'fulfilled', value: { taken: 2, used: 2 } });
        assert.equal(await store.used(healthy!, DAY), 2);
      });
    }

    if (variant.redis === 'cluster') {
      it("puts an account's counter and history in one slot, and its takes in that slot's script", async () => {
        const ids = await accounts(8);
        const slots = new Set(
          ids.map((accountId) => keySlot(`${t.app.ctx.redis!.options.keyPrefix}${counterKey(accountId)}`)),
        );
        assert.ok(slots.size > 1, 'eight accounts spread over several slots (and nodes)');
        for (const accountId of ids) {
          assert.equal(keySlot(counterKey(accountId)), keySlot(historyKey(accountId)));
        }
        const outcomes = fulfilled(
          await store.takeMany(ids.flatMap((accountId) => [take(accountId, 2, 1), take(accountId, 2, 2)])),
        );
        assert.deepEqual(
          outcomes,
          ids.flatMap(() => [
            { taken: 1, used: 1 },
            { taken: 1, used: 2 },
          ]),
          "each account's takes applied in order, in one script per slot",
        );
      });
    }

    if (variant.redis === true) {
      it('sends one script to Redis per turn, whatever the number of accounts in it', async () => {
        const ids = await accounts(8);
        const redis = t.app.ctx.redis!;
        const takers = new CoalescedTakes(new RedisQuotaStore(redis));
        const commands = await watchCommands(redis);
        try {
          // Warm-up turn: ioredis sends EVAL the first time on a connection, EVALSHA after.
          await takers.takeOne(ids[0]!, DAY, 100, 3600);
          const seen = await commands.until(async () => {
            await Promise.all(
              ids.flatMap((accountId) => [1, 2, 3].map(() => takers.takeOne(accountId, DAY, 100, 3600))),
            );
          });
          const scripts = seen.filter((args) => args[0] === 'evalsha' || args[0] === 'eval');
          assert.equal(scripts.length, 1, `one script for 8 accounts × 3 calls, saw: ${seen.map((a) => a[0])}`);
          assert.equal(seen.length, 1, 'and no other command');
          assert.equal(scripts[0]![2], String(3 * ids.length), 'three keys per account (counter, history, request id)');
        } finally {
          commands.stop();
        }
      });
    }
  });
}

/**
 * What Redis receives from clients under this test's key prefix (MONITOR on a connection of its
 * own; other tests share the server, so only commands naming one of our keys are kept, and the
 * commands a script runs inside Redis are left out). `until` returns the commands sent while
 * `work` ran: it ends with a marker command so every earlier command has been seen.
 */
async function watchCommands(redis: Redis) {
  const prefix = String(redis.options.keyPrefix);
  const monitor = await redis.monitor();
  let seen: string[][] = [];
  let marker: { key: string; found: () => void } | undefined;
  monitor.on('monitor', (_time: string, args: string[], source: string) => {
    if (source === 'lua' || !args.some((arg) => arg.startsWith(prefix))) return;
    if (marker && args[0]?.toLowerCase() === 'exists' && args[1] === marker.key) return marker.found();
    seen.push([args[0]!.toLowerCase(), ...args.slice(1)]);
  });
  return {
    async until(work: () => Promise<void>): Promise<string[][]> {
      const settled = (name: string) =>
        new Promise<void>((found) => {
          marker = { key: `${prefix}${name}`, found };
        });
      // The marker before the work too, so nothing of an earlier step is counted.
      const before = settled('monitor-start');
      await redis.exists('monitor-start');
      await before;
      seen = [];
      await work();
      const done = settled('monitor-end');
      await redis.exists('monitor-end');
      await done;
      return seen;
    },
    stop: () => monitor.disconnect(),
  };
}
