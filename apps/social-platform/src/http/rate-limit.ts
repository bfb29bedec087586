import type { Redis } from '@repo/server-kit';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { appError } from '../error-catalogue.ts';

/** Counts one event for `key`; throws 429 `rate_limited` once the key is over its limit. */
export type RateLimitCheck = (key: string) => Promise<void>;

export interface RateLimitOptions {
  /** Shared counters across instances; in memory (one process) without it. */
  redis: Redis | undefined;
  /** Keeps this limit's counters apart from every other's. */
  name: string;
  max: number;
  windowSeconds: number;
  /** What is counted, for the message: "calls", "key exchanges", "notifications". */
  what: string;
}

/**
 * A fixed-window limit per key (rate-limiter-flexible, in Redis when there is one) that
 * answers 429 `rate_limited` with Retry-After, as a header and in the envelope.
 */
export function createRateLimit(options: RateLimitOptions): RateLimitCheck {
  const settings = { keyPrefix: `limit:${options.name}`, points: options.max, duration: options.windowSeconds };
  const limiter = options.redis
    ? new RateLimiterRedis({ ...settings, storeClient: options.redis, useRedisPackage: false })
    : new RateLimiterMemory(settings);
  return async (key) => {
    try {
      await limiter.consume(key);
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      const retryAfter = Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
      throw appError(
        'rate_limited',
        `Too many ${options.what}: at most ${options.max} per ${options.windowSeconds} s. Retry in ${retryAfter} s.`,
        { details: { retry_after: retryAfter }, headers: { 'Retry-After': String(retryAfter) } },
      );
    }
  };
}
