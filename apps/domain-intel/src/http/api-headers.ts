import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * Security headers of the JSON routes (the API, health, OpenAPI): fixed strings set once per
 * request, enough for JSON (never sniffed, never framed, never stored by shared caches). The
 * HTML pages get helmet's full policy in their own scope instead, so the API does not pay for
 * helmet on every call. Register it in each JSON scope: it applies to the scope it is in. Named in
 * lowercase, as Fastify stores and sends them: it lowercases every name it is given on every call, and
 * one already in lowercase comes back as it is instead of as a new string.
 */
const API_HEADERS = {
  'x-content-type-options': 'nosniff',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
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
