import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DeletionChurn, type DeletionEvent } from '../src/churn/deletion-churn.ts';
import { SimWorld } from '../src/world.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const START = Date.parse('2026-01-01T00:00:00Z');

function run(days: number) {
  const world = new SimWorld(START);
  const events: DeletionEvent[] = [];
  const churn = new DeletionChurn(world, { seed: 3, deletedPerDay: 50, restoreRate: 0.2 }, (event) =>
    events.push(event),
  );
  churn.advanceTo(START + days * DAY);
  return { world, events };
}

describe('deletion churn', () => {
  it('plays the registry timeline: deleted names go to pending delete after 30 days and are purged 5 later, at the batch', () => {
    const { world, events } = run(40);
    assert.equal(world.now(), START + 40 * DAY);
    const deleted = events.filter((event) => event.kind === 'deleted');
    assert.equal(deleted.length, 40 * 50);
    for (const event of events) {
      if (event.kind === 'pending-delete' || event.kind === 'purged') {
        assert.equal(new Date(event.at).toISOString().slice(11), '19:00:00.000Z', `${event.kind} at the batch`);
      }
    }
    const byName = new Map<string, DeletionEvent[]>();
    for (const event of events) byName.set(event.name, [...(byName.get(event.name) ?? []), event]);
    let purged = 0;
    for (const [name, history] of byName) {
      const [first, second, third] = history;
      assert.equal(first!.kind, 'deleted');
      if (second?.kind === 'restored') {
        assert.ok(second.at - first!.at < 30 * DAY);
        assert.equal(world.get(name)?.inZone, true);
        continue;
      }
      if (second?.kind === 'pending-delete') {
        assert.ok(second.at - first!.at >= 30 * DAY && second.at - first!.at < 31 * DAY);
        if (third) {
          assert.equal(third.kind, 'purged');
          assert.equal(third.at - second.at, 5 * DAY);
          assert.equal(world.get(name), undefined);
          purged += 1;
        } else assert.deepEqual(world.get(name)?.status, ['pending delete']);
        continue;
      }
      assert.equal(second, undefined);
      assert.deepEqual(world.get(name)?.status, ['redemption period']);
      assert.equal(world.get(name)?.updatedAt, first!.at, "RDAP's last changed is the deletion");
    }
    assert.ok(purged > 0);
    const restored = events.filter((event) => event.kind === 'restored').length;
    assert.ok(restored > 0.1 * 30 * 50 && restored < 0.3 * 40 * 50, `restored ${restored}`);
    // Events come in time order, and the same seed plays the same days.
    assert.deepEqual(
      events.map((event) => event.at),
      [...events.map((event) => event.at)].sort((a, b) => a - b),
    );
    assert.deepEqual(run(40).events, events);
  });
});
