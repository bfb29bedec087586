import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * Once the server listens, it keeps its zone index current (ZONE_INDEX_REFRESH_MINUTES):
 * the daily job may run in another process, and each process holds its own open index files.
 * Nothing happens under `inject` (tests), which never listens.
 */
export const zoneIndexRefresher = fp(
  async (app: FastifyInstance) => {
    app.addHook('onListen', async () => {
      app.ctx.zoneIndex.watch(app.ctx.config.ZONE_INDEX_REFRESH_MINUTES * 60_000, (error) =>
        app.log.warn({ err: error }, 'zone index refresh failed; the previous index stays in service'),
      );
    });
  },
  { name: 'zone-index-refresher' },
);
