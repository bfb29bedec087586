import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Database, ManualClock, migrateToLatest } from '@repo/server-kit';
import { databaseTargets, openProvisioned, type ProvisionedDatabase } from '@repo/server-kit/testing';
import { migrations } from '../src/db/migrations/index.ts';
import type { DB } from '../src/db/schema.ts';
import { type FeedRowData, toFeedRecord } from '../src/feed/feed-row.ts';
import {
  BatchCalendar,
  batchSpread,
  dropWindow,
  LifecycleService,
  STANDARD_TIMELINE,
  summariseErrors,
  timeOfDay,
} from '../src/lifecycle/index.ts';
import { feedRow, ScriptedRdap, whois } from './feed-helpers.ts';
import { bearer, createTestApp, quotaStoreVariants, type TestApp } from './helpers.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

describe('drop windows', () => {
  const purge = Date.parse('2026-03-15T19:00:00Z');
  const at19 = { ...STANDARD_TIMELINE, batchTimeOfDay: timeOfDay('19:00') };

  it('span the observed batch spread, widened by the 10-minute margin', () => {
    const days = [
      { day: '2026-03-08', firstAt: Date.parse('2026-03-08T18:55:00Z'), lastAt: Date.parse('2026-03-08T19:04:00Z') },
      { day: '2026-03-09', firstAt: Date.parse('2026-03-09T19:00:00Z'), lastAt: Date.parse('2026-03-09T19:08:00Z') },
      // A name moved by hand at noon is no part of the batch's spread.
      { day: '2026-03-10', firstAt: Date.parse('2026-03-10T12:00:00Z'), lastAt: Date.parse('2026-03-10T19:01:00Z') },
    ];
    const spread = batchSpread(days, timeOfDay('19:00'));
    assert.deepEqual(spread, { early: -5 * MINUTE, late: 8 * MINUTE });
    assert.deepEqual(dropWindow(purge, { ...at19, batchSpread: spread }), {
      earliest: purge - 15 * MINUTE,
      latest: purge + 18 * MINUTE,
    });
  });

  it('wrap around midnight', () => {
    const days = [
      { day: '2026-03-09', firstAt: Date.parse('2026-03-09T23:56:00Z'), lastAt: Date.parse('2026-03-10T00:03:00Z') },
    ];
    assert.deepEqual(batchSpread(days, 0), { early: -4 * MINUTE, late: 3 * MINUTE });
  });

  it('fall back to an hour either side without an observed spread, half a day without a batch time', () => {
    assert.equal(batchSpread([], timeOfDay('19:00')), null);
    assert.deepEqual(dropWindow(purge, at19), { earliest: purge - HOUR, latest: purge + HOUR });
    assert.deepEqual(dropWindow(purge, STANDARD_TIMELINE), { earliest: purge - 12 * HOUR, latest: purge + 12 * HOUR });
  });

  it('are shown on pending-delete rows only', () => {
    const row: FeedRowData = {
      domain: 'soon.com',
      tld: 'com',
      status: 'pending-delete',
      dropped_at: null,
      first_archived_at: null,
      alt_tld_count: null,
      alt_tlds: null,
      da: null,
      tf: null,
      length: 4,
      has_hyphen: 0,
      has_digit: 0,
      verified_at: null,
      expected_drop_at: purge,
      zone_date: null,
      expected_drop_earliest: purge - HOUR,
      expected_drop_latest: purge + HOUR,
    };
    const record = toFeedRecord(row, purge - DAY);
    assert.equal(record.expected_drop_earliest, '2026-03-15T18:00:00.000Z');
    assert.equal(record.expected_drop_latest, '2026-03-15T20:00:00.000Z');
    const redemption = toFeedRecord({ ...row, status: 'redemption' }, purge - DAY);
    assert.deepEqual([redemption.expected_drop_earliest, redemption.expected_drop_latest], [null, null]);
  });

  it('summarise their error as minutes early and late and the share inside the window', () => {
    const at = (minutes: number, inside = true) => ({
      expectedAt: purge,
      earliest: inside ? purge - HOUR : purge,
      latest: inside ? purge + HOUR : purge,
      droppedAt: purge + minutes * MINUTE,
    });
    assert.deepEqual(summariseErrors([at(-4), at(-2), at(0), at(3), at(5), at(90, false)]), {
      drops: 6,
      early: { count: 2, p50Minutes: 2, p90Minutes: 4 },
      late: { count: 4, p50Minutes: 3, p90Minutes: 90 },
      insideWindowShare: 0.833,
    });
    assert.deepEqual(summariseErrors([]), {
      drops: 0,
      early: { count: 0, p50Minutes: null, p90Minutes: null },
      late: { count: 0, p50Minutes: null, p90Minutes: null },
      insideWindowShare: null,
    });
  });
});

for (const target of databaseTargets()) {
  describe(`drop forecasts (${target.name})`, { skip: target.skip }, () => {
    let provisioned: ProvisionedDatabase;
    let database: Database<DB>;
    let clock: ManualClock;
    let rdap: ScriptedRdap;
    let lifecycle: LifecycleService;

    before(async () => {
      provisioned = await target.provision();
      database = openProvisioned<DB>(provisioned, { sqliteFile: 'drop-forecasts.sqlite' });
      await migrateToLatest(database, migrations);
      clock = new ManualClock('2026-03-10T06:00:00Z');
      rdap = new ScriptedRdap(() => clock.now());
      lifecycle = new LifecycleService(database.db, clock, rdap, {
        tlds: ['org'],
        perTldBudget: 100,
        perTldConcurrency: 2,
        batchTimes: { org: timeOfDay('19:00') },
        probeBatches: false,
      });
    });
    after(async () => {
      await database.close();
      await provisioned.cleanup();
    });

    const row = (domain: string) =>
      database.db.selectFrom('feed_domains').selectAll().where('domain', '=', domain).executeTakeFirstOrThrow();

    it('publishes a window from the calendar, records the forecast published before the drop once, and reports its error', async () => {
      const today = Math.floor(clock.now() / DAY) * DAY;
      // Yesterday's batch moved names between 18:57 and 19:06.
      await new BatchCalendar(database.db).record([
        { tld: 'org', at: today - DAY + timeOfDay('18:57') },
        { tld: 'org', at: today - DAY + timeOfDay('19:06') },
      ]);
      await database.db
        .insertInto('feed_domains')
        .values(
          feedRow('forecast.org', {
            status: 'redemption',
            dropped_at: null,
            status_since: clock.now() - 30 * DAY,
            expected_drop_at: clock.now() + 5 * DAY,
            next_check_at: clock.now(),
          }),
        )
        .execute();
      // The registry moved it to pending delete at yesterday's batch.
      rdap.answers.set('forecast.org', (checkedAt) => ({
        kind: 'found',
        record: {
          ...whois('forecast.org', ['pending delete'], checkedAt),
          updated_at: new Date(today - DAY + timeOfDay('19:00')).toISOString(),
        },
        raw: { registry: {}, registrar: null },
      }));
      await lifecycle.recheckDue({ tlds: ['org'] });
      const pending = await row('forecast.org');
      const purge = today - DAY + 5 * DAY + timeOfDay('19:00');
      assert.equal(pending.status, 'pending-delete');
      assert.equal(Number(pending.expected_drop_at), purge);
      assert.equal(Number(pending.expected_drop_earliest), purge - 13 * MINUTE);
      assert.equal(Number(pending.expected_drop_latest), purge + 16 * MINUTE);

      // Verified 4 minutes after the forecast: inside the window, 4 minutes late.
      clock.set(purge + 4 * MINUTE);
      rdap.notFound('forecast.org');
      assert.equal((await lifecycle.recheckDue({ tlds: ['org'] })).dropped, 1);
      await lifecycle.recheckDue({ tlds: ['org'] });
      const recorded = await database.db.selectFrom('drop_forecasts').selectAll().execute();
      assert.deepEqual(
        recorded.map((forecast) => [
          forecast.domain,
          forecast.tld,
          Number(forecast.expected_at),
          Number(forecast.earliest_at),
          Number(forecast.latest_at),
          Number(forecast.dropped_at),
        ]),
        [['forecast.org', 'org', purge, purge - 13 * MINUTE, purge + 16 * MINUTE, purge + 4 * MINUTE]],
      );

      const report = await lifecycle.dropReport('org');
      assert.equal(report.batchTimeOfDay, timeOfDay('19:00'));
      assert.equal(report.batchTimeSource, 'configured');
      assert.deepEqual(report.calendar, [
        {
          day: new Date(today - DAY).toISOString().slice(0, 10),
          firstAt: today - DAY + timeOfDay('18:57'),
          lastAt: today - DAY + timeOfDay('19:06'),
        },
      ]);
      assert.deepEqual(report.error, {
        drops: 1,
        early: { count: 0, p50Minutes: null, p90Minutes: null },
        late: { count: 1, p50Minutes: 4, p90Minutes: 4 },
        insideWindowShare: 1,
      });
    });

    it('keeps the earliest and latest time of each calendar day', async () => {
      const calendar = new BatchCalendar(database.db);
      const day = Date.parse('2026-02-01T00:00:00Z');
      await calendar.record([{ tld: 'net', at: day + timeOfDay('19:02') }]);
      await calendar.record([
        { tld: 'net', at: day + timeOfDay('18:59') },
        { tld: 'net', at: day + timeOfDay('19:01') },
      ]);
      await calendar.record([{ tld: 'net', at: day + timeOfDay('19:09') }]);
      const days = await calendar.days(['net'], day);
      assert.deepEqual(days.get('net'), [
        { day: '2026-02-01', firstAt: day + timeOfDay('18:59'), lastAt: day + timeOfDay('19:09') },
      ]);
    });
  });
}

for (const variant of quotaStoreVariants(databaseTargets())) {
  describe(`GET /v1/tlds/{tld}/drops (${variant.name})`, { skip: variant.skip }, () => {
    let t: TestApp;
    let key: string;
    const get = (path: string, headers = bearer(key)) => t.app.inject({ url: path, headers });

    before(async () => {
      t = await createTestApp({ target: variant.target, redis: variant.redis, env: { TRACKED_TLDS: 'com,net' } });
      key = await t.keyFor('free');
      const now = t.clock.now();
      await t.app.ctx.database.db
        .insertInto('drop_forecasts')
        .values(
          [-3, 2, 6, 45].map((minutes, i) => ({
            domain: `gone${i}.com`,
            tld: 'com',
            expected_at: now - DAY,
            earliest_at: now - DAY - 15 * MINUTE,
            latest_at: now - DAY + 15 * MINUTE,
            dropped_at: now - DAY + minutes * MINUTE,
          })),
        )
        .execute();
    });
    after(async () => t.close());

    it('answers the batch calendar and the forecast error of the last 30 days, without counting', async () => {
      const response = await get('/v1/tlds/.COM/drops');
      assert.equal(response.statusCode, 200, response.body);
      const { data } = response.json();
      assert.equal(data.tld, 'com');
      assert.equal(data.drop_feed, true);
      assert.deepEqual(data.calendar, []);
      assert.deepEqual(data.forecast_error.early, { count: 1, p50_minutes: 3, p90_minutes: 3 });
      assert.deepEqual(data.forecast_error.late, { count: 3, p50_minutes: 6, p90_minutes: 45 });
      assert.equal(data.forecast_error.drops, 4);
      assert.equal(data.forecast_error.inside_window_share, 0.75);
      const quota = await get('/v1/quota');
      assert.equal(quota.json().data.used, 0, 'not counted against the quota');
    });

    it('answers drop_feed false and no drops for a TLD the feed does not track', async () => {
      const response = await get('/v1/tlds/org/drops');
      assert.equal(response.statusCode, 200, response.body);
      assert.equal(response.json().data.drop_feed, false);
      assert.equal(response.json().data.forecast_error.drops, 0);
    });

    it('refuses an unknown TLD with tld_not_found and a request without a key with 401', async () => {
      const unknown = await get('/v1/tlds/nosuchtld/drops');
      assert.equal(unknown.statusCode, 404);
      assert.equal(unknown.json().error.code, 'tld_not_found');
      const anonymous = await t.app.inject({ url: '/v1/tlds/com/drops' });
      assert.equal(anonymous.statusCode, 401);
    });
  });
}
