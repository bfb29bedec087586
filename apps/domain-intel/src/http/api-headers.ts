import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * Security headers of JSON API responses, fixed strings set once per request. Helmet's full
 * per-request policy computation is for the HTML pages; a JSON body only needs to be never
 * sniffed, never framed, never cached by shared caches.
 */
const API_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'",
  'Cache-Control': 'no-store',
  'Referrer-Policy': 'no-referrer',
};

export const apiHeaders = fp(
  async (app: FastifyInstance) => {
    app.addHook('onRoute', (route) => {
      route.helmet ??= false;
    });
    app.addHook('onRequest', async (_request, reply) => {
      reply.headers(API_HEADERS);
    });
  },
  { name: 'api-headers' },
);
