import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyView from '@fastify/view';
import { Eta } from 'eta';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { errorCatalogue } from '../error-catalogue.ts';
import { pageFormats } from './page-formats.ts';
import { eventDocs, webhookDeliveryNote, webhookHeaders } from './webhook-docs.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const viewsDir = path.join(here, '..', 'views');
const siteCss = readFileSync(path.join(here, '..', 'assets', 'site.css'));

/** The reference lists codes by status (client errors first), each status in the table's order. */
const byStatus = <T extends { status: number }>(entries: readonly T[]) =>
  [...entries].sort((a, b) => a.status - b.status);

/** Server-rendered pages (eta templates, escaped by default) and their stylesheet. */
export const pages = fp(
  async (app: FastifyInstance) => {
    await app.register(fastifyView, {
      engine: { eta: new Eta({ views: viewsDir, cache: app.ctx.config.NODE_ENV === 'production' }) },
      root: viewsDir,
      viewExt: 'eta',
      // Numbers and dates look the same on every page (it.format.number, it.format.date).
      defaultContext: { format: pageFormats },
    });

    app.get('/assets/site.css', { schema: { hide: true } }, async (_request, reply) => {
      reply.type('text/css; charset=utf-8').header('Cache-Control', 'public, max-age=3600');
      return siteCss;
    });

    app.get('/docs/errors', { schema: { hide: true } }, async (_request, reply) =>
      reply.view('errors', { codes: byStatus(errorCatalogue.entries) }),
    );

    app.get('/docs/events', { schema: { hide: true } }, async (_request, reply) =>
      reply.view('events', { events: eventDocs(), headers: webhookHeaders, note: webhookDeliveryNote }),
    );

    app.get('/', { schema: { hide: true } }, async (_request, reply) => reply.redirect('/docs'));
  },
  { name: 'pages', dependencies: [] },
);
