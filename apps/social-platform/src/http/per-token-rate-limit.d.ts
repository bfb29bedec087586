import type { FastifyInstance, FastifyRequest } from 'fastify';
export type RateLimitCheck = (request: FastifyRequest) => Promise<void>;
/**
 * A limiter from @fastify/rate-limit (in memory, or in Redis when the plugin was given
 * one) that throws 429 `rate_limited` with Retry-After, as a header and in the envelope.
 */
export declare function createRateLimitCheck(
  app: FastifyInstance,
  options: {
    max: number;
    windowMs: number;
    key(request: FastifyRequest): string;
  },
): RateLimitCheck;
