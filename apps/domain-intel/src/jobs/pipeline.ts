import { errorMessage, utcDate } from '@repo/server-kit';
import type { AppContext } from '../context.ts';
import type { EnrichResult } from '../enrich/enrichment-service.ts';
import type { RecheckResult, ZoneDiffResult } from '../lifecycle/index.ts';
import { diffSnapshots } from '../zones/index.ts';
import { type LeasedOutcome, runLeased } from './lease.ts';
import { type JobProgress, silentProgress } from './progress.ts';

const MINUTE = 60_000;
/** An hourly run stops starting RDAP lookups after this long, so runs never pile up. */
const HOURLY_RDAP_BUDGET_MS = 45 * MINUTE;

export type JobName = 'daily' | 'hourly' | 'deliveries' | 'watchlist' | 'bulk-checks';
/** A watchlist round stops starting RDAP lookups after this long (it runs every 5 minutes). */
const WATCHLIST_RDAP_BUDGET_MS = 4 * MINUTE;

/** What the jobs use of the application: the services they drive, nothing of the HTTP side. */
export type JobServices = Pick<
  AppContext,
  | 'config'
  | 'clock'
  | 'zones'
  | 'snapshots'
  | 'lifecycle'
  | 'enrichment'
  | 'zoneIndex'
  | 'feed'
  | 'jobLeases'
  | 'delivery'
  | 'watchlist'
  | 'bulkChecks'
>;

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
  deliveries: LeasedOutcome<DeliveryRunReport>;
}

export interface HourlyReport {
  rdap: RecheckResult;
  enrichment: EnrichResult;
  deliveries: LeasedOutcome<DeliveryRunReport>;
}

export type DeliveryRunReport = Awaited<ReturnType<AppContext['delivery']['run']>>;
export type WatchlistReport = Awaited<ReturnType<AppContext['watchlist']['follow']>>;
export type BulkChecksReport = Awaited<ReturnType<AppContext['bulkChecks']['run']>>;

/**
 * The bulk availability jobs, one after another, under one lease renewed like every job's: a
 * worker killed mid-job leaves its lease to lapse, and the next run (or a recovery check) resumes
 * the job from its first undecided item.
 */
function runBulkChecks(ctx: JobServices): Promise<LeasedOutcome<BulkChecksReport>> {
  return runLeased(ctx.jobLeases, LEASES['bulk-checks'], leaseMs(ctx), () => ctx.bulkChecks.run());
}

/** One watchlist round (lifecycle evidence, then due RDAP re-checks) under its own lease. */
function runWatchlist(ctx: JobServices): Promise<LeasedOutcome<WatchlistReport>> {
  return runLeased(ctx.jobLeases, LEASES.watchlist, leaseMs(ctx), () =>
    ctx.watchlist.follow({ deadline: Date.now() + WATCHLIST_RDAP_BUDGET_MS }),
  );
}

/**
 * Saved-filter matching, then sending what is due, under its own lease. Short and renewed like
 * every job's: a sender killed mid-round (`kill -9`) held a 15-minute lease before, and every
 * account's deliveries waited that long.
 */
function runDeliveries(ctx: JobServices): Promise<LeasedOutcome<DeliveryRunReport>> {
  return runLeased(ctx.jobLeases, LEASES.deliveries, leaseMs(ctx), () => ctx.delivery.run());
}

/** Every job's lease: JOB_LEASE_SECONDS, renewed every quarter of it while the job runs. */
const leaseMs = (ctx: JobServices) => ctx.config.JOB_LEASE_SECONDS * 1000;

/**
 * The 06:00 UTC job: per tracked TLD, download and snapshot today's zone, diff it against
 * the previous snapshot and apply the diff to the lifecycle; then refresh alt-TLD demand.
 * A TLD that fails (CZDS down, corrupt file) is reported and leaves its previous snapshot and
 * the lifecycle untouched; the others go on. Re-running a finished day changes nothing.
 */
export async function runDailyPipeline(
  ctx: JobServices,
  options: { date?: string; progress?: JobProgress } = {},
): Promise<DailyReport> {
  const progress = options.progress ?? silentProgress;
  const date = options.date ?? utcDate(ctx.clock.now());
  const report: Omit<DailyReport, 'deliveries'> = { date, tlds: [], altTldRows: 0 };
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
      entry.error = errorMessage(error);
      progress.note(`.${tld}: ${entry.error}`);
    }
  }
  progress.step('alt-TLD demand');
  report.altTldRows = await ctx.enrichment.refreshAltTldDemand((done) => progress.update(done));
  await ctx.zoneIndex.refresh();
  await ctx.feed.invalidate();
  progress.step('deliveries');
  const deliveries = await runDeliveries(ctx);
  progress.finish();
  return { ...report, deliveries };
}

/** The hourly job: RDAP re-checks of due candidates (drop-first), then enrichment. */
export async function runHourlyPipeline(
  ctx: JobServices,
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
  await ctx.feed.invalidate();
  progress.step('deliveries');
  const deliveries = await runDeliveries(ctx);
  progress.finish();
  return { rdap, enrichment, deliveries };
}

/** Runs a job under its database lease: the one entry point of the scheduler, the worker and the CLI. */
export function runJob(
  ctx: JobServices,
  name: 'daily',
  options?: { date?: string; progress?: JobProgress },
): Promise<LeasedOutcome<DailyReport>>;
export function runJob(
  ctx: JobServices,
  name: 'hourly',
  options?: { progress?: JobProgress },
): Promise<LeasedOutcome<HourlyReport>>;
export function runJob(ctx: JobServices, name: 'deliveries'): Promise<LeasedOutcome<DeliveryRunReport>>;
export function runJob(ctx: JobServices, name: 'watchlist'): Promise<LeasedOutcome<WatchlistReport>>;
export function runJob(ctx: JobServices, name: 'bulk-checks'): Promise<LeasedOutcome<BulkChecksReport>>;
export function runJob(
  ctx: JobServices,
  name: JobName,
  options?: { date?: string; progress?: JobProgress },
): Promise<LeasedOutcome<DailyReport | HourlyReport | DeliveryRunReport | WatchlistReport | BulkChecksReport>>;
export function runJob(
  ctx: JobServices,
  name: JobName,
  options: { date?: string; progress?: JobProgress } = {},
): Promise<LeasedOutcome<DailyReport | HourlyReport | DeliveryRunReport | WatchlistReport | BulkChecksReport>> {
  if (name === 'deliveries') return runDeliveries(ctx);
  if (name === 'bulk-checks') return runBulkChecks(ctx);
  if (name === 'watchlist') return runWatchlist(ctx);
  return name === 'daily'
    ? runLeased(ctx.jobLeases, LEASES.daily, leaseMs(ctx), () => runDailyPipeline(ctx, options))
    : runLeased(ctx.jobLeases, LEASES.hourly, leaseMs(ctx), () => runHourlyPipeline(ctx, options));
}

const LEASES: Record<JobName, string> = {
  daily: 'pipeline:daily',
  hourly: 'pipeline:hourly',
  deliveries: 'deliveries',
  watchlist: 'watchlist',
  'bulk-checks': 'bulk-checks',
};

/**
 * Re-runs the jobs whose lease lapsed: a released lease is deleted, so a lease row past its
 * expiry means its holder died mid-run (killed, out of memory, machine lost). Both jobs are
 * idempotent and resume where the dead run stopped. The schedulers call this every 15 seconds
 * (RECOVERY_SCHEDULE), so an interrupted job runs again within 15 s of its lease lapsing.
 */
export async function recoverInterruptedJobs(ctx: JobServices): Promise<JobName[]> {
  const names = Object.keys(LEASES) as JobName[];
  const lapsed = new Set(await ctx.jobLeases.lapsed(names.map((name) => LEASES[name])));
  // All at once: a long daily re-run must not hold back the deliveries whose sender died too.
  const outcomes = await Promise.all(
    names.map(async (name) => (lapsed.has(LEASES[name]) ? { name, outcome: await runJob(ctx, name) } : null)),
  );
  return outcomes.flatMap((entry) => (entry?.outcome.status === 'completed' ? [entry.name] : []));
}
