import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyView from '@fastify/view';
import { Eta } from 'eta';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { pageFormats } from './page-formats.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const viewsDir = path.join(here, '..', 'views');

/** Server-rendered pages: the eta templates (escaped by default) every page route renders with. */
export const pages = fp(
  async (app: FastifyInstance) => {
    await app.register(fastifyView, {
      engine: { eta: new Eta({ views: viewsDir, cache: app.ctx.config.NODE_ENV === 'production' }) },
      root: viewsDir,
      viewExt: 'eta',
      // Numbers and dates look the same on every page (it.format.number, it.format.date).
      defaultContext: { format: pageFormats },
    });
  },
  { name: 'pages', dependencies: [] },
);
