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
 * Each RDAP host's effective rate: its configured rate (HostRates), lowered at its 429s and
 * raised back after quiet periods (adaptive-rate-state.ts), kept in `store` (this process's, or
 * Redis for every process). A store that cannot be reached leaves the last rate this process saw.
 */
export class AdaptiveRates {
  readonly #lastSeen = new Map<string, AdaptedRate>();

  constructor(
    private readonly options: {
      store: AdaptiveRateStore;
      rates: HostRates;
      clock: Clock;
      log?: RateChangeLog;
      onError?: (error: unknown) => void;
    },
  ) {}

  /** The host's rate now (a recovery step that fell due is applied, and logged, here). */
  current(host: string): Promise<AdaptedRate> {
    return this.#apply(host);
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
    try {
      const { before, after } = await store.apply(host, {
        now: clock.now(),
        configuredPerSecond,
        ...(throttledAtGeneration === undefined ? {} : { throttledAtGeneration }),
      });
      this.#lastSeen.set(host, after);
      const from = Math.min(before, configuredPerSecond);
      if (after.perSecond !== from) this.#logChange(host, from, after.perSecond);
      return after;
    } catch (error) {
      this.options.onError?.(error);
      return this.#lastSeen.get(host) ?? unadaptedRate(configuredPerSecond);
    }
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
