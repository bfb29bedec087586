import type { FastifyInstance, FastifySchema } from 'fastify';
import fp from 'fastify-plugin';
import { Counter, collectDefaultMetrics, Histogram, Registry } from 'prom-client';

export interface MetricsOptions {
  /** Prefix of every metric name, e.g. `domain_intel_`. */
  prefix: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    metrics: { registry: Registry; prefix: string };
  }
}

/**
 * Request counts and latencies by route pattern and status (never by raw URL, which
 * would explode cardinality and leak query strings), served at /metrics.
 */
export const metricsPlugin = fp<MetricsOptions>(
  async (app: FastifyInstance, { prefix }) => {
    const registry = new Registry();
    collectDefaultMetrics({ register: registry, prefix });
    const requests = new Counter({
      name: `${prefix}http_requests_total`,
      help: 'HTTP requests by method, route and status',
      labelNames: ['method', 'route', 'status'],
      registers: [registry],
    });
    const duration = new Histogram({
      name: `${prefix}http_request_duration_seconds`,
      help: 'HTTP request latency by method, route and status',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    });
    app.decorate('metrics', { registry, prefix });

    app.addHook('onResponse', async (request, reply) => {
      const route = request.routeOptions.url ?? 'unmatched';
      if (route === '/metrics') return;
      const labels = { method: request.method, route, status: String(reply.statusCode) };
      requests.inc(labels);
      duration.observe(labels, reply.elapsedTime / 1000);
    });

    // `hide` keeps the route out of the OpenAPI document when @fastify/swagger is registered.
    app.get('/metrics', { schema: { hide: true } as FastifySchema }, async (_request, reply) => {
      reply.header('Content-Type', registry.contentType);
      return registry.metrics();
    });
  },
  { name: 'metrics' },
);
