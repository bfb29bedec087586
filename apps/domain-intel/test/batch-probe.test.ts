import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Database, ManualClock, migrateToLatest } from '@repo/server-kit';
import { databaseTargets, openProvisioned, type ProvisionedDatabase } from '@repo/server-kit/testing';
import { migrations } from '../src/db/migrations/index.ts';
import type { DB } from '../src/db/schema.ts';
import { LifecycleService, timeOfDay } from '../src/lifecycle/index.ts';
import { changes, ScriptedRdap } from './feed-helpers.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

for (const target of databaseTargets()) {
  describe(`batch probe (${target.name})`, { skip: target.skip }, () => {
    let provisioned: ProvisionedDatabase;
    let database: Database<DB>;
    let clock: ManualClock;
    let rdap: ScriptedRdap;
    let lifecycle: LifecycleService;
    let day = 0;

    before(async () => {
      provisioned = await target.provision();
      database = openProvisioned<DB>(provisioned, { sqliteFile: 'batch-probe.sqlite' });
      await migrateToLatest(database, migrations);
      clock = new ManualClock('2026-03-10T06:00:00Z');
      rdap = new ScriptedRdap(() => clock.now());
      lifecycle = new LifecycleService(database.db, clock, rdap, {
        tlds: ['com'],
        perTldBudget: 100,
        perTldConcurrency: 2,
        batchTimes: { com: timeOfDay('19:00') },
      });
    });
    after(async () => {
      await database.close();
      await provisioned.cleanup();
    });

    const row = (domain: string) =>
      database.db.selectFrom('feed_domains').selectAll().where('domain', '=', domain).executeTakeFirstOrThrow();

    /** Three names seen in pending delete: their purge checks all planned at the same batch. */
    async function inPendingDelete(prefix: string): Promise<{ names: string[]; batch: number }> {
      day += 1;
      const names = [`${prefix}-a.com`, `${prefix}-b.com`, `${prefix}-c.com`];
      await lifecycle.applyZoneDiff({
        tld: 'com',
        fromDate: `2026-02-0${day}`,
        toDate: `2026-02-0${day + 1}`,
        changes: changes(...names.map((name): [string, 'removed'] => [name, 'removed'])),
      });
      for (const name of names) rdap.status(name, 'pending delete');
      await lifecycle.recheckDue();
      const planned = await Promise.all(names.map(async (name) => (await row(name)).next_check_at!));
      assert.equal(new Set(planned).size, 1, 'one batch purges them all');
      assert.equal(new Date(planned[0]!).toISOString().slice(11, 16), '19:00');
      return { names, batch: planned[0]! };
    }

    it('finds a batch that ran early with one look, and verifies the whole batch in that run', async () => {
      const { names, batch } = await inPendingDelete('early');
      for (const name of names) rdap.notFound(name);
      clock.set(batch - 90 * MINUTE); // the 17:30 run; the batch ran at 17:00
      rdap.asked.length = 0;
      await lifecycle.recheckDue();
      assert.equal(rdap.asked.filter((name) => names.includes(name)).length, 3, 'one probe, then the other two');
      for (const name of names) {
        const dropped = await row(name);
        assert.equal(dropped.status, 'dropped');
        assert.equal(dropped.dropped_at, clock.now());
      }
    });

    it('leaves a late batch to the hourly looks: every overdue check is asked, none postponed unasked', async () => {
      const { names, batch } = await inPendingDelete('late');
      clock.set(batch + 30 * MINUTE); // the 19:30 run; the batch has not run
      rdap.asked.length = 0;
      await lifecycle.recheckDue();
      assert.equal(rdap.asked.filter((name) => names.includes(name)).length, 3);
      for (const name of names) rdap.notFound(name);
      clock.set(clock.now() + HOUR);
      await lifecycle.recheckDue();
      for (const name of names) assert.equal((await row(name)).status, 'dropped');
    });

    it('stops the purge checks a run looked ahead to when the first finds the batch not run yet', async () => {
      const { names, batch } = await inPendingDelete('ahead');
      clock.set(batch - 30 * MINUTE); // the 18:30 run of the hourly job
      rdap.asked.length = 0;
      await lifecycle.recheckDue({
        deadline: Date.now() + 45 * MINUTE,
        waitUntil: async (time) => clock.set(time),
      });
      // The early probe (18:30) and the first check at 19:00 ask the same first name; no other is asked.
      const asked = rdap.asked.filter((name) => names.includes(name));
      assert.deepEqual([...new Set(asked)], [names[0]]);
      for (const name of names) assert.equal((await row(name)).status, 'pending-delete');
    });
  });
}
