import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { webFacts } from '../src/churn/web-facts.ts';
import { ZoneChurn } from '../src/churn/zone-churn.ts';
import { SimWorld } from '../src/world.ts';

const snapshot = (world: SimWorld) =>
  [...world.domains.values()].map((d) => `${d.name}|${d.status.join('+')}|${d.inZone}|${d.expiresAt}`).sort();

describe('zone churn', () => {
  it('seeds ~10 TLDs with shared labels, archive dates and SEO metrics, deterministically', () => {
    const a = new ZoneChurn(new SimWorld('2026-03-01T06:00:00Z'), { seed: 7, namesPerTld: 50 });
    const b = new ZoneChurn(new SimWorld('2026-03-01T06:00:00Z'), { seed: 7, namesPerTld: 50 });
    a.seed();
    b.seed();
    assert.deepEqual(snapshot(a.world), snapshot(b.world));
    assert.equal(a.world.domains.size, 500);
    const all = [...a.world.domains.values()];
    assert.equal(new Set(all.map((d) => d.tld)).size, 10);
    assert.ok(all.filter((d) => d.firstArchivedAt !== undefined).length > 300);
    assert.ok(all.filter((d) => d.da !== undefined && d.tf !== undefined).length > 250);
    const labels = all.map((d) => d.name.slice(0, d.name.indexOf('.')));
    assert.ok(labels.length - new Set(labels).size > 50, 'labels repeat across TLDs');
  });

  it('moves names through redemption and pending delete to the purge, with restores and re-registrations', () => {
    const churn = new ZoneChurn(new SimWorld('2026-03-01T06:00:00Z'), {
      seed: 11,
      tlds: ['com', 'net'],
      namesPerTld: 200,
      expirySpreadDays: 4,
      renewRate: 0.3,
      restoreRate: 0.5,
      reRegisterRate: 0.5,
      redemptionDays: 1,
      pendingDeleteDays: 1,
    });
    churn.seed();
    const days = Array.from({ length: 6 }, () => {
      const day = churn.advanceDay();
      // The registry state right after the day matches what the day reported.
      for (const name of day.expired) {
        assert.deepEqual(churn.world.get(name)?.status, ['redemption period']);
        assert.equal(churn.world.get(name)?.inZone, false);
      }
      for (const name of day.pendingDelete) assert.deepEqual(churn.world.get(name)?.status, ['pending delete']);
      for (const name of day.restored) assert.equal(churn.world.get(name)?.inZone, true);
      for (const name of day.purged) assert.ok(!churn.world.get(name) || day.reRegistered.includes(name));
      return day;
    });
    const sum = (key: 'expired' | 'restored' | 'pendingDelete' | 'purged' | 'reRegistered' | 'registered') =>
      days.reduce((n, day) => n + day[key].length, 0);
    for (const key of ['expired', 'restored', 'pendingDelete', 'purged', 'reRegistered', 'registered'] as const) {
      assert.ok(sum(key) > 0, `${key} happened`);
    }
    // A purged name is gone from the registry but its archive and metrics remain known.
    const purged = days.flatMap((d) => d.purged).find((name) => !churn.world.get(name));
    assert.ok(purged);
    assert.ok(webFacts(churn.world, purged) !== undefined);
    assert.equal(days[0]!.date, '2026-03-02');
  });
});
