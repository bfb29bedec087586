import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { AppContext } from '../context.ts';
import { appError } from '../error-catalogue.ts';

/**
 * Counts one event for `key`; throws 429 `rate_limited` once the key is over its limit. In memory it
 * answers at once (no promise); with Redis it returns the promise of the count.
 */
export type RateLimitCheck = (key: string) => void | Promise<void>;

export interface RateLimitOptions {
  /** Shared counters across instances; in memory (one process) without it. */
  redis: AppContext['redis'];
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
  const refusal = (msBeforeNext: number) => {
    const retryAfter = Math.max(1, Math.ceil(msBeforeNext / 1000));
    return appError(
      'rate_limited',
      `Too many ${options.what}: at most ${options.max} per ${options.windowSeconds} s. Retry in ${retryAfter} s.`,
      { details: { retry_after: retryAfter }, headers: { 'Retry-After': String(retryAfter) } },
    );
  };
  if (!options.redis) return countInMemory(new RateLimiterMemory(settings), refusal);
  const limiter = new RateLimiterRedis({ ...settings, storeClient: options.redis, useRedisPackage: false });
  return async (key) => {
    try {
      await limiter.consume(key);
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      throw refusal(rejection.msBeforeNext);
    }
  };
}

/** What RateLimiterMemory.consume does itself, without its promise: the same store, key and count. */
interface MemoryLimiterInternals {
  getKey(key: string): string;
  _memoryStorage: { incrby(key: string, points: number, durationSeconds: number): RateLimiterRes };
}

/**
 * An in-memory limit counted synchronously: rate-limiter-flexible's RateLimiterMemory.consume wraps
 * one synchronous count (its MemoryStorage.incrby) in a promise, and a call that waited for it paid
 * a promise and a turn on every request. Counted here in the library's own store under the library's
 * key, as consume does for a limiter without block or execEvenly options: over the limit when the
 * window's count exceeds the points.
 */
function countInMemory(limiter: RateLimiterMemory, refusal: (msBeforeNext: number) => Error): RateLimitCheck {
  const internals = limiter as unknown as MemoryLimiterInternals;
  const storage = internals._memoryStorage;
  // A release of the library that stores elsewhere fails at start, not with uncounted calls.
  if (typeof storage?.incrby !== 'function') throw new Error('rate-limiter-flexible: RateLimiterMemory has no store');
  const { points, duration } = limiter;
  return (key) => {
    const counted = storage.incrby(internals.getKey(key), 1, duration);
    if (counted.consumedPoints > points) throw refusal(counted.msBeforeNext);
  };
}
