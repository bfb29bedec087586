import { utcDate } from '@repo/server-kit';
import type { ZoneChurn, ZoneChurnOptions } from '@repo/upstream-sim';
import {
  type DailyReport,
  type HourlyReport,
  type JobServices,
  runDailyPipeline,
  runHourlyPipeline,
} from '../src/jobs/pipeline.ts';
import { type JobProgress, silentProgress } from '../src/jobs/progress.ts';
import { DEMO_BRAND_LOOKALIKES } from './demo-brand.ts';

/**
 * Churn settings that make a few simulated days show the whole lifecycle: names expire within
 * the first days, and redemption and pending delete last a day each instead of 30 and 5.
 */
export const DEMO_CHURN_OPTIONS: Omit<ZoneChurnOptions, 'seed'> = {
  namesPerTld: 150,
  expirySpreadDays: 20,
  renewRate: 0.5,
  restoreRate: 0.2,
  reRegisterRate: 0.2,
  newPerDay: 2,
  redemptionDays: 1,
  pendingDeleteDays: 1,
  // Lookalikes of the demo's brand, so its brand alert fires (demo-brand.ts).
  scheduledRegistrations: DEMO_BRAND_LOOKALIKES,
};

export interface DemoDay {
  date: string;
  daily: DailyReport;
  hourly: HourlyReport;
}

/**
 * Runs the real pipeline over `days` simulated days of a seeded churn, so the feed has
 * RDAP-verified drops. The context's clock must follow the simulator's world
 * (`clock: { now: () => sim.world.now() }`), its CZDS, RDAP, Wayback, Moz and Majestic
 * settings must point at the simulator, and `churn.seed()` must have run.
 */
export async function runDemoPipeline(
  ctx: JobServices,
  churn: ZoneChurn,
  options: { days?: number; progress?: JobProgress } = {},
): Promise<DemoDay[]> {
  const progress = options.progress ?? silentProgress;
  const days: DemoDay[] = [];
  // The first snapshot is the baseline the first diff compares against.
  await runDailyPipeline(ctx, { date: utcDate(churn.world.now()), progress });
  for (let day = 0; day < (options.days ?? 4); day += 1) {
    churn.advanceDay();
    const date = utcDate(churn.world.now());
    progress.note(`simulated day ${date}`);
    const daily = await runDailyPipeline(ctx, { date, progress });
    const hourly = await runHourlyPipeline(ctx, { progress });
    days.push({ date, daily, hourly });
  }
  return days;
}
