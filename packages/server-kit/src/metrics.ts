import type { FastifyInstance, FastifySchema } from 'fastify';
import fp from 'fastify-plugin';
import { Counter, collectDefaultMetrics, Histogram, Registry } from 'prom-client';
import { frameworkErrors } from './error-catalogue.ts';
import { textsEqual } from './secrets.ts';

type Label = 'method' | 'route' | 'status';

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

    // One pair of labelled children per method, route and status, so a request does not pay
    // for prom-client hashing its labels; callback style, so it does not pay for a promise.
    const children = new Map<string, { count: Counter.Internal; time: Histogram.Internal<Label> }>();
    app.addHook('onResponse', (request, reply, done) => {
      const route = request.routeOptions.url ?? 'unmatched';
      if (route !== '/metrics') {
        const status = String(reply.statusCode);
        const key = `${request.method} ${route} ${status}`;
        let child = children.get(key);
        if (!child) {
          const labels = { method: request.method, route, status };
          child = { count: requests.labels(labels), time: duration.labels(labels) };
          children.set(key, child);
        }
        child.count.inc();
        child.time.observe(reply.elapsedTime / 1000);
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
