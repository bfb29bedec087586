import { Cron } from 'croner';
import { type JobName, type JobServices, recoverInterruptedJobs, runJob } from './pipeline.ts';
import { RECOVERY_SCHEDULE, SCHEDULES } from './schedules.ts';

export interface JobLogger {
  info(message: string): void;
  error(error: unknown, message: string): void;
}

/**
 * The embedded scheduler: croner fires the jobs in this process at their UTC times; the
 * database lease makes sure only one of several API instances runs each firing.
 */
export interface InProcessScheduler {
  /** When each job fires next (real time). */
  nextRuns(): Record<JobName, Date | null>;
  stop(): void;
}

export function startInProcessScheduler(ctx: JobServices, log: JobLogger): InProcessScheduler {
  const fire = (name: JobName) => async () => {
    try {
      const outcome = await runJob(ctx, name);
      log.info(
        outcome.status === 'completed'
          ? `${name} pipeline finished`
          : `${name} pipeline skipped: running in ${outcome.heldBy ?? 'another process'}`,
      );
    } catch (error) {
      log.error(error, `${name} pipeline failed`);
    }
  };
  const names = Object.keys(SCHEDULES) as JobName[];
  const jobs = names.map(
    // `protect` skips a firing while the previous run of the same job is still going.
    (name) => new Cron(SCHEDULES[name], { timezone: 'UTC', protect: true }, fire(name)),
  );
  const recovery = new Cron(RECOVERY_SCHEDULE, { timezone: 'UTC', protect: true }, async () => {
    try {
      for (const name of await recoverInterruptedJobs(ctx)) log.info(`${name} pipeline re-run after its holder died`);
    } catch (error) {
      log.error(error, 'recovery of interrupted jobs failed');
    }
  });
  return {
    nextRuns: () =>
      Object.fromEntries(names.map((name, i) => [name, jobs[i]!.nextRun()])) as Record<JobName, Date | null>,
    stop() {
      for (const job of jobs) job.stop();
      recovery.stop();
    },
  };
}
