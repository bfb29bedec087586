import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { hostGauges } from './host-gauge.ts';

/**
 * Each RDAP host's effective rate: its configured rate, lowered after its 429s and raised back
 * after quiet periods. Shared through Redis, so every process shows the same value; below the
 * configured rate (the gauge next to it), it says the registry refused us lately.
 */
export const rdapRateMetrics = fp(
  async (app: FastifyInstance) => {
    const { registry, prefix } = app.metrics;
    const { rdap } = app.ctx;
    hostGauges({
      registry,
      read: () => rdap.effectiveRates(),
      gauges: [
        {
          name: `${prefix}rdap_effective_rate`,
          help: 'Requests/s this service allows itself at an RDAP host now: RDAP_HOST_RATES (else RDAP_HOST_RATE_PER_SECOND), lowered after 429s',
          valueFor: (rate) => rate.perSecond,
        },
        {
          name: `${prefix}rdap_configured_rate`,
          help: 'Requests/s configured for an RDAP host (RDAP_HOST_RATES, else RDAP_HOST_RATE_PER_SECOND): what its effective rate climbs back to',
          valueFor: (rate) => rate.configuredPerSecond,
        },
      ],
    });
  },
  { name: 'rdap-rate-metrics', dependencies: ['metrics'] },
);
