import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Database, ManualClock, migrateToLatest } from '@repo/server-kit';
import { databaseTargets, openProvisioned, type ProvisionedDatabase } from '@repo/server-kit/testing';
import { migrations } from '../src/db/migrations/index.ts';
import type { DB } from '../src/db/schema.ts';
import { setAltTldDemand } from '../src/lifecycle/feed-rows.ts';
import { LifecycleService, timeOfDay } from '../src/lifecycle/index.ts';
import { changes, ScriptedRdap, whois } from './feed-helpers.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

for (const target of databaseTargets()) {
  describe(`lifecycle (${target.name})`, { skip: target.skip }, () => {
    let provisioned: ProvisionedDatabase;
    let database: Database<DB>;
    let clock: ManualClock;
    let rdap: ScriptedRdap;
    let lifecycle: LifecycleService;

    before(async () => {
      provisioned = await target.provision();
      database = openProvisioned<DB>(provisioned, { sqliteFile: 'lifecycle.sqlite' });
      await migrateToLatest(database, migrations);
      clock = new ManualClock('2026-03-10T06:00:00Z');
      rdap = new ScriptedRdap(() => clock.now());
      lifecycle = new LifecycleService(database.db, clock, rdap, {
        tlds: ['com', 'net'],
        perTldBudget: 100,
        perTldConcurrency: 2,
      });
    });
    after(async () => {
      await database.close();
      await provisioned.cleanup();
    });

    const row = (domain: string) =>
      database.db.selectFrom('feed_domains').selectAll().where('domain', '=', domain).executeTakeFirst();

    it('walks a name from the zone diff through redemption and pending delete to a verified drop', async () => {
      const diff = await lifecycle.applyZoneDiff({
        tld: 'com',
        fromDate: '2026-03-09',
        toDate: '2026-03-10',
        changes: changes(['walker.com', 'removed']),
      });
      assert.equal(diff.transitions, 1);
      assert.equal((await row('walker.com'))?.status, 'left-zone');

      rdap.status('walker.com', 'redemption period');
      let result = await lifecycle.recheckDue({ tlds: ['com'] });
      assert.deepEqual(result, { checked: 1, transitions: 1, dropped: 0, unknown: 0, skipped: 0 });
      assert.equal((await row('walker.com'))?.status, 'redemption');

      // Not due again until it must have entered pending delete, 30 days on (no batch time is
      // configured here): nothing is asked meanwhile.
      const inRedemption = await row('walker.com');
      assert.equal(inRedemption?.next_check_at, clock.now() + 30 * DAY);
      rdap.asked.length = 0;
      clock.advance(29 * DAY);
      await lifecycle.recheckDue({ tlds: ['com'] });
      assert.deepEqual(rdap.asked, []);

      clock.set(inRedemption!.next_check_at!);
      rdap.status('walker.com', 'pending delete');
      await lifecycle.recheckDue({ tlds: ['com'] });
      const pending = await row('walker.com');
      assert.equal(pending?.status, 'pending-delete');
      // Next look: just after the purge, 5 days on.
      assert.ok(pending!.next_check_at! >= clock.now() + 5 * DAY);

      clock.set(pending!.next_check_at!);
      rdap.notFound('walker.com');
      result = await lifecycle.recheckDue({ tlds: ['com'] });
      assert.equal(result.dropped, 1);
      const dropped = await row('walker.com');
      assert.equal(dropped?.status, 'dropped');
      assert.equal(dropped?.dropped_at, clock.now());
      assert.equal(dropped?.next_check_at, null);

      const history = await lifecycle.history('walker.com');
      assert.deepEqual(
        history.map((step) => [step.from, step.to, step.evidence]),
        [
          ['in-zone', 'left-zone', 'zone_removed'],
          ['left-zone', 'redemption', 'rdap_status'],
          ['redemption', 'pending-delete', 'rdap_status'],
          ['pending-delete', 'dropped', 'rdap_not_found'],
        ],
      );
    });

    it('never moves a name backwards and leaves it alone when RDAP gives no answer', async () => {
      await lifecycle.applyZoneDiff({
        tld: 'net',
        fromDate: '2026-03-09',
        toDate: '2026-03-10',
        changes: changes(['stubborn.net', 'removed'], ['flaky.net', 'removed']),
      });
      rdap.status('stubborn.net', 'pending delete');
      rdap.failing('flaky.net');
      await lifecycle.recheckDue({ tlds: ['net'] });
      assert.equal((await row('stubborn.net'))?.status, 'pending-delete');
      const flaky = await row('flaky.net');
      assert.equal(flaky?.status, 'left-zone');
      assert.equal(flaky?.check_failures, 1);
      assert.ok(flaky!.next_check_at! > clock.now());

      clock.set((await row('stubborn.net'))!.next_check_at!);
      rdap.status('stubborn.net', 'redemption period');
      rdap.asked.length = 0;
      const result = await lifecycle.recheckDue({ tlds: ['net'] });
      assert.ok(rdap.asked.includes('stubborn.net'));
      assert.equal(result.transitions, 0);
      assert.equal((await row('stubborn.net'))?.status, 'pending-delete');
    });

    it('ends the lifecycle as returned or re-registered when the name comes back', async () => {
      await lifecycle.applyZoneDiff({
        tld: 'com',
        fromDate: '2026-03-10',
        toDate: '2026-03-11',
        changes: changes(['comeback.com', 'removed'], ['restored.com', 'removed']),
      });
      rdap.status('restored.com', 'redemption period');
      await lifecycle.recheckDue({ tlds: ['com'] });
      clock.set((await row('restored.com'))!.next_check_at!);
      // The registrant paid the restore fee: registered, no deletion status.
      rdap.status('restored.com', 'client transfer prohibited');
      await lifecycle.recheckDue({ tlds: ['com'] });
      assert.equal((await row('restored.com'))?.status, 'returned');

      await lifecycle.applyZoneDiff({
        tld: 'com',
        fromDate: '2026-03-11',
        toDate: '2026-03-12',
        changes: changes(['comeback.com', 'added'], ['walker.com', 'added']),
      });
      assert.equal((await row('comeback.com'))?.status, 'returned');
      assert.equal((await row('walker.com'))?.status, 're-registered');
      const walker = await lifecycle.history('walker.com');
      assert.deepEqual(walker.at(-1)?.to, 're-registered');
    });

    it('applies a zone diff once: a re-run is a no-op and an interrupted run completes without duplicates', async () => {
      const names = Array.from({ length: 12_000 }, (_, i) => `bulk${String(i).padStart(5, '0')}.com`);
      const removals = () => changes(...names.map((name) => [name, 'removed'] as [string, 'removed']));

      // Interrupted after the first chunk of 5,000: the source fails mid-stream.
      async function* failing() {
        let count = 0;
        for await (const change of removals()) {
          if (++count > 7_000) throw new Error('connection reset');
          yield change;
        }
      }
      await assert.rejects(
        lifecycle.applyZoneDiff({ tld: 'com', fromDate: '2026-03-12', toDate: '2026-03-13', changes: failing() }),
        /connection reset/,
      );
      const resumed = await lifecycle.applyZoneDiff({
        tld: 'com',
        fromDate: '2026-03-12',
        toDate: '2026-03-13',
        changes: removals(),
      });
      assert.equal(resumed.status, 'applied');
      assert.equal(resumed.removed, 12_000);
      assert.equal(resumed.transitions, 7_000);

      const again = await lifecycle.applyZoneDiff({
        tld: 'com',
        fromDate: '2026-03-12',
        toDate: '2026-03-13',
        changes: removals(),
      });
      assert.equal(again.status, 'already_applied');

      const counted = await database.db
        .selectFrom('domain_transitions')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('domain', 'like', 'bulk%')
        .executeTakeFirstOrThrow();
      assert.equal(Number(counted.n), 12_000);
    });

    it('starts no lookup once the run is out of time, and counts no failure for it', async () => {
      await lifecycle.applyZoneDiff({
        tld: 'net',
        fromDate: '2026-03-13',
        toDate: '2026-03-14',
        changes: changes(['late-run.net', 'removed']),
      });
      rdap.asked.length = 0;
      const result = await lifecycle.recheckDue({ tlds: ['net'], deadline: Date.now() - 1 });
      assert.ok(result.skipped >= 1);
      assert.equal(result.checked, 0);
      assert.deepEqual(rdap.asked, []);
      const row = await database.db
        .selectFrom('feed_domains')
        .selectAll()
        .where('domain', '=', 'late-run.net')
        .executeTakeFirstOrThrow();
      assert.equal(row.check_failures, 0);
      assert.ok(row.next_check_at! <= clock.now());
    });

    it('re-checks the names expected to drop soonest first, within the per-TLD budget', async () => {
      const base = clock.now();
      for (const [name, sinceDaysAgo] of [
        ['late.org', 0],
        ['soon.org', 4],
        ['middle.org', 2],
      ] as const) {
        await database.db
          .insertInto('feed_domains')
          .values({
            domain: name,
            tld: 'org',
            label: name.split('.')[0]!,
            status: 'pending-delete',
            status_since: base - sinceDaysAgo * DAY,
            expected_drop_at: base + (5 - sinceDaysAgo) * DAY,
            next_check_at: base,
            length: 4,
            has_hyphen: 0,
            has_digit: 0,
            updated_at: base,
          })
          .execute();
        rdap.status(name, 'pending delete');
      }
      rdap.asked.length = 0;
      await lifecycle.recheckDue({ tlds: ['org'], perTldBudget: 2 });
      assert.deepEqual(rdap.asked, ['soon.org', 'middle.org']);
    });

    it('keeps the batch time it learned across a restart and plans from it at once', async () => {
      const base = clock.now();
      const candidate = async (name: string) => {
        await database.db
          .insertInto('feed_domains')
          .values({
            domain: name,
            tld: 'info',
            label: name.split('.')[0]!,
            status: 'redemption',
            status_since: base - 30 * DAY,
            expected_drop_at: base + 5 * DAY,
            next_check_at: base,
            length: name.length,
            has_hyphen: 0,
            has_digit: 0,
            updated_at: base,
          })
          .execute();
      };
      // Pending delete, dated by the registry's batch: 19:00 on each of the last five days.
      const pendingSince = (name: string, updated: string | null) =>
        rdap.answers.set(name, (checkedAt) => ({
          kind: 'found',
          record: { ...whois(name, ['pending delete'], checkedAt), updated_at: updated },
          raw: { registry: {}, registrar: null },
        }));
      for (let day = 1; day <= 5; day++) {
        const name = `batch${day}.info`;
        await candidate(name);
        pendingSince(name, new Date(Math.floor(base / DAY) * DAY - day * DAY + timeOfDay('19:00')).toISOString());
      }
      await lifecycle.recheckDue({ tlds: ['info'] });
      const saved = await database.db.selectFrom('rdap_batch_times').selectAll().execute();
      assert.deepEqual(
        saved.map((row) => [row.tld, Number(row.time_of_day)]),
        [['info', timeOfDay('19:00')]],
      );

      // A new process (a restart): a name seen in pending delete without a usable date is
      // planned from the learned batch, not 5 days after we saw it.
      const restarted = new LifecycleService(database.db, clock, rdap, {
        tlds: ['info'],
        perTldBudget: 100,
        perTldConcurrency: 2,
      });
      await candidate('after-restart.info');
      pendingSince('after-restart.info', null);
      await restarted.recheckDue({ tlds: ['info'] });
      const planned = await row('after-restart.info');
      assert.equal(planned?.status, 'pending-delete');
      assert.equal(planned!.next_check_at! % DAY, timeOfDay('19:00'), 'the purge look falls at the batch');
      assert.notEqual(planned!.next_check_at, base + 5 * DAY);
    });

    it('estimates the rate each registry host needs, warns once per run when it is short, and sizes `auto` budgets by it', async () => {
      const base = clock.now();
      // Two TLDs on one registry host, as .com and .net share Verisign's; their purges were 30 minutes ago.
      for (const [tld, count] of [
        ['biz', 4],
        ['us', 2],
      ] as const) {
        for (let i = 0; i < count; i++) {
          const name = `purged${i}.${tld}`;
          await database.db
            .insertInto('feed_domains')
            .values({
              domain: name,
              tld,
              label: `purged${i}`,
              status: 'pending-delete',
              status_since: base - 5 * DAY - 30 * 60_000,
              expected_drop_at: base - 30 * 60_000,
              next_check_at: base - 30 * 60_000,
              length: 7,
              has_hyphen: 0,
              has_digit: 1,
              updated_at: base,
            })
            .execute();
          rdap.notFound(name);
        }
      }
      const warnings: Array<{ fields: Record<string, unknown>; message: string }> = [];
      // 0.002 lookups/s: 7.2 an hour; six drops within the half hour left need 6 in 1800 s.
      const limited = new LifecycleService(database.db, clock, rdap, {
        tlds: ['biz', 'us'],
        perTldBudget: 'auto',
        perTldConcurrency: 2,
        registryRateOf: async () => ({ host: 'rdap.registry.example', perSecond: 0.002 }),
        log: { warn: (fields, message) => warnings.push({ fields, message }) },
      });
      rdap.asked.length = 0;
      await limited.recheckDue();
      assert.equal(warnings.length, 1, 'one warning for the host both TLDs share');
      assert.deepEqual(warnings[0]!.fields, {
        host: 'rdap.registry.example',
        tlds: ['biz', 'us'],
        needed_per_second: 0.00333,
        allowed_per_second: 0.002,
        purge_checks: 6,
      });
      assert.match(warnings[0]!.message, /rdap\.registry\.example \(\.biz, \.us\) needs ~0\.00333 lookups\/s/);
      assert.deepEqual(await limited.registryRateEstimates(), [
        {
          host: 'rdap.registry.example',
          tlds: ['biz', 'us'],
          neededPerSecond: 6 / 1800,
          allowedPerSecond: 0.002,
          purgeChecks: 6,
        },
      ]);
      // `auto`: 0.002/s over the run's hour allows ceil(7.2) = 8 lookups per TLD: all six are made.
      assert.equal(rdap.asked.length, 6);

      // At a rate that keeps up: no warning, and the estimate says so.
      warnings.length = 0;
      const ample = new LifecycleService(database.db, clock, rdap, {
        tlds: ['biz', 'us'],
        perTldBudget: 'auto',
        perTldConcurrency: 2,
        registryRateOf: async () => ({ host: 'rdap.registry.example', perSecond: 10 }),
        log: { warn: (fields, message) => warnings.push({ fields, message }) },
      });
      await ample.recheckDue();
      assert.deepEqual(warnings, []);
      const [estimate] = await ample.registryRateEstimates();
      assert.deepEqual([estimate?.neededPerSecond, estimate?.allowedPerSecond], [0, 10], 'the drops were verified');
    });

    it('sizes an `auto` budget by the registry rate over the run window', async () => {
      const base = clock.now();
      for (let i = 0; i < 5; i++) {
        const name = `budget${i}.name`;
        await database.db
          .insertInto('feed_domains')
          .values({
            domain: name,
            tld: 'name',
            label: `budget${i}`,
            status: 'redemption',
            status_since: base - 30 * DAY,
            expected_drop_at: base + 5 * DAY,
            next_check_at: base,
            length: 7,
            has_hyphen: 0,
            has_digit: 1,
            updated_at: base,
          })
          .execute();
        rdap.status(name, 'redemption period');
      }
      const slow = new LifecycleService(database.db, clock, rdap, {
        tlds: ['name'],
        perTldBudget: 'auto',
        perTldConcurrency: 2,
        registryRateOf: async () => ({ host: 'rdap.slow.example', perSecond: 0.001 }),
      });
      rdap.asked.length = 0;
      // 0.001/s over a 45-minute run: 2.7, so 3 lookups.
      await slow.recheckDue({ deadline: Date.now() + 45 * 60_000 });
      assert.equal(rdap.asked.length, 3);
    });

    it('re-stamps an unchanged alt-TLD figure without touching updated_at, and sets a changed one', async () => {
      await lifecycle.applyZoneDiff({
        tld: 'com',
        fromDate: '2026-03-20',
        toDate: '2026-03-21',
        changes: changes(['samealt.com', 'removed'], ['newalt.com', 'removed']),
      });
      await setAltTldDemand(database.db, '2026-03-21', 1000, [
        { domain: 'samealt.com', previous: null, others: 'net' },
        { domain: 'newalt.com', previous: null, others: '' },
      ]);
      assert.equal((await row('samealt.com'))?.alt_tlds, 'net', 'a first figure is set');
      await setAltTldDemand(database.db, '2026-03-22', 2000, [
        { domain: 'samealt.com', previous: 'net', others: 'net' },
        { domain: 'newalt.com', previous: '', others: 'net,org' },
      ]);
      const same = await row('samealt.com');
      assert.deepEqual(
        [same?.alt_tlds, same?.alt_tld_count, same?.alt_tlds_date, same?.updated_at],
        ['net', 1, '2026-03-22', 1000],
      );
      const changed = await row('newalt.com');
      assert.deepEqual(
        [changed?.alt_tlds, changed?.alt_tld_count, changed?.alt_tlds_date, changed?.updated_at],
        ['net,org', 2, '2026-03-22', 2000],
      );
    });

    it('asks a purge check the registry failed to answer once more at once, other checks only after the back-off', async () => {
      await lifecycle.applyZoneDiff({
        tld: 'net',
        fromDate: '2026-03-10',
        toDate: '2026-03-11',
        changes: changes(['second-try.net', 'removed'], ['waits.net', 'removed']),
      });
      rdap.status('second-try.net', 'pending delete');
      rdap.status('waits.net', 'redemption period');
      await lifecycle.recheckDue({ tlds: ['net'] });
      assert.equal((await row('second-try.net'))?.status, 'pending-delete');
      assert.equal((await row('waits.net'))?.status, 'redemption');

      // Both due again; the registry answers each one's first request with a 503.
      const due = Math.max((await row('second-try.net'))!.next_check_at!, (await row('waits.net'))!.next_check_at!);
      clock.set(due);
      const failingOnce = (domain: string, then: 'not-found' | 'redemption') => {
        let asked = 0;
        rdap.answers.set(domain, (at) => {
          asked += 1;
          if (asked === 1) return { kind: 'unknown', reason: 'upstream_error', message: '503', checkedAt: at };
          if (then === 'not-found') {
            return {
              kind: 'not_found',
              source: 'https://rdap.example',
              via: 'rdap',
              server: 'https://rdap.example/',
              checkedAt: at,
            };
          }
          return {
            kind: 'found',
            record: whois(domain, ['redemption period'], at),
            raw: { registry: {}, registrar: null },
          };
        });
      };
      failingOnce('second-try.net', 'not-found');
      failingOnce('waits.net', 'redemption');
      rdap.asked.length = 0;
      await lifecycle.recheckDue({ tlds: ['net'] });
      assert.deepEqual(
        rdap.asked.filter((name) => name === 'second-try.net'),
        ['second-try.net', 'second-try.net'],
      );
      assert.equal((await row('second-try.net'))?.status, 'dropped', 'verified in the same run');
      assert.deepEqual(
        rdap.asked.filter((name) => name === 'waits.net'),
        ['waits.net'],
      );
      const waits = await row('waits.net');
      assert.equal(waits?.check_failures, 1);
      assert.ok(waits!.next_check_at! > clock.now());
    });

    it('looks at a name out of the zone yet still registered (a registrar hold) once a week', async () => {
      await lifecycle.applyZoneDiff({
        tld: 'net',
        fromDate: '2026-03-11',
        toDate: '2026-03-12',
        changes: changes(['on-hold.net', 'removed']),
      });
      rdap.status('on-hold.net', 'client hold');
      const waits: number[] = [];
      for (let look = 0; look < 8; look++) {
        const before = await row('on-hold.net');
        clock.set(Math.max(clock.now(), before!.next_check_at!));
        await lifecycle.recheckDue({ tlds: ['net'] });
        const after = await row('on-hold.net');
        assert.equal(after?.status, 'left-zone');
        waits.push((after!.next_check_at! - clock.now()) / DAY);
      }
      assert.deepEqual(waits, [7, 7, 7, 7, 7, 7, 7, 7]);
    });

    it('makes a purge check falling due within a run with a deadline when it falls due, not at the next run', async () => {
      await lifecycle.applyZoneDiff({
        tld: 'net',
        fromDate: '2026-03-12',
        toDate: '2026-03-13',
        changes: changes(['at-the-batch.net', 'removed']),
      });
      rdap.status('at-the-batch.net', 'pending delete');
      await lifecycle.recheckDue({ tlds: ['net'] });
      const planned = (await row('at-the-batch.net'))!;
      assert.equal(planned.status, 'pending-delete');
      const purgeLook = planned.next_check_at!;
      clock.set(purgeLook - 20 * 60_000);
      rdap.notFound('at-the-batch.net');

      // Without a deadline (no window to look ahead in), the run leaves it alone.
      rdap.asked.length = 0;
      await lifecycle.recheckDue({ tlds: ['net'] });
      assert.ok(!rdap.asked.includes('at-the-batch.net'));

      // The hourly job's run (a deadline 45 minutes on) waits for it and verifies the drop at once.
      const waitedFor: number[] = [];
      const waitUntil = async (time: number) => {
        waitedFor.push(time);
        clock.set(time);
      };
      await lifecycle.recheckDue({ tlds: ['net'], deadline: Date.now() + 45 * 60_000, waitUntil });
      assert.ok(rdap.asked.includes('at-the-batch.net'));
      assert.ok(waitedFor.includes(purgeLook));
      const dropped = await row('at-the-batch.net');
      assert.equal(dropped?.status, 'dropped');
      assert.equal(dropped?.dropped_at, purgeLook);
    });
  });
}
