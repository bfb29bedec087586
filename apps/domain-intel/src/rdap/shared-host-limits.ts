import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import { RateLimiterQueue, RateLimiterRedis } from 'rate-limiter-flexible';
import { UpstreamFailure } from './upstream-failure.ts';

/**
 * Per-host request limits shared by every process through Redis (rate-limiter-flexible), so
 * N API instances and M workers together never start more than `ratePerSecond` requests a
 * second at one RDAP server. A pause (a 429's `Retry-After`, or a circuit that opened in one
 * process) blocks the host for all of them.
 *
 * The limit is a fixed one-second window per host in Redis: at most `ratePerSecond` requests
 * start in any window; requests over it wait in a FIFO queue (one per host and process) until
 * the next window, or until their deadline.
 */
export class SharedHostLimits {
  readonly #limiter: RateLimiterRedis;
  readonly #queue: RateLimiterQueue;

  constructor(redis: Redis, options: { ratePerSecond: number; keyPrefix?: string }) {
    this.#limiter = new RateLimiterRedis({
      storeClient: redis,
      keyPrefix: options.keyPrefix ?? 'rdap-host',
      points: options.ratePerSecond,
      duration: 1,
    });
    this.#queue = new RateLimiterQueue(this.#limiter);
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
      await Promise.race([this.#queue.removeTokens(1, host, Math.ceil(deadline / 1000)), expired]);
    } catch (error) {
      if (error instanceof Error && error.name === 'RateLimiterQueueError') throw outOfTime;
      throw error;
    } finally {
      timer.abort();
    }
  }

  /** Blocks the host for every process for `ms` (rounded up to whole seconds). */
  async pause(host: string, ms: number): Promise<void> {
    await this.#limiter.block(host, Math.max(1, Math.ceil(ms / 1000)));
  }
}
