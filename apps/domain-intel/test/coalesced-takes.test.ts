import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CoalescedTakes } from '../src/quota/coalesced-takes.ts';
import type { QuotaStore } from '../src/quota/quota-store.ts';

/** An exact in-memory store that records each take it is asked for. */
function recordingStore() {
  const counts = new Map<string, number>();
  const takes: Array<{ accountId: string; units: number }> = [];
  let failing = false;
  const store: QuotaStore = {
    async take(accountId, day, limit, units) {
      if (failing) throw new Error('store down');
      takes.push({ accountId, units });
      const used = counts.get(`${accountId}:${day}`) ?? 0;
      const taken = limit === null ? units : Math.max(0, Math.min(units, limit - used));
      counts.set(`${accountId}:${day}`, used + taken);
      return { taken, used: used + taken };
    },
    async refund() {},
    async used(accountId, day) {
      return counts.get(`${accountId}:${day}`) ?? 0;
    },
    async history() {
      return [];
    },
  };
  return { store, takes, counts, fail: () => (failing = true) };
}

describe('coalesced quota takes', () => {
  it('asks the store once per account for the calls of one turn, each call with its own count', async () => {
    const { store, takes } = recordingStore();
    const coalesced = new CoalescedTakes(store);
    const decisions = await Promise.all([
      ...Array.from({ length: 5 }, () => coalesced.takeOne('acc_a', '2026-03-10', 100, 60)),
      coalesced.takeOne('acc_b', '2026-03-10', 100, 60),
    ]);
    assert.deepEqual(takes, [
      { accountId: 'acc_a', units: 5 },
      { accountId: 'acc_b', units: 1 },
    ]);
    assert.deepEqual(
      decisions.map((decision) => decision.used),
      [1, 2, 3, 4, 5, 1],
    );
    assert.ok(decisions.every((decision) => decision.allowed));
  });

  it('lets through exactly what the limit leaves, in arrival order, and counts nothing more', async () => {
    const { store, counts } = recordingStore();
    const coalesced = new CoalescedTakes(store);
    await coalesced.takeOne('acc_a', '2026-03-10', 4, 60);
    const decisions = await Promise.all(
      Array.from({ length: 5 }, () => coalesced.takeOne('acc_a', '2026-03-10', 4, 60)),
    );
    assert.deepEqual(
      decisions.map((decision) => [decision.allowed, decision.used]),
      [
        [true, 2],
        [true, 3],
        [true, 4],
        [false, 4],
        [false, 4],
      ],
    );
    assert.equal(counts.get('acc_a:2026-03-10'), 4);
  });

  it('fails every call of the batch when the store fails', async () => {
    const { store, fail } = recordingStore();
    const coalesced = new CoalescedTakes(store);
    fail();
    const results = await Promise.allSettled([
      coalesced.takeOne('acc_a', '2026-03-10', 4, 60),
      coalesced.takeOne('acc_a', '2026-03-10', 4, 60),
    ]);
    assert.ok(results.every((result) => result.status === 'rejected'));
  });
});
