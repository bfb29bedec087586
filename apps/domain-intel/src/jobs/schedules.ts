/**
 * When the jobs run (UTC cron patterns), shared by the in-process scheduler and BullMQ.
 * The hourly job runs at half past, so the names a 06:00 diff finds are checked at 06:30.
 * Both also run the deliveries when they finish.
 */
export const SCHEDULES = {
  daily: '0 6 * * *',
  hourly: '30 * * * *',
  /** Saved-filter matching and sending what is due (retries with back-off need a short tick). */
  deliveries: '* * * * *',
  /** Watched domains: lifecycle evidence, then the RDAP re-checks that are due. */
  watchlist: '*/5 * * * *',
  /**
   * Bulk availability jobs, every 5 seconds (six fields: seconds first): a firing while a run
   * holds the lease is skipped at once, and a run works every queued job before it ends.
   */
  'bulk-checks': '*/5 * * * * *',
} as const;

/**
 * Every 15 seconds (croner's and BullMQ's six-field patterns start with seconds): re-run a job
 * whose lease lapsed because its holder died (see recoverInterruptedJobs). With the default
 * 30-second lease, work resumes at most 30 + 15 s after its holder died.
 */
export const RECOVERY_SCHEDULE = '*/15 * * * * *';
/** The longest wait between two recovery checks, in ms (RECOVERY_SCHEDULE's period). */
export const RECOVERY_PERIOD_MS = 15_000;
