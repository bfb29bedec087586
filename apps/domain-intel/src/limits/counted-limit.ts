import type { Redis } from '@repo/server-kit';
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { appError } from '../error-catalogue.ts';

/** Where a limit stands after a unit was taken: what the X-RateLimit-* headers say. */
export interface LimitState {
  limit: number;
  remaining: number;
  /** When the window ends, epoch ms. */
  resetsAt: number;
}

export interface CountedLimitOptions {
  /** Keeps this limit's counters apart from every other's (Redis key prefix). */
  name: string;
  max: number;
  windowSeconds: number;
  /** The refusal's message, given the seconds to wait: "Too many sign-ups from this address …". */
  refusal: (retryAfterSeconds: number) => string;
}

/**
 * A fixed-window count per key (rate-limiter-flexible; in Redis when the service has one, so
 * every instance shares it, else in this process) of the things that cost the service
 * something: a unit is taken when such a thing is about to happen and given back when it did
 * not, so failed attempts (a mistyped address) never count.
 */
export class CountedLimit {
  readonly #limiter: RateLimiterAbstract;

  constructor(
    redis: Redis | undefined,
    private readonly options: CountedLimitOptions,
  ) {
    const settings = { keyPrefix: `limit:${options.name}`, points: options.max, duration: options.windowSeconds };
    this.#limiter = redis
      ? new RateLimiterRedis({ ...settings, storeClient: redis, useRedisPackage: false })
      : new RateLimiterMemory(settings);
  }

  /** Takes a unit for `key`, or throws 429 `rate_limited` (Retry-After, X-RateLimit-*) when none is left. */
  async take(key: string): Promise<LimitState> {
    try {
      return this.#state(await this.#limiter.consume(key));
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      const retryAfter = Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
      throw appError('rate_limited', this.options.refusal(retryAfter), {
        details: { retry_after: retryAfter },
        headers: { 'Retry-After': String(retryAfter), ...rateLimitHeaders(this.#state(rejection)) },
      });
    }
  }

  /** Gives back a unit taken for something that did not happen after all. */
  async giveBack(key: string): Promise<void> {
    await this.#limiter.reward(key, 1);
  }

  #state(result: RateLimiterRes): LimitState {
    return {
      limit: this.options.max,
      remaining: Math.max(0, result.remainingPoints),
      resetsAt: Date.now() + result.msBeforeNext,
    };
  }
}

/** X-RateLimit-Reset is the Unix time in seconds at which the window ends, as on every other answer. */
export function rateLimitHeaders(state: LimitState): Record<string, string> {
  return {
    'X-RateLimit-Limit': String(state.limit),
    'X-RateLimit-Remaining': String(state.remaining),
    'X-RateLimit-Reset': String(Math.ceil(state.resetsAt / 1000)),
  };
}
