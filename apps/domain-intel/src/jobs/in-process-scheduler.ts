import { Cron } from 'croner';
import type { AppContext } from '../context.ts';
import { type JobName, runJob } from './pipeline.ts';
import { SCHEDULES } from './schedules.ts';

export interface JobLogger {
  info(message: string): void;
  error(error: unknown, message: string): void;
}

/**
 * The embedded scheduler: croner fires the jobs in this process at their UTC times; the
 * database lease makes sure only one of several API instances runs each firing.
 */
export function startInProcessScheduler(ctx: AppContext, log: JobLogger): { stop(): void } {
  const fire = (name: JobName) => async () => {
    try {
      const outcome = name === 'daily' ? await runJob(ctx, 'daily') : await runJob(ctx, 'hourly');
      log.info(
        outcome.status === 'completed'
          ? `${name} pipeline finished`
          : `${name} pipeline skipped: running in ${outcome.heldBy ?? 'another process'}`,
      );
    } catch (error) {
      log.error(error, `${name} pipeline failed`);
    }
  };
  const jobs = (Object.keys(SCHEDULES) as JobName[]).map(
    // `protect` skips a firing while the previous run of the same job is still going.
    (name) => new Cron(SCHEDULES[name], { timezone: 'UTC', protect: true, name: `pipeline:${name}` }, fire(name)),
  );
  return {
    stop() {
      for (const job of jobs) job.stop();
    },
  };
}
