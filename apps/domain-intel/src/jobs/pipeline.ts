import { utcDate } from '@repo/server-kit';
import type { AppContext } from '../context.ts';
import type { EnrichResult } from '../enrich/enrichment-service.ts';
import type { RecheckResult, ZoneDiffResult } from '../lifecycle/index.ts';
import { diffSnapshots } from '../zones/index.ts';
import { type LeasedOutcome, runLeased } from './lease.ts';
import { type JobProgress, silentProgress } from './progress.ts';

const MINUTE = 60_000;
/** Lease lifetimes: longer than a normal run, short enough that a crashed run is retried soon. */
const DAILY_LEASE_MS = 30 * MINUTE;
const HOURLY_LEASE_MS = 15 * MINUTE;
/** An hourly run stops starting RDAP lookups after this long, so runs never pile up. */
const HOURLY_RDAP_BUDGET_MS = 45 * MINUTE;

export type JobName = 'daily' | 'hourly';

export interface TldDayReport {
  tld: string;
  snapshot: 'imported' | 'already_imported' | 'failed';
  names: number | null;
  /** null for the first snapshot of a TLD (nothing to compare with). */
  diff: ZoneDiffResult | null;
  error: string | null;
}

export interface DailyReport {
  date: string;
  tlds: TldDayReport[];
  altTldRows: number;
}

export interface HourlyReport {
  rdap: RecheckResult;
  enrichment: EnrichResult;
}

/**
 * The 06:00 UTC job: per tracked TLD, download and snapshot today's zone, diff it against
 * the previous snapshot and apply the diff to the lifecycle; then refresh alt-TLD demand.
 * A TLD that fails (CZDS down, corrupt file) is reported and leaves its previous snapshot and
 * the lifecycle untouched; the others go on. Re-running a finished day changes nothing.
 */
export async function runDailyPipeline(
  ctx: AppContext,
  options: { date?: string; progress?: JobProgress } = {},
): Promise<DailyReport> {
  const progress = options.progress ?? silentProgress;
  const date = options.date ?? utcDate(ctx.clock.now());
  const report: DailyReport = { date, tlds: [], altTldRows: 0 };
  for (const tld of ctx.config.TRACKED_TLDS) {
    progress.step(`.${tld}: zone ${date}`);
    const entry: TldDayReport = { tld, snapshot: 'failed', names: null, diff: null, error: null };
    report.tlds.push(entry);
    try {
      const snapshot = await ctx.zones.syncTld(tld, date);
      entry.snapshot = snapshot.status;
      entry.names = snapshot.names;
      const previous = (await ctx.snapshots.dates(tld)).filter((held) => held < date).at(-1);
      if (previous) {
        progress.step(`.${tld}: diff ${previous} → ${date}`);
        entry.diff = await ctx.lifecycle.applyZoneDiff(
          { tld, fromDate: previous, toDate: date, changes: diffSnapshots(ctx.snapshots, tld, previous, date) },
          (processed) => progress.update(processed),
        );
      }
    } catch (error) {
      entry.error = error instanceof Error ? error.message : String(error);
      progress.note(`.${tld}: ${entry.error}`);
    }
  }
  progress.step('alt-TLD demand');
  report.altTldRows = await ctx.enrichment.refreshAltTldDemand((done) => progress.update(done));
  await ctx.zoneIndex.refresh();
  ctx.feed.invalidate();
  progress.finish();
  return report;
}

/** The hourly job: RDAP re-checks of due candidates (drop-first), then enrichment. */
export async function runHourlyPipeline(
  ctx: AppContext,
  options: { progress?: JobProgress } = {},
): Promise<HourlyReport> {
  const progress = options.progress ?? silentProgress;
  progress.step('RDAP re-checks');
  const rdap = await ctx.lifecycle.recheckDue({
    // A wall-clock budget (the RDAP client measures deadlines with the real clock).
    deadline: Date.now() + HOURLY_RDAP_BUDGET_MS,
    onProgress: (done, total) => progress.update(done, total),
  });
  progress.step('enrichment');
  const enrichment = await ctx.enrichment.enrichDue(ctx.config.ENRICH_BATCH_SIZE, (done, total) =>
    progress.update(done, total),
  );
  for (const error of enrichment.errors) progress.note(`enrichment: ${error}`);
  ctx.feed.invalidate();
  progress.finish();
  return { rdap, enrichment };
}

/** Runs a job under its database lease: the one entry point of the scheduler, the worker and the CLI. */
export function runJob(
  ctx: AppContext,
  name: 'daily',
  options?: { date?: string; progress?: JobProgress },
): Promise<LeasedOutcome<DailyReport>>;
export function runJob(
  ctx: AppContext,
  name: 'hourly',
  options?: { progress?: JobProgress },
): Promise<LeasedOutcome<HourlyReport>>;
export function runJob(
  ctx: AppContext,
  name: JobName,
  options: { date?: string; progress?: JobProgress } = {},
): Promise<LeasedOutcome<DailyReport | HourlyReport>> {
  return name === 'daily'
    ? runLeased(ctx.jobLeases, 'pipeline:daily', DAILY_LEASE_MS, () => runDailyPipeline(ctx, options))
    : runLeased(ctx.jobLeases, 'pipeline:hourly', HOURLY_LEASE_MS, () => runHourlyPipeline(ctx, options));
}
