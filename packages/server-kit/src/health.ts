import type { FastifyInstance, FastifySchema } from 'fastify';
import type { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import { isDatabaseReachable } from './database.ts';
import { isRedisReachable } from './redis.ts';

export interface HealthDependencies<DB> {
  db: Kysely<DB>;
  redis: Redis | undefined;
}

/**
 * `/healthz`: the process answers. `/readyz`: what a request needs is reachable (the database
 * and, when configured, Redis); 503 otherwise, so a load balancer stops sending traffic.
 */
export function healthRoutes<DB>(dependencies: () => HealthDependencies<DB>) {
  return async (app: FastifyInstance): Promise<void> => {
    const hidden = { hide: true } as FastifySchema;
    app.get('/healthz', { schema: hidden }, async () => ({ status: 'ok' }));

    app.get('/readyz', { schema: hidden }, async (_request, reply) => {
      const { db, redis } = dependencies();
      const checks = {
        database: (await isDatabaseReachable(db)) ? 'ok' : 'unreachable',
        redis: redis ? ((await isRedisReachable(redis)) ? 'ok' : 'unreachable') : 'not configured',
      };
      const ready = checks.database === 'ok' && checks.redis !== 'unreachable';
      reply.status(ready ? 200 : 503);
      return { status: ready ? 'ready' : 'not ready', checks };
    });
  };
}
