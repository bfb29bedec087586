import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import type { JobLogger } from './in-process-scheduler.ts';
import { type JobName, type JobServices, recoverInterruptedJobs, runJob } from './pipeline.ts';
import { RECOVERY_SCHEDULE, SCHEDULES } from './schedules.ts';

export const PIPELINE_QUEUE = 'domain-intel-pipeline';

/**
 * The scaled-out scheduler: BullMQ job schedulers produce one `daily` and one `hourly` job at
 * their UTC times (one per firing however many workers run), and every worker takes them
 * from the queue. The jobs still take the database lease, so a CLI run never overlaps one.
 */
export async function startBullmqWorker(
  ctx: JobServices,
  log: JobLogger,
  options: { prefix?: string } = {},
): Promise<{ close(): Promise<void> }> {
  const url = ctx.config.REDIS_URL;
  if (!url) throw new Error('The BullMQ worker needs REDIS_URL.');
  // BullMQ needs its own connections, with no retry limit on blocking commands.
  const connection = new Redis(url, { maxRetriesPerRequest: null });
  const prefix = options.prefix ?? `${ctx.config.REDIS_KEY_PREFIX}bull`;
  const queue = new Queue(PIPELINE_QUEUE, { connection, prefix });
  for (const name of Object.keys(SCHEDULES) as JobName[]) {
    await queue.upsertJobScheduler(
      `pipeline:${name}`,
      { pattern: SCHEDULES[name], tz: 'UTC' },
      { name, opts: { removeOnComplete: 100, removeOnFail: 500 } },
    );
  }
  await queue.upsertJobScheduler(
    'pipeline:recover',
    { pattern: RECOVERY_SCHEDULE, tz: 'UTC' },
    { name: 'recover', opts: { removeOnComplete: 10, removeOnFail: 100 } },
  );
  const workerConnection = connection.duplicate({ maxRetriesPerRequest: null });
  const worker = new Worker(
    PIPELINE_QUEUE,
    async (job) => {
      if (job.name === 'recover') {
        const rerun = await recoverInterruptedJobs(ctx);
        for (const name of rerun) log.info(`${name} pipeline re-run after its holder died`);
        return { rerun };
      }
      const name = job.name as JobName;
      const outcome = await runJob(ctx, name);
      log.info(outcome.status === 'completed' ? `${name} pipeline finished` : `${name} pipeline skipped (lease held)`);
      return outcome.status === 'completed' ? outcome.result : { skipped: true };
    },
    { connection: workerConnection, prefix, concurrency: 2 },
  );
  worker.on('failed', (job, error) => log.error(error, `${job?.name ?? 'pipeline'} job failed`));
  return {
    async close() {
      await worker.close();
      await queue.close();
      // BullMQ leaves connections it was given open; they are ours to close.
      workerConnection.disconnect();
      connection.disconnect();
    },
  };
}

/** Queues one run of a job now (the worker picks it up); used by tests and operators. */
export async function enqueueJob(ctx: JobServices, name: JobName, options: { prefix?: string } = {}): Promise<void> {
  const connection = new Redis(ctx.config.REDIS_URL!, { maxRetriesPerRequest: null });
  const queue = new Queue(PIPELINE_QUEUE, {
    connection,
    prefix: options.prefix ?? `${ctx.config.REDIS_KEY_PREFIX}bull`,
  });
  try {
    await queue.add(name, {}, { removeOnComplete: 100, removeOnFail: 500 });
  } finally {
    await queue.close();
    connection.disconnect();
  }
}
