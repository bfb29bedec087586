import type { FastifyInstance, FastifySchema } from 'fastify';
import fp from 'fastify-plugin';
import { collectDefaultMetrics, Registry } from 'prom-client';
import { frameworkErrors } from './error-catalogue.ts';
import { RequestMetrics } from './request-metrics.ts';
import { textsEqual } from './secrets.ts';

export interface MetricsOptions {
  /** Prefix of every metric name, e.g. `domain_intel_`. */
  prefix: string;
  /**
   * Who may read /metrics (METRICS_PUBLIC, METRICS_TOKEN): a token in `Authorization: Bearer`,
   * anyone, or nobody (the route does not exist). Metrics are collected in every case.
   */
  access: MetricsAccess;
}

export type MetricsAccess = { token: string } | 'public' | 'off';

/** The access the settings ask for: a token wins; METRICS_PUBLIC=1 opens it; else it is off. */
export function metricsAccess(settings: {
  METRICS_PUBLIC: boolean;
  METRICS_TOKEN?: string | undefined;
}): MetricsAccess {
  if (settings.METRICS_TOKEN) return { token: settings.METRICS_TOKEN };
  return settings.METRICS_PUBLIC ? 'public' : 'off';
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
  async (app: FastifyInstance, { prefix, access }) => {
    const registry = new Registry();
    collectDefaultMetrics({ register: registry, prefix });
    const requests = new RequestMetrics(registry, prefix, [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]);
    app.decorate('metrics', { registry, prefix });

    // Callback style, so a request does not pay for a promise.
    app.addHook('onResponse', (request, reply, done) => {
      const route = request.routeOptions.url ?? 'unmatched';
      if (route !== '/metrics') {
        requests.observe(requests.series(request.method, route, reply.statusCode), reply.elapsedTime / 1000);
      }
      done();
    });

    if (access === 'off') return;
    // `hide` keeps the route out of the OpenAPI document when @fastify/swagger is registered.
    app.get('/metrics', { schema: { hide: true } as FastifySchema }, async (request, reply) => {
      if (access !== 'public') {
        const given = /^Bearer (\S+)$/.exec(request.headers.authorization ?? '')?.[1];
        if (!given || !textsEqual(given, access.token)) {
          throw frameworkErrors.appError(
            'invalid_metrics_token',
            'Reading /metrics needs "Authorization: Bearer <METRICS_TOKEN>".',
            { headers: { 'WWW-Authenticate': 'Bearer realm="metrics"' } },
          );
        }
      }
      reply.header('Content-Type', registry.contentType);
      reply.header('Cache-Control', 'no-store');
      return registry.metrics();
    });
  },
  { name: 'metrics' },
);
