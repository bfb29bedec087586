import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Gauge } from 'prom-client';

/**
 * Each RDAP host's effective rate: its configured rate, lowered after its 429s and raised back
 * after quiet periods. Shared through Redis, so every process shows the same value; below the
 * configured rate, it says the registry refused us lately.
 */
export const rdapRateMetrics = fp(
  async (app: FastifyInstance) => {
    const { registry, prefix } = app.metrics;
    const { rdap } = app.ctx;
    new Gauge({
      name: `${prefix}rdap_effective_rate`,
      help: 'Requests/s this service allows itself at an RDAP host now: RDAP_HOST_RATES (else RDAP_HOST_RATE_PER_SECOND), lowered after 429s',
      labelNames: ['host'],
      registers: [registry],
      async collect() {
        let rates: Awaited<ReturnType<typeof rdap.effectiveRates>>;
        try {
          rates = await rdap.effectiveRates();
        } catch {
          return; // a scrape never fails for it; the gauge keeps its last values
        }
        this.reset();
        for (const rate of rates) this.set({ host: rate.host }, rate.perSecond);
      },
    });
  },
  { name: 'rdap-rate-metrics', dependencies: ['metrics'] },
);
