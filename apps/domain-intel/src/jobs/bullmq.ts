import { createQueueConnection } from '@repo/server-kit';
import { Queue, Worker } from 'bullmq';
import type { Config } from '../config.ts';
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
  if (!hasRedis(ctx.config)) throw new Error('The BullMQ worker needs REDIS_URL or REDIS_CLUSTER_URLS.');
  // BullMQ needs its own connections, with no retry limit on blocking commands.
  const connection = queueConnection(ctx.config);
  const prefix = options.prefix ?? queuePrefix(ctx.config);
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
  const workerConnection = queueConnection(ctx.config);
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
    // Three at once: a long bulk-checks run holds one, and the daily run another, while the
    // deliveries and the watchlist still get the third.
    { connection: workerConnection, prefix, concurrency: 3 },
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
  const connection = queueConnection(ctx.config);
  const queue = new Queue(PIPELINE_QUEUE, { connection, prefix: options.prefix ?? queuePrefix(ctx.config) });
  try {
    await queue.add(name, {}, { removeOnComplete: 100, removeOnFail: 500 });
  } finally {
    await queue.close();
    connection.disconnect();
  }
}

type RedisSettings = Pick<Config, 'REDIS_URL' | 'REDIS_CLUSTER_URLS' | 'REDIS_KEY_PREFIX'>;

/** Whether the jobs can run on BullMQ: one Redis or a Redis Cluster is configured. */
export const hasRedis = (config: Pick<Config, 'REDIS_URL' | 'REDIS_CLUSTER_URLS'>) =>
  Boolean(config.REDIS_URL || config.REDIS_CLUSTER_URLS);

const queueConnection = (config: RedisSettings) =>
  createQueueConnection({ url: config.REDIS_URL, clusterUrls: config.REDIS_CLUSTER_URLS });

/**
 * The queue's key prefix. On a Redis Cluster it is a hash tag (`{di:bull}`): BullMQ's scripts
 * touch several keys of a queue at once, which must share a slot. A single Redis keeps the
 * prefix it has always had, so an upgrade finds its queue and job schedulers.
 */
export function queuePrefix(config: RedisSettings): string {
  const prefix = `${config.REDIS_KEY_PREFIX}bull`;
  return config.REDIS_CLUSTER_URLS ? `{${prefix}}` : prefix;
}
