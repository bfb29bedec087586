import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';

const STYLESHEET = readFileSync(new URL('../public/app.css', import.meta.url));

export async function assetRoutes(app: FastifyInstance): Promise<void> {
  app.get('/app.css', async (_request, reply) => {
    reply.header('Cache-Control', 'public, max-age=300');
    return reply.type('text/css; charset=utf-8').send(STYLESHEET);
  });
  app.get('/health', async () => ({ status: 'ok' }));
}
