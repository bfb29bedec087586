import { type Clock, systemClock } from '@repo/server-kit';
import type { Redis } from 'ioredis';
import { type AdaptiveRateSettings, MemoryAdaptiveRateStore } from '../src/rdap/adaptive-rate-state.ts';
import { AdaptiveRates, type RateChangeLog } from '../src/rdap/adaptive-rates.ts';
import { HostLimits } from '../src/rdap/host-limits.ts';
import type { HostRates } from '../src/rdap/host-rates.ts';
import { RdapHttp } from '../src/rdap/http.ts';
import { RedisAdaptiveRateStore } from '../src/rdap/redis-adaptive-rate-store.ts';

export interface TestRdapHttpOptions {
  maxRetries: number;
  maxRetryWaitMs: number;
  hostConcurrency?: number;
  interactiveShare?: number;
  adaptive?: Partial<AdaptiveRateSettings>;
  clock?: Clock;
  log?: RateChangeLog;
}

/** A host's rate is lowered only by a 429 unless a test says otherwise: recovery never falls due in real time. */
const ADAPTIVE_DEFAULTS: AdaptiveRateSettings = { decreaseFactor: 0.5, minPerSecond: 1, recoveryMs: 3_600_000 };

/**
 * An RdapHttp as an API instance or worker builds it, its per-host limits and adapted rates
 * shared through `redis`: the shared-limit tests run several of these, in this process and in
 * child processes.
 */
export function sharedRdapHttp(redis: Redis, rates: HostRates, options: TestRdapHttpOptions) {
  const settings = { ...ADAPTIVE_DEFAULTS, ...options.adaptive };
  return rdapHttpWith(rates, options, new RedisAdaptiveRateStore(redis, settings), (adaptive, share) =>
    HostLimits.shared(redis, adaptive, share),
  );
}

/** The same for one process alone (no Redis). */
export function inProcessRdapHttp(rates: HostRates, options: TestRdapHttpOptions) {
  const settings = { ...ADAPTIVE_DEFAULTS, ...options.adaptive };
  return rdapHttpWith(rates, options, new MemoryAdaptiveRateStore(settings), HostLimits.inProcess);
}

function rdapHttpWith(
  rates: HostRates,
  options: TestRdapHttpOptions,
  store: MemoryAdaptiveRateStore | RedisAdaptiveRateStore,
  limitsOf: (adaptive: AdaptiveRates, interactiveShare: number) => HostLimits,
) {
  const adaptive = new AdaptiveRates({
    store,
    rates,
    clock: options.clock ?? systemClock,
    ...(options.log ? { log: options.log } : {}),
  });
  const limits = limitsOf(adaptive, options.interactiveShare ?? 0);
  const http = new RdapHttp({
    allowInsecure: true,
    connectTimeoutMs: 5_000,
    slowAfterMs: 10_000,
    maxResponseBytes: 1 << 20,
    hostConcurrency: options.hostConcurrency ?? 8,
    limits,
    maxRetries: options.maxRetries,
    maxRetryWaitMs: options.maxRetryWaitMs,
    maxCoolDownMs: 60_000,
    breaker: { errorThresholdPercentage: 50, volumeThreshold: 1000, resetTimeoutMs: 30_000 },
    userAgent: 'shared-limit-test',
  });
  return { http, adaptive, limits };
}
