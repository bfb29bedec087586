/**
 * The lifecycle's RDAP plan at `.com` churn: the production lifecycle (zone evidence at the daily
 * job, `recheckDue` at every hourly run, the real HTTP RDAP client) against the upstream
 * simulator's registry with deletion churn — names leaving the zone at random times of day, a
 * quarter of them on a registrar hold first (registered in RDAP, deleted 3–30 days later), the
 * others deleted at once (redemption), a fifth restored within redemption (never drop), the rest
 * moved to pending delete after 30 days and purged after 5 more by the registry's daily batch at
 * 19:00 UTC, which on 15 % of days runs up to 2 h late or early; 2 % of RDAP answers are 503 and
 * 0.2 % never come (a timeout) — on a manual clock, over a 36-day warm-up (the pipeline fills) and
 * 40 measured days. One run measures the plan at the shipped default rate (what
 * RDAP_HOST_RATES / RDAP_HOST_RATE_PER_SECOND give rdap.verisign.com) and at 50/s.
 *
 * The registry's rate limit is played in simulated time: each lookup starts 1/limit seconds
 * after the previous one at the earliest (as the client's per-host limiter paces them in real
 * time), and each hourly run may start at most an hour's worth of lookups at that limit.
 *
 * Scale: BENCH_RDAP_PLAN_SCALE (default 0.002) of `.com`'s 100,000 deletions a day, with the
 * registry limits (BENCH_RDAP_PLAN_LIMITS, default `default,50` lookups/s at `.com` scale) scaled
 * alike, so every ratio holds at full scale. BENCH_RDAP_PLAN_BATCH_TIME=unknown leaves the registry's batch
 * time out of the configuration (RDAP_PURGE_TIMES). Figures, per limit: lookups per verified drop
 * (target ≤ 4, floor 1), share of drops verified within an hour of their purge (target ≥ 0.99; at
 * a limit below the purge's own need, against what the limit allows: the lookups an hour holds over
 * the day's purges), and the peak request
 * rate (one over the shortest gap between two lookups) and the busiest hour's rate against the
 * limit (≤ 1), and the plan's own estimate of the rate it needs (what it warns about and exports as
 * domain_intel_rdap_plan_needed_rate) against the limit (≤ 1 when the limit suffices). Beside them, the
 * same names under the former schedule (a look a day while the drop is far, every 6 h within two
 * days of it, hourly within 12 h: `nextCheckAt`, which the watchlist still uses), counted from
 * the same events without any budget or rate limit — the baseline's best case.
 */
import { loadavg } from 'node:os';
import { createDatabase, ManualClock, migrateToLatest } from '@repo/server-kit';
import { DeletionChurn, type DeletionEvent, SimWorld, startUpstreamSim } from '@repo/upstream-sim';
import { loadDomainIntelConfig } from 'domain-intel/src/config.ts';
import { migrations } from 'domain-intel/src/db/migrations/index.ts';
import type { DB } from 'domain-intel/src/db/schema.ts';
import { recheckSettings } from 'domain-intel/src/jobs/pipeline-services.ts';
import {
  expectedDropAt,
  LifecycleService,
  nextCheckAt,
  type PipelineStatus,
  timeOfDay,
  type ZoneChange,
} from 'domain-intel/src/lifecycle/index.ts';
import { createRdapEngine } from 'domain-intel/src/rdap/engine.ts';
import type { RdapClient, RdapLookupOptions } from 'domain-intel/src/rdap/types.ts';
import { benchDatabase } from './lib/bench-database.ts';
import { report } from './lib/harness.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const START = Date.parse('2026-01-01T00:00:00Z');
const WARM_UP_DAYS = 36;
const MEASURED_DAYS = 40;
const PURGE_TIME = '19:00';

/** The churn the plan meets (see the header): holds, off-time batches, errors and timeouts. */
const CHURN = {
  restoreRate: 0.2,
  holdRate: 0.25,
  holdDays: [3, 30] as const,
  offTimeBatchRate: 0.15,
  offTimeBatchMaxMinutes: 120,
};
const ERROR_SHARE = 0.02;
const HANG_SHARE = 0.002;

async function main(): Promise<void> {
  const scale = Number(process.env.BENCH_RDAP_PLAN_SCALE ?? 0.002);
  const shipped = shippedComRate();
  const limits = (process.env.BENCH_RDAP_PLAN_LIMITS ?? 'default,50')
    .split(',')
    .map((limit) =>
      limit.trim() === 'default'
        ? { comLimit: shipped, label: 'default-rate' }
        : { comLimit: Number(limit), label: `${limit.trim()}-per-s` },
    );
  for (const { comLimit, label } of limits) {
    // The 50/s rows keep the names they always had, so RESULTS.md replaces them.
    await simulate(scale, comLimit, comLimit === 50 ? '' : `-${label}`);
  }
}

/** What the shipped configuration allows at .com's RDAP host: RDAP_HOST_RATES for it, else RDAP_HOST_RATE_PER_SECOND. */
function shippedComRate(): number {
  const config = loadDomainIntelConfig({ NODE_ENV: 'test' });
  return config.RDAP_HOST_RATES['rdap.verisign.com'] ?? config.RDAP_HOST_RATE_PER_SECOND;
}

async function simulate(scale: number, comLimit: number, suffix: string): Promise<void> {
  const limitPerSecond = comLimit * scale;
  const deletedPerDay = Math.round(100_000 * scale);
  const batchKnown = process.env.BENCH_RDAP_PLAN_BATCH_TIME !== 'unknown';
  console.log(`\n--- limit ${comLimit}/s at .com scale (${limitPerSecond}/s here)`);

  const world = new SimWorld(START);
  const events: DeletionEvent[] = [];
  const churn = new DeletionChurn(
    world,
    { seed: 13, deletedPerDay, batchTimeOfDay: timeOfDay(PURGE_TIME), ...CHURN },
    (event) => events.push(event),
  );
  const sim = await startUpstreamSim({ world });
  sim.rdap.setFaults('verisign', { errorShare: ERROR_SHARE, hangShare: HANG_SHARE });
  const database = await benchDatabase('sqlite');
  const config = loadDomainIntelConfig({
    NODE_ENV: 'production',
    ...database.env,
    TRACKED_TLDS: 'com',
    RDAP_BOOTSTRAP_URL: `${sim.url}/rdap/bootstrap/dns.json`,
    RDAP_ALLOW_INSECURE: '1',
    // The registry's limit is played in simulated time below; the real-time limiter must not add to it.
    RDAP_HOST_RATE_PER_SECOND: '10000',
    RDAP_HOST_CONCURRENCY: '16',
    // A request the registry never answers costs this much real time, not the default 5 s.
    RDAP_REQUEST_TIMEOUT_MS: '1000',
    RDAP_RECHECKS_PER_TLD: String(Math.floor(limitPerSecond * 3600)),
    ...(batchKnown ? { RDAP_PURGE_TIMES: JSON.stringify({ com: PURGE_TIME }) } : {}),
  });
  const clock = new ManualClock(START);
  const engine = createRdapEngine(config, clock, () => {});
  const db = createDatabase<DB>({ dataDir: database.dataDir, sqliteFile: 'rdap-plan.sqlite' });
  await migrateToLatest(db, migrations);

  // The registry's rate limit, in simulated time; each lookup remembered with its name.
  const lookupsAt: number[] = [];
  const lookedAt: { name: string; at: number }[] = [];
  const paced: RdapClient = {
    lookupDomain(name: string, options: RdapLookupOptions) {
      const at = Math.max(clock.now(), (lookupsAt.at(-1) ?? 0) + 1000 / limitPerSecond);
      clock.set(at);
      churn.advanceTo(at);
      lookupsAt.push(at);
      lookedAt.push({ name, at });
      return engine.lookupDomain(name, options);
    },
  };
  // The plan's own estimate of the rate the registry needs (what the service warns about and
  // exports as domain_intel_rdap_plan_needed_rate), against the limit played here.
  const warnings: number[] = [];
  const moveTo = (time: number) => {
    if (clock.now() < time) clock.set(time);
    churn.advanceTo(clock.now());
  };
  const lifecycle = new LifecycleService(db.db, clock, paced, {
    ...recheckSettings(config),
    registryRateOf: async () => ({ host: 'verisign', perSecond: limitPerSecond }),
    log: { warn: () => warnings.push(clock.now()) },
    // As the hourly job's deadline gives a run (its 45 minutes): purge checks falling due within
    // them are made when they fall due, the wait played on the manual clock.
    lookAheadMs: 45 * MINUTE,
    probeBatches: process.env.BENCH_RDAP_PLAN_PROBE !== '0',
    waitUntil: async (time) => moveTo(time),
  });
  let neededPeak = 0;

  const started = performance.now();
  const end = START + (WARM_UP_DAYS + MEASURED_DAYS) * DAY;
  let applied = 0;
  const outOfZone = new Set<string>();
  for (let hour = START; hour < end; hour += HOUR) {
    if ((hour - START) % DAY === 6 * HOUR && hour > START + DAY) {
      // The daily job at 06:00: the diff of today's 00:00 zone snapshot against yesterday's.
      moveTo(hour);
      const snapshot = hour - 6 * HOUR;
      const zoneChange = new Map<string, 'removed' | 'added'>();
      while (applied < events.length && events[applied]!.at < snapshot) {
        const event = events[applied++]!;
        // A name leaves the zone once: on hold, or at its deletion when it was not held.
        if ((event.kind === 'held' || event.kind === 'deleted') && !outOfZone.has(event.name)) {
          outOfZone.add(event.name);
          zoneChange.set(event.name, 'removed');
        } else if (event.kind === 'restored') {
          outOfZone.delete(event.name);
          if (zoneChange.get(event.name) === 'removed') zoneChange.delete(event.name);
          else zoneChange.set(event.name, 'added');
        } else if (event.kind === 'purged') outOfZone.delete(event.name);
      }
      const changes: ZoneChange[] = [...zoneChange].map(([name, change]) => ({ name, change }));
      await lifecycle.applyZoneDiff({
        tld: 'com',
        fromDate: new Date(snapshot - DAY).toISOString().slice(0, 10),
        toDate: new Date(snapshot).toISOString().slice(0, 10),
        changes: (async function* () {
          yield* changes;
        })(),
      });
    }
    moveTo(hour + 30 * MINUTE);
    await lifecycle.recheckDue();
    if (hour >= START + WARM_UP_DAYS * DAY) {
      const [estimate] = await lifecycle.registryRateEstimates();
      neededPeak = Math.max(neededPeak, estimate?.neededPerSecond ?? 0);
    }
    const day = Math.floor((hour - START) / DAY);
    if ((hour - START) % DAY === 23 * HOUR && day % 10 === 9) {
      console.log(
        `day ${day + 1}: ${lookupsAt.length} lookups, ${((performance.now() - started) / 1000).toFixed(0)} s, load ${loadavg()[0]!.toFixed(2)}`,
      );
    }
  }

  const from = START + WARM_UP_DAYS * DAY;
  const purges = events.filter((event) => event.kind === 'purged' && event.at >= from && event.at < end);
  const rows = await db.db
    .selectFrom('feed_domains')
    .select(['domain', 'status', 'dropped_at'])
    .where('dropped_at', '>=', from)
    .where('dropped_at', '<', end)
    .execute();
  const droppedAt = new Map(rows.map((row) => [row.domain, row.dropped_at!]));
  const verified = rows.length;
  const withinHour = purges.filter((purge) => {
    const at = droppedAt.get(purge.name);
    return at !== undefined && at - purge.at <= HOUR;
  }).length;
  const lookups = lookupsAt.filter((at) => at >= from && at < end);
  // Lookups at names on a registrar hold (out of the zone, not yet deleted): what holds cost.
  const heldUntil = new Map<string, number>();
  for (const event of events) if (event.kind === 'held') heldUntil.set(event.name, Number.POSITIVE_INFINITY);
  for (const event of events)
    if (event.kind === 'deleted' && heldUntil.has(event.name)) heldUntil.set(event.name, event.at);
  const holdLookups = lookedAt.filter(
    ({ name, at }) => at >= from && at < end && at < (heldUntil.get(name) ?? Number.NEGATIVE_INFINITY),
  ).length;
  const shortestGap = lookups
    .slice(1)
    .reduce((gap, at, i) => Math.min(gap, at - lookups[i]!), Number.POSITIVE_INFINITY);
  const peakInstant = 1000 / shortestGap;
  const peakHour = peakIn(lookups, HOUR) / 3600;
  // What the limit allows at best: an hour of lookups at it over the purges of a day.
  const purgesPerDay = purges.length / MEASURED_DAYS;
  const allowedShare = Math.min(1, (limitPerSecond * 3600) / purgesPerDay);
  const withinHourShare = withinHour / purges.length;
  const former = formerSchedule(events, from, end);
  const load = loadavg()[0]!.toFixed(2);
  const details = {
    scale,
    batch_time: batchKnown ? PURGE_TIME : 'unknown',
    deleted_per_day: deletedPerDay,
    purged: purges.length,
    verified_drops: verified,
    lookups: lookups.length,
    hold_lookups: holdLookups,
    limit_per_s: limitPerSecond,
    com_limit_per_s: comLimit,
    wall_s: (performance.now() - started) / 1000,
    load1: load,
  };
  report({
    name: `rdap-plan-lookups-per-drop${suffix}`,
    ratio: lookups.length / verified / 4,
    target: '<= 1',
    details,
  });
  report({
    name: `rdap-plan-verified-within-hour${suffix}`,
    ratio: withinHourShare / 0.99,
    target: '>= 1',
    details: { ...details, within_hour_share: withinHourShare, allowed_share: allowedShare },
  });
  if (allowedShare < 1) {
    report({
      name: `rdap-plan-verified-within-hour-of-allowed${suffix}`,
      ratio: withinHourShare / allowedShare / 0.9,
      target: '>= 1',
      details: { within_hour_share: withinHourShare, allowed_share: allowedShare, load1: load },
    });
  }
  report({
    name: `rdap-plan-lookups-per-drop-vs-former${suffix}`,
    ratio: lookups.length / verified / (former.lookups / former.drops),
    target: '< 1',
    details: {
      former_lookups: former.lookups,
      former_drops: former.drops,
      former_within_hour: former.withinHour,
      load1: load,
    },
  });
  report({ name: `rdap-plan-peak-rate${suffix}`, ratio: peakInstant / limitPerSecond, target: '<= 1', details });
  // The plan's own estimate of the rate it needs, over the limit: at a limit that verifies the
  // drops in time it stays under 1 (no warning); at one that does not, it is over 1 and warns.
  report({
    name: `rdap-plan-estimated-need-vs-limit${suffix}`,
    ratio: neededPeak / limitPerSecond,
    target: '<= 1',
    details: {
      needed_peak_per_s: neededPeak,
      com_needed_peak_per_s: neededPeak / scale,
      warning_runs: warnings.filter((at) => at >= START + WARM_UP_DAYS * DAY).length,
      load1: load,
    },
  });
  report({
    name: `rdap-plan-busiest-hour-rate${suffix}`,
    ratio: peakHour / limitPerSecond,
    target: '<= 1',
    details,
  });
  console.log(
    `limit ${comLimit}/s at .com scale: lookups per verified drop ${(lookups.length / verified).toFixed(2)} (target 4, floor 1; ${holdLookups} at held names); ` +
      `${(100 * withinHourShare).toFixed(2)} % of ${purges.length} purges verified within an hour (the limit allows ${(100 * allowedShare).toFixed(1)} %); ` +
      `peak ${peakInstant.toFixed(3)}/s between two lookups, ${peakHour.toFixed(3)}/s over the busiest hour, limit ${limitPerSecond}/s; ` +
      `the plan estimated a need of up to ${neededPeak.toFixed(3)}/s (${(neededPeak / scale).toFixed(1)}/s at .com scale); load ${load}`,
  );
  console.log(
    `former schedule (no budget, no limit, no errors): ${(former.lookups / former.drops).toFixed(2)} lookups per verified drop, ` +
      `${((100 * former.withinHour) / former.purged).toFixed(2)} % within an hour, ${(former.lookups / MEASURED_DAYS / scale).toFixed(0)} lookups a day at .com scale`,
  );

  await engine.close();
  await db.close();
  await sim.close();
  await database.cleanup();
}

/** The next hourly run (at :30) at or after `time`. */
const runAtOrAfter = (time: number) => Math.ceil((time - 30 * MINUTE) / HOUR) * HOUR + 30 * MINUTE;
/** The daily job (06:00) that applies the 00:00 snapshot after `time`. */
const diffAfter = (time: number) => Math.floor(time / DAY) * DAY + DAY + 6 * HOUR;

/**
 * The lookups the former schedule makes for the same names: each name is looked at from the
 * hourly run after the zone diff shows it leaving, then as `nextCheckAt` says, until the 404 or
 * until the zone diff shows it back; an answer moves it as the lifecycle would.
 */
function formerSchedule(events: readonly DeletionEvent[], from: number, end: number) {
  const byName = new Map<string, Partial<Record<DeletionEvent['kind'], number>>>();
  for (const event of events) byName.set(event.name, { ...byName.get(event.name), [event.kind]: event.at });
  let lookups = 0;
  let drops = 0;
  let purged = 0;
  let withinHour = 0;
  for (const timeline of byName.values()) {
    const leaves = diffAfter(timeline.held ?? timeline.deleted!);
    const back = timeline.restored === undefined ? Number.POSITIVE_INFINITY : diffAfter(timeline.restored);
    if (timeline.purged !== undefined && timeline.purged >= from && timeline.purged < end) purged += 1;
    if (back <= leaves) continue;
    let status: PipelineStatus = 'left-zone';
    let since = leaves;
    for (let at = runAtOrAfter(leaves); at < end && at < back; ) {
      if (at >= from) lookups += 1;
      if (timeline.purged !== undefined && timeline.purged <= at) {
        if (at >= from) drops += 1;
        if (timeline.purged >= from && at - timeline.purged <= HOUR) withinHour += 1;
        break;
      }
      if (timeline.restored !== undefined && timeline.restored <= at) break;
      const answer: PipelineStatus =
        timeline['pending-delete'] !== undefined && timeline['pending-delete'] <= at
          ? 'pending-delete'
          : timeline.deleted !== undefined && timeline.deleted <= at
            ? 'redemption'
            : 'left-zone';
      if (answer !== status) {
        status = answer;
        since = at;
      }
      at = runAtOrAfter(nextCheckAt(at, expectedDropAt(status, since)));
    }
  }
  return { lookups, drops, purged, withinHour };
}

/** The most of the sorted times that fall in any window of `width` ms. */
function peakIn(times: readonly number[], width: number): number {
  let peak = 0;
  let first = 0;
  for (let last = 0; last < times.length; last++) {
    while (times[last]! - times[first]! >= width) first++;
    peak = Math.max(peak, last - first + 1);
  }
  return peak;
}

await main();
