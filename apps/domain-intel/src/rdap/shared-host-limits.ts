import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import { RateLimiterQueue, RateLimiterRedis } from 'rate-limiter-flexible';
import type { HostRates } from './host-rates.ts';
import { UpstreamFailure } from './upstream-failure.ts';

/**
 * Per-host request limits shared by every process through Redis (rate-limiter-flexible), so
 * N API instances and M workers together never start more than the host's rate (HostRates)
 * of requests a second at one RDAP server. A pause (a 429's `Retry-After`, or a circuit that opened in one
 * process) blocks the host for all of them.
 *
 * The limit is a fixed one-second window per host in Redis: at most the host's rate of requests
 * start in any window; requests over it wait in a FIFO queue (one per host and process) until
 * the next window, or until their deadline.
 */
export class SharedHostLimits {
  readonly #redis: Redis;
  readonly #rates: HostRates;
  readonly #keyPrefix: string;
  /** One limiter (and its queue) per rate in use; the window's key is the host either way. */
  readonly #byRate = new Map<number, { limiter: RateLimiterRedis; queue: RateLimiterQueue }>();

  constructor(redis: Redis, options: { rates: HostRates; keyPrefix?: string }) {
    this.#redis = redis;
    this.#rates = options.rates;
    this.#keyPrefix = options.keyPrefix ?? 'rdap-host';
  }

  #limiterOf(host: string): { limiter: RateLimiterRedis; queue: RateLimiterQueue } {
    const rate = this.#rates.of(host);
    let entry = this.#byRate.get(rate);
    if (!entry) {
      const limiter = new RateLimiterRedis({
        storeClient: this.#redis,
        keyPrefix: this.#keyPrefix,
        points: rate,
        duration: 1,
      });
      entry = { limiter, queue: new RateLimiterQueue(limiter) };
      this.#byRate.set(rate, entry);
    }
    return entry;
  }

  /** Waits for the host's next request slot; gives up with `rate_limited` at `deadline` (epoch ms). */
  async acquire(host: string, deadline: number): Promise<void> {
    const outOfTime = new UpstreamFailure('rate_limited', `No request slot for ${host} before the deadline.`);
    // The queue checks expiry only when it wakes up (after a pause that may outlast the deadline).
    const timer = new AbortController();
    const expired = sleep(Math.max(0, deadline - Date.now()), undefined, { signal: timer.signal, ref: false }).then(
      () => Promise.reject(outOfTime),
      () => {},
    );
    try {
      const { queue } = this.#limiterOf(host);
      await Promise.race([queue.removeTokens(1, host, Math.ceil(deadline / 1000)), expired]);
    } catch (error) {
      if (error instanceof Error && error.name === 'RateLimiterQueueError') throw outOfTime;
      throw error;
    } finally {
      timer.abort();
    }
  }

  /** Blocks the host for every process for `ms` (rounded up to whole seconds). */
  async pause(host: string, ms: number): Promise<void> {
    await this.#limiterOf(host).limiter.block(host, Math.max(1, Math.ceil(ms / 1000)));
  }
}
