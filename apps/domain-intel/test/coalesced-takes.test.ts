import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CoalescedTakes } from '../src/quota/coalesced-takes.ts';
import type { QuotaStore, QuotaTake } from '../src/quota/quota-store.ts';

/** An exact in-memory store that records each store call and the takes asked for in it. */
function recordingStore() {
  const counts = new Map<string, number>();
  const storeCalls: Array<Array<{ accountId: string; units: number }>> = [];
  let failing = false;
  const failingAccounts = new Set<string>();
  const store: QuotaStore = {
    async takeMany(requests) {
      if (failing) throw new Error('store down');
      storeCalls.push(requests.map(({ accountId, units }) => ({ accountId, units })));
      return requests.map(({ accountId, day, limit, units }): PromiseSettledResult<QuotaTake> => {
        if (failingAccounts.has(accountId)) return { status: 'rejected', reason: new Error(`${accountId} refused`) };
        const used = counts.get(`${accountId}:${day}`) ?? 0;
        const taken = limit === null ? units : Math.max(0, Math.min(units, limit - used));
        counts.set(`${accountId}:${day}`, used + taken);
        return { status: 'fulfilled', value: { taken, used: used + taken } };
      });
    },
    async takeWhole() {
      throw new Error('CoalescedTakes never takes whole');
    },
    async refund() {},
    async used(accountId, day) {
      return counts.get(`${accountId}:${day}`) ?? 0;
    },
    async history() {
      return [];
    },
  };
  return {
    store,
    storeCalls,
    counts,
    fail: () => (failing = true),
    failFor: (accountId: string) => failingAccounts.add(accountId),
  };
}

const decided = (decisions: Array<{ allowed: boolean; used: number }>) =>
  decisions.map((decision) => [decision.allowed, decision.used]);

describe('coalesced quota takes', () => {
  it('asks the store once per turn for every account, one request of n units per account', async () => {
    const { store, storeCalls } = recordingStore();
    const coalesced = new CoalescedTakes(store);
    const decisions = await Promise.all([
      coalesced.takeOne('acc_a', '2026-03-10', 100, 60),
      coalesced.takeOne('acc_b', '2026-03-10', 100, 60),
      ...Array.from({ length: 4 }, () => coalesced.takeOne('acc_a', '2026-03-10', 100, 60)),
      coalesced.takeOne('acc_c', '2026-03-10', null, 60),
    ]);
    assert.deepEqual(storeCalls, [
      [
        { accountId: 'acc_a', units: 5 },
        { accountId: 'acc_b', units: 1 },
        { accountId: 'acc_c', units: 1 },
      ],
    ]);
    assert.deepEqual(
      decisions.map((decision) => decision.used),
      [1, 1, 2, 3, 4, 5, 1],
    );
    assert.ok(decisions.every((decision) => decision.allowed));
    await Promise.all([
      coalesced.takeOne('acc_a', '2026-03-10', 100, 60),
      coalesced.takeOne('acc_b', '2026-03-10', 100, 60),
    ]);
    assert.equal(storeCalls.length, 2, 'a later turn is a store call of its own');
  });

  it('lets through exactly what the limit leaves, in arrival order, and counts nothing more', async () => {
    const { store, counts } = recordingStore();
    const coalesced = new CoalescedTakes(store);
    await coalesced.takeOne('acc_a', '2026-03-10', 4, 60);
    const decisions = await Promise.all(
      Array.from({ length: 5 }, () => coalesced.takeOne('acc_a', '2026-03-10', 4, 60)),
    );
    assert.deepEqual(decided(decisions), [
      [true, 2],
      [true, 3],
      [true, 4],
      [false, 4],
      [false, 4],
    ]);
    assert.equal(counts.get('acc_a:2026-03-10'), 4);
  });

  it('in a turn of several accounts, refuses only the calls past the limit of the account that reaches it', async () => {
    const { store, counts, storeCalls } = recordingStore();
    const coalesced = new CoalescedTakes(store);
    // acc_a has 3 units left, its calls interleaved with those of acc_b (Starter) and acc_c (unlimited).
    const calls = ['acc_a', 'acc_b', 'acc_a', 'acc_c', 'acc_a', 'acc_b', 'acc_a', 'acc_c', 'acc_a'];
    const limits: Record<string, number | null> = { acc_a: 3, acc_b: 1000, acc_c: null };
    const decisions = await Promise.all(
      calls.map((account) => coalesced.takeOne(account, '2026-03-10', limits[account]!, 60)),
    );
    assert.equal(storeCalls.length, 1);
    assert.deepEqual(decided(decisions), [
      [true, 1],
      [true, 1],
      [true, 2],
      [true, 1],
      [true, 3],
      [true, 2],
      [false, 3],
      [true, 2],
      [false, 3],
    ]);
    assert.deepEqual(Object.fromEntries(counts), {
      'acc_a:2026-03-10': 3,
      'acc_b:2026-03-10': 2,
      'acc_c:2026-03-10': 2,
    });
  });

  it('keeps the days of a turn that spans midnight apart', async () => {
    const { store, counts, storeCalls } = recordingStore();
    const coalesced = new CoalescedTakes(store);
    const decisions = await Promise.all([
      coalesced.takeOne('acc_a', '2026-03-10', 100, 1),
      coalesced.takeOne('acc_a', '2026-03-11', 100, 86_400),
      coalesced.takeOne('acc_a', '2026-03-10', 100, 1),
    ]);
    assert.deepEqual(storeCalls, [
      [
        { accountId: 'acc_a', units: 2 },
        { accountId: 'acc_a', units: 1 },
      ],
    ]);
    assert.deepEqual(
      decisions.map((decision) => decision.used),
      [1, 1, 2],
    );
    assert.equal(counts.get('acc_a:2026-03-10'), 2);
    assert.equal(counts.get('acc_a:2026-03-11'), 1);
  });

  it('fails only the calls of the account the store failed on', async () => {
    const { store, failFor } = recordingStore();
    const coalesced = new CoalescedTakes(store);
    failFor('acc_b');
    const results = await Promise.allSettled([
      coalesced.takeOne('acc_a', '2026-03-10', 4, 60),
      coalesced.takeOne('acc_b', '2026-03-10', 4, 60),
      coalesced.takeOne('acc_b', '2026-03-10', 4, 60),
      coalesced.takeOne('acc_a', '2026-03-10', 4, 60),
    ]);
    assert.deepEqual(
      results.map((result) => result.status),
      ['fulfilled', 'rejected', 'rejected', 'fulfilled'],
    );
    assert.match(String((results[1] as PromiseRejectedResult).reason), /acc_b refused/);
  });

  it('fails every call of the turn when the store cannot be asked', async () => {
    const { store, fail } = recordingStore();
    const coalesced = new CoalescedTakes(store);
    fail();
    const results = await Promise.allSettled([
      coalesced.takeOne('acc_a', '2026-03-10', 4, 60),
      coalesced.takeOne('acc_b', '2026-03-10', 4, 60),
    ]);
    assert.ok(results.every((result) => result.status === 'rejected'));
  });
});
