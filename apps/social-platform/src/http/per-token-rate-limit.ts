import { AppError } from '@repo/server-kit';
import type { FastifyInstance, FastifyRequest } from 'fastify';

export type RateLimitCheck = (request: FastifyRequest) => Promise<void>;

/**
 * A limiter from @fastify/rate-limit (in memory, or in Redis when the plugin was given
 * one) that throws 429 `rate_limited` with Retry-After, as a header and in the envelope.
 */
export function createRateLimitCheck(
  app: FastifyInstance,
  options: { max: number; windowMs: number; key(request: FastifyRequest): string },
): RateLimitCheck {
  const limiter = app.createRateLimit({ max: options.max, timeWindow: options.windowMs, keyGenerator: options.key });
  return async (request) => {
    const result = await limiter(request);
    // `isAllowed` means "on the allow list"; the count decides through `isExceeded`.
    if (result.isAllowed || !result.isExceeded) return;
    const retryAfter = Math.max(1, result.ttlInSeconds);
    throw new AppError(
      429,
      'rate_limited',
      `Too many calls: at most ${result.max} per ${Math.round(result.timeWindow / 1000)} s. Retry in ${retryAfter} s.`,
      { details: { retry_after: retryAfter }, headers: { 'Retry-After': String(retryAfter) } },
    );
  };
}
