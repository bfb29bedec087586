import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BatchTimeLearner } from '../src/lifecycle/batch-time-learner.ts';
import {
  batchAtOrAfter,
  type DeletionTimeline,
  planDropLookups,
  STANDARD_TIMELINE,
  statusSince,
  timeOfDay,
} from '../src/lifecycle/drop-plan.ts';
import { neededRate } from '../src/lifecycle/registry-rate-plan.ts';
import type { RdapLookup } from '../src/rdap/types.ts';
import { whois } from './feed-helpers.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const BATCH = timeOfDay('19:00');
const at = (iso: string) => Date.parse(iso);
const AT_19: DeletionTimeline = { ...STANDARD_TIMELINE, batchTimeOfDay: BATCH };

describe('drop plan', () => {
  it('finds the next run of a daily batch', () => {
    assert.equal(batchAtOrAfter(at('2026-03-10T18:00:00Z'), BATCH), at('2026-03-10T19:00:00Z'));
    assert.equal(batchAtOrAfter(at('2026-03-10T19:00:00Z'), BATCH), at('2026-03-10T19:00:00Z'));
    assert.equal(batchAtOrAfter(at('2026-03-10T19:01:00Z'), BATCH), at('2026-03-11T19:00:00Z'));
  });

  it('plans one look just after the batch that starts pending delete, and one just after the purge', () => {
    const deleted = at('2026-03-01T21:15:00Z');
    const redemption = planDropLookups({
      status: 'redemption',
      since: deleted,
      now: at('2026-03-02T06:30:00Z'),
      timeline: AT_19,
    });
    assert.equal(redemption.nextCheckAt, at('2026-04-01T19:00:00Z'));
    assert.equal(redemption.expectedDropAt, at('2026-04-06T19:00:00Z'));

    const pending = planDropLookups({
      status: 'pending-delete',
      since: at('2026-04-01T19:00:00Z'),
      now: at('2026-04-01T19:30:00Z'),
      timeline: AT_19,
    });
    assert.deepEqual(pending, {
      expectedDropAt: at('2026-04-06T19:00:00Z'),
      // The batch time without an observed spread: an hour either side (drop-forecasts.test.ts has the rest).
      earliest: at('2026-04-06T18:00:00Z'),
      latest: at('2026-04-06T20:00:00Z'),
      nextCheckAt: at('2026-04-06T19:00:00Z'),
    });
  });

  it('looks again after the next batch, or hourly, when the registry runs late', () => {
    const lateRedemption = planDropLookups({
      status: 'redemption',
      since: at('2026-03-01T21:15:00Z'),
      now: at('2026-04-01T19:30:00Z'),
      timeline: AT_19,
    });
    assert.equal(lateRedemption.nextCheckAt, at('2026-04-02T19:00:00Z'));
    const latePurge = planDropLookups({
      status: 'pending-delete',
      since: at('2026-04-01T19:00:00Z'),
      now: at('2026-04-06T19:30:00Z'),
      timeline: AT_19,
    });
    assert.equal(latePurge.nextCheckAt, at('2026-04-06T20:30:00Z'));
  });

  it('looks at a name out of the zone and still registered (a hold) once a week', () => {
    const left = at('2026-03-01T06:00:00Z');
    const next = (daysHeld: number) => {
      const now = left + daysHeld * DAY;
      return (planDropLookups({ status: 'left-zone', since: left, now, timeline: AT_19 }).nextCheckAt - now) / DAY;
    };
    assert.deepEqual([0, 1, 7, 40].map(next), [7, 7, 7, 7]);
    // A name held 30 days: looked at on days 0, 7, 14, 21, 28 (5 looks), not 30.
    let looks = 0;
    for (
      let now = left;
      now < left + 30 * DAY;
      now = planDropLookups({ status: 'left-zone', since: left, now, timeline: AT_19 }).nextCheckAt
    )
      looks += 1;
    assert.equal(looks, 5);
  });

  it("plans the purge on the fifth day's batch after a name entered pending delete, even when that batch ran late", () => {
    // The batch of 1 March ran at 20:30 instead of 19:00: the purge is on 6 March at 19:00, not 7 March.
    const plan = planDropLookups({
      status: 'pending-delete',
      since: at('2026-03-01T20:30:00Z'),
      now: at('2026-03-01T21:30:00Z'),
      timeline: AT_19,
    });
    assert.equal(plan.nextCheckAt, at('2026-03-06T19:00:00Z'));
    assert.equal(plan.expectedDropAt, at('2026-03-06T19:00:00Z'));
  });

  it('without a batch time looks when the timeline says, then every 6 hours, and polls an overdue purge hourly', () => {
    const since = at('2026-03-01T21:15:00Z');
    const redemption = planDropLookups({ status: 'redemption', since, now: since, timeline: STANDARD_TIMELINE });
    assert.equal(redemption.nextCheckAt, since + 30 * DAY);
    const late = planDropLookups({ status: 'redemption', since, now: since + 30 * DAY, timeline: STANDARD_TIMELINE });
    assert.equal(late.nextCheckAt, since + 30 * DAY + 6 * HOUR);
    const pending = planDropLookups({ status: 'pending-delete', since, now: since, timeline: STANDARD_TIMELINE });
    assert.equal(pending.expectedDropAt, since + 5 * DAY);
    const overdue = planDropLookups({
      status: 'pending-delete',
      since,
      now: since + 5 * DAY + HOUR,
      timeline: STANDARD_TIMELINE,
    });
    assert.equal(overdue.nextCheckAt, since + 5 * DAY + 2 * HOUR);
  });

  it("takes the registry's last-changed date when plausible, else the batch or when we saw it", () => {
    const now = at('2026-04-01T19:30:00Z');
    const found = (updated: string | null): RdapLookup => ({
      kind: 'found',
      record: { ...whois('x.com', ['pending delete'], new Date(now).toISOString()), updated_at: updated },
      raw: { registry: {}, registrar: null },
    });
    const since = (lookup: RdapLookup, timeline: DeletionTimeline) =>
      statusSince({ lookup, status: 'pending-delete', seenSince: now, now, timeline });
    assert.equal(since(found('2026-04-01T19:00:00Z'), AT_19), at('2026-04-01T19:00:00Z'));
    // In the future, or older than pending delete lasts: not believed.
    assert.equal(since(found('2026-04-02T19:00:00Z'), AT_19), at('2026-04-01T19:00:00Z'));
    assert.equal(since(found('2026-01-01T00:00:00Z'), STANDARD_TIMELINE), now);
    assert.equal(since(found(null), STANDARD_TIMELINE), now);
  });

  it("learns a registry's batch time once its pending-delete dates agree", () => {
    const learner = new BatchTimeLearner();
    for (let day = 1; day <= 4; day++) learner.observe('com', at(`2026-04-0${day}T19:00:00Z`) + day * 1000);
    assert.equal(learner.batchTimeOf('com'), null, 'too few yet');
    learner.observe('com', at('2026-04-05T19:02:00Z'));
    assert.equal(learner.batchTimeOf('com'), timeOfDay('19:02'));
    assert.equal(learner.batchTimeOf('net'), null);
    learner.observe('com', at('2026-04-06T03:00:00Z'));
    assert.equal(learner.batchTimeOf('com'), timeOfDay('19:02'), 'a stray date teaches nothing');
    for (let day = 7; day <= 11; day++) learner.observe('com', at(`2026-04-${String(day).padStart(2, '0')}T21:00:00Z`));
    assert.equal(learner.batchTimeOf('com'), timeOfDay('21:00'), 'five dates that agree on another time move it');
  });

  it('plans from a time learned before a restart until the answers agree on another', () => {
    const learner = new BatchTimeLearner();
    learner.remember('com', timeOfDay('19:00'));
    assert.equal(learner.batchTimeOf('com'), timeOfDay('19:00'));
    for (let day = 1; day <= 5; day++) learner.observe('com', at(`2026-04-0${day}T20:00:00Z`));
    learner.remember('com', timeOfDay('19:00'));
    assert.equal(learner.batchTimeOf('com'), timeOfDay('20:00'), 'what this process learned wins');
  });

  it('needs the rate that verifies every due purge within an hour of it, in the run order', () => {
    const now = at('2026-04-06T19:30:00Z');
    const purge = at('2026-04-06T19:00:00Z');
    const purges = (count: number, expectedDropAt = purge) =>
      Array.from({ length: count }, () => ({ expectedDropAt, purgeCheck: true }));
    // The .com purge run: 80,000 drops purged at 19:00, the run at 19:30, half an hour left.
    assert.equal(neededRate(purges(80_000), now).toFixed(1), '44.4');
    // A purge more than an hour old takes its place in the queue but sets no pace.
    const late = purges(100, purge - 2 * HOUR);
    assert.equal(neededRate([...late, ...purges(1_700)], now), 1_800 / 1_800);
    // Checks that are not purges (their drop is not due yet) set no pace either.
    assert.equal(neededRate([{ expectedDropAt: now, purgeCheck: false }], now), 0);
    // A run that ends before the hour is up must make them within the run.
    assert.equal(neededRate(purges(900), now, now + 15 * MINUTE), 1);
    // The run at 18:30 looks ahead to the 19:00 purge: its checks are made from 19:00, so the
    // .com purge needs 80,000 in the hour from then (22.2/s), not in the 90 minutes from 18:30.
    const before = at('2026-04-06T18:30:00Z');
    const ahead = Array.from({ length: 80_000 }, () => ({ expectedDropAt: purge, purgeCheck: true, dueAt: purge }));
    assert.equal(neededRate(ahead, before).toFixed(1), '22.2');
  });
});
