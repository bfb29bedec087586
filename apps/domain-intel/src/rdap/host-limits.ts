import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterQueue, RateLimiterRedis } from 'rate-limiter-flexible';
import type { AdaptiveRates } from './adaptive-rates.ts';
import type { RdapTraffic } from './types.ts';
import { UpstreamFailure } from './upstream-failure.ts';

/**
 * Every window holds this many points, whatever the rate: a request takes `WINDOW_POINTS / n`
 * of them (rounded down) where n requests fit the window, so one limiter (one counter per host)
 * serves every rate the host goes through as 429s lower it and quiet periods raise it, and
 * interactive and background requests count against the same window. floor(P / floor(P / n))
 * is n for every n up to √P (10,000 a window, the largest RDAP_HOST_RATES allows).
 */
const WINDOW_POINTS = 100_000_000;
/** Where the host's whole rate is counted (the key is the host: `rdap-host:<host>` in Redis). */
const HOST_KEY_PREFIX = 'rdap-host';
/** Where the background share is counted, per window length in seconds. */
const BACKGROUND_KEY_PREFIX = 'rdap-host-background';

type LimiterOf = (options: { keyPrefix: string; points: number; duration: number }) => RateLimiterAbstract;

/** A rate as whole requests per window of whole seconds, never above it (0.8/s: 1 per 2 s). */
export function windowOf(perSecond: number): { requests: number; seconds: number } {
  // The epsilon keeps a product like 30 × 0.9 = 26.999… at the whole number it means.
  const seconds = perSecond >= 1 ? 1 : Math.ceil(1 / perSecond - 1e-9);
  return { requests: Math.floor(perSecond * seconds + 1e-9), seconds };
}

/**
 * Per-host request limits (rate-limiter-flexible): fixed windows of the host's effective rate
 * (AdaptiveRates), in this process or shared by every process through Redis. Background work
 * (the pipeline's re-checks, the watchlist) may take at most `1 − interactiveShare` of the rate;
 * interactive lookups (/v1/check, /v1/whois, suggestions) may take all of it, so a purge run
 * never takes the share customers' calls are kept. When shared, a pause (a 429's `Retry-After`,
 * or a circuit that opened) blocks the host for every process.
 */
export class HostLimits {
  readonly #limiterOf: LimiterOf;
  readonly #adaptive: AdaptiveRates;
  readonly #interactiveShare: number;
  /** Whether `pause` blocks the host here: only to tell other processes (a lane's own cool-down and breaker hold in this one). */
  readonly #sharesPauses: boolean;
  /** One limiter per key prefix and window length; one FIFO queue per limiter and traffic. */
  readonly #limiters = new Map<string, { limiter: RateLimiterAbstract; queues: Map<RdapTraffic, RateLimiterQueue> }>();

  /** The limits of one process alone (no Redis). */
  static inProcess(adaptive: AdaptiveRates, interactiveShare: number): HostLimits {
    return new HostLimits((options) => new RateLimiterMemory(options), adaptive, interactiveShare, false);
  }

  /** The limits shared by every process using `redis`. */
  static shared(redis: Redis, adaptive: AdaptiveRates, interactiveShare: number): HostLimits {
    return new HostLimits(
      (options) => new RateLimiterRedis({ storeClient: redis, ...options }),
      adaptive,
      interactiveShare,
      true,
    );
  }

  private constructor(limiterOf: LimiterOf, adaptive: AdaptiveRates, interactiveShare: number, sharesPauses: boolean) {
    this.#limiterOf = limiterOf;
    this.#adaptive = adaptive;
    this.#interactiveShare = interactiveShare;
    this.#sharesPauses = sharesPauses;
  }

  /**
   * Background requests first take a slot of the background share (before they queue for the
   * host's connections, so waiting for it holds none); interactive ones pass at once.
   */
  async admit(host: string, traffic: RdapTraffic, deadline: number): Promise<void> {
    if (traffic === 'interactive' || this.#interactiveShare === 0) return;
    const { perSecond } = await this.#adaptive.current(host);
    await this.#take(BACKGROUND_KEY_PREFIX, windowOf(this.#backgroundShareOf(perSecond)), traffic, host, deadline);
  }

  /**
   * Waits for the host's next request slot at its effective rate, or gives up with
   * `rate_limited` at `deadline` (epoch ms). Returns the rate's generation, for `throttled`.
   */
  async acquire(host: string, traffic: RdapTraffic, deadline: number): Promise<number> {
    let rate = await this.#adaptive.current(host);
    for (;;) {
      await this.#take(HOST_KEY_PREFIX, windowOf(rate.perSecond), traffic, host, deadline);
      const now = await this.#adaptive.current(host);
      if (now.generation === rate.generation) return rate.generation;
      // A 429 lowered the rate while this request waited: its slot was counted at the old rate.
      rate = now;
    }
  }

  /** A 429 to a request that acquired its slot at `generation`: the host's rate goes down. */
  throttled(host: string, generation: number): Promise<void> {
    return this.#adaptive.throttled(host, generation);
  }

  /** Blocks the host for every other process for `ms` (rounded up to whole seconds). */
  async pause(host: string, ms: number): Promise<void> {
    if (!this.#sharesPauses) return;
    await this.#entry(HOST_KEY_PREFIX, 1).limiter.block(host, Math.max(1, Math.ceil(ms / 1000)));
  }

  /** Requests a second background work may start at the host now (what the purge plan counts on). */
  async backgroundPerSecond(host: string): Promise<number> {
    const { perSecond } = await this.#adaptive.current(host);
    const { requests, seconds } = windowOf(this.#backgroundShareOf(perSecond));
    return requests / seconds;
  }

  #backgroundShareOf(perSecond: number): number {
    return perSecond * (1 - this.#interactiveShare);
  }

  #entry(keyPrefix: string, seconds: number) {
    const name = seconds === 1 ? keyPrefix : `${keyPrefix}-${seconds}s`;
    let entry = this.#limiters.get(name);
    if (!entry) {
      const limiter = this.#limiterOf({ keyPrefix: name, points: WINDOW_POINTS, duration: seconds });
      entry = { limiter, queues: new Map() };
      this.#limiters.set(name, entry);
    }
    return entry;
  }

  async #take(
    keyPrefix: string,
    window: { requests: number; seconds: number },
    traffic: RdapTraffic,
    host: string,
    deadline: number,
  ): Promise<void> {
    const entry = this.#entry(keyPrefix, window.seconds);
    // Interactive and background requests queue apart, so a backlog of one never holds up the other.
    let queue = entry.queues.get(traffic);
    if (!queue) {
      queue = new RateLimiterQueue(entry.limiter);
      entry.queues.set(traffic, queue);
    }
    const weight = Math.floor(WINDOW_POINTS / Math.max(1, window.requests));
    const outOfTime = new UpstreamFailure('rate_limited', `No request slot for ${host} before the deadline.`);
    // The queue checks expiry only when it wakes up (after a pause that may outlast the deadline).
    const timer = new AbortController();
    const expired = sleep(Math.max(0, deadline - Date.now()), undefined, { signal: timer.signal, ref: false }).then(
      () => Promise.reject(outOfTime),
      () => {},
    );
    try {
      await Promise.race([queue.removeTokens(weight, host, Math.ceil(deadline / 1000)), expired]);
    } catch (error) {
      if (error instanceof Error && error.name === 'RateLimiterQueueError') throw outOfTime;
      throw error;
    } finally {
      timer.abort();
    }
  }
}
