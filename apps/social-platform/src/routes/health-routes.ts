import { isDatabaseReachable, isRedisReachable } from '@repo/server-kit';
import type { FastifyInstance } from 'fastify';

export async function healthRoutes(app: FastifyInstance): Promise<void> {
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));

  app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
    const { database, redis } = app.platform;
    const checks = {
      database: (await isDatabaseReachable(database.db)) ? 'ok' : 'unreachable',
      redis: redis ? ((await isRedisReachable(redis)) ? 'ok' : 'unreachable') : 'not configured',
    };
    const ready = checks.database === 'ok' && checks.redis !== 'unreachable';
    reply.status(ready ? 200 : 503);
    return { status: ready ? 'ready' : 'not ready', checks };
  });
}
