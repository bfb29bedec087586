import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config.ts';
import { startInProcessScheduler } from './in-process-scheduler.ts';

export type SchedulerMode = 'in-process' | 'bullmq' | 'off';

/**
 * Where the jobs run for this configuration. `auto`: BullMQ (the `worker` command) when
 * REDIS_URL or REDIS_CLUSTER_URLS is set, otherwise in this process; never under NODE_ENV=test, where tests run
 * jobs themselves.
 */
export function schedulerMode(
  config: Pick<Config, 'JOBS_SCHEDULER' | 'REDIS_URL' | 'REDIS_CLUSTER_URLS' | 'NODE_ENV'>,
): SchedulerMode {
  if (config.JOBS_SCHEDULER !== 'auto') return config.JOBS_SCHEDULER;
  if (config.NODE_ENV === 'test') return 'off';
  return config.REDIS_URL || config.REDIS_CLUSTER_URLS ? 'bullmq' : 'in-process';
}

/** Starts the in-process scheduler with the server (when that is the mode) and stops it on close. */
export const jobsScheduler = fp(
  async (app: FastifyInstance) => {
    if (schedulerMode(app.ctx.config) !== 'in-process') return;
    let scheduler: { stop(): void } | undefined;
    app.addHook('onReady', async () => {
      scheduler = startInProcessScheduler(app.ctx, {
        info: (message) => app.log.info(message),
        error: (error, message) => app.log.error({ err: error }, message),
      });
    });
    app.addHook('onClose', async () => scheduler?.stop());
  },
  { name: 'jobs-scheduler' },
);
