import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { hostGauges } from './host-gauge.ts';

/**
 * What the lifecycle's last re-check run needed of each RDAP registry host against the rate the
 * host is allowed, read from the database at each scrape (the run may have been a worker's).
 * Alert on `needed > allowed`: drops there are verified later than an hour after their purge.
 */
export const rdapPlanMetrics = fp(
  async (app: FastifyInstance) => {
    const { registry, prefix } = app.metrics;
    const { lifecycle } = app.ctx;
    hostGauges({
      registry,
      read: () => lifecycle.registryRateEstimates(),
      gauges: [
        {
          name: `${prefix}rdap_plan_needed_rate`,
          help: 'Lookups/s the last RDAP re-check run needed at a registry host to verify its due drops within an hour of their purge',
          valueFor: (estimate) => estimate.neededPerSecond,
        },
        {
          name: `${prefix}rdap_plan_allowed_rate`,
          help: 'Lookups/s the last RDAP re-check run was allowed at a registry host: its effective rate (RDAP_HOST_RATES, else RDAP_HOST_RATE_PER_SECOND, lowered after 429s) less RDAP_INTERACTIVE_SHARE',
          valueFor: (estimate) => estimate.allowedPerSecond,
        },
      ],
    });
  },
  { name: 'rdap-plan-metrics', dependencies: ['metrics'] },
);
