import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { FastifyInstance } from 'fastify';

// Pico CSS, the pages' foundation (the same theme as Domain Intelligence's pages), from node_modules.
const PICO_CSS = createRequire(import.meta.url).resolve('@picocss/pico/css/pico.blue.min.css');

/** GET /assets/pico.min.css, read once at start. */
export async function picoStylesheet(app: FastifyInstance): Promise<void> {
  const pico = readFileSync(PICO_CSS);
  app.get('/assets/pico.min.css', async (_request, reply) =>
    reply
      .type('text/css; charset=utf-8')
      .header('Cache-Control', app.platform.config.NODE_ENV === 'production' ? 'public, max-age=3600' : 'no-cache')
      .send(pico),
  );
}
