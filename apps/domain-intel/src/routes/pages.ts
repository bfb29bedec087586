import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { errorCatalogue } from '../error-catalogue.ts';
import { eventDocs, webhookDeliveryNote, webhookHeaders } from '../http/webhook-docs.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const assetsDir = path.join(here, '..', 'assets');
// Pico CSS, the pages' foundation, from node_modules (never a CDN): its blue theme matches the brand.
const picoCss = createRequire(import.meta.url).resolve('@picocss/pico/css/pico.blue.min.css');

/** What every page loads, read once at start: the foundation, the product's layer on it, the icon. */
const SITE_ASSETS: Record<string, { file: string; type: string }> = {
  'pico.min.css': { file: picoCss, type: 'text/css; charset=utf-8' },
  'site.css': { file: path.join(assetsDir, 'site.css'), type: 'text/css; charset=utf-8' },
  'favicon.svg': { file: path.join(assetsDir, 'api-reference', 'favicon.svg'), type: 'image/svg+xml' },
};

/** The reference lists codes by status (client errors first), each status in the table's order. */
const byStatus = <T extends { status: number }>(entries: readonly T[]) =>
  [...entries].sort((a, b) => a.status - b.status);

/** The site's stylesheets and icon, the error and event references, and / (to the docs). */
export async function sitePages(app: FastifyInstance): Promise<void> {
  for (const [name, asset] of Object.entries(SITE_ASSETS)) {
    const content = readFileSync(asset.file);
    app.get(`/assets/${name}`, { schema: { hide: true } }, async (_request, reply) =>
      reply.type(asset.type).header('Cache-Control', 'public, max-age=3600').send(content),
    );
  }

  app.get('/docs/errors', { schema: { hide: true } }, async (_request, reply) =>
    reply.view('errors', { codes: byStatus(errorCatalogue.entries), section: 'errors' }),
  );

  app.get('/docs/events', { schema: { hide: true } }, async (_request, reply) =>
    reply.view('events', {
      events: eventDocs(),
      headers: webhookHeaders,
      note: webhookDeliveryNote,
      section: 'events',
    }),
  );

  app.get('/', { schema: { hide: true } }, async (_request, reply) => reply.redirect('/docs'));
}
