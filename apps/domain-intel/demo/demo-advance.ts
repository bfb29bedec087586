import { utcDate } from '@repo/server-kit';
import type { StripeSimControl } from '@repo/upstream-sim';
import { type JobServices, runDailyPipeline, runHourlyPipeline, runJob } from '../src/jobs/pipeline.ts';
import { type JobProgress, silentProgress } from '../src/jobs/progress.ts';
import type { DemoWorld } from './demo-world.ts';

/** What one advanced day did, in the words a newcomer watches for. */
export interface AdvancedDay {
  /** The demo's new date (UTC). */
  date: string;
  /** Names the registries purged that day: the RDAP re-checks find them dropped. */
  purged: string[];
  /** Names that entered pending delete: they drop on the next advance. */
  pendingDelete: string[];
  registered: number;
  /** Names the zone diffs saw leave or join the zones, over every tracked TLD. */
  zone: { removed: number; added: number };
  rdap: { checked: number; dropped: number };
  /** Watched names looked at, and the moves they made (each a watch.transition event). */
  watchlist: { checked: number; transitions: number };
  /** Saved-filter rows matched and deliveries sent (filter batches and account events). */
  deliveries: { matched: number; delivered: number; retrying: number };
  /** Stripe subscriptions whose period ended that day (renewed, or ended when cancelled). */
  subscriptions: Array<{ id: string; status: string }>;
}

/**
 * Moves the running demo on `days` days, one at a time, through the same pipeline the first
 * start replays past days with (`runDemoPipeline`): the registries' next day, the daily run
 * (zone files, diff, lifecycle, deliveries), the hourly run (RDAP re-checks, enrichment), a
 * watchlist round, then Stripe's clock (periods that ended renew or end, their webhooks
 * delivered and applied) and the deliveries those caused. The service's clock must be the demo
 * world's `now()`, as `npm start` sets it.
 */
export async function advanceDemo(
  ctx: JobServices,
  demo: DemoWorld,
  stripe: StripeSimControl | undefined,
  options: { days: number; progress?: JobProgress },
): Promise<AdvancedDay[]> {
  const progress = options.progress ?? silentProgress;
  const days: AdvancedDay[] = [];
  for (let day = 0; day < options.days; day += 1) {
    const churned = await demo.nextDay();
    const date = utcDate(demo.world.now());
    progress.note(`simulated day ${date}`);
    const daily = await runDailyPipeline(ctx, { date, progress });
    const hourly = await runHourlyPipeline(ctx, { progress });
    const watch = await runJob(ctx, 'watchlist');
    const subscriptions = stripe?.advanceTime() ?? [];
    // Stripe answers before it delivers: wait until the service has every event of the day.
    await stripe?.webhooks.settled();
    const after = await runJob(ctx, 'deliveries');
    const sent = [daily.deliveries, hourly.deliveries, after].flatMap((run) =>
      run.status === 'completed' ? [run.result] : [],
    );
    days.push({
      date,
      purged: churned.flatMap((churn) => churn.purged),
      pendingDelete: churned.flatMap((churn) => churn.pendingDelete),
      registered: churned.reduce((sum, churn) => sum + churn.registered.length + churn.reRegistered.length, 0),
      zone: {
        removed: daily.tlds.reduce((sum, tld) => sum + (tld.diff?.removed ?? 0), 0),
        added: daily.tlds.reduce((sum, tld) => sum + (tld.diff?.added ?? 0), 0),
      },
      rdap: { checked: hourly.rdap.checked, dropped: hourly.rdap.dropped },
      watchlist:
        watch.status === 'completed'
          ? { checked: watch.result.checked, transitions: watch.result.transitions }
          : { checked: 0, transitions: 0 },
      deliveries: {
        matched: sent.reduce((sum, run) => sum + run.matched.rows, 0),
        delivered: sent.reduce((sum, run) => sum + run.sent.delivered, 0),
        retrying: after.status === 'completed' ? after.result.sent.retrying : 0,
      },
      subscriptions: subscriptions.map((subscription) => ({ id: subscription.id, status: subscription.status })),
    });
  }
  return days;
}
