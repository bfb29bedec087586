import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DeletionChurn, type DeletionEvent } from '../src/churn/deletion-churn.ts';
import { SimWorld } from '../src/world.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const START = Date.parse('2026-01-01T00:00:00Z');

function run(days: number, options: { holdRate?: number; offTimeBatchRate?: number; offTimeBatchMaxMinutes?: number }) {
  const world = new SimWorld(START);
  const events: DeletionEvent[] = [];
  const churn = new DeletionChurn(world, { seed: 5, deletedPerDay: 40, restoreRate: 0.2, ...options }, (event) =>
    events.push(event),
  );
  const byName = new Map<string, DeletionEvent[]>();
  // Looked at day by day, so a held name's standing can be checked while it is held.
  const heldSeen: { name: string; inZone: boolean; status: string[] }[] = [];
  for (let day = 1; day <= days; day++) {
    churn.advanceTo(START + day * DAY);
    for (const event of events) {
      if (event.kind !== 'held' || event.at < START + (day - 1) * DAY) continue;
      const domain = world.get(event.name)!;
      heldSeen.push({ name: event.name, inZone: domain.inZone, status: domain.status });
    }
  }
  for (const event of events) byName.set(event.name, [...(byName.get(event.name) ?? []), event]);
  return { world, events, byName, heldSeen };
}

describe('deletion churn: registrar holds and off-time batches', () => {
  it('puts a share of names on hold: out of the zone, still registered, deleted 3 to 30 days later', () => {
    const { events, byName, heldSeen } = run(50, { holdRate: 0.3 });
    const leaving = events.filter(
      (event) =>
        event.kind === 'held' || (event.kind === 'deleted' && !byName.get(event.name)!.some((e) => e.kind === 'held')),
    );
    assert.equal(leaving.length, 50 * 40, 'every name leaves the zone once, held or deleted');
    const held = events.filter((event) => event.kind === 'held');
    assert.ok(held.length > 0.2 * 50 * 40 && held.length < 0.4 * 50 * 40, `held ${held.length}`);
    for (const seen of heldSeen.filter((entry) => byName.get(entry.name)!.length === 1)) {
      assert.equal(seen.inZone, false);
      assert.deepEqual(seen.status, ['client hold'], 'RDAP answers a held name registered, on hold');
    }
    let deletedAfterHold = 0;
    for (const event of held) {
      const history = byName.get(event.name)!;
      const deleted = history.find((e) => e.kind === 'deleted');
      if (!deleted) continue;
      deletedAfterHold += 1;
      const days = (deleted.at - event.at) / DAY;
      assert.ok(days >= 3 && days <= 30, `held ${days} days`);
    }
    assert.ok(deletedAfterHold > 0.5 * held.length);
  });

  it('a held name deleted goes through redemption with its deletion as the last change, then the batch purges it', () => {
    const { world, events, byName } = run(70, { holdRate: 0.5 });
    let purged = 0;
    for (const event of events.filter((e) => e.kind === 'held')) {
      const kinds = byName.get(event.name)!.map((e) => e.kind);
      if (kinds.includes('restored')) continue;
      if (kinds.includes('purged')) {
        assert.deepEqual(kinds, ['held', 'deleted', 'pending-delete', 'purged']);
        purged += 1;
      } else if (kinds.length === 2) {
        const deleted = byName.get(event.name)![1]!;
        assert.deepEqual(world.get(event.name)?.status, ['redemption period']);
        assert.equal(world.get(event.name)?.updatedAt, deleted.at);
      }
    }
    assert.ok(purged > 0);
  });

  it('runs some days’ batch late or early, within the shift, and the others on time', () => {
    const { events } = run(60, { offTimeBatchRate: 0.3, offTimeBatchMaxMinutes: 120 });
    const batchTimes = new Map<string, number>();
    for (const event of events) {
      if (event.kind !== 'pending-delete' && event.kind !== 'purged') continue;
      const day = new Date(event.at).toISOString().slice(0, 10);
      const shift = event.at - (Math.floor(event.at / DAY) * DAY + 19 * HOUR);
      assert.ok(Math.abs(shift) <= 120 * MINUTE, `shift ${shift / MINUTE} min`);
      // One batch a day: every name it moves or purges that day shares its time.
      assert.equal(batchTimes.get(day) ?? shift, shift);
      batchTimes.set(day, shift);
    }
    const shifts = [...batchTimes.values()];
    const late = shifts.filter((shift) => shift > 0).length;
    const early = shifts.filter((shift) => shift < 0).length;
    assert.ok(late > 0 && early > 0, `late ${late}, early ${early}`);
    assert.ok(shifts.filter((shift) => shift === 0).length > shifts.length / 2);
  });

  it('plays the same events for the same seed, and without holds or shifts the days it played before', () => {
    const a = run(40, { holdRate: 0.3, offTimeBatchRate: 0.2 }).events;
    const b = run(40, { holdRate: 0.3, offTimeBatchRate: 0.2 }).events;
    assert.deepEqual(a, b);
    const plain = run(40, {}).events;
    assert.equal(plain.filter((event) => event.kind === 'held').length, 0);
    for (const event of plain) {
      if (event.kind === 'pending-delete' || event.kind === 'purged') {
        assert.equal(new Date(event.at).toISOString().slice(11), '19:00:00.000Z');
      }
    }
  });
});
