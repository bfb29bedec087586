import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { FastifyInstance } from 'fastify';

const STYLESHEET = readFileSync(new URL('../public/app.css', import.meta.url));
// Pico CSS from the app's own node_modules (an app copied from here keeps it as a dependency).
const PICO = readFileSync(createRequire(import.meta.url).resolve('@picocss/pico/css/pico.min.css'));

export async function assetRoutes(app: FastifyInstance): Promise<void> {
  app.get('/app.css', async (_request, reply) => {
    reply.header('Cache-Control', 'public, max-age=300');
    return reply.type('text/css; charset=utf-8').send(STYLESHEET);
  });
  app.get('/pico.min.css', async (_request, reply) => {
    reply.header('Cache-Control', 'public, max-age=3600');
    return reply.type('text/css; charset=utf-8').send(PICO);
  });
  app.get('/health', async () => ({ status: 'ok' }));
}
