import type { Clock } from '@repo/server-kit';
import { type AdaptedRate, type AdaptiveRateStore, unadaptedRate } from './adaptive-rate-state.ts';
import type { HostRates } from './host-rates.ts';

/** Where a change of a host's rate is told: one line per change, by the process that made it. */
export interface RateChangeLog {
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
}

/** A host's rate now against the one configured for it (for /metrics). */
export interface EffectiveRate {
  host: string;
  perSecond: number;
  configuredPerSecond: number;
}

/**
 * How long this process uses a host's rate it read from the store before reading it again (ms of
 * the service's clock). Every lookup needs the rate (twice for a background one); reading it from
 * Redis each time cost one to three script calls a lookup, more than the limiter's own call. A
 * quarter second keeps that to about four reads a second per host and process, while a decrease
 * another process made (its 429) reaches this one at most this much later: a few requests at the
 * old rate, which the registry's next 429s (if any) would lower again. A 429 this process sees
 * updates its own copy at once.
 */
export const RATE_READ_TTL_MS = 250;

/**
 * Each RDAP host's effective rate: its configured rate (HostRates), lowered at its 429s and
 * raised back after quiet periods (adaptive-rate-state.ts), kept in `store` (this process's, or
 * Redis for every process). A store that cannot be reached leaves the last rate this process saw.
 */
export class AdaptiveRates {
  readonly #lastSeen = new Map<string, AdaptedRate>();
  /** When (clock ms) each host's `#lastSeen` was read from the store; what `current` may reuse. */
  readonly #readAt = new Map<string, number>();
  /** A read of the store under way per host: concurrent lookups wait for the same one. */
  readonly #reading = new Map<string, Promise<AdaptedRate>>();

  constructor(
    private readonly options: {
      store: AdaptiveRateStore;
      rates: HostRates;
      clock: Clock;
      log?: RateChangeLog;
      onError?: (error: unknown) => void;
    },
  ) {}

  /**
   * The host's rate now: as read within the last RATE_READ_TTL_MS, else from the store (where a
   * recovery step that fell due is applied, and logged).
   */
  current(host: string): Promise<AdaptedRate> {
    const readAt = this.#readAt.get(host);
    const age = readAt === undefined ? Number.POSITIVE_INFINITY : this.options.clock.now() - readAt;
    const seen = this.#lastSeen.get(host);
    if (seen && age >= 0 && age < RATE_READ_TTL_MS) return Promise.resolve(seen);
    let reading = this.#reading.get(host);
    if (!reading) {
      reading = this.#apply(host).finally(() => this.#reading.delete(host));
      this.#reading.set(host, reading);
    }
    return reading;
  }

  /** A 429 to a request that started at `generation`: lowers the rate unless that event already did. */
  async throttled(host: string, generation: number): Promise<void> {
    await this.#apply(host, generation);
  }

  /** Every host this process used or the store has slowed, with its rate now. */
  async effectiveRates(): Promise<EffectiveRate[]> {
    const stored = await this.options.store.hosts().catch(() => []);
    const hosts = new Set([...this.#lastSeen.keys(), ...stored]);
    return Promise.all(
      [...hosts].map(async (host) => ({
        host,
        perSecond: (await this.current(host)).perSecond,
        configuredPerSecond: this.options.rates.of(host),
      })),
    );
  }

  async #apply(host: string, throttledAtGeneration?: number): Promise<AdaptedRate> {
    const { store, rates, clock } = this.options;
    const configuredPerSecond = rates.of(host);
    const now = clock.now();
    try {
      const { before, after } = await store.apply(host, {
        now,
        configuredPerSecond,
        ...(throttledAtGeneration === undefined ? {} : { throttledAtGeneration }),
      });
      this.#remember(host, after, now);
      const from = Math.min(before, configuredPerSecond);
      if (after.perSecond !== from) this.#logChange(host, from, after.perSecond);
      return after;
    } catch (error) {
      this.options.onError?.(error);
      return this.#lastSeen.get(host) ?? unadaptedRate(configuredPerSecond);
    }
  }

  /** Keeps `rate` unless a read that went out earlier came back later than a 429's decrease. */
  #remember(host: string, rate: AdaptedRate, readAt: number): void {
    const kept = this.#lastSeen.get(host);
    if (kept && kept.generation > rate.generation) return;
    this.#lastSeen.set(host, rate);
    this.#readAt.set(host, readAt);
  }

  #logChange(host: string, from: number, to: number): void {
    const { log, rates } = this.options;
    const fields = { host, from_per_second: from, to_per_second: to, configured_per_second: rates.of(host) };
    if (to < from) {
      log?.warn(fields, `RDAP rate: ${host} answered 429 Too Many Requests; its rate goes from ${from}/s to ${to}/s.`);
    } else {
      log?.info(fields, `RDAP rate: no 429 from ${host} for a while; its rate goes back up from ${from}/s to ${to}/s.`);
    }
  }
}
