import type { FastifyInstance } from 'fastify';

/**
 * X-RateLimit-Reset is the Unix time (seconds) at which the limit resets, on every answer of
 * both services: keyed API calls send it so (like GitHub), but @fastify/rate-limit sends the
 * seconds left in its window. Call this in each scope where @fastify/rate-limit is registered:
 * it rewrites the plugin's value into the Unix time. The plugin's window runs on the real
 * clock, so the real clock is read here too.
 */
export function rateLimitResetAsUnixTime(app: FastifyInstance): void {
  app.addHook('onSend', (_request, reply, payload, done) => {
    const secondsLeft = Number(reply.getHeader('x-ratelimit-reset'));
    if (reply.hasHeader('x-ratelimit-reset') && Number.isFinite(secondsLeft)) {
      reply.header('x-ratelimit-reset', String(Math.floor(Date.now() / 1000) + secondsLeft));
    }
    done(null, payload);
  });
}
