import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Counter } from 'prom-client';
import { rateLimitHeaders } from '../quota/quota-service.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** When this call took a unit of quota (so a failure can give it back to the right day). */
    quotaTakenAt: number | undefined;
  }
}

/**
 * Bearer-key authentication and the daily quota for every route of the scope it is
 * registered in. Which calls count: every keyed call except those marked `quota: 'free'`
 * (/v1/quota); a bulk check is one call; a call that ends in a 5xx (our failure or an
 * upstream's) is given back.
 */
export const authentication = fp(
  async (app: FastifyInstance) => {
    const { accounts, quota, clock } = app.ctx;
    app.decorateRequest('quotaTakenAt', undefined);
    const quotaRejections = new Counter({
      name: `${app.metrics.prefix}quota_rejections_total`,
      help: 'Calls refused with 429 quota_exceeded, by plan',
      labelNames: ['plan'],
      registers: [app.metrics.registry],
    });

    app.addHook('onRequest', async (request, reply) => {
      const config = request.routeOptions.config;
      // A CORS preflight never carries credentials; it is answered by the CORS plugin, uncounted.
      if (config.auth === 'none' || request.method === 'OPTIONS') return;
      const caller = await accounts.authenticate(request.headers.authorization);
      request.caller = caller;
      if (config.quota === 'free') {
        reply.headers(rateLimitHeaders(await quota.status(caller)));
        return;
      }
      const takenAt = clock.now();
      const status = await quota.consume(caller);
      reply.headers(rateLimitHeaders(status));
      if (!status.allowed) {
        quotaRejections.inc({ plan: caller.plan.id });
        throw quota.quotaExceeded(status);
      }
      request.quotaTakenAt = takenAt;
    });

    // In onSend, not onResponse: the unit is back before the caller sees the failure, and the
    // failure's own headers can say so.
    app.addHook('onSend', (request, reply, payload, done) => {
      if (!request.caller || request.quotaTakenAt === undefined || reply.statusCode < 500) {
        done(null, payload);
        return;
      }
      const { caller, quotaTakenAt } = request;
      request.quotaTakenAt = undefined;
      quota.refund(caller, quotaTakenAt).then(
        () => {
          const remaining = Number(reply.getHeader('X-RateLimit-Remaining'));
          if (Number.isInteger(remaining)) reply.header('X-RateLimit-Remaining', String(remaining + 1));
          done(null, payload);
        },
        (error: unknown) => {
          request.log.error({ err: error }, 'quota refund failed');
          done(null, payload);
        },
      );
    });
  },
  { name: 'authentication', dependencies: ['metrics'] },
);
