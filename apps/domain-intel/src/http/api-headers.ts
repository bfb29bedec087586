import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * Security headers of the JSON routes (the API, health, OpenAPI): fixed strings set once per
 * request, enough for JSON (never sniffed, never framed, never stored by shared caches). The
 * HTML pages get helmet's full policy in their own scope instead, so the API does not pay for
 * helmet on every call. Register it in each JSON scope: it applies to the scope it is in.
 */
const API_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'",
  'Cache-Control': 'no-store',
  'Referrer-Policy': 'no-referrer',
};

export const apiHeaders = fp(
  async (app: FastifyInstance) => {
    app.addHook('onRequest', (_request, reply, done) => {
      reply.headers(API_HEADERS);
      done();
    });
  },
  { name: 'api-headers' },
);
