import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/** What a browser's cross-origin call may read beyond the basic response headers. */
const EXPOSED_HEADERS = [
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'Retry-After',
  'X-Request-Id',
];

const CROSS_ORIGIN_HEADERS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers': EXPOSED_HEADERS.join(', '),
};

const PREFLIGHT_HEADERS = {
  ...CROSS_ORIGIN_HEADERS,
  'Access-Control-Allow-Methods': 'GET',
  'Access-Control-Allow-Headers': 'Authorization',
  'Access-Control-Max-Age': '86400',
  // Browsers (Safari) wait for a body on a 204 without it.
  'Content-Length': '0',
};

/**
 * CORS for the scope it is registered in: keys are bearer tokens, never ambient credentials, so
 * any origin may call it from a browser (the SDK works there) and read the quota headers.
 * The headers are fixed strings, set only on requests that carry `Origin`: a browser always
 * sends it on a cross-origin call, and nothing else reads these headers (the answers are
 * `no-store`, so no cache can hand one origin's answer to another). A server-side caller pays
 * for neither the headers nor the bytes. Every `OPTIONS` (a browser's preflight, or a bare one)
 * is answered 204 with the allowed method and header, uncounted: the authentication hook lets
 * OPTIONS through without a key.
 */
export const crossOrigin = fp(
  async (app: FastifyInstance) => {
    app.addHook('onRequest', (request, reply, done) => {
      if (request.headers.origin !== undefined) reply.headers(CROSS_ORIGIN_HEADERS);
      done();
    });
    app.options('*', { schema: { hide: true }, config: { auth: 'none' } }, (_request, reply) => {
      reply.code(204).headers(PREFLIGHT_HEADERS).send();
    });
  },
  { name: 'cross-origin' },
);
